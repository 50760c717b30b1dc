// The dashboard's counting queries on PostgreSQL: the twins of ./dashboard-stats.server.ts, with the
// same names, parameters and answers, each taking the pool or client to run on first. The windows
// are the same [from, to) in ms the SQLite side takes (days and weeks are cut in India Standard
// Time by app/lib/dashboard.ts, never by the database), given as Date to the timestamptz columns;
// customers are counted by id range as there (ids begin with their creation second).
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

const CUSTOMERS_BETWEEN = `SELECT count(*) AS n FROM "Customer" WHERE "userId" = $1 AND "id" >= $2 AND "id" < $3`;
const SEGMENTS_BETWEEN = `SELECT count(*) AS n FROM "Segment" WHERE "userId" = $1 AND "createdAt" >= $2 AND "createdAt" < $3`;
const CAMPAIGNS_BETWEEN = `SELECT count(*) AS "campaigns",
  (SELECT count(*) FROM "Campaign" WHERE "userId" = $1 AND "launchedAt" >= $2 AND "launchedAt" < $3) AS "campaignsSent"
  FROM "Campaign" WHERE "userId" = $1 AND "createdAt" >= $2 AND "createdAt" < $3`;
const LAUNCHED_BETWEEN = `SELECT count(*) AS n FROM "Campaign" WHERE "userId" = $1 AND "launchedAt" >= $2 AND "launchedAt" < $3`;

/** The `n` of a one-row count (undefined without a row). */
async function countOf(db: Queryable, sql: string, params: unknown[]): Promise<number | undefined> {
  const [row] = await query<{ n: number | null }>(db, sql, params);
  return row ? Number(row.n ?? 0) : undefined;
}

async function created(db: Queryable, userId: string, { from, to }: Window): Promise<Created> {
  if (to <= from) return { customers: 0, segments: 0, campaigns: 0, campaignsSent: 0 };
  const range = [userId, new Date(from), new Date(to)];
  const [customers, segments, [c]] = await Promise.all([
    countOf(db, CUSTOMERS_BETWEEN, [userId, idFloor(from), idFloor(to)]),
    countOf(db, SEGMENTS_BETWEEN, range),
    query<{ campaigns: number; campaignsSent: number }>(db, CAMPAIGNS_BETWEEN, range),
  ]);
  return {
    customers: customers ?? 0,
    segments: segments ?? 0,
    campaigns: c?.campaigns ?? 0,
    campaignsSent: c?.campaignsSent ?? 0,
  };
}

export async function createdInWindowsPg(db: Queryable, userId: string, windows: Window[]): Promise<Created[]> {
  return Promise.all(windows.map((w) => created(db, userId, w)));
}

export async function addedInWindowsPg(
  db: Queryable,
  userId: string,
  windows: Window[],
): Promise<{ customersAdded: number; campaignsSent: number }[]> {
  return Promise.all(
    windows.map(async ({ from, to }) => {
      if (to <= from) return { customersAdded: 0, campaignsSent: 0 };
      const [customersAdded, campaignsSent] = await Promise.all([
        countOf(db, CUSTOMERS_BETWEEN, [userId, idFloor(from), idFloor(to)]),
        countOf(db, LAUNCHED_BETWEEN, [userId, new Date(from), new Date(to)]),
      ]);
      return { customersAdded: customersAdded ?? 0, campaignsSent: campaignsSent ?? 0 };
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
      ? ((await countOf(db, `SELECT count(*) AS n FROM "Customer" WHERE "userId" = $1`, [userId])) ?? 0)
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
