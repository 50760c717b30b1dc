// Receipts on PostgreSQL: the twins of ./receipts.server.ts. The rules are the same code
// (planReceipts); what differs is how a batch reads and writes. Everything a batch needs is read
// up front, a statement each over arrays (the rows; the feed events seen; the soft bounces kept),
// and everything it changes is written back the same way: a batch (up to four inbox rows, 1,000
// receipts) is about six statements, whatever its size. The rows travel as one JSON value each way.
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
import { type Postgres, query, transaction } from "~/db/postgres.server";
import { parseDeliveryId } from "~/lib/campaigns";
import { suppressAddressesPg } from "~/models/deliveries/outcomes.postgres.server";
import {
  EventStoredMeanwhile,
  type FeedbackPolicy,
  planReceipts,
  type Receipt,
  type ReceiptPlan,
  type ReceiptRow,
} from "~/models/deliveries/receipts.server";

/** The largest seq a Delivery row can have (its column is a PostgreSQL integer). */
const MAX_SEQ = 2_147_483_647;

/**
 * A batch changed a row it read without a lock after another transaction changed it: applied
 * again with its rows locked.
 */
class StaleRows extends Error {
  constructor() {
    super("A delivery row changed while its receipts were applied");
  }
}

/** Whether a batch may read its rows without locking them (see the top of this file). */
function readsUnlocked(receipts: readonly Receipt[]): boolean {
  return receipts.every((r) => r.event !== "soft-bounced");
}

type VersionedRow = ReceiptRow & { version: string };

/**
 * Reads what the rules need, then writes what they decided, inside the caller's transaction. With
 * `locked` false a batch that may (readsUnlocked) reads its rows without locking them and throws
 * StaleRows if one changed before its write; the caller rolls back and applies it again locked.
 */
export async function applyReceiptsInTransaction(
  client: pg.PoolClient,
  receipts: readonly Receipt[],
  policy: FeedbackPolicy,
  locked = true,
): Promise<{ applied: number; ignored: number }> {
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

async function writePlan(client: pg.PoolClient, plan: ReceiptPlan, read: Map<number, VersionedRow>): Promise<void> {
  if (plan.rows.length > 0) {
    // Each row only if it is still the version the rules read (under a lock it is). As one JSON
    // value, with the details only where they changed; in seq order, the order rows are locked in.
    const r = [...plan.rows].sort((a, b) => a.seq - b.seq);
    const { rowCount } = await client.query(
      `UPDATE "Delivery" "d" SET "status" = "u"."status", "details" = coalesce("u"."details", "d"."details"),
         "updatedAt" = "u"."updatedAt", "openedAt" = "u"."openedAt", "clickedAt" = "u"."clickedAt",
         "pixelOpenedAt" = "u"."pixelOpenedAt"
       FROM json_to_recordset($2::json) AS "u"("seq" int, "version" xid, "status" text, "details" text, "updatedAt" bigint,
         "openedAt" bigint, "clickedAt" bigint, "pixelOpenedAt" bigint)
       WHERE "d"."seq" = ANY($1::int[]) AND "d"."seq" = "u"."seq" AND "d"."xmin" = "u"."version"`,
      [
        r.map((x) => x.seq),
        JSON.stringify(
          r.map((x) => {
            const before = read.get(x.seq);
            return {
              seq: x.seq,
              version: before?.version ?? "0",
              status: x.status,
              details: before?.details === x.details ? null : x.details,
              updatedAt: x.updatedAt,
              openedAt: x.openedAt,
              clickedAt: x.clickedAt,
              pixelOpenedAt: x.pixelOpenedAt,
            };
          }),
        ),
      ],
    );
    if (rowCount !== r.length) throw new StaleRows();
  }
  if (plan.events.length > 0) {
    // An event is counted only by the transaction that stored it: (source, eventId) is unique, and
    // an insert that meets a copy another transaction stored (or is storing: it waits for its
    // commit) stores nothing, so the batch is rolled back and applied again, where it is seen.
    const e = plan.events;
    const { rowCount } = await client.query(
      `INSERT INTO "DeliveryEvent" ("userId", "campaignId", "seq", "customerId", "email", "kind", "machine", "link", "source", "eventId", "details", "at")
       SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::boolean[], $8::int[],
         $9::text[], $10::text[], $11::text[], $12::bigint[])
       ON CONFLICT ("source", "eventId") DO NOTHING`,
      [
        e.map((x) => x.userId),
        e.map((x) => x.campaignId),
        e.map((x) => x.seq),
        e.map((x) => x.customerId),
        e.map((x) => x.email),
        e.map((x) => x.kind),
        e.map((x) => x.machine),
        e.map((x) => x.link),
        e.map((x) => x.source),
        e.map((x) => x.eventId),
        e.map((x) => x.details),
        e.map((x) => x.at),
      ],
    );
    if (rowCount !== e.length) throw new EventStoredMeanwhile();
  }
  if (plan.deltas.size > 0) {
    // In id order: two instances updating the same campaigns take their locks in one order.
    const d = [...plan.deltas].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const column = (pick: (delta: (typeof d)[number][1]) => number) => d.map(([, delta]) => pick(delta));
    await client.query(
      `UPDATE "Campaign" "c" SET "pendingCount" = "c"."pendingCount" + "x"."pending", "sentCount" = "c"."sentCount" + "x"."sent",
         "deliveredCount" = "c"."deliveredCount" + "x"."delivered", "failedCount" = "c"."failedCount" + "x"."failed",
         "bouncedCount" = "c"."bouncedCount" + "x"."bounced", "complainedCount" = "c"."complainedCount" + "x"."complained",
         "openedCount" = "c"."openedCount" + "x"."opened", "clickedCount" = "c"."clickedCount" + "x"."clicked",
         "opensTotal" = "c"."opensTotal" + "x"."opensTotal", "clicksTotal" = "c"."clicksTotal" + "x"."clicksTotal",
         "machineOpenCount" = "c"."machineOpenCount" + "x"."machineOpens",
         "machineClickCount" = "c"."machineClickCount" + "x"."machineClicks",
         "softBounceCount" = "c"."softBounceCount" + "x"."softBounces", "updatedAt" = GREATEST("c"."updatedAt", $15)
       FROM unnest($1::text[], $2::int[], $3::int[], $4::int[], $5::int[], $6::int[], $7::int[], $8::int[], $9::int[],
         $10::int[], $11::int[], $12::int[], $13::int[], $14::int[])
         AS "x"("id", "pending", "sent", "delivered", "failed", "bounced", "complained", "opened", "clicked", "opensTotal",
           "clicksTotal", "machineOpens", "machineClicks", "softBounces")
       WHERE "c"."id" = "x"."id"`,
      [
        d.map(([id]) => id),
        column((x) => x.pending),
        column((x) => x.sent),
        column((x) => x.delivered),
        column((x) => x.failed),
        column((x) => x.bounced),
        column((x) => x.complained),
        column((x) => x.opened),
        column((x) => x.clicked),
        column((x) => x.opensTotal),
        column((x) => x.clicksTotal),
        column((x) => x.machineOpens),
        column((x) => x.machineClicks),
        column((x) => x.softBounces),
        new Date(plan.latest),
      ],
    );
  }
  // A bounce or complaint puts its address on the tenant's suppression list, with the row that says so.
  await suppressAddressesPg(client, plan.suppress, Date.now());
}

export async function applyReceiptsPg(
  pg: Postgres,
  receipts: readonly Receipt[],
  policy: FeedbackPolicy,
): Promise<{ applied: number; ignored: number }> {
  return lockedIfStale((locked) =>
    transaction(pg, (client) => applyReceiptsInTransaction(client, receipts, policy, locked)),
  );
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

export async function queueReceiptsPg(
  pg: Postgres,
  receipts: readonly Receipt[],
  perRow: number,
  now: number,
): Promise<void> {
  if (receipts.length === 0) return;
  const parts: string[] = [];
  const counts: number[] = [];
  for (let i = 0; i < receipts.length; i += perRow) {
    const part = receipts.slice(i, i + perRow);
    parts.push(JSON.stringify(part));
    counts.push(part.length);
  }
  // One statement, so one transaction, however many rows; each row's text a parameter of its own
  // (as an element of a text[] it would be escaped, a backslash before each of its quotes).
  const nowParam = parts.length * 2 + 1;
  await pg.pool.query(
    `INSERT INTO "ReceiptInbox" ("receipts", "count", "receivedAt") VALUES ${parts.map((_, i) => `($${i * 2 + 1}, $${i * 2 + 2}::int, $${nowParam})`).join(", ")}`,
    [...parts.flatMap((part, i) => [part, counts[i]]), now],
  );
}

export async function queuedReceiptBatchesPg(pg: Postgres): Promise<number> {
  const [row] = await query<{ n: number }>(pg, `SELECT count(*)::int AS "n" FROM "ReceiptInbox"`);
  return Number(row?.n ?? 0);
}

/**
 * Inbox rows one transaction applies at most, and transactions a call runs side by side (see
 * applyQueuedReceiptsPg). Measured with bench/receipts-appliers-postgres.ts (decision 0035): 500
 * receipts a transaction applied 21,600–22,000 a second one at a time and 18,900–21,700 two side
 * by side on the shared 2-core machine, 1,000 one at a time 13,700–18,100. Two side by side cost
 * nothing there and let a database with cores of its own overlap their work.
 */
const INBOX_ROWS_PER_TRANSACTION = 2;
const APPLIERS = 2;
/** Inbox rows the delivery job asks a call to apply on PostgreSQL: a transaction for each applier. */
export const INBOX_ROWS_PER_CALL_PG = INBOX_ROWS_PER_TRANSACTION * APPLIERS;

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
    for (const row of taken.sort((a, b) => a.id - b.id)) {
      // Written by queueReceipts from checked receipts; anything else in the table is dropped.
      try {
        const parsed: unknown = JSON.parse(row.receipts);
        if (Array.isArray(parsed)) for (const r of parsed as Receipt[]) receipts.push(r);
      } catch {
        // not a list of receipts: dropped with its row
      }
    }
    return { taken: taken.length, ...(await applyReceiptsInTransaction(client, receipts, policy, locked)) };
  });
}

/**
 * Applies at most `maxBatches` queued inbox rows (a batch is an inbox row, as on SQLite), up to
 * INBOX_ROWS_PER_TRANSACTION of them a transaction and APPLIERS transactions side by side (as
 * every instance's job applies the inbox beside the others'). Side by side, later rows may be
 * applied before earlier ones: the rules give the same counts in any order (planReceipts), and an
 * event with an id is counted only by the transaction that stores it.
 */
export async function applyQueuedReceiptsPg(
  pg: Postgres,
  maxBatches: number,
  policy: FeedbackPolicy,
  /** Transactions side by side (the bench compares counts; the product uses APPLIERS). */
  appliers = APPLIERS,
): Promise<{ batches: number; applied: number; ignored: number }> {
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
}
