// Claiming work from the delivery queue on SQLite, the checks before each message goes, and the
// send rate (the contract: ./contract.ts).
//
// A pending row is claimable once its nextAttemptAt has passed. Claiming a batch moves nextAttemptAt
// forward by the lease and counts an attempt, in one statement:
//   UPDATE … WHERE seq IN (SELECT seq … ORDER BY nextAttemptAt LIMIT n) RETURNING …
// If the claimer dies, nothing has to be released: the rows become claimable again when the lease
// runs out. The attempt number a claim returns is its lease token; an outcome is recorded only
// while the row still carries it, so a claimer whose lease expired cannot overwrite a newer one.
// The same statement runs on PostgreSQL (./postgres.server.ts), where the inner SELECT gains FOR
// UPDATE SKIP LOCKED so several instances can claim side by side.
//
// The send honours the suppression list: in the transaction of the claim, each claimed row whose
// address is on the tenant's list now (an unsubscribe or a bounce since the launch) is ended as
// "suppressed" and not returned, so nothing more goes to that address. One probe of the list's
// primary key per row, and only when the tenant has any suppression at all.
//
// The checks before each message are synchronous reads, current when asked. The send rate
// (DELIVERY_RATE_PER_SECOND) is a token bucket: up to a second's worth of messages may go at once,
// and the bucket refills continuously at the rate; the delivery engine takes tokens for a batch
// before claiming it and gives back what the claim did not use (app/services/sending/engine.server.ts).
// On SQLite the product is one server with one delivery job, which keeps its own bucket in memory:
// writing it would queue each batch's tokens behind the one writer (decision 0020).
import type Database from "better-sqlite3";
import type { AnyConnection } from "~/db/connection.server";
import { sqliteOf } from "~/db/engine.server";
import type { Sqlite } from "~/db/sqlite.server";
import { suppressedDetails } from "~/lib/campaigns";
import type { ClaimsStore } from "./contract";
import {
  checkClaimLimit,
  type ClaimCheck,
  type ClaimedDelivery,
  type ClaimOptions,
  refilled,
  type SendRate,
  type SendRateBucket,
  suppressionDay,
} from "./rows";

type ClaimParams = { campaignId: string; now: number; lease: number };
type ClaimStatement = Database.Statement<[ClaimParams], ClaimedDelivery>;
const statements = new WeakMap<Sqlite, Map<number, ClaimStatement>>();

type SuppressionCheck = {
  /** The campaign's tenant, whether it has any suppression, and its time zone. */
  tenant: Database.Statement<[string], { userId: string; suppressing: number; timeZone: string | null }>;
  /** An address's entry on the tenant's list. */
  entry: Database.Statement<[string, string], { reason: string; createdAt: number }>;
  /** Ends a claimed row as suppressed (while it is still this claim's). */
  end: Database.Statement<[string, number, number, number]>;
  counters: Database.Statement<[number, number, number, string]>;
};
const checks = new WeakMap<Sqlite, SuppressionCheck>();

function suppressionCheck(sqlite: Sqlite): SuppressionCheck {
  let check = checks.get(sqlite);
  if (!check) {
    check = {
      tenant: sqlite.prepare(
        `SELECT "c"."userId" AS "userId",
           EXISTS (SELECT 1 FROM "Suppression" "s" WHERE "s"."userId" = "c"."userId") AS "suppressing",
           (SELECT "timeZone" FROM "User" "u" WHERE "u"."id" = "c"."userId") AS "timeZone"
         FROM "Campaign" "c" WHERE "c"."id" = ?`,
      ),
      entry: sqlite.prepare(`SELECT "reason", "createdAt" FROM "Suppression" WHERE "userId" = ? AND "email" = ?`),
      end: sqlite.prepare(
        `UPDATE "Delivery" SET "status" = 'suppressed', "details" = ?, "updatedAt" = ?, "nextAttemptAt" = 0
         WHERE "seq" = ? AND "status" = 'pending' AND "attempts" = ?`,
      ),
      counters: sqlite.prepare(
        `UPDATE "Campaign" SET "pendingCount" = "pendingCount" - ?, "suppressedCount" = "suppressedCount" + ?, "updatedAt" = ?
         WHERE "id" = ?`,
      ),
    };
    checks.set(sqlite, check);
  }
  return check;
}

/**
 * Ends the claimed rows whose address is on the tenant's list now as "suppressed", with the
 * campaign's counters, inside the claim's transaction; returns the rows to send.
 */
function leaveOutSuppressed(sqlite: Sqlite, campaignId: string, rows: ClaimedDelivery[], now: number) {
  const check = suppressionCheck(sqlite);
  const tenant = check.tenant.get(campaignId);
  if (!tenant?.suppressing) return rows;
  const kept: ClaimedDelivery[] = [];
  let ended = 0;
  for (const row of rows) {
    const entry = row.email ? check.entry.get(tenant.userId, row.email.toLowerCase()) : undefined;
    if (!entry) {
      kept.push(row);
      continue;
    }
    const details = suppressedDetails(entry.reason, suppressionDay(Number(entry.createdAt), tenant.timeZone));
    ended += check.end.run(details, now, row.seq, row.attempts).changes;
  }
  if (ended > 0) check.counters.run(ended, ended, now, campaignId);
  return kept;
}

async function claimBatch(
  connection: AnyConnection,
  { campaignId, limit, now, leaseMs }: ClaimOptions,
): Promise<ClaimedDelivery[]> {
  checkClaimLimit(limit);
  const sqlite = sqliteOf(connection);
  let byLimit = statements.get(sqlite);
  if (!byLimit) statements.set(sqlite, (byLimit = new Map()));
  let claim = byLimit.get(limit);
  if (!claim) {
    // The limit is written into the SQL: with a bound LIMIT, SQLite (STAT4) prepares the statement
    // again at every call.
    claim = sqlite.prepare<[ClaimParams], ClaimedDelivery>(
      `UPDATE "Delivery" SET "nextAttemptAt" = @lease, "attempts" = "attempts" + 1
       WHERE "seq" IN (
         SELECT "seq" FROM "Delivery"
         WHERE "campaignId" = @campaignId AND "status" = 'pending' AND "nextAttemptAt" <= @now
         ORDER BY "nextAttemptAt" LIMIT ${limit}
       )
       RETURNING "seq", "campaignId", "customerId", "name", "email", "phone", "attempts", "retries"`,
    );
    byLimit.set(limit, claim);
  }
  const statement = claim;
  const rows = sqlite
    .transaction(() => {
      const claimed = statement.all({ campaignId, now, lease: now + leaseMs });
      return claimed.length === 0 ? claimed : leaveOutSuppressed(sqlite, campaignId, claimed, now);
    })
    .immediate();
  // RETURNING gives rows in the order SQLite updated them; callers want the due order's ids sorted.
  return rows.sort((a, b) => a.seq - b.seq);
}

async function claimStillHeld(connection: AnyConnection): Promise<ClaimCheck> {
  const read = sqliteOf(connection)
    .prepare<unknown[], number>(
      `SELECT 1 FROM "Delivery" "d" WHERE "d"."seq" = ? AND "d"."status" = 'pending' AND "d"."attempts" = ? AND "d"."nextAttemptAt" > ?
         AND NOT EXISTS (SELECT 1 FROM "Suppression" "s" WHERE "s"."userId" = "d"."userId" AND "s"."email" = lower("d"."email"))`,
    )
    .pluck();
  return (seq, attempts, until) => read.get(seq, attempts, until) !== undefined;
}

/** The engine's own bucket, full at first whatever the first clock reading. */
function memoryBucket(rate: SendRate): SendRateBucket {
  let tokens = rate.perSecond;
  let refilledAt = Number.NEGATIVE_INFINITY;
  const refill = (now: number) => {
    tokens = refilled(tokens, refilledAt, now, rate.perSecond);
    refilledAt = Math.max(refilledAt, now);
  };
  return {
    take: async (want, now) => {
      refill(now);
      const granted = Math.max(0, Math.min(Math.floor(want), Math.floor(tokens)));
      tokens -= granted;
      return granted;
    },
    giveBack: async (unused, now) => {
      refill(now);
      tokens = Math.min(rate.perSecond, tokens + Math.max(0, Math.floor(unused)));
    },
  };
}

export const sqliteClaims: ClaimsStore = {
  claimBatch,

  async nextDueAt(connection, campaignId) {
    const v = sqliteOf(connection)
      .prepare<unknown[], number | null>(
        `SELECT min("nextAttemptAt") FROM "Delivery" WHERE "campaignId" = ? AND "status" = 'pending'`,
      )
      .pluck()
      .get(campaignId);
    return v ?? null;
  },

  claimStillHeld,

  // The checks are reads made when asked: the text's check is the same read.
  claimHeldForText: claimStillHeld,

  async freshenSendChecks() {},

  async renewLease(connection, seq, attempts, until) {
    return (
      sqliteOf(connection)
        .prepare(
          `UPDATE "Delivery" SET "nextAttemptAt" = ? WHERE "seq" = ? AND "status" = 'pending' AND "attempts" = ? AND "nextAttemptAt" < ?`,
        )
        .run(until, seq, attempts, until).changes > 0
    );
  },

  sendRateBucket: (_connection, rate) => memoryBucket(rate),
};
