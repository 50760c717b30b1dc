// The dashboard's counting queries on PostgreSQL: the twins of ./dashboard-stats.server.ts, with the
// same names, parameters and answers, each taking the pool or client to run on first. The windows
// are the same [from, to) in ms the SQLite side takes (days and weeks are cut in India Standard
// Time by app/lib/dashboard.ts, never by the database), given as Date to the timestamptz columns;
// customers are counted by id range as there (ids begin with their creation second).
import pg from "pg";
import { type Queryable, query } from "~/db/postgres.server";
import { idFloor } from "~/models/dashboard-statements.server";
import type {
  Counts,
  Created,
  DashboardCampaignRow,
  DashboardCustomerRow,
  DashboardSegmentRow,
  DeliveryTotals,
  Window,
} from "~/models/dashboard-stats.server";

// Each window is one statement of the same counts as SQLite's: customers a range of (userId, id),
// segments and campaigns of (userId, createdAt); launches are found among the tenant's campaigns
// (hundreds), as there.
const CREATED_BETWEEN = `SELECT
    (SELECT count(*) FROM "Customer" WHERE "userId" = $1 AND "id" >= $4 AND "id" < $5) AS "customers",
    (SELECT count(*) FROM "Segment" WHERE "userId" = $1 AND "createdAt" >= $2 AND "createdAt" < $3) AS "segments",
    (SELECT count(*) FROM "Campaign" WHERE "userId" = $1 AND "createdAt" >= $2 AND "createdAt" < $3) AS "campaigns",
    (SELECT count(*) FROM "Campaign" WHERE "userId" = $1 AND "launchedAt" >= $2 AND "launchedAt" < $3) AS "campaignsSent"`;
const ADDED_BETWEEN = `SELECT
    (SELECT count(*) FROM "Customer" WHERE "userId" = $1 AND "id" >= $4 AND "id" < $5) AS "customersAdded",
    (SELECT count(*) FROM "Campaign" WHERE "userId" = $1 AND "launchedAt" >= $2 AND "launchedAt" < $3) AS "campaignsSent"`;

/**
 * Runs the statements at once on a pool; one after another on a client (a transaction's), which
 * runs one statement at a time.
 */
async function all<T>(db: Queryable, work: (() => Promise<T>)[]): Promise<T[]> {
  if (db instanceof pg.Pool) return Promise.all(work.map((w) => w()));
  const results: T[] = [];
  for (const w of work) results.push(await w());
  return results;
}

/** A window's parameters: the tenant, its times for the timestamptz columns, its id range. */
const windowParams = (userId: string, { from, to }: Window) => [
  userId,
  new Date(from),
  new Date(to),
  idFloor(from),
  idFloor(to),
];

export async function createdInWindowsPg(db: Queryable, userId: string, windows: Window[]): Promise<Created[]> {
  return all(
    db,
    windows.map((w) => async () => {
      if (w.to <= w.from) return { customers: 0, segments: 0, campaigns: 0, campaignsSent: 0 };
      const [row] = await query<Created>(db, CREATED_BETWEEN, windowParams(userId, w));
      return row ?? { customers: 0, segments: 0, campaigns: 0, campaignsSent: 0 };
    }),
  );
}

export async function addedInWindowsPg(
  db: Queryable,
  userId: string,
  windows: Window[],
): Promise<{ customersAdded: number; campaignsSent: number }[]> {
  return all(
    db,
    windows.map((w) => async () => {
      if (w.to <= w.from) return { customersAdded: 0, campaignsSent: 0 };
      const [row] = await query<{ customersAdded: number; campaignsSent: number }>(
        db,
        ADDED_BETWEEN,
        windowParams(userId, w),
      );
      return row ?? { customersAdded: 0, campaignsSent: 0 };
    }),
  );
}

export async function currentCountsPg(db: Queryable, userId: string): Promise<Counts> {
  const [row] = await query<{ tally: number | null; segments: number; campaigns: number }>(
    db,
    `SELECT (SELECT "customers" FROM "CustomerTally" WHERE "userId" = $1) AS "tally",
            (SELECT count(*) FROM "Segment" WHERE "userId" = $1) AS "segments",
            (SELECT count(*) FROM "Campaign" WHERE "userId" = $1) AS "campaigns"`,
    [userId],
  );
  // The tally is counted once when the tenant has none yet, as on SQLite.
  const customers =
    row?.tally === null || row?.tally === undefined
      ? Number(
          (await query<{ n: number }>(db, `SELECT count(*) AS n FROM "Customer" WHERE "userId" = $1`, [userId]))[0]
            ?.n ?? 0,
        )
      : Math.max(0, row.tally);
  return { customers, segments: row?.segments ?? 0, campaigns: row?.campaigns ?? 0 };
}

const DASHBOARD_CAMPAIGN_COLUMNS = `"id", "name", "status", "audienceSize", "pendingCount", "sentCount", "deliveredCount",
  "failedCount", "bouncedCount", "complainedCount", "cancelledCount", "suppressedCount", "openedCount", "clickedCount", "launchedAt",
  "createdAt"`;

// The same sums as the SQLite side's (a spam report counts as delivered: see there).
const TOTALS_SQL = `SELECT coalesce(sum("deliveredCount" + "complainedCount"), 0) AS "delivered",
            coalesce(sum("deliveredCount" + "failedCount" + "bouncedCount" + "complainedCount"), 0) AS "attempted",
            coalesce(sum("openedCount"), 0) AS "opened", coalesce(sum("clickedCount"), 0) AS "clicked",
            coalesce(sum("complainedCount"), 0) AS "complained",
            coalesce(sum("sentCount" + "deliveredCount" + "complainedCount"), 0) AS "reached"
     FROM "Campaign" WHERE "userId" = $1`;
const RECENT_CAMPAIGNS_SQL = `SELECT ${DASHBOARD_CAMPAIGN_COLUMNS}
  FROM "Campaign" WHERE "userId" = $1 ORDER BY coalesce("launchedAt", "createdAt") DESC, "id" DESC LIMIT $2`;
const LAUNCHED_CAMPAIGNS_SQL = `SELECT ${DASHBOARD_CAMPAIGN_COLUMNS}
  FROM "Campaign" WHERE "userId" = $1 AND "launchedAt" IS NOT NULL ORDER BY "launchedAt" DESC, "id" DESC LIMIT $2`;
const RECENT_SEGMENTS_SQL = `SELECT "id", "name", "description", "createdAt" FROM "Segment" WHERE "userId" = $1
  ORDER BY "createdAt" DESC, "id" DESC LIMIT $2`;
const RECENT_CUSTOMERS_SQL = `SELECT "id", "firstName", "lastName", "email", "createdAt" FROM "Customer" WHERE "userId" = $1
  ORDER BY "id" DESC LIMIT $2`;

export async function dashboardRowsPg(
  db: Queryable,
  userId: string,
  limits: { recentCampaigns: number; launchedCampaigns: number; recentSegments: number; recentCustomers: number },
): Promise<{
  totals: DeliveryTotals;
  recent: DashboardCampaignRow[];
  launched: DashboardCampaignRow[];
  segments: DashboardSegmentRow[];
  customers: DashboardCustomerRow[];
}> {
  const [[totals], recent, launched, segments, customers] = await Promise.all([
    query<DeliveryTotals>(db, TOTALS_SQL, [userId]),
    query<DashboardCampaignRow>(db, RECENT_CAMPAIGNS_SQL, [userId, limits.recentCampaigns]),
    query<DashboardCampaignRow>(db, LAUNCHED_CAMPAIGNS_SQL, [userId, limits.launchedCampaigns]),
    query<DashboardSegmentRow>(db, RECENT_SEGMENTS_SQL, [userId, limits.recentSegments]),
    query<DashboardCustomerRow>(db, RECENT_CUSTOMERS_SQL, [userId, limits.recentCustomers]),
  ]);
  return {
    totals: totals ?? { delivered: 0, attempted: 0, opened: 0, clicked: 0, complained: 0, reached: 0 },
    recent,
    launched,
    segments,
    customers,
  };
}
