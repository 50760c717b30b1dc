// @engines sqlite postgres
// The delivery rows on a real database (SQLite, and PostgreSQL in its project), as the delivery
// engine (engine.server.ts) uses them: the launch snapshot (whole and in slices), claims and leases,
// outcomes, receipts and their inbox, and the campaign controls. The engine sending whole
// campaigns: engine.server.test.ts.
import { threadId } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { useTestConnection, useTestDatabase } from "../../../tests/helpers/db";
import { conditionsTree as tree, everyone } from "../../../tests/helpers/campaign-launch";
import { sendingTenants } from "../../../tests/helpers/seeded-tenants";
import { sqlRun, sqlValue } from "../../../tests/helpers/sql";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { closeConnection, openConnection } from "~/db/connection.server";
import { deliveryId } from "~/lib/campaigns";
import { newId } from "~/lib/id";
import { campaigns } from "~/models/campaigns/store.server";
import { deliveryClaims } from "~/models/deliveries/claims/store.server";
import { LAUNCH_INTERRUPTED, LAUNCHING } from "~/models/launch/rows";
import { launches } from "~/models/launch/store.server";
import { deliveryReceipts } from "~/models/deliveries/receipts/store.server";
import type { Receipt } from "~/models/deliveries/receipts/rows";
import { launchCampaignOffThread, offThreadJobThreads } from "~/services/background-work.server";
import { segmentAudience } from "~/models/segments/audience/store.server";

const { tenant, other, campaign, rows, expectCountersAddUp, launch } = sendingTenants(connection);

describe("launch", () => {
  it("freezes the segment's audience as one pending row per customer, the tenant's only", async () => {
    const rich = tree({ totalSpend: { $gt: 20000 } });
    const expected = await segmentAudience.sqlAudienceCount(tenant.id, rich);
    expect(expected).toBeGreaterThan(0);
    const { id, size } = await launch(tenant.id, rich);
    expect(size).toBe(expected);
    const all = await rows(id);
    expect(all).toHaveLength(expected);
    expect(new Set(all.map((r) => r.customerId)).size).toBe(expected);
    expect(all.every((r) => r.userId === tenant.id && r.status === "pending")).toBe(true);
    expect(await campaign(id)).toMatchObject({ status: "Active", audienceSize: expected, pendingCount: expected });
    await expectCountersAddUp(id);
  });

  it("writes nothing for a segment with no customers", async () => {
    const nobody = tree({ visits: { $gt: 1_000_000 } });
    const { id, size } = await launch(tenant.id, nobody);
    expect(size).toBe(0);
    expect(await sqlValue(connection(), `SELECT count(*) FROM "Campaign" WHERE "id" = ?`, [id])).toBe(0);
  });

  it("keeps each campaign's rows apart even for customers in both", async () => {
    const a = await launch(tenant.id);
    const b = await launch(tenant.id);
    expect((await rows(a.id)).map((r) => r.customerId)).toEqual((await rows(b.id)).map((r) => r.customerId));
    expect(new Set([...(await rows(a.id)), ...(await rows(b.id))].map((r) => r.seq)).size).toBe(a.size + b.size);
  });
});

describe("a launch in slices", () => {
  const content = (id: string, userId: string) => ({
    id,
    userId,
    segmentId: null,
    segmentName: "Everyone",
    name: "Sliced",
    subject: "Hello {NAME}",
    description: "",
    message: "Hi {NAME}",
  });
  /** Starts a launch of campaign `id` to every customer of `userId`, written `slice` rows a step. */
  const startInSlices = (id: string, userId: string, slice: number) =>
    launches.start(connection(), content(id, userId), segmentAudience.audienceWhere(userId, everyone), { slice });

  it("stays an unsendable draft until its last slice, keeps two interleaved launches' rows contiguous, and equals the count", async () => {
    const expected = await segmentAudience.sqlAudienceCount(tenant.id, everyone);
    const a = newId();
    const b = newId();
    const first = await startInSlices(a, tenant.id, 37);
    const second = await startInSlices(b, tenant.id, 50);
    // Slices of the two launches alternate, as two requests would.
    let more = true;
    while (more) more = (await Promise.all([first.step(), second.step()])).some(Boolean);
    expect(await campaign(a)).toMatchObject({ status: "Draft", statusDetail: LAUNCHING, audienceSize: 0 });
    expect((await campaigns.sendingCampaigns(connection())).map((c) => c.id)).not.toContain(a);
    expect(await first.finish()).toBe(expected);
    expect(await second.finish()).toBe(expected);
    for (const id of [a, b]) {
      const c = await campaign(id);
      expect(c).toMatchObject({ status: "Active", statusDetail: "", audienceSize: expected, pendingCount: expected });
      const seqs = (await rows(id)).map((r) => r.seq);
      expect(seqs).toHaveLength(expected);
      expect([seqs[0], seqs[seqs.length - 1]]).toEqual([c.firstSeq, c.lastSeq]);
      expect(c.lastSeq - c.firstSeq + 1).toBe(expected);
      await expectCountersAddUp(id);
    }
  });

  it("a launch cut off by a crash is cleared once stale, and can be launched again", async () => {
    const id = newId();
    const cut = await startInSlices(id, other.id, 10);
    await cut.step();
    await cut.step();
    expect(await rows(id)).toHaveLength(20);
    // Still within the minute: a launch in progress is left alone.
    expect(await launches.recoverInterrupted(connection())).toBe(0);
    expect(await launches.recoverInterrupted(connection(), 60_000, Date.now() + 61_000)).toBe(1);
    expect(await rows(id)).toHaveLength(0);
    expect(await campaign(id)).toMatchObject({ status: "Draft", statusDetail: LAUNCH_INTERRUPTED });
    // Launched again as the server launches: in the worker thread, not this one.
    expect(
      await launchCampaignOffThread(content(id, other.id), segmentAudience.audienceWhere(other.id, everyone)),
    ).toBe(await segmentAudience.sqlAudienceCount(other.id, everyone));
    expect(offThreadJobThreads().at(-1)).not.toBe(threadId);
    expect(await campaign(id)).toMatchObject({ status: "Active", statusDetail: "" });
    expect(await rows(id)).toHaveLength(await segmentAudience.sqlAudienceCount(other.id, everyone));
  });
});

describe("claims and outcomes", () => {
  it("two claimers never get the same row, and an expired lease is claimed again", async () => {
    const { id, size } = await launch(other.id);
    const second = openConnection({ poolSize: 2 });
    const t = Date.now();
    // The second claimer a millisecond later: its leases run out after the first's.
    const a = await deliveryClaims.claimBatch(connection(), { campaignId: id, limit: 20, now: t, leaseMs: 60_000 });
    const b = await deliveryClaims.claimBatch(second, { campaignId: id, limit: 20, now: t + 1, leaseMs: 60_000 });
    const rest = await deliveryClaims.claimBatch(second, { campaignId: id, limit: 1000, now: t + 1, leaseMs: 60_000 });
    await closeConnection(second);
    const seqs = [...a, ...b, ...rest].map((r) => r.seq);
    expect(seqs).toHaveLength(size);
    expect(new Set(seqs).size).toBe(size);
    expect(
      await deliveryClaims.claimBatch(connection(), { campaignId: id, limit: 10, now: t + 59_000, leaseMs: 60_000 }),
    ).toEqual([]);
    // Oldest due first: the first claimer's rows, whose leases ran out first. (Among rows due at the
    // same moment the engines' orders differ: SQLite's is seq, PostgreSQL's its index's.)
    const again = await deliveryClaims.claimBatch(connection(), {
      campaignId: id,
      limit: 10,
      now: t + 60_001,
      leaseMs: 60_000,
    });
    expect(again).toHaveLength(10);
    expect(again.every((r) => a.some((first) => first.seq === r.seq))).toBe(true);
    expect(again[0].attempts).toBe(2);

    // The first claimer's late outcome carries an old attempt number: it changes nothing.
    await deliveryReceipts.recordOutcomes(connection(), id, [
      { seq: again[0].seq, attempts: 1, outcome: "sent", details: "" },
    ]);
    expect((await rows(id)).find((r) => r.seq === again[0].seq)?.status).toBe("pending");
    await deliveryReceipts.recordOutcomes(connection(), id, [
      { seq: again[0].seq, attempts: 2, outcome: "sent", details: "" },
      { seq: again[1].seq, attempts: 2, outcome: "bounced", details: "550 no such user", error: false },
      { seq: again[2].seq, attempts: 2, outcome: "retry", details: "timeout", retryAt: t + 120_000, error: true },
    ]);
    const after = new Map((await rows(id)).map((r) => [r.seq, r]));
    expect(after.get(again[0].seq)?.status).toBe("sent");
    expect(after.get(again[1].seq)).toMatchObject({ status: "bounced", details: "550 no such user" });
    expect(after.get(again[2].seq)).toMatchObject({ status: "pending", details: "timeout" });
    expect((await campaign(id)).sendErrors).toBe(1);
    await expectCountersAddUp(id);
  });
});

describe("receipts", () => {
  it("are idempotent and never move a row back", async () => {
    const { id } = await launch(other.id);
    const [r1, r2, r3, r4, r5] = await rows(id);
    const at = Date.now();
    const key = (seq: number) => deliveryId(id, seq);
    const receipts: Receipt[] = [
      { id: key(r1.seq), event: "delivered", at },
      { id: key(r1.seq), event: "clicked", at: at + 2 },
      { id: key(r1.seq), event: "opened", at: at + 3 },
      { id: key(r2.seq), event: "bounced", at, details: "550 5.1.1 unknown user" },
      { id: key(r2.seq), event: "delivered", at: at + 5 },
      { id: key(r3.seq), event: "opened", at },
      { id: key(r4.seq), event: "failed", at, details: "Mailbox full" },
      { id: "not-a-delivery-id", event: "delivered", at },
      { id: deliveryId("ffffffff0000000000000000", r1.seq), event: "failed", at },
    ];
    expect(await deliveryReceipts.applyReceipts(connection(), receipts)).toEqual({ applied: 5, ignored: 4 });
    const again = await deliveryReceipts.applyReceipts(connection(), receipts);
    expect(again.applied).toBe(0);
    const byId = new Map((await rows(id)).map((r) => [r.seq, r]));
    expect(byId.get(r1.seq)).toMatchObject({ status: "delivered", openedAt: at + 2, clickedAt: at + 2 });
    expect(byId.get(r2.seq)).toMatchObject({ status: "bounced", details: "550 5.1.1 unknown user" });
    expect(byId.get(r3.seq)).toMatchObject({ status: "delivered", openedAt: at, clickedAt: null });
    // The vendor accepted r4 and could not deliver it afterwards: it came back, a bounce, so the
    // campaign's "sent" (accepted) never counts down; "failed" is for what the channel refused.
    expect(byId.get(r4.seq)).toMatchObject({ status: "bounced", details: "Mailbox full" });
    await deliveryReceipts.recordOutcomes(connection(), id, [
      { seq: r5.seq, attempts: r5.attempts, outcome: "failed", details: "Refused: bad address", error: false },
    ]);
    expect(await campaign(id)).toMatchObject({
      deliveredCount: 2,
      bouncedCount: 2,
      failedCount: 1,
      openedCount: 2,
      clickedCount: 1,
    });
    await expectCountersAddUp(id);

    // Retry failed: only the refused row goes back to the queue, as a new message (bounced
    // addresses are not retried); a late receipt of its first message changes nothing, one of the
    // retry does.
    expect(await campaigns.requeueFailedDeliveries(other.id, id, connection())).toBe(1);
    expect(await campaigns.requeueFailedDeliveries(tenant.id, id, connection())).toBeNull();
    expect(await byIdAfterRetry(id, r5.seq)).toMatchObject({ status: "pending", attempts: 0, details: "", retries: 1 });
    expect(
      await deliveryReceipts.applyReceipts(connection(), [
        { id: key(r5.seq), event: "failed", at: at + 9, details: "late" },
      ]),
    ).toEqual({
      applied: 0,
      ignored: 1,
    });
    expect(
      await deliveryReceipts.applyReceipts(connection(), [{ id: `${key(r5.seq)}r1`, event: "delivered", at: at + 10 }]),
    ).toEqual({
      applied: 1,
      ignored: 0,
    });
    expect(await byIdAfterRetry(id, r5.seq)).toMatchObject({ status: "delivered", retries: 1 });
    await expectCountersAddUp(id);
  });
});

describe("the receipts inbox", () => {
  it("applies queued batches oldest first, a bounded number a call, idempotently, and empties itself", async () => {
    const { id } = await launch(other.id);
    const [r1, r2] = await rows(id);
    const at = Date.now();
    const first: Receipt[] = [
      { id: deliveryId(id, r1.seq), event: "delivered", at },
      { id: deliveryId(id, r2.seq), event: "bounced", at, details: "550 unknown user" },
    ];
    await deliveryReceipts.queueReceipts(connection(), first);
    // The vendor posting the same batch again (it did not hear the answer), then an open.
    await deliveryReceipts.queueReceipts(connection(), first);
    await deliveryReceipts.queueReceipts(connection(), [{ id: deliveryId(id, r1.seq), event: "opened", at: at + 1 }]);
    expect(await deliveryReceipts.queuedReceiptBatches(connection())).toBe(3);
    // Nothing changes before the job applies them.
    expect(await campaign(id)).toMatchObject({ deliveredCount: 0, bouncedCount: 0 });

    expect(await deliveryReceipts.applyQueuedReceipts(connection(), 1)).toEqual({ batches: 1, applied: 2, ignored: 0 });
    expect(await deliveryReceipts.queuedReceiptBatches(connection())).toBe(2);
    expect(await deliveryReceipts.applyQueuedReceipts(connection())).toEqual({ batches: 2, applied: 1, ignored: 2 });
    expect(await deliveryReceipts.queuedReceiptBatches(connection())).toBe(0);
    expect(await deliveryReceipts.applyQueuedReceipts(connection())).toEqual({ batches: 0, applied: 0, ignored: 0 });
    expect(await campaign(id)).toMatchObject({ deliveredCount: 1, bouncedCount: 1, openedCount: 1 });
    await expectCountersAddUp(id);
  });

  it("drops a row that is not a list of receipts instead of stopping on it", async () => {
    await sqlRun(
      connection(),
      `INSERT INTO "ReceiptInbox" ("receipts", "count", "receivedAt") VALUES ('not json', 1, 0)`,
    );
    expect(await deliveryReceipts.applyQueuedReceipts(connection())).toEqual({ batches: 1, applied: 0, ignored: 0 });
    expect(await deliveryReceipts.queuedReceiptBatches(connection())).toBe(0);
  });
});

async function byIdAfterRetry(id: string, seq: number) {
  return (await rows(id)).find((r) => r.seq === seq);
}

describe("controls", () => {
  it("pause, resume and cancel follow the status, for the tenant only", async () => {
    const { id } = await launch(other.id);
    expect(await campaigns.setCampaignStatus(tenant.id, id, "Paused", ["Active"], connection())).toBeNull();
    expect(await campaigns.setCampaignStatus(other.id, id, "Paused", ["Active"], connection())).toEqual({
      before: "Active",
      changed: true,
    });
    expect(await campaigns.setCampaignStatus(other.id, id, "Paused", ["Active"], connection())).toEqual({
      before: "Paused",
      changed: false,
    });
    expect(await campaigns.setCampaignStatus(other.id, id, "Active", ["Paused"], connection())).toEqual({
      before: "Paused",
      changed: true,
    });
    expect(await campaigns.setCampaignStatus(other.id, id, "Cancelled", ["Active", "Paused"], connection())).toEqual({
      before: "Active",
      changed: true,
    });
    expect(await campaigns.setCampaignStatus(other.id, id, "Active", ["Paused"], connection())).toEqual({
      before: "Cancelled",
      changed: false,
    });
  });
});

/** A receipts endpoint for the vendor to post to, applying what it gets like the real route. */
