// What became of each message, on SQLite (the contract: ./contract.ts): the channel's answers
// recorded against their claim, the queued rows of cancelled campaigns ended, and receipts (what
// the vendor or a feed says later) queued in the inbox and applied. Each write changes the
// campaign's counters with its rows, in one transaction, on the delivery job's connection; a
// bounce or complaint puts its address on the tenant's suppression list in that transaction too.
//
// The receipts endpoint queues each checked batch in the inbox with one small write; the delivery
// job applies the inbox on its own connection, so a delivery row has one writer. The rules
// (planReceipts, ./plan.ts) are the same code on both engines; here they read what they ask
// through statements prepared for the batch, inside its transaction.
import { sqliteOf } from "~/db/engine.server";
import type { Sqlite } from "~/db/sqlite.server";
import { LAUNCH_SLICE } from "~/models/launch/rows";
import { suppressInSqliteTransaction } from "~/models/suppressions/store.server";
import type { ReceiptsStore } from "./contract";
import { planReceipts } from "./plan";
import {
  type AddressToSuppress,
  type BouncedAddress,
  CANCELLED_DETAILS,
  CANCELLED_WITH_PENDING,
  DEFAULT_FEEDBACK_POLICY,
  EventStoredMeanwhile,
  type FeedbackPolicy,
  inboxReceipts,
  inboxRows,
  latestEngagement,
  type Receipt,
  type ReceiptRow,
  type ReceiptsApplied,
  suppressionsByTenant,
} from "./rows";

/**
 * Puts addresses on their tenant's suppression list with the campaign they came from (a bounce, a
 * complaint, repeated soft bounces), inside the caller's transaction. An address on the list
 * already keeps its entry.
 */
function suppressAddresses(sqlite: Sqlite, entries: readonly AddressToSuppress[], now: number): void {
  if (entries.length === 0) return;
  const campaignName = sqlite.prepare<unknown[], string>(`SELECT "name" FROM "Campaign" WHERE "id" = ?`).pluck();
  const names = new Map<string, string>();
  const byTenant = suppressionsByTenant(entries, (campaignId) => {
    let name = names.get(campaignId);
    if (name === undefined) names.set(campaignId, (name = campaignName.get(campaignId) ?? ""));
    return name;
  });
  for (const [userId, list] of byTenant) suppressInSqliteTransaction(sqlite, userId, list, now);
}

/** applyReceipts, inside a transaction of the caller's (an inbox row's). */
function applyReceiptsNow(sqlite: Sqlite, receipts: readonly Receipt[], policy: FeedbackPolicy): ReceiptsApplied {
  const read = sqlite.prepare<unknown[], ReceiptRow>(
    `SELECT "seq", "campaignId", "userId", "customerId", "email", "retries", "status", "details", "updatedAt", "openedAt", "clickedAt",
       "pixelOpenedAt"
     FROM "Delivery" WHERE "seq" = ?`,
  );
  const write = sqlite.prepare(
    `UPDATE "Delivery" SET "status" = ?, "details" = ?, "updatedAt" = ?, "openedAt" = ?, "clickedAt" = ?, "pixelOpenedAt" = ?
     WHERE "seq" = ?`,
  );
  const counters = sqlite.prepare(
    `UPDATE "Campaign" SET "pendingCount" = "pendingCount" + ?, "sentCount" = "sentCount" + ?, "deliveredCount" = "deliveredCount" + ?,
       "failedCount" = "failedCount" + ?, "bouncedCount" = "bouncedCount" + ?, "complainedCount" = "complainedCount" + ?,
       "openedCount" = "openedCount" + ?, "clickedCount" = "clickedCount" + ?, "opensTotal" = "opensTotal" + ?,
       "clicksTotal" = "clicksTotal" + ?, "machineOpenCount" = "machineOpenCount" + ?, "machineClickCount" = "machineClickCount" + ?,
       "softBounceCount" = "softBounceCount" + ?, "updatedAt" = max("updatedAt", ?)
     WHERE "id" = ?`,
  );
  // A customer's last open and click (~/models/customer-activity); a customer deleted since the
  // send has none to keep.
  const engagement = sqlite.prepare(
    `INSERT INTO "CustomerActivity" ("customerId", "userId", "lastOpenAt", "lastClickAt")
     SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM "Customer" WHERE "id" = ?)
     ON CONFLICT ("customerId") DO UPDATE SET
       "lastOpenAt" = max(coalesce("lastOpenAt", excluded."lastOpenAt"), coalesce(excluded."lastOpenAt", "lastOpenAt")),
       "lastClickAt" = max(coalesce("lastClickAt", excluded."lastClickAt"), coalesce(excluded."lastClickAt", "lastClickAt"))`,
  );
  const seenEvent = sqlite.prepare(`SELECT 1 FROM "DeliveryEvent" WHERE "source" = ? AND "eventId" = ?`).pluck();
  const keepEvent = sqlite.prepare(
    `INSERT INTO "DeliveryEvent" ("userId", "campaignId", "seq", "customerId", "email", "kind", "machine", "link", "source", "eventId", "details", "at")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT ("source", "eventId") DO NOTHING`,
  );
  const softBouncesSince = sqlite
    .prepare<unknown[], number>(
      `SELECT count(*) FROM "DeliveryEvent" WHERE "userId" = ? AND "email" = ? AND "kind" = 'soft-bounced' AND "at" > ?`,
    )
    .pluck();
  return sqlite
    .transaction(() => {
      const plan = planReceipts(receipts, policy, {
        row: (seq) => read.get(seq),
        seen: (source, eventId) => seenEvent.get(source, eventId) !== undefined,
        softBouncesSince: (userId, email, since) => softBouncesSince.get(userId, email, since) ?? 0,
      });
      // An event is counted only by the transaction that stored it: the (source, eventId) key
      // is unique, and a copy stored first leaves this batch unwritten (applied again, it is seen).
      for (const e of plan.events) {
        const { changes } = keepEvent.run(
          e.userId,
          e.campaignId,
          e.seq,
          e.customerId,
          e.email,
          e.kind,
          e.machine ? 1 : 0,
          e.link,
          e.source,
          e.eventId,
          e.details,
          e.at,
        );
        if (changes === 0) throw new EventStoredMeanwhile();
      }
      for (const row of plan.rows)
        write.run(row.status, row.details, row.updatedAt, row.openedAt, row.clickedAt, row.pixelOpenedAt, row.seq);
      for (const e of latestEngagement(plan.rows))
        engagement.run(e.customerId, e.userId, e.lastOpenAt, e.lastClickAt, e.customerId);
      for (const [campaignId, d] of plan.deltas) {
        counters.run(
          d.pending,
          d.sent,
          d.delivered,
          d.failed,
          d.bounced,
          d.complained,
          d.opened,
          d.clicked,
          d.opensTotal,
          d.clicksTotal,
          d.machineOpens,
          d.machineClicks,
          d.softBounces,
          plan.latest,
          campaignId,
        );
      }
      // A bounce or complaint puts its address on the tenant's suppression list, with the row that says so.
      suppressAddresses(sqlite, plan.suppress, Date.now());
      return { applied: plan.applied, ignored: plan.ignored };
    })
    .immediate();
}

/** Runs a SQLite apply, and once more if an event it would keep was stored by another connection meanwhile. */
function againIfStoredMeanwhile<T>(apply: () => T): T {
  try {
    return apply();
  } catch (error) {
    if (!(error instanceof EventStoredMeanwhile)) throw error;
    return apply();
  }
}

/** recordOutcomes' statements, prepared once per connection (the SMTP channel records each answer on its own). */
function prepareOutcomeStatements(sqlite: Sqlite) {
  return {
    finish: sqlite.prepare(
      `UPDATE "Delivery" SET "status" = ?, "details" = ?, "updatedAt" = ?, "nextAttemptAt" = 0
       WHERE "seq" = ? AND "status" = 'pending' AND "attempts" = ?`,
    ),
    bounce: sqlite.prepare<unknown[], { userId: string; email: string }>(
      `UPDATE "Delivery" SET "status" = 'bounced', "details" = ?, "updatedAt" = ?, "nextAttemptAt" = 0
       WHERE "seq" = ? AND "status" = 'pending' AND "attempts" = ?
       RETURNING "userId", "email"`,
    ),
    retry: sqlite.prepare(
      `UPDATE "Delivery" SET "nextAttemptAt" = ?, "details" = ?, "updatedAt" = ?
       WHERE "seq" = ? AND "status" = 'pending' AND "attempts" = ?`,
    ),
    release: sqlite.prepare(
      `UPDATE "Delivery" SET "nextAttemptAt" = ?, "attempts" = "attempts" - 1
       WHERE "seq" = ? AND "status" = 'pending' AND "attempts" = ?`,
    ),
    counters: sqlite.prepare(
      `UPDATE "Campaign" SET "pendingCount" = "pendingCount" - ?, "sentCount" = "sentCount" + ?, "deliveredCount" = "deliveredCount" + ?,
         "failedCount" = "failedCount" + ?, "bouncedCount" = "bouncedCount" + ?, "sendErrors" = "sendErrors" + ?, "updatedAt" = ?
       WHERE "id" = ?`,
    ),
  };
}
const outcomeStatementsOf = new WeakMap<Sqlite, ReturnType<typeof prepareOutcomeStatements>>();
function outcomeStatements(sqlite: Sqlite) {
  let statements = outcomeStatementsOf.get(sqlite);
  if (!statements) outcomeStatementsOf.set(sqlite, (statements = prepareOutcomeStatements(sqlite)));
  return statements;
}

export const sqliteReceipts: ReceiptsStore = {
  async applyReceipts(connection, receipts, policy = DEFAULT_FEEDBACK_POLICY) {
    const sqlite = sqliteOf(connection);
    return againIfStoredMeanwhile(() => applyReceiptsNow(sqlite, receipts, policy));
  },

  async queueReceipts(connection, receipts, now = Date.now()) {
    const sqlite = sqliteOf(connection);
    const insert = sqlite.prepare(`INSERT INTO "ReceiptInbox" ("receipts", "count", "receivedAt") VALUES (?, ?, ?)`);
    sqlite
      .transaction(() => {
        for (const row of inboxRows(receipts)) insert.run(row.receipts, row.count, now);
      })
      .immediate();
  },

  // One a call: a transaction, the write lock left free after it.
  receiptBatchesPerCall: () => 1,

  async queuedReceiptBatches(connection) {
    return Number(sqliteOf(connection).prepare<unknown[], number>(`SELECT count(*) FROM "ReceiptInbox"`).pluck().get());
  },

  async applyQueuedReceipts(connection, maxBatches = 10, policy = DEFAULT_FEEDBACK_POLICY) {
    const sqlite = sqliteOf(connection);
    const oldest = sqlite.prepare<unknown[], { id: number; receipts: string }>(
      `SELECT "id", "receipts" FROM "ReceiptInbox" ORDER BY "id" LIMIT 1`,
    );
    const remove = sqlite.prepare(`DELETE FROM "ReceiptInbox" WHERE "id" = ?`);
    const one = sqlite.transaction(() => {
      const row = oldest.get();
      if (!row) return null;
      remove.run(row.id);
      return applyReceiptsNow(sqlite, inboxReceipts(row.receipts), policy);
    });
    const total = { batches: 0, applied: 0, ignored: 0 };
    while (total.batches < maxBatches) {
      const result = againIfStoredMeanwhile(() => one.immediate());
      if (!result) break;
      total.batches += 1;
      total.applied += result.applied;
      total.ignored += result.ignored;
    }
    return total;
  },

  async recordOutcomes(connection, campaignId, outcomes, now = Date.now()) {
    const sqlite = sqliteOf(connection);
    const { finish, bounce, retry, release, counters } = outcomeStatements(sqlite);
    sqlite
      .transaction(() => {
        let sent = 0;
        let delivered = 0;
        let failed = 0;
        let bounced = 0;
        let errors = 0;
        const bouncedAddresses: BouncedAddress[] = [];
        for (const o of outcomes) {
          if (o.outcome === "held") {
            release.run(now, o.seq, o.attempts);
            continue;
          }
          if (o.outcome === "retry") {
            if (retry.run(o.retryAt, o.details, now, o.seq, o.attempts).changes && o.error) errors += 1;
            continue;
          }
          if (o.outcome === "bounced") {
            const row = bounce.get(o.details, now, o.seq, o.attempts);
            if (!row) continue;
            bouncedAddresses.push({ campaignId, userId: row.userId, email: row.email, details: o.details });
          } else if (!finish.run(o.outcome, o.details, now, o.seq, o.attempts).changes) continue;
          if (o.outcome === "sent") sent += 1;
          else if (o.outcome === "delivered") delivered += 1;
          else {
            if (o.outcome === "failed") failed += 1;
            else bounced += 1;
            if (o.error) errors += 1;
          }
        }
        counters.run(sent + delivered + failed + bounced, sent, delivered, failed, bounced, errors, now, campaignId);
        suppressAddresses(
          sqlite,
          bouncedAddresses.map((b) => ({ ...b, reason: "hard-bounced" })),
          now,
        );
      })
      .immediate();
  },

  async endCancelledRows(connection, now = Date.now(), slice = LAUNCH_SLICE) {
    const sqlite = sqliteOf(connection);
    const campaigns = sqlite.prepare<unknown[], string>(CANCELLED_WITH_PENDING).pluck().all();
    const end = sqlite.prepare(
      `UPDATE "Delivery" SET "status" = 'cancelled', "details" = ?, "updatedAt" = ?, "nextAttemptAt" = 0
       WHERE "seq" IN (
         SELECT "seq" FROM "Delivery" WHERE "campaignId" = ? AND "status" = 'pending' AND "nextAttemptAt" <= ? LIMIT ${slice}
       )`,
    );
    const counters = sqlite.prepare(
      `UPDATE "Campaign" SET "pendingCount" = "pendingCount" - ?, "cancelledCount" = "cancelledCount" + ?, "updatedAt" = ? WHERE "id" = ?`,
    );
    const one = sqlite.transaction((campaignId: string) => {
      const n = end.run(CANCELLED_DETAILS, now, campaignId, now).changes;
      if (n > 0) counters.run(n, n, now, campaignId);
      return n;
    });
    let total = 0;
    for (const id of campaigns) total += one.immediate(id);
    return total;
  },
};
