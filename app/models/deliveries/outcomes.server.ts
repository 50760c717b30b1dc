// What became of claimed rows: the channel's answers recorded against their claim, and the queued
// rows of cancelled campaigns ended. Each write changes the campaign's counters with its rows, in
// one transaction, on the delivery job's connection. A bounce puts its address on the tenant's
// suppression list in that transaction too.
//
// On PostgreSQL each function runs its twin in ./outcomes.postgres.server.ts (decision 0033).
import { type AnyConnection, isPostgres } from "~/db/connection.server";
import type { Sqlite } from "~/db/sqlite.server";
import { LAUNCH_SLICE } from "~/models/deliveries/launch.server";
import { endCancelledRowsPg, recordOutcomesPg } from "~/models/deliveries/outcomes.postgres.server";
import type { NewSuppression, SuppressionReason } from "~/models/suppressions/rows";
import { suppressInSqliteTransaction } from "~/models/suppressions/store.server";

type Connection = Sqlite;

/** A bounced row's address, to put on the suppression list. */
export type BouncedAddress = { campaignId: string; userId: string; email: string; details: string };
/** An address to put on its tenant's suppression list because of what happened to a campaign's message. */
export type AddressToSuppress = BouncedAddress & { reason: SuppressionReason };

/**
 * Puts the addresses of rows that bounced on their tenant's suppression list as hard-bounced, with
 * the campaign they bounced on, inside the caller's transaction (the row's and the counters').
 */
export function suppressBounced(sqlite: Connection, bounced: readonly BouncedAddress[], now: number): void {
  suppressAddresses(
    sqlite,
    bounced.map((b) => ({ ...b, reason: "hard-bounced" })),
    now,
  );
}

/**
 * Puts addresses on their tenant's suppression list with the campaign they came from (a bounce, a
 * complaint, repeated soft bounces), inside the caller's transaction. An address on the list
 * already keeps its entry.
 */
export function suppressAddresses(sqlite: Connection, entries: readonly AddressToSuppress[], now: number): void {
  if (entries.length === 0) return;
  const campaignName = sqlite.prepare<unknown[], string>(`SELECT "name" FROM "Campaign" WHERE "id" = ?`).pluck();
  const names = new Map<string, string>();
  const byTenant = new Map<string, NewSuppression[]>();
  for (const b of entries) {
    if (!b.email) continue;
    let name = names.get(b.campaignId);
    if (name === undefined) names.set(b.campaignId, (name = campaignName.get(b.campaignId) ?? ""));
    let list = byTenant.get(b.userId);
    if (!list) byTenant.set(b.userId, (list = []));
    list.push({ email: b.email, reason: b.reason, campaignId: b.campaignId, campaignName: name, details: b.details });
  }
  for (const [userId, list] of byTenant) suppressInSqliteTransaction(sqlite, userId, list, now);
}

export type SendOutcome =
  /** Accepted by a channel that sends receipts later: the row waits for one as sent. */
  | { seq: number; attempts: number; outcome: "sent"; details: string }
  /** Accepted by a channel without receipts (an SMTP relay): that acceptance is the delivery. */
  | { seq: number; attempts: number; outcome: "delivered"; details: string }
  | { seq: number; attempts: number; outcome: "failed" | "bounced"; details: string; error: boolean }
  | { seq: number; attempts: number; outcome: "retry"; details: string; retryAt: number; error: boolean }
  /** Never handed to the channel (the campaign was paused or cancelled): back in the queue, the attempt not spent. */
  | { seq: number; attempts: number; outcome: "held" };

/** recordOutcomes' statements, prepared once per connection (the SMTP channel records each answer on its own). */
function prepareOutcomeStatements(sqlite: Connection) {
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
const outcomeStatementsOf = new WeakMap<Connection, ReturnType<typeof prepareOutcomeStatements>>();
function outcomeStatements(sqlite: Connection) {
  let statements = outcomeStatementsOf.get(sqlite);
  if (!statements) outcomeStatementsOf.set(sqlite, (statements = prepareOutcomeStatements(sqlite)));
  return statements;
}

/**
 * Records what the channel said about claimed rows of one campaign, in one transaction. A row is
 * changed only while it is still pending with the attempt number of this claim (its lease token);
 * an outcome for a row whose lease ran out and was claimed again, or that a receipt already moved
 * on, changes nothing. Outcomes marked `error` count toward the campaign's error cap. A row that
 * bounced puts its address on the tenant's suppression list (hard-bounced, with this campaign).
 */
export async function recordOutcomes(
  sqlite: AnyConnection,
  campaignId: string,
  outcomes: readonly SendOutcome[],
  now = Date.now(),
): Promise<void> {
  if (isPostgres(sqlite)) return recordOutcomesPg(sqlite, campaignId, outcomes, now);
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
      suppressBounced(sqlite, bouncedAddresses, now);
    })
    .immediate();
}

/** What a cancel writes in the details of the rows it ends. */
export const CANCELLED_DETAILS = "Not sent: the campaign was cancelled";

/**
 * Ends the queued rows of cancelled campaigns as "cancelled", up to `slice` rows a transaction and
 * a call. Rows out with the channel (their lease not yet run out) are left to come back first: a
 * message that was handed over keeps what the channel said. Returns how many rows it ended.
 */
export async function endCancelledRows(sqlite: AnyConnection, now = Date.now(), slice = LAUNCH_SLICE): Promise<number> {
  if (isPostgres(sqlite)) return endCancelledRowsPg(sqlite, now, slice);
  const campaigns = sqlite
    .prepare<unknown[], string>(`SELECT "id" FROM "Campaign" WHERE "status" = 'Cancelled' AND "pendingCount" > 0`)
    .pluck()
    .all();
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
}
