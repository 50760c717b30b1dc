// Claiming work from the delivery queue.
//
// A pending row is claimable once its nextAttemptAt has passed. Claiming a batch moves nextAttemptAt
// forward by the lease and counts an attempt, in one statement:
//   UPDATE … WHERE seq IN (SELECT seq … ORDER BY nextAttemptAt LIMIT n) RETURNING …
// If the claimer dies, nothing has to be released: the rows become claimable again when the lease
// runs out. The attempt number a claim returns is its lease token; an outcome is recorded only
// while the row still carries it, so a claimer whose lease expired cannot overwrite a newer one.
// The same statement runs on PostgreSQL, where the inner SELECT gains FOR UPDATE SKIP LOCKED so
// several instances can claim side by side.
//
// The send honours the suppression list: in the transaction of the claim, each claimed row whose
// address is on the tenant's list now (an unsubscribe or a bounce since the launch) is ended as
// "suppressed" and not returned, so nothing more goes to that address. One probe of the list's
// primary key per row, and only when the tenant has any suppression at all.
//
// On PostgreSQL each function runs its twin in ./claims.postgres.server.ts (decision 0033).
import type Database from "better-sqlite3";
import { type AnyConnection, isPostgres } from "~/db/connection.server";
import type { Sqlite } from "~/db/sqlite.server";
import { suppressedDetails } from "~/lib/campaigns";
import { DEFAULT_TIME_ZONE, formatShortDate } from "~/lib/dates";
import { claimBatchPg, claimStillHeldPg, nextDueAtPg, renewLeasePg } from "~/models/deliveries/claims.postgres.server";

export type ClaimedDelivery = {
  seq: number;
  campaignId: string;
  customerId: string;
  name: string;
  email: string;
  phone: string;
  attempts: number;
  retries: number;
};

export type ClaimOptions = { campaignId: string; limit: number; now: number; leaseMs: number };

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

/** The day of a suppression as its details say it, in the tenant's zone (India's when it chose none). */
function dayOf(ms: number, timeZone: string | null): string {
  try {
    return formatShortDate(ms, timeZone ?? DEFAULT_TIME_ZONE);
  } catch {
    return formatShortDate(ms, DEFAULT_TIME_ZONE);
  }
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
    const details = suppressedDetails(entry.reason, dayOf(Number(entry.createdAt), tenant.timeZone));
    ended += check.end.run(details, now, row.seq, row.attempts).changes;
  }
  if (ended > 0) check.counters.run(ended, ended, now, campaignId);
  return kept;
}

/**
 * Claims up to `limit` due rows of one campaign, oldest due first. Rows whose address is on the
 * tenant's suppression list are ended as "suppressed" in the same transaction and left out, so
 * fewer rows may come back than were due.
 */
export async function claimBatch(
  sqlite: AnyConnection,
  { campaignId, limit, now, leaseMs }: ClaimOptions,
): Promise<ClaimedDelivery[]> {
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new RangeError(`claim limit must be a positive integer, not ${limit}`);
  if (isPostgres(sqlite)) return claimBatchPg(sqlite, { campaignId, limit, now, leaseMs });
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

/** The earliest time a pending row of an active campaign becomes claimable (null: none left). */
export async function nextDueAt(sqlite: AnyConnection, campaignId: string): Promise<number | null> {
  if (isPostgres(sqlite)) return nextDueAtPg(sqlite, campaignId);
  const v = sqlite
    .prepare<unknown[], number | null>(
      `SELECT min("nextAttemptAt") FROM "Delivery" WHERE "campaignId" = ? AND "status" = 'pending'`,
    )
    .pluck()
    .get(campaignId);
  return v ?? null;
}

/**
 * Whether a claimed row is still this claim's: pending, with its attempt number, its lease running
 * past `until`, and its address not suppressed since the claim (an unsubscribe while the batch
 * waited for a connection: the row goes back to the queue, and its next claim ends it as
 * suppressed). Asked before each message is handed to a channel, so the check it returns is
 * synchronous, as the channel asks it (SendControl.proceed): on SQLite one read; on PostgreSQL
 * the claim's lease as known in memory and the row's last check, at most SEND_CHECK_MAX_AGE_MS old
 * (app/models/deliveries/send-checks.postgres.server.ts).
 */
export async function claimStillHeld(
  sqlite: AnyConnection,
): Promise<(seq: number, attempts: number, until: number) => boolean> {
  if (isPostgres(sqlite)) return claimStillHeldPg(sqlite);
  const read = sqlite
    .prepare<unknown[], number>(
      `SELECT 1 FROM "Delivery" "d" WHERE "d"."seq" = ? AND "d"."status" = 'pending' AND "d"."attempts" = ? AND "d"."nextAttemptAt" > ?
         AND NOT EXISTS (SELECT 1 FROM "Suppression" "s" WHERE "s"."userId" = "d"."userId" AND "s"."email" = lower("d"."email"))`,
    )
    .pluck();
  return (seq, attempts, until) => read.get(seq, attempts, until) !== undefined;
}

/**
 * Moves a claimed row's lease on to `until` while it is still this claim's (pending, with its
 * attempt number): the row whose final answer a relay is still working on is not claimed by
 * anyone else meanwhile. True when the lease was moved.
 */
export async function renewLease(
  connection: AnyConnection,
  seq: number,
  attempts: number,
  until: number,
): Promise<boolean> {
  if (isPostgres(connection)) return renewLeasePg(connection, seq, attempts, until);
  return (
    connection
      .prepare(
        `UPDATE "Delivery" SET "nextAttemptAt" = ? WHERE "seq" = ? AND "status" = 'pending' AND "attempts" = ? AND "nextAttemptAt" < ?`,
      )
      .run(until, seq, attempts, until).changes > 0
  );
}

/**
 * Keeps a claimed row this claim's until the returned function is called: its lease is renewed to
 * a whole `leaseMs` ahead every quarter of it (a message goes with at least half its lease left,
 * so it never runs out in between).
 */
export function keepClaimed(
  connection: AnyConnection,
  row: Pick<ClaimedDelivery, "seq" | "attempts">,
  leaseMs: number,
  now: () => number = Date.now,
): () => void {
  const timer = setInterval(
    () => {
      renewLease(connection, row.seq, row.attempts, now() + leaseMs).catch(() => undefined);
    },
    Math.max(10, Math.floor(leaseMs / 4)),
  );
  timer.unref();
  return () => clearInterval(timer);
}
