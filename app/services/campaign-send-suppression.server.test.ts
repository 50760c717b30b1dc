// @engines sqlite postgres
// The suppression list in the send, on a real database (SQLite, and PostgreSQL in its project):
// the send re-checks each claimed row (an address suppressed mid-campaign gets nothing more and
// its row ends Suppressed), a bounce suppresses its address, the counters and the log add up, one
// tenant's list never touches another's campaigns, and /api says who a launch left out and filters
// the log by suppressed and deferred. At launch: campaigns-suppression.server.test.ts.
import { describe, expect, it, vi } from "vitest";
import { useTestConnection, useTestDatabase } from "../../tests/helpers/db";
import { everyone } from "../../tests/helpers/campaign-launch";
import { seededTenant, suppressionTenants } from "../../tests/helpers/seeded-tenants";
import { sendThrough } from "../../tests/helpers/campaign-send";
import { callRoute } from "../../tests/helpers/requests";
import { sqlRows, sqlRun, sqlValue } from "../../tests/helpers/sql";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { deliveryChip, deliveryKey } from "~/lib/campaigns";
import { deliveryClaims } from "~/models/deliveries/claims/store.server";
import { deliveryReceipts } from "~/models/deliveries/receipts/store.server";
import { suppressions } from "~/models/suppressions/store.server";
import { deliveryLogs } from "~/services/campaigns/delivery-log.server";
import { getCampaign } from "~/services/campaigns/views.server";
import type { ChannelResult, DeliveryChannel, OutgoingMessage, SendControl } from "~/services/sending/channel.server";
import { seedCampaignHistory } from "~/services/sending/history.server";
import { createSegment } from "~/services/segments.server";
import { issueToken } from "~/services/token.server";
import { action as campaignsAction } from "~/routes/api/campaigns";
import { loader as logsLoader } from "~/routes/api/campaigns-id-logs";

// Two tenants' customers in the database from the start, none of them the tests' own: a launch or a
// send that reached past its tenant would take them in.
const { campaign, emailsOf, rowsOf, expectCountersAddUp, launch } = suppressionTenants(connection);

/** Only this campaign sends: the others launched in this file are set aside. */
async function onlyActive(id: string) {
  await sqlRun(connection(), `UPDATE "Campaign" SET "status" = 'Completed' WHERE "status" = 'Active' AND "id" <> ?`, [
    id,
  ]);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the send re-checks the list", () => {
  it("an address suppressed while the campaign sends gets nothing more: its row ends Suppressed, the counters add up", async () => {
    const sender = await seededTenant("Mid-campaign unsubscribe", 120, 31);
    const { id, size } = await launch(sender.id);
    expect(size).toBe(120);
    await onlyActive(id);
    const order = (await rowsOf(id)).map((r) => r.email);
    // Unsubscribed after the 10th message: one address later in the same batch, one in a later batch.
    const sameBatch = order[15];
    const laterBatch = order[100];
    const received: string[] = [];
    // A channel without receipts that hands messages over one at a time, asking the engine before
    // each (as the SMTP channel does), and holds back the rest when told to stop.
    const channel: DeliveryChannel = {
      name: "smtp",
      receipts: false,
      concurrency: 1,
      async send(batch: readonly OutgoingMessage[], control?: SendControl): Promise<ChannelResult[]> {
        const results: ChannelResult[] = [];
        let holding = false;
        for (const m of batch) {
          if (holding || (control && !control.proceed(m.key))) {
            holding = true;
            results.push({ key: m.key, status: "held" });
            continue;
          }
          received.push(m.to.email);
          const result: ChannelResult = { key: m.key, status: "accepted", details: "250 OK" };
          control?.answered?.(result);
          results.push(result);
          if (received.length === 10) {
            // The recipients click their unsubscribe links (the writer a request would use).
            await suppressions.addSuppressions(sender.id, [
              { email: sameBatch, reason: "unsubscribed", campaignId: id, campaignName: "Diwali offer" },
              { email: laterBatch, reason: "unsubscribed", campaignId: id, campaignName: "Diwali offer" },
            ]);
          }
          await sleep(0);
        }
        return results;
      },
      close: async () => {},
    };
    await sendThrough(connection(), id, channel, { batchSize: 40, concurrency: 1, idleMs: 5, retryBaseMs: 1 });

    const c = await campaign(id);
    expect(c.status).toBe("Completed");
    expect(received).not.toContain(sameBatch);
    expect(received).not.toContain(laterBatch);
    expect(received).toHaveLength(118);
    expect(new Set(received).size).toBe(118);
    expect(c).toMatchObject({ audienceSize: 120, deliveredCount: 118, suppressedCount: 2, pendingCount: 0 });
    await expectCountersAddUp(id);
    const suppressedRows = (await rowsOf(id)).filter((r) => r.status === "suppressed");
    expect(suppressedRows.map((r) => r.email).sort()).toEqual([sameBatch, laterBatch].sort());
    for (const r of suppressedRows)
      expect(r.details).toMatch(/^Not sent: the address was unsubscribed on \d{1,2} \w{3} \d{4}$/);

    // The DTO, the progress and the log say the same.
    const dto = await getCampaign(sender.id, id);
    expect(dto.deliveryStats).toMatchObject({ suppressed: 2, delivered: 118, pending: 0 });
    expect(dto.progress).toBe(100);
    const log = await deliveryLogs(sender.id, id, { limit: 10, status: "suppressed" });
    expect(log.total).toBe(2);
    expect(log.logs.map((l) => [l.status, deliveryChip(l.status).label])).toEqual([
      ["suppressed", "Suppressed"],
      ["suppressed", "Suppressed"],
    ]);
  }, 60_000);

  it("ends claimed rows of suppressed addresses at once, per tenant, and a claim whose address was suppressed since is no longer held", async () => {
    const a = await seededTenant("Tenant A", 30, 41);
    const b = await seededTenant("Tenant B", 30, 41);
    const first = await launch(a.id);
    const second = await launch(b.id);
    const aEmails = (await rowsOf(first.id)).map((r) => r.email);
    const bEmails = (await rowsOf(second.id)).map((r) => r.email);
    // The same seed gives both tenants the same addresses: B suppresses three of them.
    expect(bEmails).toEqual(aEmails);
    await suppressions.addSuppressions(b.id, [
      { email: bEmails[0], reason: "hard-bounced" },
      { email: bEmails[1], reason: "complained" },
      { email: bEmails[2], reason: "manual" },
    ]);
    const t = Date.now();
    const claimedA = await deliveryClaims.claimBatch(connection(), {
      campaignId: first.id,
      limit: 30,
      now: t,
      leaseMs: 60_000,
    });
    expect(claimedA).toHaveLength(30);
    expect((await campaign(first.id)).suppressedCount).toBe(0);

    const claimedB = await deliveryClaims.claimBatch(connection(), {
      campaignId: second.id,
      limit: 30,
      now: t,
      leaseMs: 60_000,
    });
    expect(claimedB.map((r) => r.email)).toEqual(bEmails.slice(3));
    const ended = (await rowsOf(second.id)).slice(0, 3);
    expect(ended.map((r) => r.status)).toEqual(["suppressed", "suppressed", "suppressed"]);
    expect(ended[0].details).toMatch(/^Not sent: the address hard-bounced on /);
    expect(ended[1].details).toMatch(/^Not sent: its owner marked our e-mail as spam on /);
    expect(ended[2].details).toMatch(/^Not sent: the address was added to the suppression list by hand on /);
    expect(await campaign(second.id)).toMatchObject({ pendingCount: 27, suppressedCount: 3 });
    await expectCountersAddUp(second.id);

    // A held claim stops being held when its address is suppressed (the SMTP channel asks before each message).
    const held = await deliveryClaims.claimStillHeld(connection());
    const row = claimedA[5];
    expect(held(row.seq, row.attempts, t)).toBe(true);
    await suppressions.addSuppressions(a.id, [{ email: row.email, reason: "unsubscribed" }]);
    // On PostgreSQL the check answers from its last read of the claims (send-checks.postgres.server.ts),
    // read again when it is older than half its limit: once a neighbour is held again, the answer is
    // from after the suppression. On SQLite each answer is a read: at once.
    await vi.waitFor(() => expect(held(claimedA[6].seq, claimedA[6].attempts, t)).toBe(true));
    expect(held(row.seq, row.attempts, t)).toBe(false);
  });
});

describe("a bounce suppresses", () => {
  it("a bounced outcome and a bounced receipt put the address on the list with the campaign, and its history says so", async () => {
    const sender = await seededTenant("Bounces", 10, 51);
    const { id } = await launch(sender.id, everyone, "Monsoon Sale");
    const t = Date.now();
    const rows = await deliveryClaims.claimBatch(connection(), { campaignId: id, limit: 10, now: t, leaseMs: 60_000 });
    await deliveryReceipts.recordOutcomes(
      connection(),
      id,
      [
        {
          seq: rows[0].seq,
          attempts: rows[0].attempts,
          outcome: "bounced",
          details: "550 5.1.1 No such user",
          error: false,
        },
        { seq: rows[1].seq, attempts: rows[1].attempts, outcome: "failed", details: "554 5.7.1 Refused", error: false },
        { seq: rows[2].seq, attempts: rows[2].attempts, outcome: "sent", details: "" },
        {
          seq: rows[3].seq,
          attempts: rows[3].attempts,
          outcome: "retry",
          details: "Attempt 1 failed, retrying: 451 4.3.0 Try later",
          retryAt: t + 60_000,
          error: false,
        },
      ],
      t,
    );
    const entry = await suppressions.findSuppression(sender.id, rows[0].email);
    expect(entry).toMatchObject({
      reason: "hard-bounced",
      campaignId: id,
      campaignName: "Monsoon Sale",
      details: "550 5.1.1 No such user",
    });
    expect(await suppressions.suppressionEventsOf(sender.id, rows[0].email)).toMatchObject([
      { action: "suppressed", reason: "hard-bounced", campaignId: id, campaignName: "Monsoon Sale" },
    ]);
    // A refusal that is not a bounce suppresses nothing.
    expect(await suppressions.findSuppression(sender.id, rows[1].email)).toBeNull();

    // The vendor's receipt says the sent message bounced later.
    expect(
      await deliveryReceipts.applyReceipts(connection(), [
        { id: deliveryKey(id, rows[2].seq, 0), event: "bounced", at: t + 1000, details: "Mailbox unavailable" },
      ]),
    ).toEqual({ applied: 1, ignored: 0 });
    expect(await suppressions.findSuppression(sender.id, rows[2].email)).toMatchObject({
      reason: "hard-bounced",
      campaignId: id,
      campaignName: "Monsoon Sale",
    });
    await expectCountersAddUp(id);

    // The log: the retried row is Deferred (derived), its filter finds it; the bounce shows Bounced.
    const all = await deliveryLogs(sender.id, id, { limit: 10 });
    const statusOf = (seq: number) => all.logs.find((l) => l.id === deliveryKey(id, seq, 0))?.status;
    expect(statusOf(rows[3].seq)).toBe("deferred");
    expect(deliveryChip("deferred").label).toBe("Deferred");
    expect(statusOf(rows[0].seq)).toBe("bounced");
    expect(statusOf(rows[4].seq)).toBe("pending");
    const deferred = await deliveryLogs(sender.id, id, { limit: 10, status: "deferred" });
    expect(deferred.total).toBe(1);
    expect(deferred.logs.map((l) => l.id)).toEqual([deliveryKey(id, rows[3].seq, 0)]);
    const pending = await deliveryLogs(sender.id, id, { limit: 10, status: "pending" });
    expect(pending.total).toBe(7);
  });

  it("a seeded history's bounces suppress their addresses, and later seeded campaigns leave them out", async () => {
    const sender = await seededTenant("Seeded history", 400, 61);
    await seedCampaignHistory(connection(), sender.id, 3);
    const campaigns = await Promise.all(
      (
        await sqlRows<{ id: string }>(
          connection(),
          `SELECT "id" FROM "Campaign" WHERE "userId" = ? ORDER BY "launchedAt"`,
          [sender.id],
        )
      ).map((r) => campaign(r.id)),
    );
    expect(campaigns).toHaveLength(3);
    const bouncedFirst = (await rowsOf(campaigns[0].id)).filter((r) => r.status === "bounced");
    expect(bouncedFirst.length).toBeGreaterThan(0);
    const listed = new Set(
      (
        await sqlRows<{ email: string }>(
          connection(),
          `SELECT "email" FROM "Suppression" WHERE "userId" = ? AND "reason" = 'hard-bounced'`,
          [sender.id],
        )
      ).map((r) => r.email),
    );
    for (const r of bouncedFirst) expect(listed.has(r.email)).toBe(true);
    const events = Number(
      await sqlValue(connection(), `SELECT count(*) FROM "SuppressionEvent" WHERE "userId" = ?`, [sender.id]),
    );
    expect(events).toBe(listed.size);
    for (const later of campaigns.slice(1)) {
      const emails = new Set((await rowsOf(later.id)).map((r) => r.email));
      for (const r of bouncedFirst) expect(emails.has(r.email)).toBe(false);
      await expectCountersAddUp(later.id);
    }
  }, 60_000);
});

describe("/api", () => {
  it("POST /api/campaigns answers who the launch left out; the log filters by suppressed and deferred and says so", async () => {
    const sender = await seededTenant("API sender", 20, 81);
    const auth = { Authorization: `Bearer ${await issueToken(sender.id)}` };
    const segment = await createSegment(sender.id, { name: "All", description: "", tree: everyone });
    const emails = await emailsOf(sender.id, 20);
    await suppressions.addSuppressions(sender.id, [{ email: emails[0], reason: "unsubscribed" }]);
    const launched = await callRoute(campaignsAction, "/api/campaigns", {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "API launch", subject: "Hi", message: "Hi {NAME}", segmentId: segment.id }),
    });
    expect(launched.status).toBe(201);
    const id = String(launched.body.id);
    expect(launched.body).toMatchObject({ audienceSize: 19, suppressedAtLaunch: 1, suppressedCount: 0 });
    await onlyActive(id);

    // One address unsubscribes after the launch, one row gets a temporary answer.
    await suppressions.addSuppressions(sender.id, [{ email: emails[1], reason: "unsubscribed" }]);
    const t = Date.now();
    const claimed = await deliveryClaims.claimBatch(connection(), {
      campaignId: id,
      limit: 5,
      now: t,
      leaseMs: 60_000,
    });
    expect(claimed.map((r) => r.email)).not.toContain(emails[1]);
    await deliveryReceipts.recordOutcomes(
      connection(),
      id,
      [
        {
          seq: claimed[0].seq,
          attempts: claimed[0].attempts,
          outcome: "retry",
          details: "Attempt 1 failed, retrying: 454 4.7.0 Slow down",
          retryAt: t + 60_000,
          error: false,
        },
      ],
      t,
    );
    const logs = (status: string) =>
      callRoute(logsLoader, `/api/campaigns/${id}/logs?status=${status}`, { headers: auth, params: { id } });
    const suppressed = await logs("Suppressed");
    expect(suppressed.status).toBe(200);
    expect(suppressed.headers.get("X-Total-Count")).toBe("1");
    expect(suppressed.body).toMatchObject([
      {
        status: "suppressed",
        customer: { email: emails[1] },
        details: expect.stringMatching(/^Not sent: the address was unsubscribed on /),
      },
    ]);
    const deferred = await logs("deferred");
    expect(deferred.headers.get("X-Total-Count")).toBe("1");
    expect(deferred.body).toMatchObject([{ status: "deferred", details: expect.stringContaining("454 4.7.0") }]);
    const bad = await logs("opened");
    expect(bad.status).toBe(400);
    expect(bad.body.error?.message).toContain("deferred");
    expect(bad.body.error?.message).toContain("suppressed");
    await expectCountersAddUp(id);
  });
});
