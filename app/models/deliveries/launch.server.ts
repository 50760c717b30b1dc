// A launch: the campaign's audience written as its delivery rows (one pending row per customer the
// segment matches), on a connection of the thread that launches (the server's worker thread, the
// CLI, the seed, the bench), and the recovery of launches a crash cut off.
//
// On PostgreSQL each function runs its twin in ./launch.postgres.server.ts (decision 0033), and
// the audience WHERE must be the compiler's PostgreSQL text.
import { type AnyConnection, databaseEngine, isPostgres, openConnection } from "~/db/connection.server";
import { postgres } from "~/db/postgres.server";
import { readStatement } from "~/db/reader.server";
import { openSqlite, type Sqlite } from "~/db/sqlite.server";
import { ApiError } from "~/lib/api.server";
import { type NewCampaign, resendValue, trackingValue, writeDraftRow } from "~/models/campaigns.server";
import {
  countAudiencePg,
  nonOpenersWherePg,
  recoverInterruptedLaunchesPg,
  startLaunchPg,
  suppressedInAudiencePg,
} from "~/models/deliveries/launch.postgres.server";
import type { CompiledWhere } from "~/models/segments/compile.server";

/** The status detail of a draft whose audience is being written (see startLaunch). */
export const LAUNCHING = "Launching: writing the audience";
/** The 409 of a launch of a campaign another launch has taken (docs/rules.md#one-launch-one-send). */
export const LAUNCH_IN_PROGRESS = "This campaign is being launched already.";
export const LAUNCH_INTERRUPTED = "The launch was interrupted before its audience was written. Launch it again.";
/** Delivery rows written a transaction: a few milliseconds of the write lock at a time. */
export const LAUNCH_SLICE = 5_000;
/** A launch's connection checkpoints every this many pages of log (SQLite's default: 1,000). */
const LAUNCH_CHECKPOINT_PAGES = 10_000;
const LAUNCH_CACHE_KIB = 8 * 1024;

/** Removes up to LAUNCH_SLICE delivery rows of one campaign (its id the one parameter). */
export const DELETE_DELIVERY_SLICE = `DELETE FROM "Delivery" WHERE "seq" IN (SELECT "seq" FROM "Delivery" WHERE "campaignId" = ? LIMIT ${LAUNCH_SLICE})`;

/**
 * The connection a launch writes on (the server's worker thread, and the bench that measures it).
 * A small page cache: the launch reads customers and appends deliveries in rowid order, and the
 * default 64 MB would fill and stay resident. Checkpoints every LAUNCH_CHECKPOINT_PAGES: each one
 * syncs the files, and at SQLite's 1,000 pages a million-row launch ran about 200 of them.
 */
export async function openLaunchConnection(file: string): Promise<AnyConnection> {
  // On PostgreSQL there is no file: a pool of its own to DATABASE_URL (one connection at a time).
  if (databaseEngine() === "postgres") return openConnection({ poolSize: 2, applicationName: "crm launch" });
  const sqlite = openSqlite(file);
  sqlite.pragma(`cache_size = -${LAUNCH_CACHE_KIB}`);
  sqlite.pragma(`wal_autocheckpoint = ${LAUNCH_CHECKPOINT_PAGES}`);
  return sqlite;
}

/**
 * The audience's customers whose address is on the tenant's suppression list. Driven from the list
 * side: each suppressed address is one probe of the customers' (userId, email) index, then the
 * segment's WHERE is tested on the customer found, so it costs as much as the list is long, however
 * many customers the tenant has (a segment's covering index would read the whole audience).
 */
const SUPPRESSED_IN_AUDIENCE = (where: CompiledWhere) =>
  `SELECT count(*) FROM "Customer" INDEXED BY "Customer_userId_email_key"
   WHERE "userId" = ? AND "email" IN (SELECT "email" FROM "Suppression" WHERE "userId" = ?) AND (${where.sql})`;

/** How many of the audience `where` (the tenant's segment) are on the tenant's suppression list. */
export async function suppressedInAudience(
  userId: string,
  where: CompiledWhere,
  connection?: AnyConnection,
): Promise<number> {
  if (connection ? isPostgres(connection) : databaseEngine() === "postgres")
    return suppressedInAudiencePg(connection && isPostgres(connection) ? connection : postgres(), userId, where);
  const sql = SUPPRESSED_IN_AUDIENCE(where);
  const statement = connection ? (connection as Sqlite).prepare<unknown[], number>(sql) : readStatement<number>(sql);
  return Number(statement.pluck().get(userId, userId, ...where.params));
}

/**
 * The second audience source (the first is a segment's compiled WHERE, segmentWhere()): the
 * non-openers of one of the tenant's campaigns, as a WHERE over "Customer" that a launch, a count
 * and the suppression count use as they use a segment's (docs/rules.md#resend-to-non-openers).
 * A recipient who got it (their row was accepted: sent or delivered; not bounced, failed,
 * complained, cancelled or suppressed, nor still pending) and neither opened it nor clicked in it
 * as a person (openedAt and clickedAt are set by human engagement only; machine opens never set
 * them). Evaluated when it runs, so a launch takes the non-openers of that moment; the customer
 * must still exist and be the tenant's ("userId" leads, as in a segment's WHERE). One probe of the
 * source's delivery row per customer scanned, so a launch's slices cost what a segment's do: as an
 * `"id" IN (subquery)` SQLite drove from the list and sorted it again for every slice (138,000
 * non-openers of a 200,000-customer tenant launched in 9.2 s; with the probe 1.4 s, and counted in
 * 0.3 s).
 */
export function nonOpenersWhere(userId: string, campaignId: string): CompiledWhere {
  if (databaseEngine() === "postgres") return nonOpenersWherePg(userId, campaignId);
  return {
    sql: `"userId" = ? AND EXISTS (SELECT 1 FROM "Delivery" "d" WHERE "d"."campaignId" = ? AND "d"."customerId" = "Customer"."id"
      AND "d"."userId" = "Customer"."userId" AND "d"."status" IN ('sent', 'delivered') AND "d"."openedAt" IS NULL AND "d"."clickedAt" IS NULL)`,
    params: [userId, campaignId],
  };
}

/** How many customers an audience WHERE (a segment's, or nonOpenersWhere) matches now. */
export async function countAudience(where: CompiledWhere, connection?: AnyConnection): Promise<number> {
  if (connection ? isPostgres(connection) : databaseEngine() === "postgres")
    return countAudiencePg(connection && isPostgres(connection) ? connection : postgres(), where);
  const sql = `SELECT count(*) FROM "Customer" WHERE ${where.sql}`;
  const statement = connection ? (connection as Sqlite).prepare<unknown[], number>(sql) : readStatement<number>(sql);
  return Number(statement.pluck().get(...where.params));
}

/** Whether the tenant has any address on the suppression list (one probe of its primary key). */
function hasSuppressions(sqlite: Sqlite, userId: string): boolean {
  return (
    sqlite.prepare<unknown[], number>(`SELECT 1 FROM "Suppression" WHERE "userId" = ? LIMIT 1`).pluck().get(userId) !==
    undefined
  );
}

/**
 * What the launch's INSERT adds to its SELECT of customers when the tenant has suppressions: a
 * probe of the list's primary key per customer (customers' addresses are stored in lower case, as
 * the list's are). A tenant without any keeps the statement without it.
 */
const NOT_SUPPRESSED = ` AND NOT EXISTS (SELECT 1 FROM "Suppression" "s" WHERE "s"."userId" = "Customer"."userId" AND "s"."email" = "Customer"."email")`;

export type Launch = {
  /** Writes the next slice of the audience; false when there is nothing left to write. */
  step(): Promise<boolean>;
  /** Makes the campaign Active with its audience; returns the audience size (0: nothing to send, nothing kept). */
  finish(): Promise<number>;
};

/**
 * Launches a campaign: one pending delivery row per customer the segment's WHERE matches whose
 * address is not on the tenant's suppression list (those are counted as suppressedAtLaunch), written
 * by INSERT … SELECT (no customer passes through JavaScript) in slices of `slice` rows in customer
 * rowid order, each its own short transaction, so a million-row audience never holds the write
 * lock for seconds. The server drives it in a worker thread (launchCampaignOffThread in
 * app/services/background-work.server.ts), so no request waits for the event loop meanwhile.
 *
 * While the slices are written the campaign stays a Draft marked LAUNCHING, which the delivery job
 * does not send; finish() makes it Active in one step. Its delivery rows get a range of seq numbers
 * reserved up front (as many as the tenant has customers), so a campaign's rows stay contiguous
 * even when two launches run at once, and its log pages by seq. A launch cut off by a crash leaves
 * a LAUNCHING draft that recoverInterruptedLaunches() clears.
 */
export async function startLaunch(
  sqlite: AnyConnection,
  c: NewCampaign,
  where: CompiledWhere,
  options: { now?: number; slice?: number } = {},
): Promise<Launch> {
  if (isPostgres(sqlite)) return startLaunchPg(sqlite, c, where, options);
  const now = options.now ?? Date.now();
  const slice = options.slice ?? LAUNCH_SLICE;
  // Read before the write lock is taken: customers on the suppression list get no row, and the
  // campaign says how many the launch left out. (An address suppressed while the slices are
  // written is caught by the send's re-check: see claimBatch.)
  const suppressing = hasSuppressions(sqlite, c.userId);
  const leftOut = suppressing ? await suppressedInAudience(c.userId, where, sqlite) : 0;
  let existed = false;
  const { base, room } = sqlite
    .transaction(() => {
      const existing = sqlite
        .prepare<unknown[], { status: string; statusDetail: string }>(
          `SELECT "status", "statusDetail" FROM "Campaign" WHERE "id" = ? AND "userId" = ?`,
        )
        .get(c.id, c.userId);
      // Two launches of one draft at once: the second is refused (409), never a second send.
      if (existing && (existing.status !== "Draft" || existing.statusDetail === LAUNCHING))
        throw new ApiError("conflict", LAUNCH_IN_PROGRESS);
      existed = Boolean(existing);
      if (existing) {
        sqlite
          .prepare(
            `UPDATE "Campaign" SET "segmentId" = ?, "segmentName" = ?, "name" = ?, "subject" = ?, "description" = ?, "message" = ?,
               "trackingEnabled" = ?, "resendOfId" = ?, "statusDetail" = ?, "updatedAt" = ? WHERE "id" = ?`,
          )
          .run(
            c.segmentId,
            c.segmentName,
            c.name,
            c.subject,
            c.description,
            c.message,
            trackingValue(c),
            resendValue(c),
            LAUNCHING,
            now,
            c.id,
          );
      } else {
        // A new campaign is a draft marked LAUNCHING until its audience is written.
        writeDraftRow(sqlite, c, 0, LAUNCHING, now);
      }
      // The tally kept by triggers; counted when a tenant has none.
      const tally = sqlite
        .prepare<unknown[], number>(`SELECT "customers" FROM "CustomerTally" WHERE "userId" = ?`)
        .pluck()
        .get(c.userId);
      const customers = Number(
        tally ??
          sqlite.prepare<unknown[], number>(`SELECT count(*) FROM "Customer" WHERE "userId" = ?`).pluck().get(c.userId),
      );
      const from = Number(
        sqlite
          .prepare<unknown[], number>(
            `SELECT max(coalesce((SELECT max("seq") FROM "Delivery"), 0), coalesce((SELECT max("lastSeq") FROM "Campaign"), 0))`,
          )
          .pluck()
          .get(),
      );
      sqlite
        .prepare(`UPDATE "Campaign" SET "firstSeq" = ?, "lastSeq" = ? WHERE "id" = ?`)
        .run(from + 1, from + Math.max(1, customers), c.id);
      return { base: from, room: Math.max(1, customers) };
    })
    .immediate();

  // Rows go in customer rowid order and seq follows it, so the primary key and both indexes are
  // appended to rather than written at random places. The inner query takes the slice first, so
  // each slice reads about as many customers as it writes. No row comes back to JavaScript: the
  // slice's last row (the highest seq, so the highest customer rowid) says where the next begins.
  // (Returning every row built a million objects per million recipients: a fifth of the launch.)
  const insert = sqlite.prepare(
    `INSERT INTO "Delivery" ("seq", "campaignId", "userId", "customerId", "name", "email", "phone", "status", "nextAttemptAt", "updatedAt")
     SELECT ? + row_number() OVER (ORDER BY "r"), ?, "userId", "id", trim("firstName" || ' ' || "lastName"), "email", "phone",
       'pending', ?, ?
     FROM (SELECT "rowid" AS "r", "userId", "id", "firstName", "lastName", "email", "phone" FROM "Customer"
           WHERE "rowid" > ? AND (${where.sql})${suppressing ? NOT_SUPPRESSED : ""} ORDER BY "rowid" LIMIT ?)`,
  );
  const rowidAtSeq = sqlite
    .prepare<unknown[], number>(
      `SELECT "c"."rowid" FROM "Delivery" "d" JOIN "Customer" "c" ON "c"."id" = "d"."customerId" WHERE "d"."seq" = ?`,
    )
    .pluck();
  const heartbeat = sqlite.prepare(`UPDATE "Campaign" SET "updatedAt" = ? WHERE "id" = ?`);
  let after = 0;
  let written = 0;
  let done = false;
  const writeSlice = sqlite.transaction(() => {
    const limit = Math.min(slice, room - written);
    if (limit <= 0) return 0;
    const { changes } = insert.run(base + written, c.id, now, now, after, ...where.params, limit);
    if (changes === 0) return 0;
    after = Number(rowidAtSeq.get(base + written + changes));
    heartbeat.run(Date.now(), c.id);
    return changes;
  });
  const step = () => {
    if (done) return false;
    const n = writeSlice.immediate();
    written += n;
    if (n === 0) done = true;
    return !done;
  };

  return {
    async step() {
      return step();
    },
    async finish() {
      while (step());
      return sqlite
        .transaction(() => {
          if (written === 0) {
            if (existed)
              sqlite
                .prepare(`UPDATE "Campaign" SET "statusDetail" = '', "firstSeq" = 0, "lastSeq" = 0 WHERE "id" = ?`)
                .run(c.id);
            else sqlite.prepare(`DELETE FROM "Campaign" WHERE "id" = ?`).run(c.id);
            return 0;
          }
          sqlite
            .prepare(
              `UPDATE "Campaign" SET "status" = 'Active', "statusDetail" = '', "launchedAt" = ?, "updatedAt" = ?,
                 "audienceSize" = ?, "pendingCount" = ?, "suppressedAtLaunch" = ?, "lastSeq" = ? WHERE "id" = ?`,
            )
            .run(now, now, written, written, leftOut, base + written, c.id);
          return written;
        })
        .immediate();
    },
  };
}

/** A whole launch at once (the seed, the CLI and tests); the server uses launchCampaignOffThread. */
export async function launchCampaign(
  sqlite: AnyConnection,
  c: NewCampaign,
  where: CompiledWhere,
  now = Date.now(),
): Promise<number> {
  return (await startLaunch(sqlite, c, where, { now })).finish();
}

/**
 * Clears launches cut off by a crash: drafts still marked LAUNCHING whose last slice is older than
 * `staleMs` lose their partial audience and say that the launch was interrupted. Returns how many.
 */
export async function recoverInterruptedLaunches(
  sqlite: AnyConnection,
  staleMs = 60_000,
  now = Date.now(),
): Promise<number> {
  if (isPostgres(sqlite)) return recoverInterruptedLaunchesPg(sqlite, staleMs, now);
  const stale = sqlite
    .prepare<unknown[], string>(
      `SELECT "id" FROM "Campaign" WHERE "status" = 'Draft' AND "statusDetail" = ? AND "updatedAt" < ?`,
    )
    .pluck()
    .all(LAUNCHING, now - staleMs);
  const slice = sqlite.prepare(DELETE_DELIVERY_SLICE);
  for (const id of stale) {
    while (slice.run(id).changes > 0);
    sqlite
      .prepare(
        `UPDATE "Campaign" SET "statusDetail" = ?, "firstSeq" = 0, "lastSeq" = 0, "updatedAt" = ? WHERE "id" = ?`,
      )
      .run(LAUNCH_INTERRUPTED, now, id);
  }
  return stale.length;
}
