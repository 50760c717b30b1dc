// Claiming work from the delivery queue on PostgreSQL, the checks before each message goes, and the
// send rate (the contract: ./contract.ts; SQLite's: ./sqlite.server.ts).
//
// Many instances claim side by side: the claim's inner SELECT takes FOR UPDATE SKIP LOCKED, so two
// claimers at once take different rows instead of waiting for each other, and its UPDATE moves the
// rows' nextAttemptAt forward by the lease, as on SQLite. Nothing is released: an instance that
// dies leaves its rows to the others when their lease runs out. The suppression re-check is one
// probe of the list for the whole batch, and the rows it ends are one UPDATE.
//
// The checks before each message answer from memory kept fresh from the database
// (../send-checks.postgres.server.ts). The send rate's bucket is one row of SendRate per channel,
// shared by every instance, so the rate holds for all of them together (a rate of 100 a second
// with three instances is 100, not 300): a take is one statement that locks the row, refills it
// to `now`, and takes what it holds (the row lock makes two instances' takes one after the other).
import { performance } from "node:perf_hooks";
import type { AnyConnection } from "~/db/connection.server";
import { postgresOf } from "~/db/engine.server";
import { type Postgres, query, transaction } from "~/db/postgres.server";
import { suppressedDetails } from "~/lib/campaigns";
import {
  freshenChecks,
  heldReader,
  latestHeldReader,
  noteClaimed,
  refreshClaims,
} from "~/models/deliveries/send-checks.postgres.server";
import type { ClaimsStore } from "./contract";
import { checkClaimLimit, type ClaimedDelivery, type ClaimOptions, type SendRate, suppressionDay } from "./rows";

type ClaimedRow = ClaimedDelivery & { userId: string };

async function claimBatch(
  connection: AnyConnection,
  { campaignId, limit, now, leaseMs }: ClaimOptions,
): Promise<ClaimedDelivery[]> {
  checkClaimLimit(limit);
  const pg = postgresOf(connection);
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
          details: suppressedDetails(entry.reason, suppressionDay(Number(entry.createdAt), tenant.timeZone)),
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

// The row, refilled to $3 at $2 a second (at most $2), less what is taken ($4 at most, whole
// tokens). A clock behind the row's (another instance's) refills nothing and moves nothing back.
const TAKE = `
  WITH "bucket" AS (
    SELECT "channel", least($2::float8, "tokens" + greatest(0, $3::bigint - "refilledAt") / 1000.0 * $2::float8) AS "held"
    FROM "SendRate" WHERE "channel" = $1
    FOR UPDATE
  )
  UPDATE "SendRate" "s"
  SET "tokens" = "bucket"."held" - least($4::int, floor("bucket"."held")),
      "refilledAt" = greatest("s"."refilledAt", $3::bigint)
  FROM "bucket" WHERE "s"."channel" = "bucket"."channel"
  RETURNING least($4::int, floor("bucket"."held"))::int AS "granted"`;

async function takeSendTokens(pg: Postgres, rate: SendRate, want: number, now: number): Promise<number> {
  const params = [rate.channel, rate.perSecond, now, want];
  let [row] = await query<{ granted: number }>(pg, TAKE, params, { prepare: true });
  if (!row) {
    // The channel's first take: its row starts full (a second's worth), as a new bucket does.
    await query(
      pg,
      `INSERT INTO "SendRate" ("channel", "tokens", "refilledAt") VALUES ($1, $2, $3) ON CONFLICT ("channel") DO NOTHING`,
      [rate.channel, rate.perSecond, now],
    );
    [row] = await query<{ granted: number }>(pg, TAKE, params, { prepare: true });
  }
  return row?.granted ?? 0;
}

async function returnSendTokens(pg: Postgres, rate: SendRate, unused: number, now: number): Promise<void> {
  await query(
    pg,
    `UPDATE "SendRate"
     SET "tokens" = least($2::float8, "tokens" + greatest(0, $3::bigint - "refilledAt") / 1000.0 * $2::float8 + $4::int),
         "refilledAt" = greatest("refilledAt", $3::bigint)
     WHERE "channel" = $1`,
    [rate.channel, rate.perSecond, now, unused],
    { prepare: true },
  );
}

export const postgresClaims: ClaimsStore = {
  claimBatch,

  async nextDueAt(connection, campaignId) {
    const [row] = await query<{ due: number | null }>(
      postgresOf(connection),
      `SELECT min("nextAttemptAt") AS "due" FROM "Delivery" WHERE "campaignId" = $1 AND "status" = 'pending'`,
      [campaignId],
    );
    return row?.due ?? null;
  },

  async claimStillHeld(connection) {
    const pg = postgresOf(connection);
    // The claims out are checked against the database now, so the first answers are fresh.
    await refreshClaims(pg);
    return heldReader(pg);
  },

  async claimHeldForText(connection) {
    return latestHeldReader(postgresOf(connection));
  },

  async freshenSendChecks(connection) {
    await freshenChecks(postgresOf(connection));
  },

  /** Moves a claimed row's lease on (idempotent: run again after a lost connection, it moves it as far). */
  async renewLease(connection, seq, attempts, until) {
    const rows = await query<{ seq: number }>(
      postgresOf(connection),
      `UPDATE "Delivery" SET "nextAttemptAt" = $1
       WHERE "seq" = $2 AND "status" = 'pending' AND "attempts" = $3 AND "nextAttemptAt" < $1 RETURNING "seq"`,
      [until, seq, attempts],
    );
    return rows.length > 0;
  },

  sendRateBucket(connection, rate) {
    const pg = postgresOf(connection);
    return {
      take: (want, now) => (want >= 1 ? takeSendTokens(pg, rate, Math.floor(want), now) : Promise.resolve(0)),
      giveBack: (unused, now) =>
        unused >= 1 ? returnSendTokens(pg, rate, Math.floor(unused), now) : Promise.resolve(),
    };
  },
};
