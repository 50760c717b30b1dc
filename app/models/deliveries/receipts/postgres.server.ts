// What became of each message, on PostgreSQL (the contract: ./contract.ts; SQLite's:
// ./sqlite.server.ts). The rules are the same code (planReceipts, ./plan.ts); what differs is how
// a batch reads and writes.
//
// Outcomes: a batch is a few statements over arrays (unnest), not a statement per row, in one
// transaction with the campaign's counters and the suppression of bounced addresses. Each
// UPDATE … FROM unnest(…) also says `"seq" = ANY(the seqs)`: the rows are then found by the primary
// key whatever the statistics say. Without it, a queue whose statistics predate the launch (no
// ANALYZE yet: "pending" looks rare) was joined by scanning every pending row of the table.
//
// Receipts: everything a batch needs is read up front, a statement each over arrays (the rows; the
// feed events seen; the soft bounces kept), and everything it changes is written back the same
// way: a batch (up to four inbox rows, 1,000 receipts) is about six statements, whatever its size.
// The rows travel as one JSON value each way.
//
// A batch without soft bounces (the bulk) reads its rows without locking them and writes each
// changed row only if it is still the version it read (its xmin): a row another transaction
// changed meanwhile fails the check, and the batch is rolled back and applied again with its rows
// locked as they are read (FOR UPDATE, in seq order, so two transactions applying overlapping
// batches take turns instead of deadlocking). An event with an id (every pixel load and click,
// a feed's report) is counted only by the transaction whose insert stored it: the unique
// (source, eventId) key decides between two transactions applying the same event, whatever
// either read. A batch with soft bounces locks its rows from the start: the count of an
// address's soft bounces spans rows, and a soft bounce changes none.
//
// Every instance's job applies the inbox: each transaction takes the oldest rows no other holds
// (FOR UPDATE SKIP LOCKED) and removes them in the transaction that applies them.
import type pg from "pg";
import { postgresOf } from "~/db/engine.server";
import { type Postgres, query, transaction } from "~/db/postgres.server";
import { parseDeliveryId } from "~/lib/campaigns";
import { noteRecorded } from "~/models/deliveries/send-checks.postgres.server";
import { LAUNCH_SLICE } from "~/models/launch/rows";
import type { ReceiptsStore } from "./contract";
import { planReceipts } from "./plan";
import {
  type BouncedAddress,
  CANCELLED_DETAILS,
  CANCELLED_WITH_PENDING,
  DEFAULT_FEEDBACK_POLICY,
  EventStoredMeanwhile,
  type FeedbackPolicy,
  inboxReceipts,
  inboxRows,
  type Receipt,
  type ReceiptsApplied,
  type SendOutcome,
} from "./rows";
import { StaleRows, suppressAddresses, type VersionedRow, writePlan } from "./receipt-writes.postgres.server";

/** The largest seq a Delivery row can have (its column is a PostgreSQL integer). */
const MAX_SEQ = 2_147_483_647;

/** Whether a batch may read its rows without locking them (see the top of this file). */
function readsUnlocked(receipts: readonly Receipt[]): boolean {
  return receipts.every((r) => r.event !== "soft-bounced");
}

/**
 * Reads what the rules need, then writes what they decided, inside the caller's transaction. With
 * `locked` false a batch that may (readsUnlocked) reads its rows without locking them and throws
 * StaleRows if one changed before its write; the caller rolls back and applies it again locked.
 */
async function applyReceiptsInTransaction(
  client: pg.PoolClient,
  receipts: readonly Receipt[],
  policy: FeedbackPolicy,
  locked = true,
): Promise<ReceiptsApplied> {
  const seqs = new Set<number>();
  for (const r of receipts) {
    const id = parseDeliveryId(r.id);
    if (id && id.seq <= MAX_SEQ) seqs.add(id.seq);
  }
  const lock = locked || !readsUnlocked(receipts);
  const rows = new Map<number, VersionedRow>();
  if (seqs.size > 0) {
    // As one JSON value: parsed in one call instead of a row and a field at a time.
    const [read] = await query<{ rows: VersionedRow[] | null }>(
      client,
      `SELECT json_agg("d") AS "rows"
       FROM (SELECT "xmin"::text AS "version", "seq", "campaignId", "userId", "customerId", "email", "retries", "status", "details",
           "updatedAt", "openedAt", "clickedAt", "pixelOpenedAt"
         FROM "Delivery" WHERE "seq" = ANY($1::int[])${lock ? ` ORDER BY "seq" FOR UPDATE` : ""}) "d"`,
      [[...seqs]],
    );
    for (const row of read?.rows ?? []) rows.set(row.seq, row);
  }
  // Read once the rows are locked: an instance that applied the same event first has committed it.
  const withEvents = receipts.filter((r) => r.eventId !== undefined);
  const seen = new Set<string>();
  if (withEvents.length > 0) {
    for (const e of await query<{ source: string; eventId: string }>(
      client,
      `SELECT "source", "eventId" FROM "DeliveryEvent"
       WHERE ("source", "eventId") IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
      [withEvents.map((r) => r.source ?? "vendor"), withEvents.map((r) => r.eventId)],
    ))
      seen.add(`${e.source}\u0000${e.eventId}`);
  }
  // The soft bounces kept of the addresses this batch soft-bounces, within the policy's window.
  const softBounced = new Map<string, number[]>();
  const softRows = receipts
    .filter((r) => r.event === "soft-bounced")
    .map((r) => ({ r, row: rows.get(parseDeliveryId(r.id)?.seq ?? 0) }))
    .filter((x): x is { r: Receipt; row: VersionedRow } => x.row !== undefined);
  if (softRows.length > 0 && policy.softBounceLimit > 0) {
    const since = Math.min(...softRows.map((x) => x.r.at)) - policy.softBounceWindowMs;
    for (const e of await query<{ userId: string; email: string; at: number }>(
      client,
      `SELECT "userId", "email", "at" FROM "DeliveryEvent"
       WHERE "kind" = 'soft-bounced' AND "at" > $3
         AND ("userId", "email") IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
      [softRows.map((x) => x.row.userId), softRows.map((x) => x.row.email.toLowerCase()), since],
    )) {
      const key = `${e.userId}\u0000${e.email}`;
      let times = softBounced.get(key);
      if (!times) softBounced.set(key, (times = []));
      times.push(Number(e.at));
    }
  }
  const plan = planReceipts(receipts, policy, {
    row: (seq) => rows.get(seq),
    seen: (source, eventId) => seen.has(`${source}\u0000${eventId}`),
    softBouncesSince: (userId, email, since) =>
      (softBounced.get(`${userId}\u0000${email}`) ?? []).filter((at) => at > since).length,
  });
  await writePlan(client, plan, rows);
  return { applied: plan.applied, ignored: plan.ignored };
}

/**
 * Runs `apply` with rows read unlocked, and again with them locked if one changed meanwhile or an
 * event it would keep was stored meanwhile (applied again, the event is seen and not counted).
 */
async function lockedIfStale<T>(apply: (locked: boolean) => Promise<T>): Promise<T> {
  try {
    return await apply(false);
  } catch (error) {
    if (!(error instanceof StaleRows) && !(error instanceof EventStoredMeanwhile)) throw error;
    return apply(true);
  }
}

/**
 * Inbox rows one transaction applies at most, and transactions a call runs side by side (see
 * applyQueuedReceipts). Measured as the PostgreSQL delivery section's receiptAppliers figure
 * (bench/sections/postgres/delivery.ts; decision 0035): 500
 * receipts a transaction applied 21,600–22,000 a second one at a time and 18,900–21,700 two side
 * by side on the shared 2-core machine, 1,000 one at a time 13,700–18,100. Two side by side cost
 * nothing there and let a database with cores of its own overlap their work.
 */
const INBOX_ROWS_PER_TRANSACTION = 2;
const APPLIERS = 2;

/**
 * Applies the oldest inbox rows no other transaction holds, up to `rows` of them, in one
 * transaction that removes them; how many it took (0: the inbox has none free).
 */
async function applyInboxRows(
  pg: Postgres,
  rows: number,
  policy: FeedbackPolicy,
  locked: boolean,
): Promise<{ taken: number; applied: number; ignored: number }> {
  return transaction(pg, async (client) => {
    // No wait for the commit to reach the disk: a crash can lose only whole transactions, and a
    // lost one takes its inbox rows' removal with it, so they are applied again (receipts are
    // idempotent). Nothing is lost; the commit costs a tenth.
    await client.query(`SET LOCAL synchronous_commit = off`);
    const taken = await query<{ id: number; receipts: string }>(
      client,
      `DELETE FROM "ReceiptInbox"
       WHERE "id" IN (SELECT "id" FROM "ReceiptInbox" ORDER BY "id" LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING "id", "receipts"`,
      [rows],
    );
    if (taken.length === 0) return { taken: 0, applied: 0, ignored: 0 };
    // In the order they came, as one batch: the rules see them as they would one row after another.
    const receipts: Receipt[] = [];
    for (const row of taken.sort((a, b) => a.id - b.id)) for (const r of inboxReceipts(row.receipts)) receipts.push(r);
    return { taken: taken.length, ...(await applyReceiptsInTransaction(client, receipts, policy, locked)) };
  });
}

export const postgresReceipts: ReceiptsStore = {
  async applyReceipts(connection, receipts, policy = DEFAULT_FEEDBACK_POLICY) {
    const pg = postgresOf(connection);
    return lockedIfStale((locked) =>
      transaction(pg, (client) => applyReceiptsInTransaction(client, receipts, policy, locked)),
    );
  },

  async queueReceipts(connection, receipts, now = Date.now()) {
    if (receipts.length === 0) return;
    const rows = inboxRows(receipts);
    // One statement, so one transaction, however many rows; each row's text a parameter of its own
    // (as an element of a text[] it would be escaped, a backslash before each of its quotes).
    const nowParam = rows.length * 2 + 1;
    await postgresOf(connection).pool.query(
      `INSERT INTO "ReceiptInbox" ("receipts", "count", "receivedAt") VALUES ${rows.map((_, i) => `($${i * 2 + 1}, $${i * 2 + 2}::int, $${nowParam})`).join(", ")}`,
      [...rows.flatMap((row) => [row.receipts, row.count]), now],
    );
  },

  // A transaction for each of applyQueuedReceipts' appliers.
  receiptBatchesPerCall: () => INBOX_ROWS_PER_TRANSACTION * APPLIERS,

  async queuedReceiptBatches(connection) {
    const [row] = await query<{ n: number }>(postgresOf(connection), `SELECT count(*)::int AS "n" FROM "ReceiptInbox"`);
    return Number(row?.n ?? 0);
  },

  /**
   * Applies at most `maxBatches` queued inbox rows (a batch is an inbox row, as on SQLite), up to
   * INBOX_ROWS_PER_TRANSACTION of them a transaction and APPLIERS transactions side by side (as
   * every instance's job applies the inbox beside the others'). Side by side, later rows may be
   * applied before earlier ones: the rules give the same counts in any order (planReceipts), and an
   * event with an id is counted only by the transaction that stores it.
   */
  async applyQueuedReceipts(connection, maxBatches = 10, policy = DEFAULT_FEEDBACK_POLICY, appliers = APPLIERS) {
    const pg = postgresOf(connection);
    const total = { batches: 0, applied: 0, ignored: 0 };
    let reserved = 0;
    let empty = false;
    const applier = async () => {
      while (!empty && reserved < maxBatches) {
        const rows = Math.min(INBOX_ROWS_PER_TRANSACTION, maxBatches - reserved);
        reserved += rows;
        const result = await lockedIfStale((locked) => applyInboxRows(pg, rows, policy, locked));
        reserved -= rows - result.taken;
        if (result.taken < rows) empty = true;
        total.batches += result.taken;
        total.applied += result.applied;
        total.ignored += result.ignored;
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(appliers, maxBatches)) }, applier));
    return total;
  },

  async recordOutcomes(connection, campaignId, outcomes, now = Date.now()) {
    const held = outcomes.filter((o) => o.outcome === "held");
    const retries = outcomes.filter((o) => o.outcome === "retry");
    const finals = outcomes.filter(
      (o): o is Extract<SendOutcome, { details: string }> =>
        o.outcome === "sent" || o.outcome === "delivered" || o.outcome === "failed" || o.outcome === "bounced",
    );
    const pg = postgresOf(connection);
    await transaction(pg, async (client) => {
      if (held.length > 0)
        await client.query(
          `UPDATE "Delivery" "d" SET "nextAttemptAt" = $1, "attempts" = "d"."attempts" - 1
           FROM unnest($2::int[], $3::int[]) AS "o"("seq", "attempts")
           WHERE "d"."seq" = ANY($2::int[]) AND "d"."seq" = "o"."seq" AND "d"."status" = 'pending' AND "d"."attempts" = "o"."attempts"`,
          [now, held.map((o) => o.seq), held.map((o) => o.attempts)],
        );
      let errors = 0;
      if (retries.length > 0) {
        const changed = await query<{ error: boolean }>(
          client,
          `UPDATE "Delivery" "d" SET "nextAttemptAt" = "o"."retryAt", "details" = "o"."details", "updatedAt" = $1
           FROM unnest($2::int[], $3::int[], $4::bigint[], $5::text[], $6::boolean[]) AS "o"("seq", "attempts", "retryAt", "details", "error")
           WHERE "d"."seq" = ANY($2::int[]) AND "d"."seq" = "o"."seq" AND "d"."status" = 'pending' AND "d"."attempts" = "o"."attempts"
           RETURNING "o"."error"`,
          [
            now,
            retries.map((o) => o.seq),
            retries.map((o) => o.attempts),
            retries.map((o) => (o.outcome === "retry" ? o.retryAt : now)),
            retries.map((o) => (o.outcome === "retry" ? o.details : "")),
            retries.map((o) => o.outcome === "retry" && o.error),
          ],
        );
        errors += changed.filter((r) => r.error).length;
      }
      const count = { sent: 0, delivered: 0, failed: 0, bounced: 0 };
      const bounced: BouncedAddress[] = [];
      if (finals.length > 0) {
        // Only while the row is still pending with this claim's attempt number (its lease token).
        const changed = await query<{
          status: keyof typeof count;
          error: boolean;
          userId: string;
          email: string;
          details: string;
        }>(
          client,
          `UPDATE "Delivery" "d" SET "status" = "o"."status", "details" = "o"."details", "updatedAt" = $1, "nextAttemptAt" = 0
           FROM unnest($2::int[], $3::int[], $4::text[], $5::text[], $6::boolean[]) AS "o"("seq", "attempts", "status", "details", "error")
           WHERE "d"."seq" = ANY($2::int[]) AND "d"."seq" = "o"."seq" AND "d"."status" = 'pending' AND "d"."attempts" = "o"."attempts"
           RETURNING "o"."status", "o"."error", "d"."userId", "d"."email", "o"."details"`,
          [
            now,
            finals.map((o) => o.seq),
            finals.map((o) => o.attempts),
            finals.map((o) => o.outcome),
            finals.map((o) => o.details),
            finals.map((o) => "error" in o && o.error),
          ],
        );
        for (const row of changed) {
          count[row.status] += 1;
          if ((row.status === "failed" || row.status === "bounced") && row.error) errors += 1;
          if (row.status === "bounced")
            bounced.push({ campaignId, userId: row.userId, email: row.email, details: row.details });
        }
      }
      const ended = count.sent + count.delivered + count.failed + count.bounced;
      // Dated even when nothing ended: the campaign's last change, as its completion reads it.
      await client.query(
        `UPDATE "Campaign" SET "pendingCount" = "pendingCount" - $1, "sentCount" = "sentCount" + $2,
             "deliveredCount" = "deliveredCount" + $3, "failedCount" = "failedCount" + $4, "bouncedCount" = "bouncedCount" + $5,
             "sendErrors" = "sendErrors" + $6, "updatedAt" = $7
           WHERE "id" = $8`,
        [ended, count.sent, count.delivered, count.failed, count.bounced, errors, new Date(now), campaignId],
      );
      await suppressAddresses(
        client,
        bounced.map((b) => ({ ...b, reason: "hard-bounced" })),
        now,
      );
    });
    // These claims are over: no message of theirs goes any more.
    noteRecorded(pg, outcomes);
  },

  async endCancelledRows(connection, now = Date.now(), slice = LAUNCH_SLICE) {
    const pg = postgresOf(connection);
    const campaigns = await query<{ id: string }>(pg, CANCELLED_WITH_PENDING);
    let total = 0;
    for (const { id } of campaigns) {
      total += await transaction(pg, async (client) => {
        const { rowCount } = await client.query(
          `UPDATE "Delivery" SET "status" = 'cancelled', "details" = $1, "updatedAt" = $2, "nextAttemptAt" = 0
           WHERE "seq" IN (
             SELECT "seq" FROM "Delivery" WHERE "campaignId" = $3 AND "status" = 'pending' AND "nextAttemptAt" <= $2
             LIMIT ${slice} FOR UPDATE SKIP LOCKED
           )`,
          [CANCELLED_DETAILS, now, id],
        );
        const n = rowCount ?? 0;
        if (n > 0)
          await client.query(
            `UPDATE "Campaign" SET "pendingCount" = "pendingCount" - $1, "cancelledCount" = "cancelledCount" + $1,
               "updatedAt" = $2 WHERE "id" = $3`,
            [n, new Date(now), id],
          );
        return n;
      });
    }
    return total;
  },
};
