// Claiming work from the delivery queue: the one place its SQL lives.
//
// A pending row is claimable once its nextAttemptAt has passed. Claiming a batch moves nextAttemptAt
// forward by the lease and counts an attempt, in one statement:
//   UPDATE … WHERE seq IN (SELECT seq … ORDER BY nextAttemptAt LIMIT n) RETURNING …
// If the claimer dies, nothing has to be released: the rows become claimable again when the lease
// runs out. The attempt number a claim returns is its lease token; an outcome is recorded only
// while the row still carries it, so a claimer whose lease expired cannot overwrite a newer one.
// The same statement runs on PostgreSQL, where the inner SELECT gains FOR UPDATE SKIP LOCKED so
// several instances can claim side by side.
import type { Sqlite } from "~/db/sqlite.server";

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

const statements = new WeakMap<Sqlite, Map<number, ReturnType<Sqlite["prepare"]>>>();

/** Claims up to `limit` due rows of one campaign, oldest due first. */
export function claimBatch(sqlite: Sqlite, { campaignId, limit, now, leaseMs }: ClaimOptions): ClaimedDelivery[] {
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new RangeError(`claim limit must be a positive integer, not ${limit}`);
  let byLimit = statements.get(sqlite);
  if (!byLimit) statements.set(sqlite, (byLimit = new Map()));
  let claim = byLimit.get(limit);
  if (!claim) {
    // The limit is written into the SQL: with a bound LIMIT, SQLite (STAT4) prepares the statement
    // again at every call.
    claim = sqlite.prepare(
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
  const rows = claim.all({ campaignId, now, lease: now + leaseMs }) as ClaimedDelivery[];
  // RETURNING gives rows in the order SQLite updated them; callers want the due order's ids sorted.
  return rows.sort((a, b) => a.seq - b.seq);
}
