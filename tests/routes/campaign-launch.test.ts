// @engines sqlite postgres
// One launch is one send, on a real SQLite database through the service and the /api route modules:
// concurrent launches of one draft (one wins, the others are 409s, never a 500), a launch of
// anything but a draft is a 409 that says so, and POST /api/campaigns' Idempotency-Key (the same
// key and body answer the same campaign, another body is a 422, keys are per tenant and kept 24 h,
// a failed request gives its key back).
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, segmentTree, useTestDatabase } from "../helpers/db";
import { callRoute } from "../helpers/requests";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();

import { db } from "~/db/prisma.server";
import { ApiError } from "~/lib/api.server";
import { action as campaignsAction } from "~/routes/api/campaigns";
import { action as campaignAction } from "~/routes/api/campaigns-id";
import { saveDraft } from "~/services/campaigns/drafts.server";
import { launch } from "~/services/campaigns/launch.server";
import { seedTenant } from "~/services/seed.server";
import { createSegment } from "~/services/segments.server";
import { issueToken } from "~/services/token.server";

let userId: string;
let otherId: string;
let auth: Record<string, string>;
let otherAuth: Record<string, string>;
let segmentId: string;
let otherSegmentId: string;
let emptySegmentId: string;
let audience: number;

const BEING_LAUNCHED = "This campaign is being launched already.";

const tree = segmentTree;

const call = callRoute;

const json = (method: string, body: unknown, headers: Record<string, string> = auth) => ({
  method,
  headers: { ...headers, "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

const content = (name: string, segment = segmentId) => ({
  name,
  subject: `${name} for {NAME}`,
  segmentId: segment,
  message: "Hi {NAME}, something for you.",
  description: "",
});

async function campaignsNamed(name: string, user = userId) {
  return db().campaign.findMany({ where: { userId: user, name } });
}
async function deliveriesOf(campaignId: string) {
  return db().delivery.count({ where: { campaignId } });
}

beforeAll(async () => {
  const user = await createTestUser("Launcher");
  const other = await createTestUser("Another launcher");
  userId = user.id;
  otherId = other.id;
  auth = { Authorization: `Bearer ${await issueToken(user.id)}` };
  otherAuth = { Authorization: `Bearer ${await issueToken(other.id)}` };
  await seedTenant(user.id, { customers: 40, orders: 0, seed: 7 });
  await seedTenant(other.id, { customers: 12, orders: 0, seed: 8 });
  const everyone = await createSegment(user.id, {
    name: "Everyone",
    description: "",
    tree: tree({ visits: { $gte: 0 } }),
  });
  segmentId = everyone.id;
  audience = everyone.customerCount;
  emptySegmentId = (
    await createSegment(user.id, { name: "Nobody", description: "", tree: tree({ visits: { $gt: 1_000_000 } }) })
  ).id;
  otherSegmentId = (
    await createSegment(other.id, { name: "Theirs", description: "", tree: tree({ visits: { $gte: 0 } }) })
  ).id;
  expect(audience).toBeGreaterThan(0);
});

describe("concurrent launches of one draft", () => {
  it("through the service: one launches it, nine are 409s, and its audience is written once", async () => {
    const draft = await saveDraft(userId, content("Ten at once, service"));
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => launch(userId, content("Ten at once, service"), { draftId: draft.id })),
    );
    const launched = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(launched).toHaveLength(1);
    expect(refused).toHaveLength(9);
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(ApiError);
      expect((r.reason as ApiError).status).toBe(409);
      expect((r.reason as ApiError).message).toMatch(/^This campaign is being launched already\.$|^Only a draft/);
    }
    expect(refused.some((r) => (r.reason as ApiError).message === BEING_LAUNCHED)).toBe(true);
    expect(await campaignsNamed("Ten at once, service")).toHaveLength(1);
    expect(await deliveriesOf(draft.id)).toBe(audience);
  });

  it("through PUT /api/campaigns/{id}: one 200, nine 409s, never a 500, never a copy", async () => {
    const draft = await call(
      campaignsAction,
      "/api/campaigns",
      json("POST", { ...content("Ten at once, api"), status: "Draft" }),
    );
    const id = draft.body.id as string;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(campaignAction, `/api/campaigns/${id}`, { ...json("PUT", content("Ten at once, api")), params: { id } }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    for (const a of answers.filter((x) => x.status === 409)) {
      expect(a.body.error).toMatchObject({ code: "conflict" });
      expect(a.body.error?.message).toMatch(/^This campaign is being launched already\.$|^Only a draft/);
    }
    expect(await campaignsNamed("Ten at once, api")).toHaveLength(1);
    expect(await deliveriesOf(id)).toBe(audience);
  });

  it("a launch of a campaign that is no longer a draft is a 409 that says so, and sends nothing", async () => {
    const first = await call(campaignsAction, "/api/campaigns", json("POST", content("Launched once")));
    expect(first.status).toBe(201);
    const id = first.body.id as string;
    const again = await call(campaignAction, `/api/campaigns/${id}`, {
      ...json("PUT", content("Launched once")),
      params: { id },
    });
    expect(again.status).toBe(409);
    expect(again.body.error?.message).toBe(
      "Only a draft can be launched; this campaign is active. Create a new campaign to send it again.",
    );
    expect(await campaignsNamed("Launched once")).toHaveLength(1);
    expect(await deliveriesOf(id)).toBe(audience);
    await expect(launch(userId, content("Launched once"), { draftId: id })).rejects.toMatchObject({ status: 409 });
  });
});

describe("POST /api/campaigns with an Idempotency-Key", () => {
  it("answers the same campaign to the same key and body, however often and however concurrently", async () => {
    const body = content("Keyed launch");
    const headers = { ...auth, "Idempotency-Key": "launch-2026-11-25-0001" };
    const first = await call(campaignsAction, "/api/campaigns", json("POST", body, headers));
    expect(first.status).toBe(201);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    const id = first.body.id as string;
    const repeats = await Promise.all(
      Array.from({ length: 5 }, () => call(campaignsAction, "/api/campaigns", json("POST", body, headers))),
    );
    for (const r of repeats) {
      expect(r.status).toBe(201);
      expect(r.body.id).toBe(id);
      expect(r.headers.get("Idempotent-Replayed")).toBe("true");
      expect(r.headers.get("Location")).toBe(`/api/campaigns/${id}`);
    }
    expect(await campaignsNamed("Keyed launch")).toHaveLength(1);
    expect(await deliveriesOf(id)).toBe(audience);
  });

  it("makes one campaign when the first requests with a key all arrive at once", async () => {
    const body = content("Keyed, all at once");
    const headers = { ...auth, "Idempotency-Key": "all-at-once" };
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => call(campaignsAction, "/api/campaigns", json("POST", body, headers))),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get("Idempotent-Replayed") === "true")).toHaveLength(7);
    const [campaign] = await campaignsNamed("Keyed, all at once");
    expect(await deliveriesOf(campaign.id)).toBe(audience);
    expect(await campaignsNamed("Keyed, all at once")).toHaveLength(1);
  });

  it("refuses the same key with another body (422, clearly), and a malformed key (400)", async () => {
    const headers = { ...auth, "Idempotency-Key": "one-key-two-bodies" };
    const first = await call(campaignsAction, "/api/campaigns", json("POST", content("First body"), headers));
    expect(first.status).toBe(201);
    const other = await call(campaignsAction, "/api/campaigns", json("POST", content("Second body"), headers));
    expect(other.status).toBe(422);
    expect(other.body.error).toMatchObject({
      code: "unprocessable",
      message:
        "This Idempotency-Key was already used with a different request. Send a new key to create another campaign.",
    });
    const asDraft = await call(
      campaignsAction,
      "/api/campaigns",
      json("POST", { ...content("First body"), status: "Draft" }, headers),
    );
    expect(asDraft.status).toBe(422);
    expect(await campaignsNamed("Second body")).toHaveLength(0);

    for (const bad of ["with spaces", "x".repeat(256), "naïve"]) {
      const r = await call(
        campaignsAction,
        "/api/campaigns",
        json("POST", content("Bad key"), { ...auth, "Idempotency-Key": bad }),
      );
      expect(r.status).toBe(400);
      expect(r.body.error?.fields?.["Idempotency-Key"]).toBe(
        "1 to 255 visible characters (letters, digits, punctuation), no spaces",
      );
    }
    expect(await campaignsNamed("Bad key")).toHaveLength(0);
  });

  it("keeps keys per tenant, gives a failed request's key back, and forgets a key after 24 hours", async () => {
    const key = "shared-by-two-tenants";
    const mine = await call(
      campaignsAction,
      "/api/campaigns",
      json("POST", content("Tenant key"), { ...auth, "Idempotency-Key": key }),
    );
    const theirs = await call(
      campaignsAction,
      "/api/campaigns",
      json("POST", content("Tenant key", otherSegmentId), { ...otherAuth, "Idempotency-Key": key }),
    );
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(await campaignsNamed("Tenant key", otherId)).toHaveLength(1);

    // A refused launch (nobody in the segment) keeps nothing: the key can be used again.
    const retried = { ...auth, "Idempotency-Key": "refused-then-retried" };
    const refused = await call(
      campaignsAction,
      "/api/campaigns",
      json("POST", content("Retried", emptySegmentId), retried),
    );
    expect(refused.status).toBe(422);
    const fixed = await call(campaignsAction, "/api/campaigns", json("POST", content("Retried"), retried));
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get("Idempotent-Replayed")).toBeNull();

    // A day later the key is forgotten: the same request is a new campaign.
    await db().idempotencyKey.updateMany({
      where: { userId, key },
      data: { createdAt: new Date(Date.now() - 24 * 3_600_000 - 1000) },
    });
    const later = await call(
      campaignsAction,
      "/api/campaigns",
      json("POST", content("Tenant key"), { ...auth, "Idempotency-Key": key }),
    );
    expect(later.status).toBe(201);
    expect(later.body.id).not.toBe(mine.body.id);
    expect(await db().idempotencyKey.count({ where: { userId, key } })).toBe(1);
  });

  it("saves one draft for a repeated draft request", async () => {
    const headers = { ...auth, "Idempotency-Key": "draft-twice" };
    const body = { ...content("Keyed draft"), status: "Draft" };
    const [a, b] = await Promise.all([
      call(campaignsAction, "/api/campaigns", json("POST", body, headers)),
      call(campaignsAction, "/api/campaigns", json("POST", body, headers)),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.id).toBe(b.body.id);
    expect(a.body.status).toBe("Draft");
    expect(await campaignsNamed("Keyed draft")).toHaveLength(1);
  });
});
