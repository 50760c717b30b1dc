// @engines sqlite postgres
// The per-campaign tracking switch (docs/rules.md#opens-and-clicks): the wizard's "Track opens and
// clicks" checkbox as a browser without JavaScript sends it (ticked: "on"; unticked: absent), kept
// across steps and in a draft, and said on the review step; POST /api/campaigns' trackingEnabled,
// on unless false, anything but a boolean a 400.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, segmentTree, useTestDatabase as setUpTestDatabase } from "../helpers/db";
import { callRoute } from "../helpers/requests";

setUpTestDatabase();

const { db } = await import("~/db/prisma.server");
const wizard = await import("~/routes/campaigns-wizard");
const api = await import("~/routes/api/campaigns");
const { seedTenant } = await import("~/services/seed.server");
const { createSegment } = await import("~/services/segments.server");
const { signInAndRedirect } = await import("~/services/session.server");
const { issueToken } = await import("~/services/token.server");

const BASE = "http://localhost:3000";
let cookie: string;
let userId: string;
let segmentId: string;
let bearer: Record<string, string>;

beforeAll(async () => {
  const user = await createTestUser("Tracking switch");
  userId = user.id;
  const res = await signInAndRedirect(new Request(`${BASE}/login`), user.id, "/");
  cookie = (res.headers.get("Set-Cookie") ?? "").split(";")[0];
  bearer = { Authorization: `Bearer ${await issueToken(user.id)}` };
  await seedTenant(user.id, { customers: 5, orders: 0, seed: 7 });
  segmentId = (
    await createSegment(userId, { name: "All", description: "", tree: segmentTree({ visits: { $gte: 0 } }) })
  ).id;
});

const post = (fields: Record<string, string>, path = "/campaigns/new") =>
  new Request(`${BASE}${path}`, {
    method: "POST",
    headers: { Cookie: cookie, Origin: BASE, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
const args = (request: Request, params: Record<string, string> = {}) => ({ request, params, context: {} });
const form = (name: string, extra: Record<string, string> = {}) => ({
  name,
  segmentId,
  subject: "Hello {NAME}",
  message: "Hi {NAME}, see https://shop.example/sale",
  description: "",
  step: "3",
  intent: "launch",
  ...extra,
});
const tracking = async (name: string) =>
  (await db().campaign.findFirstOrThrow({ where: { userId, name } })).trackingEnabled;

describe("the wizard's checkbox", () => {
  it("is ticked for a new campaign", async () => {
    const data = await wizard.loader(args(new Request(`${BASE}/campaigns/new`, { headers: { Cookie: cookie } })));
    expect(data.values.trackingEnabled).toBe(true);
  });

  it("ticked launches a tracked campaign; unticked (absent from the form) one that is not", async () => {
    expect(((await wizard.action(args(post(form("Tracked", { trackingEnabled: "on" }))))) as Response).status).toBe(
      302,
    );
    expect(((await wizard.action(args(post(form("Not tracked"))))) as Response).status).toBe(302);
    expect(await tracking("Tracked")).toBe(true);
    expect(await tracking("Not tracked")).toBe(false);
  });

  it("is kept across a step without JavaScript and in a draft, and the draft's edit page shows it", async () => {
    const step = (await wizard.action(args(post(form("Step", { step: "2", intent: "continue" }))))) as {
      data: { step: number; result: { initialValue: Record<string, unknown> | null } };
    };
    expect(step.data.step).toBe(3);
    expect(step.data.result.initialValue?.trackingEnabled).toBeUndefined();
    const ticked = (await wizard.action(
      args(post(form("Step", { step: "2", intent: "continue", trackingEnabled: "on" }))),
    )) as { data: { result: { initialValue: Record<string, unknown> | null } } };
    expect(ticked.data.result.initialValue?.trackingEnabled).toBe("on");

    await wizard.action(args(post(form("Draft off", { intent: "draft" }))));
    const draft = await db().campaign.findFirstOrThrow({ where: { userId, name: "Draft off" } });
    expect(draft).toMatchObject({ status: "Draft", trackingEnabled: false });
    const edit = await wizard.loader(
      args(new Request(`${BASE}/campaigns/edit/${draft.id}`, { headers: { Cookie: cookie } }), { id: draft.id }),
    );
    expect(edit.values.trackingEnabled).toBe(false);
  });
});

describe("POST /api/campaigns trackingEnabled", () => {
  const create = (body: Record<string, unknown>) =>
    callRoute(api.action, "/api/campaigns", {
      method: "POST",
      headers: { ...bearer, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "API", subject: "Hi", message: "Hi {NAME}", segmentId, ...body }),
    });

  it("is on unless false, and answered in the campaign", async () => {
    const on = await create({ name: "API default" });
    expect(on.status).toBe(201);
    expect(on.body.trackingEnabled).toBe(true);
    const off = await create({ name: "API off", trackingEnabled: false, status: "Draft" });
    expect(off.status).toBe(201);
    expect(off.body.trackingEnabled).toBe(false);
    expect(await tracking("API off")).toBe(false);
  });

  it("refuses anything but a boolean with a 400 naming the field", async () => {
    const bad = await create({ name: "API bad", trackingEnabled: "yes" });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.fields?.trackingEnabled).toBe("trackingEnabled must be true or false");
    expect(await db().campaign.count({ where: { userId, name: "API bad" } })).toBe(0);
  });
});
