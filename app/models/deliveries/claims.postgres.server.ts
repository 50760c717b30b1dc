// Claiming work from the delivery queue on PostgreSQL: the twins of ./claims.server.ts.
//
// Many instances claim side by side: the claim's inner SELECT takes FOR UPDATE SKIP LOCKED, so two
// claimers at once take different rows instead of waiting for each other, and its UPDATE moves the
// rows' nextAttemptAt forward by the lease, as on SQLite. Nothing is released: an instance that
// dies leaves its rows to the others when their lease runs out. The suppression re-check is one
// probe of the list for the whole batch, and the rows it ends are one UPDATE.
import { performance } from "node:perf_hooks";
import { type Postgres, query, transaction } from "~/db/postgres.server";
import { suppressedDetails } from "~/lib/campaigns";
import { DEFAULT_TIME_ZONE, formatShortDate } from "~/lib/dates";
import type { ClaimedDelivery, ClaimOptions } from "~/models/deliveries/claims.server";
import { heldReader, noteClaimed, refreshClaims } from "~/models/deliveries/send-checks.postgres.server";

function dayOf(ms: number, timeZone: string | null): string {
  try {
    return formatShortDate(ms, timeZone ?? DEFAULT_TIME_ZONE);
  } catch {
    return formatShortDate(ms, DEFAULT_TIME_ZONE);
  }
}

type ClaimedRow = ClaimedDelivery & { userId: string };

export async function claimBatchPg(
  pg: Postgres,
  { campaignId, limit, now, leaseMs }: ClaimOptions,
): Promise<ClaimedDelivery[]> {
  const startedAt = performance.now();
  const lease = now + leaseMs;
  const rows = await transaction(pg, async (client) => {
    const claimed = await query<ClaimedRow>(
      client,
      `WITH "due" AS (
         SELECT "seq" FROM "Delivery"
         WHERE "campaignId" = $1 AND "status" = 'pending' AND "nextAttemptAt" <= $2
         ORDER BY "nextAttemptAt" LIMIT $3
         FOR UPDATE SKIP LOCKED
       )
       UPDATE "Delivery" "d" SET "nextAttemptAt" = $4, "attempts" = "d"."attempts" + 1
       FROM "due" WHERE "d"."seq" = "due"."seq"
       RETURNING "d"."seq", "d"."campaignId", "d"."customerId", "d"."name", "d"."email", "d"."phone", "d"."attempts",
         "d"."retries", "d"."userId"`,
      [campaignId, now, limit, lease],
    );
    if (claimed.length === 0) return claimed;
    // The send honours the list as it is now: rows whose address is on it end as suppressed.
    const [tenant] = await query<{ userId: string; suppressing: boolean; timeZone: string | null }>(
      client,
      `SELECT "c"."userId", EXISTS (SELECT 1 FROM "Suppression" "s" WHERE "s"."userId" = "c"."userId") AS "suppressing",
         (SELECT "timeZone" FROM "User" "u" WHERE "u"."id" = "c"."userId") AS "timeZone"
       FROM "Campaign" "c" WHERE "c"."id" = $1`,
      [campaignId],
    );
    if (!tenant?.suppressing) return claimed;
    const entries = await query<{ email: string; reason: string; createdAt: number }>(
      client,
      `SELECT "email", "reason", "createdAt" FROM "Suppression" WHERE "userId" = $1 AND "email" = ANY($2::text[])`,
      [tenant.userId, [...new Set(claimed.filter((r) => r.email).map((r) => r.email.toLowerCase()))]],
    );
    if (entries.length === 0) return claimed;
    const entryOf = new Map(entries.map((e) => [e.email, e]));
    const kept: ClaimedRow[] = [];
    const ended: { seq: number; attempts: number; details: string }[] = [];
    for (const row of claimed) {
      const entry = row.email ? entryOf.get(row.email.toLowerCase()) : undefined;
      if (!entry) kept.push(row);
      else
        ended.push({
          seq: row.seq,
          attempts: row.attempts,
          details: suppressedDetails(entry.reason, dayOf(Number(entry.createdAt), tenant.timeZone)),
        });
    }
    const { rowCount } = await client.query(
      `UPDATE "Delivery" "d" SET "status" = 'suppressed', "details" = "e"."details", "updatedAt" = $1, "nextAttemptAt" = 0
       FROM unnest($2::int[], $3::int[], $4::text[]) AS "e"("seq", "attempts", "details")
       WHERE "d"."seq" = ANY($2::int[]) AND "d"."seq" = "e"."seq" AND "d"."status" = 'pending' AND "d"."attempts" = "e"."attempts"`,
      [now, ended.map((e) => e.seq), ended.map((e) => e.attempts), ended.map((e) => e.details)],
    );
    const n = rowCount ?? 0;
    if (n > 0)
      await client.query(
        `UPDATE "Campaign" SET "pendingCount" = "pendingCount" - $1, "suppressedCount" = "suppressedCount" + $1, "updatedAt" = $2
         WHERE "id" = $3`,
        [n, new Date(now), campaignId],
      );
    return kept;
  });
  // Known in memory from here: the claim's lease, for the checks before each message (send-checks).
  noteClaimed(pg, rows, lease, now, startedAt);
  return rows.map(({ userId: _userId, ...row }) => row).sort((a, b) => a.seq - b.seq);
}

export async function nextDueAtPg(pg: Postgres, campaignId: string): Promise<number | null> {
  const [row] = await query<{ due: number | null }>(
    pg,
    `SELECT min("nextAttemptAt") AS "due" FROM "Delivery" WHERE "campaignId" = $1 AND "status" = 'pending'`,
    [campaignId],
  );
  return row?.due ?? null;
}

export async function claimStillHeldPg(
  pg: Postgres,
): Promise<(seq: number, attempts: number, until: number) => boolean> {
  // The claims out are checked against the database now, so the first answers are fresh.
  await refreshClaims(pg);
  return heldReader(pg);
}

/** Moves a claimed row's lease on (idempotent: run again after a lost connection, it moves it as far). */
export async function renewLeasePg(pg: Postgres, seq: number, attempts: number, until: number): Promise<boolean> {
  const rows = await query<{ seq: number }>(
    pg,
    `UPDATE "Delivery" SET "nextAttemptAt" = $1
     WHERE "seq" = $2 AND "status" = 'pending' AND "attempts" = $3 AND "nextAttemptAt" < $1 RETURNING "seq"`,
    [until, seq, attempts],
  );
  return rows.length > 0;
}
