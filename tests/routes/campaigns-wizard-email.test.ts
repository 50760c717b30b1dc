// @engines sqlite postgres
// The wizard's e-mail preview and reach, with a real session and database: the loader gives the
// tenant's sender and an example unsubscribe link for the preview of both parts; the Review step
// (rendered by the server, as without JavaScript, or asked from GET /campaigns/reach) says how many
// of the segment's customers a launch leaves out as suppressed.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, segmentTree, useTestDatabase } from "../helpers/db";
import { args, cookieFor, makeRequest } from "../helpers/requests";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();

import { getEnv } from "~/env.server";
import * as reachRoute from "~/routes/campaigns-reach";
import * as wizard from "~/routes/campaigns-wizard";
import { senderOf } from "~/services/email/sender.server";
import { seedTenant } from "~/services/seed.server";
import { createSegment, segmentOverview } from "~/services/segments.server";
import { addSuppressionsByHand } from "~/services/suppressions.server";

let cookie: string;
let userId: string;
let segmentId: string;
let otherSegmentId: string;

/** A thrown or returned data(...) as status and body; a Response as itself. */
async function settle(work: unknown): Promise<{ status: number; body: unknown }> {
  const value = await Promise.resolve(work).catch((thrown: unknown) => thrown);
  if (value instanceof Response) return { status: value.status, body: await value.text() };
  const d = value as { data: unknown; init?: { status?: number } | null };
  return { status: d.init?.status ?? 200, body: d.data };
}

function post(path: string, fields: Record<string, string>) {
  return makeRequest(path, {
    method: "POST",
    auth: { cookie },
    headers: { Origin: "http://localhost:3000", "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
}

const step = (n: number, intent = "continue") => ({
  name: "Diwali",
  segmentId,
  subject: "Diwali for {NAME}",
  message: "Hi {NAME}",
  description: "",
  step: String(n),
  intent,
});

type StepAnswer = { step: number; reach: { segmentId: string; audience: number; suppressed: number } | null };

beforeAll(async () => {
  const user = await createTestUser("Wizard mail user");
  userId = user.id;
  cookie = await cookieFor(userId);
  await seedTenant(userId, { customers: 12, orders: 0, seed: 7 });
  segmentId = (
    await createSegment(userId, { name: "All", description: "", tree: segmentTree({ visits: { $gte: 0 } }) })
  ).id;
  const other = await createTestUser("Someone else");
  otherSegmentId = (
    await createSegment(other.id, { name: "Theirs", description: "", tree: segmentTree({ visits: { $gte: 0 } }) })
  ).id;
});

describe("the wizard's e-mail preview", () => {
  it("gets the tenant's sender and an example unsubscribe link from the loader", async () => {
    const request = makeRequest(`/campaigns/new?segmentId=${segmentId}`, { auth: { cookie } });
    const loaded = (await wizard.loader(args(request))) as Awaited<ReturnType<typeof wizard.loader>>;
    expect(loaded.senderName).toBe((await senderOf(userId)).name);
    expect(loaded.senderName).not.toBe("");
    expect(loaded.exampleUnsubscribeUrl).toBe(`${getEnv().publicUrl}/u/example`);
    expect(loaded.reach).toEqual({ segmentId, audience: 12, suppressed: 0, receivers: 12 });
  });
});

describe("the Review step's reach", () => {
  it("says how many of the segment a launch leaves out, once one of its customers is suppressed", async () => {
    const [first] = (await segmentOverview(userId, segmentId)).customers;
    await addSuppressionsByHand(userId, [first.email]);

    // Without JavaScript: moving to the Review step answers with the reach; other steps without.
    const toReview = await settle(wizard.action(args(post("/campaigns/new", step(2)))));
    expect(toReview.status).toBe(200);
    const review = toReview.body as StepAnswer;
    expect(review.step).toBe(3);
    expect(review.reach).toEqual({ segmentId, audience: 12, suppressed: 1, receivers: 11 });
    const toMessage = (await settle(wizard.action(args(post("/campaigns/new", step(1)))))).body as StepAnswer;
    expect(toMessage.step).toBe(2);
    expect(toMessage.reach).toBeNull();

    // With JavaScript: asked from /campaigns/reach when the step is shown.
    const asked = await settle(
      reachRoute.loader(args(makeRequest(`/campaigns/reach?segmentId=${segmentId}`, { auth: { cookie } }))),
    );
    expect(asked).toEqual({ status: 200, body: { segmentId, audience: 12, suppressed: 1, receivers: 11 } });
  });

  it("answers 400 without a well-formed segment id, 404 for another user's segment, 405 for a write", async () => {
    for (const query of ["", "?segmentId=", "?segmentId=nope", "?segmentId=%00"]) {
      const res = await settle(reachRoute.loader(args(makeRequest(`/campaigns/reach${query}`, { auth: { cookie } }))));
      expect(res).toEqual({ status: 400, body: "Choose a segment to see who will receive the campaign." });
    }
    const theirs = await settle(
      reachRoute.loader(args(makeRequest(`/campaigns/reach?segmentId=${otherSegmentId}`, { auth: { cookie } }))),
    );
    expect(theirs).toEqual({ status: 404, body: "Segment not found" });
    const write = await settle(reachRoute.action(args(post(`/campaigns/reach?segmentId=${segmentId}`, {}))));
    expect(write.status).toBe(405);
  });
});
