// @engines sqlite postgres
// The /api campaign contract on a real SQLite database, through the route modules: launch and
// drafts, validation, tenant isolation, the delivery log with its filter and paging, the controls,
// delete, and the signed receipts endpoint.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, segmentTree, useTestConnection, useTestDatabase } from "../helpers/db";
import { type ApiJson, callRoute } from "../helpers/requests";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { getEnv } from "~/env.server";
import { deliveryId } from "~/lib/campaigns";
import { action as campaignsAction, loader as campaignsLoader } from "~/routes/api/campaigns";
import { action as campaignAction, loader as campaignLoader } from "~/routes/api/campaigns-id";
import { action as controlAction } from "~/routes/api/campaigns-id-control";
import { loader as logsLoader } from "~/routes/api/campaigns-id-logs";
import { action as receiptsAction } from "~/routes/api/webhooks-delivery-receipts";
import { signReceipts } from "~/services/sending/receipt-signature.server";
import { deliveryReceipts } from "~/models/deliveries/receipts/store.server";
import { seedTenant } from "~/services/seed.server";
import { createSegment } from "~/services/segments.server";
import { issueToken } from "~/services/token.server";
import { db } from "~/db/prisma.server";

type Json = ApiJson;

let auth: Record<string, string>;
let otherAuth: Record<string, string>;
let userId: string;
let segmentId: string;
let emptySegmentId: string;
let audience: number;

const tree = segmentTree;

const call = callRoute;

const post = (body: unknown, headers = auth) => ({
  method: "POST",
  headers: { ...headers, "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

beforeAll(async () => {
  const user = await createTestUser("Campaigner");
  const other = await createTestUser("Someone else");
  userId = user.id;
  auth = { Authorization: `Bearer ${await issueToken(user.id)}` };
  otherAuth = { Authorization: `Bearer ${await issueToken(other.id)}` };
  await seedTenant(user.id, { customers: 120, orders: 0, seed: 3 });
  const segment = await createSegment(user.id, {
    name: "Everyone",
    description: "",
    tree: tree({ visits: { $gte: 0 } }),
  });
  segmentId = segment.id;
  audience = segment.customerCount;
  emptySegmentId = (
    await createSegment(user.id, { name: "Nobody", description: "", tree: tree({ visits: { $gt: 1_000_000 } }) })
  ).id;
});

describe("POST /api/campaigns", () => {
  it("launches to the segment, counting the audience itself, and tells the user", async () => {
    const r = await call(
      campaignsAction,
      "/api/campaigns",
      post({
        name: "Diwali",
        subject: "Hi {NAME}",
        segmentId,
        message: "Hello {NAME}",
        audienceSize: 5,
        launchedAt: "2020-01-01T00:00:00Z",
      }),
    );
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      name: "Diwali",
      status: "Active",
      audienceSize: audience,
      segment: { id: segmentId, name: "Everyone" },
    });
    expect(r.body.deliveryStats).toMatchObject({ pending: audience, sent: 0, attempted: 0, successRate: "—" });
    expect(new Date(r.body.launchedAt as string).getFullYear()).toBeGreaterThan(2020);
    const notes = await db().notification.findMany({ where: { userId, type: "NEW_CAMPAIGN" } });
    expect(notes.map((n) => n.details)).toContain(`Campaign "Diwali" is being sent to ${audience} customers.`);
  });

  it("refuses bad input with the field named, an empty segment with a 422, another tenant's segment with a 404", async () => {
    const bad = await call(
      campaignsAction,
      "/api/campaigns",
      post({ name: " ", subject: "s", segmentId, message: "" }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error?.fields).toMatchObject({
      name: "Campaign name is required",
      message: "Message content is required",
    });
    const noSegment = await call(
      campaignsAction,
      "/api/campaigns",
      post({ name: "x", subject: "s", segmentId: "nope", message: "m" }),
    );
    expect(noSegment.body.error?.fields).toMatchObject({ segmentId: "Please select a target segment" });
    const empty = await call(
      campaignsAction,
      "/api/campaigns",
      post({ name: "x", subject: "s", segmentId: emptySegmentId, message: "m" }),
    );
    expect(empty.status).toBe(422);
    expect(empty.body.error?.message).toMatch(/no customers/);
    const foreign = await call(
      campaignsAction,
      "/api/campaigns",
      post({ name: "x", subject: "s", segmentId, message: "m" }, otherAuth),
    );
    expect(foreign.status).toBe(404);
    const notJson = await call(campaignsAction, "/api/campaigns", {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: "{",
    });
    expect(notJson.status).toBe(400);
  });

  it("saves a draft, changes it, then launches it under the same id", async () => {
    const draft = await call(
      campaignsAction,
      "/api/campaigns",
      post({ name: "Later", subject: "s", segmentId, message: "m", status: "Draft" }),
    );
    expect(draft.status).toBe(201);
    expect(draft.body).toMatchObject({ status: "Draft", audienceSize: audience, pendingCount: 0 });
    const id = draft.body.id as string;
    const changed = await call(campaignAction, `/api/campaigns/${id}`, {
      method: "PUT",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Later, edited", subject: "s", segmentId, message: "m2", status: "Draft" }),
      params: { id },
    });
    expect(changed.body.campaign).toMatchObject({ id, name: "Later, edited", message: "m2", status: "Draft" });
    const launched = await call(campaignAction, `/api/campaigns/${id}`, {
      method: "PUT",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Later, edited", subject: "s", segmentId, message: "m2" }),
      params: { id },
    });
    expect(launched.body.campaign).toMatchObject({
      id,
      status: "Active",
      audienceSize: audience,
      pendingCount: audience,
    });
    const again = await call(campaignAction, `/api/campaigns/${id}`, {
      method: "PUT",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "x", subject: "s", segmentId, message: "m", status: "Draft" }),
      params: { id },
    });
    expect(again.status).toBe(409);
  });
});

describe("reading campaigns", () => {
  it("lists newest first with paging; another tenant sees none and gets 404s", async () => {
    const all = await call(campaignsLoader, "/api/campaigns", { headers: auth });
    expect(all.status).toBe(200);
    expect(Array.isArray(all.body)).toBe(true);
    expect(all.headers.get("X-Total-Count")).toBe(String(all.body.length));
    const first = await call(campaignsLoader, "/api/campaigns?limit=1", { headers: auth });
    expect(first.body).toHaveLength(1);
    const cursor = first.headers.get("X-Next-Cursor");
    expect(cursor).toBe(first.body[0].id);
    const second = await call(campaignsLoader, `/api/campaigns?limit=1&cursor=${cursor}`, { headers: auth });
    expect(second.body[0].id).toBe(all.body[1].id);
    expect((await call(campaignsLoader, "/api/campaigns", { headers: otherAuth })).body).toEqual([]);
    const id = all.body[0].id as string;
    expect((await call(campaignLoader, `/api/campaigns/${id}`, { headers: otherAuth, params: { id } })).status).toBe(
      404,
    );
    expect((await call(campaignLoader, "/api/campaigns/new", { headers: auth, params: { id: "new" } })).status).toBe(
      404,
    );
    expect((await call(campaignsLoader, "/api/campaigns?limit=0", { headers: auth })).status).toBe(400);
  });

  it("gives the campaign with its first log page, and pages of the log by status", async () => {
    const launched = await call(
      campaignsAction,
      "/api/campaigns",
      post({ name: "Logs", subject: "s", segmentId, message: "Hi {NAME}" }),
    );
    const id = launched.body.id as string;
    const detail = await call(campaignLoader, `/api/campaigns/${id}`, { headers: auth, params: { id } });
    const campaign = detail.body.campaign as Json & { logs: Json[] };
    expect(campaign.logs).toHaveLength(Math.min(50, audience));
    expect(campaign.logs[0]).toMatchObject({ campaignId: id, status: "pending" });

    // Deliver two rows through receipts and read them back through the filter.
    const ids = campaign.logs.slice(0, 3).map((l) => l.id as string);
    const body = JSON.stringify({
      receipts: [
        { id: ids[0], event: "delivered", at: Date.now() },
        { id: ids[1], event: "bounced", at: Date.now(), details: "550 unknown user" },
        { id: ids[1], event: "delivered", at: Date.now() },
      ],
    });
    const signed = {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Signature": signReceipts(body, getEnv().receiptsSecret) },
      body,
    };
    // The endpoint queues them (202); the delivery job applies the queue on its own thread.
    const queued = await call(receiptsAction, "/api/webhooks/delivery-receipts", signed);
    expect(queued).toMatchObject({ status: 202, body: { accepted: 3 } });
    expect(await deliveryReceipts.applyQueuedReceipts(connection())).toEqual({ batches: 1, applied: 2, ignored: 1 });
    expect(
      (
        await call(receiptsAction, "/api/webhooks/delivery-receipts", {
          ...signed,
          headers: { ...signed.headers, "X-Signature": "sha256=00" },
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await call(receiptsAction, "/api/webhooks/delivery-receipts", {
          ...signed,
          body: body.replace("delivered", "clicked"),
        })
      ).status,
    ).toBe(401);
    // A signed body that is not a batch of receipts: a 400 naming the first problem (checked in the
    // worker thread), and nothing queued.
    const refused = async (raw: string) =>
      call(receiptsAction, "/api/webhooks/delivery-receipts", {
        method: "POST",
        headers: { "X-Signature": signReceipts(raw, getEnv().receiptsSecret) },
        body: raw,
      });
    const badEvent = await refused(JSON.stringify({ receipts: [{ id: ids[0], event: "exploded", at: 1 }] }));
    expect(badEvent.status).toBe(400);
    expect(badEvent.body).toMatchObject({
      error: { code: "bad_request", message: expect.stringMatching(/^receipts\.0\.event: event must be one of/) },
    });
    const notJson = await refused("{receipts");
    expect(notJson).toMatchObject({ status: 400, body: { error: { message: "The body is not JSON" } } });
    expect(await deliveryReceipts.applyQueuedReceipts(connection())).toEqual({ batches: 0, applied: 0, ignored: 0 });

    const bounced = await call(logsLoader, `/api/campaigns/${id}/logs?status=BOUNCED`, {
      headers: auth,
      params: { id },
    });
    expect(bounced.body.map((l) => l.id)).toEqual([ids[1]]);
    expect(bounced.body[0]).toMatchObject({ status: "bounced", details: "550 unknown user" });
    expect(bounced.headers.get("X-Total-Count")).toBe("1");
    const delivered = await call(logsLoader, `/api/campaigns/${id}/logs?status=delivered`, {
      headers: auth,
      params: { id },
    });
    expect(delivered.body.map((l) => l.id)).toEqual([ids[0]]);

    // Paging the whole log returns every row once, in send order.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await call(logsLoader, `/api/campaigns/${id}/logs?limit=7${cursor ? `&cursor=${cursor}` : ""}`, {
        headers: auth,
        params: { id },
      });
      seen.push(...page.body.map((l) => l.id as string));
      cursor = page.headers.get("X-Next-Cursor");
    } while (cursor);
    expect(seen).toHaveLength(audience);
    expect([...seen].sort()).toEqual(seen);
    const pendingPages: string[] = [];
    cursor = null;
    do {
      const page = await call(
        logsLoader,
        `/api/campaigns/${id}/logs?status=pending&limit=9${cursor ? `&cursor=${cursor}` : ""}`,
        { headers: auth, params: { id } },
      );
      pendingPages.push(...page.body.map((l) => l.id as string));
      cursor = page.headers.get("X-Next-Cursor");
    } while (cursor);
    expect(pendingPages).toHaveLength(audience - 2);
    expect(
      (await call(logsLoader, `/api/campaigns/${id}/logs?status=opened`, { headers: auth, params: { id } })).status,
    ).toBe(400);
    expect((await call(logsLoader, `/api/campaigns/${id}/logs`, { headers: otherAuth, params: { id } })).status).toBe(
      404,
    );
    expect(deliveryId(id, 1).startsWith(id.slice(0, 8))).toBe(true);
  });
});

describe("controls and delete", () => {
  it("pause, resume, cancel, retry failed say what happened; what the status forbids is a 409", async () => {
    const launched = await call(
      campaignsAction,
      "/api/campaigns",
      post({ name: "Controls", subject: "s", segmentId, message: "m" }),
    );
    const id = launched.body.id as string;
    const control = (name: string, headers = auth) =>
      call(controlAction, `/api/campaigns/${id}/${name}`, { method: "POST", headers, params: { id, control: name } });
    expect((await control("pause")).body).toMatchObject({ message: "Campaign paused", campaign: { status: "Paused" } });
    const twice = await control("pause");
    expect(twice.status).toBe(409);
    expect(twice.body.error?.message).toBe("Only a sending campaign can be paused; this one is paused.");
    expect((await control("resume")).body).toMatchObject({
      message: "Campaign resumed",
      campaign: { status: "Active" },
    });
    expect((await control("retry-failed")).body).toMatchObject({ message: "No failed deliveries to retry" });
    expect((await control("pause", otherAuth)).status).toBe(404);
    expect((await control("explode")).status).toBe(404);
    expect((await control("cancel")).body).toMatchObject({ campaign: { status: "Cancelled" } });
    expect((await control("resume")).status).toBe(409);

    const deleted = await call(campaignAction, `/api/campaigns/${id}`, {
      method: "DELETE",
      headers: auth,
      params: { id },
    });
    expect(deleted.body).toMatchObject({ success: true, message: `Campaign "Controls" deleted successfully.` });
    expect((await call(campaignLoader, `/api/campaigns/${id}`, { headers: auth, params: { id } })).status).toBe(404);
    expect(await db().delivery.count({ where: { campaignId: id } })).toBe(0);
  });
});
