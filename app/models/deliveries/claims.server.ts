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
import type Database from "better-sqlite3";
import type { Sqlite } from "~/db/sqlite.server";
import type { Connection } from "~/models/transaction.server";

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

/** Claims up to `limit` due rows of one campaign, oldest due first. */
export async function claimBatch(
  sqlite: Connection,
  { campaignId, limit, now, leaseMs }: ClaimOptions,
): Promise<ClaimedDelivery[]> {
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new RangeError(`claim limit must be a positive integer, not ${limit}`);
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
  const rows = claim.all({ campaignId, now, lease: now + leaseMs });
  // RETURNING gives rows in the order SQLite updated them; callers want the due order's ids sorted.
  return rows.sort((a, b) => a.seq - b.seq);
}

/** The earliest time a pending row of an active campaign becomes claimable (null: none left). */
export async function nextDueAt(sqlite: Connection, campaignId: string): Promise<number | null> {
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
 * past `until`. Asked before each message is handed to a channel, so the check it returns is one
 * synchronous read, as the channel asks it (SendControl.proceed).
 */
export async function claimStillHeld(
  sqlite: Connection,
): Promise<(seq: number, attempts: number, until: number) => boolean> {
  const read = sqlite
    .prepare<unknown[], number>(
      `SELECT 1 FROM "Delivery" WHERE "seq" = ? AND "status" = 'pending' AND "attempts" = ? AND "nextAttemptAt" > ?`,
    )
    .pluck();
  return (seq, attempts, until) => read.get(seq, attempts, until) !== undefined;
}
