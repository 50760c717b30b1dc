// Receipts on PostgreSQL: the twins of ./receipts.server.ts. The rules are the same code
// (planReceipts); what differs is how a batch reads and writes. Everything a batch needs is read
// up front, a statement each over arrays (the rows, locked in seq order so two instances applying
// overlapping batches take turns instead of deadlocking; the feed events seen; the soft bounces
// kept), and everything it changes is written back the same way: a batch of 250 receipts is about
// six statements, whatever its size.
//
// Several instances apply the inbox side by side: each takes the oldest row no other holds
// (FOR UPDATE SKIP LOCKED) and removes it in the transaction that applies it.
import type pg from "pg";
import { type Postgres, query, transaction } from "~/db/postgres.server";
import { parseDeliveryId } from "~/lib/campaigns";
import { suppressAddressesPg } from "~/models/deliveries/outcomes.postgres.server";
import {
  type FeedbackPolicy,
  planReceipts,
  type Receipt,
  type ReceiptPlan,
  type ReceiptRow,
} from "~/models/deliveries/receipts.server";

/** The largest seq a Delivery row can have (its column is a PostgreSQL integer). */
const MAX_SEQ = 2_147_483_647;

/** Reads what the rules need, then writes what they decided, inside the caller's transaction. */
export async function applyReceiptsInTransaction(
  client: pg.PoolClient,
  receipts: readonly Receipt[],
  policy: FeedbackPolicy,
): Promise<{ applied: number; ignored: number }> {
  const seqs = new Set<number>();
  for (const r of receipts) {
    const id = parseDeliveryId(r.id);
    if (id && id.seq <= MAX_SEQ) seqs.add(id.seq);
  }
  const rows = new Map<number, ReceiptRow>();
  if (seqs.size > 0) {
    for (const row of await query<ReceiptRow>(
      client,
      `SELECT "seq", "campaignId", "userId", "customerId", "email", "retries", "status", "details", "updatedAt", "openedAt", "clickedAt"
       FROM "Delivery" WHERE "seq" = ANY($1::int[]) ORDER BY "seq" FOR UPDATE`,
      [[...seqs]],
    ))
      rows.set(row.seq, row);
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
    .filter((x): x is { r: Receipt; row: ReceiptRow } => x.row !== undefined);
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
  await writePlan(client, plan);
  return { applied: plan.applied, ignored: plan.ignored };
}

async function writePlan(client: pg.PoolClient, plan: ReceiptPlan): Promise<void> {
  if (plan.events.length > 0) {
    const e = plan.events;
    await client.query(
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
  }
  if (plan.rows.length > 0) {
    const r = plan.rows;
    await client.query(
      `UPDATE "Delivery" "d" SET "status" = "u"."status", "details" = "u"."details", "updatedAt" = "u"."updatedAt",
         "openedAt" = "u"."openedAt", "clickedAt" = "u"."clickedAt"
       FROM unnest($1::int[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[])
         AS "u"("seq", "status", "details", "updatedAt", "openedAt", "clickedAt")
       WHERE "d"."seq" = ANY($1::int[]) AND "d"."seq" = "u"."seq"`,
      [
        r.map((x) => x.seq),
        r.map((x) => x.status),
        r.map((x) => x.details),
        r.map((x) => x.updatedAt),
        r.map((x) => x.openedAt),
        r.map((x) => x.clickedAt),
      ],
    );
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
  return transaction(pg, (client) => applyReceiptsInTransaction(client, receipts, policy));
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
  // One statement, so one transaction, however many rows.
  await pg.pool.query(
    `INSERT INTO "ReceiptInbox" ("receipts", "count", "receivedAt") SELECT "r", "n", $3 FROM unnest($1::text[], $2::int[]) AS "x"("r", "n")`,
    [parts, counts, now],
  );
}

export async function queuedReceiptBatchesPg(pg: Postgres): Promise<number> {
  const [row] = await query<{ n: number }>(pg, `SELECT count(*)::int AS "n" FROM "ReceiptInbox"`);
  return Number(row?.n ?? 0);
}

export async function applyQueuedReceiptsPg(
  pg: Postgres,
  maxBatches: number,
  policy: FeedbackPolicy,
): Promise<{ batches: number; applied: number; ignored: number }> {
  const total = { batches: 0, applied: 0, ignored: 0 };
  while (total.batches < maxBatches) {
    const result = await transaction(pg, async (client) => {
      // No wait for the commit to reach the disk: a crash can lose only whole transactions, and a
      // lost one takes its inbox row's removal with it, so the batch is applied again (receipts are
      // idempotent). Nothing is lost; the commit costs a tenth.
      await client.query(`SET LOCAL synchronous_commit = off`);
      // The oldest row no other instance is applying; removed with its receipts applied.
      const [row] = await query<{ id: number; receipts: string }>(
        client,
        `DELETE FROM "ReceiptInbox"
         WHERE "id" = (SELECT "id" FROM "ReceiptInbox" ORDER BY "id" LIMIT 1 FOR UPDATE SKIP LOCKED)
         RETURNING "id", "receipts"`,
      );
      if (!row) return null;
      // Written by queueReceipts from checked receipts; anything else in the table is dropped.
      let receipts: Receipt[] = [];
      try {
        const parsed: unknown = JSON.parse(row.receipts);
        if (Array.isArray(parsed)) receipts = parsed as Receipt[];
      } catch {
        receipts = [];
      }
      return applyReceiptsInTransaction(client, receipts, policy);
    });
    if (!result) break;
    total.batches += 1;
    total.applied += result.applied;
    total.ignored += result.ignored;
  }
  return total;
}
