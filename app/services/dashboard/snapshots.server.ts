// The dashboard's daily snapshots (table DashboardSnapshot, docs/decisions/0012-dashboard-snapshots.md):
// per tenant per day (India Standard Time) the counts of customers, segments and campaigns as of
// takenAt, and the customers added and campaigns launched that day up to takenAt. The snapshots
// job (jobs/snapshots.ts) writes them at start and every hour; the dashboard reads them and counts
// only what was created since the latest one.
//
// Every count here is a range of an index, tenant first: customers by id (ids begin with their
// creation second, app/lib/id.ts, so "created in [from, to)" is an id range of the (userId, id)
// index), segments and campaigns by (userId, createdAt). Windows are whole seconds.
import type Database from "better-sqlite3";
import { addDays, dayOf, dayStartMs, monthStart, weekStarts } from "~/lib/dashboard";

/** Prepares (and may cache) a statement: the read connection's cache, or one of a job's own. */
export type Prepare = (sql: string) => Database.Statement;

export function statementCache(db: Database.Database): Prepare {
  const cache = new Map<string, Database.Statement>();
  return (sql) => {
    let st = cache.get(sql);
    if (!st) {
      st = db.prepare(sql);
      cache.set(sql, st);
    }
    return st;
  };
}

/** The lowest id made in the second of `ms` or later: ids below it were made before that second. */
export function idFloor(ms: number): string {
  return Math.max(0, Math.floor(ms / 1000))
    .toString(16)
    .padStart(8, "0")
    .concat("0000000000000000");
}

const wholeSecond = (ms: number) => Math.floor(ms / 1000) * 1000;

/**
 * The number a `SELECT … AS n` answers. Statements from the read connection's cache are shared with
 * other modules, so none is switched to pluck mode here: each shape is read as a row.
 */
function num(prepare: Prepare, sql: string, ...params: unknown[]): number | undefined {
  const row = prepare(sql).get(...params) as { n: number | bigint | null } | undefined;
  return row ? Number(row.n ?? 0) : undefined;
}

export type Created = { customers: number; segments: number; campaigns: number; campaignsSent: number };

const CUSTOMERS_BETWEEN = `SELECT count(*) AS n FROM "Customer" WHERE "userId" = ? AND "id" >= ? AND "id" < ?`;
const SEGMENTS_BETWEEN = `SELECT count(*) AS n FROM "Segment" WHERE "userId" = ? AND "createdAt" >= ? AND "createdAt" < ?`;
const CAMPAIGNS_BETWEEN = `SELECT count(*) AS campaigns,
  (SELECT count(*) FROM "Campaign" WHERE "userId" = ? AND "launchedAt" >= ? AND "launchedAt" < ?) AS campaignsSent
  FROM "Campaign" WHERE "userId" = ? AND "createdAt" >= ? AND "createdAt" < ?`;

/** Customers, segments and campaigns created, and campaigns launched, in [from, to) (ms). */
export function createdBetween(prepare: Prepare, userId: string, from: number, to: number): Created {
  if (to <= from) return { customers: 0, segments: 0, campaigns: 0, campaignsSent: 0 };
  const customers = num(prepare, CUSTOMERS_BETWEEN, userId, idFloor(from), idFloor(to)) ?? 0;
  const segments = num(prepare, SEGMENTS_BETWEEN, userId, from, to) ?? 0;
  const c = prepare(CAMPAIGNS_BETWEEN).get(userId, from, to, userId, from, to) as {
    campaigns: number;
    campaignsSent: number;
  };
  return { customers, segments, campaigns: c.campaigns, campaignsSent: c.campaignsSent };
}

/** Customers created and campaigns launched in [from, to) (ms): what the weekly series adds. */
export function addedBetween(
  prepare: Prepare,
  userId: string,
  from: number,
  to: number,
): { customersAdded: number; campaignsSent: number } {
  if (to <= from) return { customersAdded: 0, campaignsSent: 0 };
  return {
    customersAdded: num(prepare, CUSTOMERS_BETWEEN, userId, idFloor(from), idFloor(to)) ?? 0,
    campaignsSent:
      num(
        prepare,
        `SELECT count(*) AS n FROM "Campaign" WHERE "userId" = ? AND "launchedAt" >= ? AND "launchedAt" < ?`,
        userId,
        from,
        to,
      ) ?? 0,
  };
}

export type SnapshotRow = {
  day: string;
  takenAt: number;
  customers: number;
  segments: number;
  campaigns: number;
  customersAdded: number;
  campaignsSent: number;
};

const SNAPSHOT_COLUMNS = `"day", "takenAt", "customers", "segments", "campaigns", "customersAdded", "campaignsSent"`;

function toRow(r: Record<string, unknown> | undefined): SnapshotRow | undefined {
  if (!r) return undefined;
  return {
    day: String(r.day),
    takenAt: Number(r.takenAt),
    customers: Number(r.customers),
    segments: Number(r.segments),
    campaigns: Number(r.campaigns),
    customersAdded: Number(r.customersAdded),
    campaignsSent: Number(r.campaignsSent),
  };
}

/** The tenant's latest snapshot on or before `day` (all of them when omitted). */
export function latestSnapshot(prepare: Prepare, userId: string, day = "9999-12-31"): SnapshotRow | undefined {
  return toRow(
    prepare(
      `SELECT ${SNAPSHOT_COLUMNS} FROM "DashboardSnapshot" WHERE "userId" = ? AND "day" <= ? ORDER BY "day" DESC LIMIT 1`,
    ).get(userId, day) as Record<string, unknown> | undefined,
  );
}

/** The tenant's snapshots from `fromDay` on, oldest first. */
export function snapshotsSince(prepare: Prepare, userId: string, fromDay: string): SnapshotRow[] {
  return (
    prepare(`SELECT ${SNAPSHOT_COLUMNS} FROM "DashboardSnapshot" WHERE "userId" = ? AND "day" >= ? ORDER BY "day"`).all(
      userId,
      fromDay,
    ) as Record<string, unknown>[]
  ).map((r) => toRow(r) as SnapshotRow);
}

/** The exact counts now: the kept customer tally (counted once when missing), segments, campaigns. */
export function currentCounts(prepare: Prepare, userId: string) {
  const tally = num(prepare, `SELECT "customers" AS n FROM "CustomerTally" WHERE "userId" = ?`, userId);
  const customers =
    tally === undefined
      ? (num(prepare, `SELECT count(*) AS n FROM "Customer" WHERE "userId" = ?`, userId) ?? 0)
      : Math.max(0, tally);
  const segments = num(prepare, `SELECT count(*) AS n FROM "Segment" WHERE "userId" = ?`, userId) ?? 0;
  const campaigns = num(prepare, `SELECT count(*) AS n FROM "Campaign" WHERE "userId" = ?`, userId) ?? 0;
  return { customers, segments, campaigns };
}

/**
 * The first day a tenant without snapshots is filled in from: early enough for the weekly series
 * and for the end of last month.
 */
export function backfillStart(now: Date): string {
  const firstWeek = weekStarts(now)[0];
  const lastMonthEnd = addDays(monthStart(dayOf(now)), -1);
  return firstWeek < lastMonthEnd ? firstWeek : lastMonthEnd;
}

const UPSERT = `INSERT INTO "DashboardSnapshot" (${SNAPSHOT_COLUMNS}, "userId") VALUES (?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT ("userId", "day") DO UPDATE SET "takenAt" = excluded."takenAt", "customers" = excluded."customers",
  "segments" = excluded."segments", "campaigns" = excluded."campaigns", "customersAdded" = excluded."customersAdded",
  "campaignsSent" = excluded."campaignsSent"`;

/**
 * Brings one tenant's snapshots up to `now`: the latest day's row is completed to its end (or to
 * now), each day since gets a row, and today's row holds the exact counts. A tenant without any is
 * filled in from backfillStart by creation times (rows deleted since are not known then); days
 * before the tenant had anything get no row. Returns the rows written.
 */
export function snapshotTenant(prepare: Prepare, userId: string, now: Date = new Date()): number {
  const today = dayOf(now);
  const nowMs = wholeSecond(now.getTime());
  const last = latestSnapshot(prepare, userId);
  if (last && last.day > today) return 0; // the clock went back: leave the rows as they are
  let day: string;
  let from: number;
  let row: SnapshotRow;
  if (last) {
    day = last.day;
    from = last.takenAt;
    row = { ...last };
  } else {
    day = backfillStart(now);
    from = dayStartMs(day);
    const before = createdBetween(prepare, userId, 0, from);
    row = { day, takenAt: from, ...before, customersAdded: 0, campaignsSent: 0 };
  }
  let written = 0;
  const upsert = prepare(UPSERT);
  for (;;) {
    const end = day === today ? nowMs : dayStartMs(addDays(day, 1));
    const c = createdBetween(prepare, userId, from, end);
    row = {
      day,
      takenAt: Math.max(end, from),
      customers: row.customers + c.customers,
      segments: row.segments + c.segments,
      campaigns: row.campaigns + c.campaigns,
      customersAdded: row.customersAdded + c.customers,
      campaignsSent: row.campaignsSent + c.campaignsSent,
    };
    // Today's totals are exact (deletions included); past days carry forward what was created.
    if (day === today) row = { ...row, ...currentCounts(prepare, userId) };
    const empty = row.customers + row.segments + row.campaigns === 0;
    if (last || !empty || day === today) {
      upsert.run(
        row.day,
        row.takenAt,
        row.customers,
        row.segments,
        row.campaigns,
        row.customersAdded,
        row.campaignsSent,
        userId,
      );
      written += 1;
    }
    if (day === today) return written;
    day = addDays(day, 1);
    from = dayStartMs(day);
    row = { ...row, customersAdded: 0, campaignsSent: 0 };
  }
}

/**
 * Snapshots every tenant, each in its own transaction; a tenant that fails (deleted meanwhile) does
 * not stop the others. Returns how many tenants and rows, and the failures.
 */
export function takeSnapshots(
  db: Database.Database,
  now: Date = new Date(),
): { tenants: number; rows: number; failed: { userId: string; error: string }[] } {
  const prepare = statementCache(db);
  const users = db.prepare(`SELECT "id" FROM "User" ORDER BY "id"`).pluck().all() as string[];
  let rows = 0;
  const failed: { userId: string; error: string }[] = [];
  const one = db.transaction((userId: string) => snapshotTenant(prepare, userId, now));
  for (const userId of users) {
    try {
      rows += one.immediate(userId);
    } catch (error) {
      failed.push({ userId, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return { tenants: users.length, rows, failed };
}
