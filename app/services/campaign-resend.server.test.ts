// @engines sqlite postgres
// "Resend to non-openers" on a real SQLite database with the real delivery engine and real
// receipts: a campaign is sent (some bounce, one is refused), some recipients open it as people,
// some only by machine, one clicks without an open, one unsubscribes and one is deleted after the
// send; the resend's audience is exactly the people who got it and did not open it, minus the
// suppressed, taken at launch; another tenant can neither resend it nor see the draft; /api answers
// 201, 404, 409 and 422 (docs/rules.md#resend-to-non-openers).
import { describe, expect, it } from "vitest";
import { createTestUser, segmentTree, useTestConnection, useTestDatabase } from "../../tests/helpers/db";
import { seededTenant } from "../../tests/helpers/seeded-tenants";
import { sendThrough } from "../../tests/helpers/campaign-send";
import { sqlRows, sqlRun, sqlValue } from "../../tests/helpers/sql";
import { callRoute } from "../../tests/helpers/requests";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { RESEND_MESSAGES, nonOpenersText } from "~/lib/campaign-resend";
import { audienceReachText, deliveryKey, launchedMessage } from "~/lib/campaigns";
import type { Receipt } from "~/models/deliveries/receipts/rows";
import { deliveryReceipts } from "~/models/deliveries/receipts/store.server";
import { suppressions } from "~/models/suppressions/store.server";
import { createResendDraft, resendOffer } from "~/services/campaign-resend.server";
import { deliveryLogs } from "~/services/campaigns/delivery-log.server";
import { saveDraft } from "~/services/campaigns/drafts.server";
import { launch, saveOrLaunchOnce } from "~/services/campaigns/launch.server";
import { resendReach } from "~/services/campaigns/reach.server";
import { getCampaign } from "~/services/campaigns/views.server";
import { deleteCustomer } from "~/services/customers.server";
import type { ChannelResult, DeliveryChannel, OutgoingMessage } from "~/services/sending/channel.server";
import { createSegment } from "~/services/segments.server";
import { issueToken } from "~/services/token.server";
import { action as resendAction } from "~/routes/api/campaigns-id-resend-non-openers";
import { action as campaignIdAction } from "~/routes/api/campaigns-id";

const everyone = segmentTree({ totalSpend: { $gte: 0 } });

type Row = { seq: number; email: string; customerId: string; status: string; retries: number };
const rowsOf = (campaignId: string) =>
  sqlRows<Row>(
    connection(),
    `SELECT "seq", "email", "customerId", "status", "retries" FROM "Delivery" WHERE "campaignId" = ? ORDER BY "seq"`,
    [campaignId],
  );
const statusOf = (id: string) => sqlValue<string>(connection(), `SELECT "status" FROM "Campaign" WHERE "id" = ?`, [id]);

/** Sends every active campaign with a channel that bounces or refuses the addresses named, accepts the rest. */
async function sendAll(id: string, outcome: (email: string) => "accepted" | "bounced" | "failed" = () => "accepted") {
  // Only this campaign sends: the others launched in this file are set aside.
  await sqlRun(connection(), `UPDATE "Campaign" SET "status" = 'Completed' WHERE "status" = 'Active' AND "id" <> ?`, [
    id,
  ]);
  const channel: DeliveryChannel = {
    name: "smtp",
    receipts: false,
    concurrency: 1,
    async send(batch: readonly OutgoingMessage[]): Promise<ChannelResult[]> {
      return batch.map((m) => {
        const status = outcome(m.to.email);
        return status === "accepted"
          ? { key: m.key, status, details: "250 OK" }
          : { key: m.key, status, details: status === "bounced" ? "550 5.1.1 No such user" : "554 5.7.1 Refused" };
      });
    },
    close: async () => {},
  };
  await sendThrough(connection(), id, channel, { batchSize: 50, concurrency: 1, idleMs: 5, retryBaseMs: 1 });
  expect(await statusOf(id)).toBe("Completed");
}

let eventNo = 0;
/** An open or click from this server's pixel or links, by a person or told apart as a machine. */
const engagement = (campaignId: string, r: Row, event: "opened" | "clicked", machine = false): Receipt => ({
  id: deliveryKey(campaignId, r.seq, r.retries),
  event,
  // A click within the scanner window of the delivery counts as a machine's: a person's comes later.
  at: Date.now() + (event === "clicked" && !machine ? 60_000 : 0),
  machine,
  source: event === "opened" ? "pixel" : "link",
  eventId: `e${++eventNo}`,
  ...(event === "clicked" ? { link: 0 } : {}),
});

describe("resend to non-openers", () => {
  let tenant: { id: string };
  let other: { id: string };
  let sourceId: string;
  let expected: string[];
  let draftId: string;
  let lateOpener: Row;

  it("targets exactly the people who got it and did not open it, minus the suppressed and the deleted", async () => {
    tenant = await seededTenant("Resending sender", 24, 81);
    other = await seededTenant("Other tenant", 5, 82);
    const segment = await createSegment(tenant.id, { name: "Everyone", description: "", tree: everyone });
    const source = await launch(tenant.id, {
      name: "Diwali sale",
      subject: "Diwali: 20% off, {NAME}",
      description: "",
      message: "Hi {NAME}, our Diwali sale is on.",
      segmentId: segment.id,
    });
    sourceId = source.id;
    const launched = await rowsOf(sourceId);
    expect(launched).toHaveLength(24);
    const emails = launched.map((r) => r.email);
    // Two unknown mailboxes bounce, one address is refused: none of them got it.
    const bounced = emails.slice(0, 2);
    const refused = emails[2];
    await sendAll(sourceId, (email) =>
      bounced.includes(email) ? "bounced" : email === refused ? "failed" : "accepted",
    );
    const rows = await rowsOf(sourceId);
    expect(rows.filter((r) => r.status === "delivered")).toHaveLength(21);

    // Delivered: 3..23. People open 3..6 (5 also opened by a proxy first); 7 clicks without an
    // open (the pixel was blocked); 8..10 are opened only by machines; a machine click on 11.
    const got = rows.slice(3);
    await deliveryReceipts.applyReceipts(connection(), [
      engagement(sourceId, got[2], "opened", true),
      ...got.slice(0, 4).map((r) => engagement(sourceId, r, "opened")),
      engagement(sourceId, got[4], "clicked"),
      ...got.slice(5, 8).map((r) => engagement(sourceId, r, "opened", true)),
      engagement(sourceId, got[8], "clicked", true),
    ]);
    const afterReceipts = await getCampaign(tenant.id, sourceId);
    // A person's click counts as their open too (the pixel was blocked, the message was read).
    expect(afterReceipts.openedCount).toBe(5);
    expect(afterReceipts.machineOpenCount).toBe(4);

    // After the send: one non-opener unsubscribes, one is deleted.
    const unsubscribed = got[9];
    const deleted = got[10];
    await suppressions.addSuppressions(tenant.id, [
      { email: unsubscribed.email, reason: "unsubscribed", campaignId: sourceId, campaignName: "Diwali sale" },
    ]);
    await deleteCustomer(tenant.id, deleted.customerId);

    // Non-openers: 21 got it, 5 opened or clicked as people, 1 deleted: 15, one of them suppressed.
    const nonOpeners = got.slice(5).filter((r) => r !== deleted);
    expect(nonOpeners).toHaveLength(15);
    expected = nonOpeners.filter((r) => r !== unsubscribed).map((r) => r.email);
    expect(await resendReach(tenant.id, sourceId)).toEqual({ audience: 15, suppressed: 1, receivers: 14 });
    const offer = await resendOffer(tenant.id, await getCampaign(tenant.id, sourceId));
    expect(offer).toEqual({
      kind: "offer",
      audience: 15,
      suppressed: 1,
      receivers: 14,
      subject: "Diwali: 20% off, {NAME}",
    });
    expect(nonOpenersText(15, "Diwali sale")).toBe("15 non-openers of 'Diwali sale'");
    expect(audienceReachText({ audience: 15, suppressed: 1, receivers: 14 })).toBe(
      "14 of 15 will receive it; 1 suppressed",
    );

    const draft = await createResendDraft(tenant.id, sourceId, { subject: "Last chance: Diwali 20% off" });
    draftId = draft.id;
    expect(draft).toMatchObject({
      name: "Diwali sale — non-openers",
      subject: "Last chance: Diwali 20% off",
      message: "Hi {NAME}, our Diwali sale is on.",
      status: "Draft",
      segmentId: null,
      segment: { name: 'Non-openers of "Diwali sale"' },
      audienceSize: 15,
      resendOfId: sourceId,
      trackingEnabled: true,
    });
    lateOpener = nonOpeners[0];
  }, 60_000);

  it("takes the audience at launch: who opens between the draft and the launch is left out", async () => {
    await deliveryReceipts.applyReceipts(connection(), [engagement(sourceId, lateOpener, "opened")]);
    expected = expected.filter((e) => e !== lateOpener.email);
    // Edited and saved in the wizard (its form has no segment for a resend), then launched from it.
    const content = {
      name: "Diwali sale — non-openers",
      segmentId: "",
      subject: "Last chance: Diwali 20% off",
      message: "Hi {NAME}, the sale ends tonight.",
      description: "",
    };
    const saved = await saveDraft(tenant.id, content, { editing: draftId });
    expect(saved).toMatchObject({
      audienceSize: 14,
      resendOfId: sourceId,
      segment: { name: 'Non-openers of "Diwali sale"' },
    });
    const { campaign } = await saveOrLaunchOnce(
      tenant.id,
      { status: "Active", content, editing: draftId },
      { key: "launch-key-1", scope: `wizard:${draftId}`, mismatch: "reused" },
    );
    expect(campaign).toMatchObject({ id: draftId, status: "Active", audienceSize: 13, suppressedAtLaunch: 1 });
    expect(launchedMessage(campaign)).toBe("Campaign launched: 13 of 14 will receive it; 1 suppressed");
    expect((await rowsOf(draftId)).map((r) => r.email).sort()).toEqual([...expected].sort());
    const log = await deliveryLogs(tenant.id, draftId, { limit: 100 });
    expect(log.total).toBe(13);
    expect(log.logs.map((l) => l.customer.email).sort()).toEqual([...expected].sort());

    // It sends like any other, and the source keeps its own log.
    await sendAll(draftId);
    expect((await getCampaign(tenant.id, draftId)).deliveryStats.delivered).toBe(13);
    expect(await rowsOf(sourceId)).toHaveLength(24);
  }, 60_000);

  it("another tenant can neither resend the campaign nor see the draft", async () => {
    await expect(createResendDraft(other.id, sourceId, { subject: "Mine now" })).rejects.toMatchObject({ status: 404 });
    await expect(getCampaign(other.id, draftId)).rejects.toMatchObject({ status: 404 });
    expect(await resendReach(other.id, sourceId)).toEqual({ audience: 0, suppressed: 0, receivers: 0 });
  });

  it("is offered only on a completed campaign, and not when nobody is left", async () => {
    const sender = await seededTenant("Everyone opened", 4, 83);
    const segment = await createSegment(sender.id, { name: "All four", description: "", tree: everyone });
    const content = { name: "Small send", subject: "Hi", description: "", message: "Hi {NAME}", segmentId: segment.id };
    const draft = await saveDraft(sender.id, content);
    expect(await resendOffer(sender.id, draft)).toEqual({ kind: "hidden" });
    await expect(createResendDraft(sender.id, draft.id, { subject: "Again" })).rejects.toMatchObject({
      status: 409,
      message: "Only a completed campaign can be resent to its non-openers; this one is draft.",
    });
    const sent = await launch(sender.id, content);
    expect(await resendOffer(sender.id, sent)).toEqual({ kind: "hidden" });
    await expect(createResendDraft(sender.id, sent.id, { subject: "Again" })).rejects.toMatchObject({ status: 409 });
    await sendAll(sent.id);
    // Three open; the fourth is suppressed: nobody a resend could reach.
    const rows = await rowsOf(sent.id);
    await deliveryReceipts.applyReceipts(
      connection(),
      rows.slice(0, 3).map((r) => engagement(sent.id, r, "opened")),
    );
    await suppressions.addSuppressions(sender.id, [{ email: rows[3].email, reason: "manual" }]);
    const completed = await getCampaign(sender.id, sent.id);
    expect(await resendOffer(sender.id, completed)).toEqual({ kind: "nobody", reason: RESEND_MESSAGES.allSuppressed });
    await expect(createResendDraft(sender.id, sent.id, { subject: "Again" })).rejects.toMatchObject({
      status: 422,
      message: RESEND_MESSAGES.allSuppressed,
    });
    await deliveryReceipts.applyReceipts(connection(), [engagement(sent.id, rows[3], "opened")]);
    expect(await resendOffer(sender.id, completed)).toEqual({ kind: "nobody", reason: RESEND_MESSAGES.nobodyLeft });
  }, 60_000);
});

describe("POST /api/campaigns/{id}/resend-non-openers", () => {
  const post = async (userId: string, id: string, body: unknown) =>
    callRoute(resendAction, `/api/campaigns/${id}/resend-non-openers`, {
      method: "POST",
      headers: { Authorization: `Bearer ${await issueToken(userId)}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
      params: { id },
    });

  it("answers 201 with the draft, 400 without a subject, 404 for another tenant's, 409 and 422; PUT launches it", async () => {
    const sender = await seededTenant("API resender", 6, 84);
    const stranger = await createTestUser("API stranger");
    const segment = await createSegment(sender.id, { name: "All six", description: "", tree: everyone });
    const content = {
      name: "API send",
      subject: "Hello",
      description: "",
      message: "Hi {NAME}",
      segmentId: segment.id,
    };
    const active = await launch(sender.id, content);
    const conflict = await post(sender.id, active.id, { subject: "Again" });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error?.message).toBe(
      "Only a completed campaign can be resent to its non-openers; this one is active.",
    );
    await sendAll(active.id);
    const rows = await rowsOf(active.id);
    await deliveryReceipts.applyReceipts(connection(), [
      engagement(active.id, rows[0], "opened"),
      engagement(active.id, rows[1], "opened", true),
    ]);

    expect((await post(sender.id, active.id, { subject: "  " })).status).toBe(400);
    expect((await post(stranger.id, active.id, { subject: "Again" })).status).toBe(404);
    expect((await post(sender.id, "0123456789abcdef01234567", { subject: "Again" })).status).toBe(404);
    expect((await post(sender.id, "not-an-id", { subject: "Again" })).status).toBe(404);

    const created = await post(sender.id, active.id, { subject: "Did you miss it?", name: "API resend" });
    expect(created.status).toBe(201);
    expect(created.headers.get("Location")).toBe(`/api/campaigns/${created.body.id}`);
    expect(created.body).toMatchObject({
      name: "API resend",
      subject: "Did you miss it?",
      message: "Hi {NAME}",
      status: "Draft",
      audienceSize: 5,
      resendOfId: active.id,
    });

    // Launched through PUT /api/campaigns/{id} without a segment: to the five non-openers.
    const id = String(created.body.id);
    const put = await callRoute(campaignIdAction, `/api/campaigns/${id}`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${await issueToken(sender.id)}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "API resend", subject: "Did you miss it?", message: "Hi {NAME}", status: "Active" }),
      params: { id },
    });
    expect(put.status).toBe(200);
    expect((put.body.campaign as { audienceSize: number; status: string }).audienceSize).toBe(5);
    expect((await rowsOf(id)).map((r) => r.email).sort()).toEqual(
      rows
        .slice(1)
        .map((r) => r.email)
        .sort(),
    );

    // Everyone opens: nobody left (422).
    await deliveryReceipts.applyReceipts(
      connection(),
      rows.slice(1).map((r) => engagement(active.id, r, "opened")),
    );
    const none = await post(sender.id, active.id, { subject: "Again" });
    expect(none.status).toBe(422);
    expect(none.body.error?.message).toBe(RESEND_MESSAGES.nobodyLeft);
  }, 60_000);
});
