// The dashboard's rows (docs/decisions/0012-dashboard-snapshots.md): the counts it shows, the
// lists beside them, the daily snapshot rows (table DashboardSnapshot), and the SQL text both
// engines share. A statement that differs between the engines only in how it names its parameters
// is written once here as a function of the parameter's spelling (`?` on SQLite, `$n` on
// PostgreSQL); each engine file makes its text once, when it loads.
import type { CampaignCounters } from "~/lib/campaigns";
import type { CampaignRow } from "~/models/campaigns/rows";

/** A window of time [from, to), in ms. */
export type Window = { from: number; to: number };

export type Created = { customers: number; segments: number; campaigns: number; campaignsSent: number };
/** Customers created and campaigns launched in a window: what the weekly series adds. */
export type Added = { customersAdded: number; campaignsSent: number };
export type Counts = { customers: number; segments: number; campaigns: number };

/** A campaign as the dashboard lists it: its counters, name, status and dates. */
export type DashboardCampaignRow = Pick<CampaignRow, "id" | "name" | "status" | "launchedAt" | "createdAt"> &
  CampaignCounters;
export type DashboardSegmentRow = { id: string; name: string; description: string; createdAt: number };
export type DashboardCustomerRow = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  createdAt: number;
};
export type DeliveryTotals = {
  /** Messages that reached the mailbox: delivered, and complained about. */
  delivered: number;
  attempted: number;
  opened: number;
  clicked: number;
  /** Messages the recipient reported as spam. */
  complained: number;
  /** Messages that reached a mailbox or may have (sent, delivered, complained; not bounced or failed). */
  reached: number;
};

/** How many of each list the dashboard shows. */
export type DashboardLimits = {
  recentCampaigns: number;
  launchedCampaigns: number;
  recentSegments: number;
  recentCustomers: number;
};

/** What the dashboard lists besides its counts. */
export type DashboardRows = {
  totals: DeliveryTotals;
  recent: DashboardCampaignRow[];
  launched: DashboardCampaignRow[];
  segments: DashboardSegmentRow[];
  customers: DashboardCustomerRow[];
};

export const NO_TOTALS: DeliveryTotals = {
  delivered: 0,
  attempted: 0,
  opened: 0,
  clicked: 0,
  complained: 0,
  reached: 0,
};

/** One day's snapshot of a tenant (India Standard Time): the counts as of takenAt, and what that day added. */
export type SnapshotRow = {
  day: string;
  takenAt: number;
  customers: number;
  segments: number;
  campaigns: number;
  customersAdded: number;
  campaignsSent: number;
};

/** The day after every snapshot's: latestSnapshot() without a day finds the latest of all. */
export const LAST_DAY = "9999-12-31";

/** The advisory lock of the snapshots job on PostgreSQL, one key for every instance (0012: the decision's number). */
export const SNAPSHOTS_LOCK_KEY = 7_261_126_000_012n;

/**
 * The lowest id made in the second of `ms` or later: ids below it were made before that second
 * (ids begin with their creation second, app/lib/id.ts).
 */
export function idFloor(ms: number): string {
  return Math.max(0, Math.floor(ms / 1000))
    .toString(16)
    .padStart(8, "0")
    .concat("0000000000000000");
}

/** How an engine spells the statement's n-th parameter (from 1). */
export type Param = (n: number) => string;

const SNAPSHOT_COLUMNS = `"day", "takenAt", "customers", "segments", "campaigns", "customersAdded", "campaignsSent"`;

const LATEST_SNAPSHOT_SQL = (p: Param) =>
  `SELECT ${SNAPSHOT_COLUMNS} FROM "DashboardSnapshot" WHERE "userId" = ${p(1)} AND "day" <= ${p(2)} ORDER BY "day" DESC LIMIT 1`;
const SNAPSHOTS_SINCE_SQL = (p: Param) =>
  `SELECT ${SNAPSHOT_COLUMNS} FROM "DashboardSnapshot" WHERE "userId" = ${p(1)} AND "day" >= ${p(2)} ORDER BY "day"`;
/** What an upsert of snapshot rows does with a day's row that exists: replaces it. */
const SNAPSHOT_ON_CONFLICT = `ON CONFLICT ("userId", "day") DO UPDATE SET "takenAt" = excluded."takenAt", "customers" = excluded."customers",
  "segments" = excluded."segments", "campaigns" = excluded."campaigns", "customersAdded" = excluded."customersAdded",
  "campaignsSent" = excluded."campaignsSent"`;

/** Writes snapshot rows, each a tuple of SNAPSHOT_VALUES' eight parameters, replacing a day's row that exists. */
export const UPSERT_SNAPSHOTS_SQL = (tuples: string) =>
  `INSERT INTO "DashboardSnapshot" (${SNAPSHOT_COLUMNS}, "userId") VALUES ${tuples}
  ${SNAPSHOT_ON_CONFLICT}`;

/** A snapshot row's values for UPSERT_SNAPSHOTS_SQL, in its columns' order. */
export const snapshotValues = (userId: string, r: SnapshotRow) => [
  r.day,
  r.takenAt,
  r.customers,
  r.segments,
  r.campaigns,
  r.customersAdded,
  r.campaignsSent,
  userId,
];

const DASHBOARD_CAMPAIGN_COLUMNS = `"id", "name", "status", "audienceSize", "pendingCount", "sentCount", "deliveredCount",
  "failedCount", "bouncedCount", "complainedCount", "cancelledCount", "suppressedCount", "openedCount", "clickedCount", "launchedAt",
  "createdAt"`;

// A message reported as spam reached the mailbox: delivered, as the campaign's success rate counts
// it (deliveryStats in app/lib/campaigns.ts), and a base of the open rate (its opener is in opened).
const TOTALS_SQL = (p: Param) => `SELECT coalesce(sum("deliveredCount" + "complainedCount"), 0) AS "delivered",
            coalesce(sum("deliveredCount" + "failedCount" + "bouncedCount" + "complainedCount"), 0) AS "attempted",
            coalesce(sum("openedCount"), 0) AS "opened", coalesce(sum("clickedCount"), 0) AS "clicked",
            coalesce(sum("complainedCount"), 0) AS "complained",
            coalesce(sum("sentCount" + "deliveredCount" + "complainedCount"), 0) AS "reached"
     FROM "Campaign" WHERE "flowId" IS NULL AND "userId" = ${p(1)}`;
const RECENT_CAMPAIGNS_SQL = (p: Param) => `SELECT ${DASHBOARD_CAMPAIGN_COLUMNS}
  FROM "Campaign" WHERE "flowId" IS NULL AND "userId" = ${p(1)} ORDER BY coalesce("launchedAt", "createdAt") DESC, "id" DESC LIMIT ${p(2)}`;
const LAUNCHED_CAMPAIGNS_SQL = (p: Param) => `SELECT ${DASHBOARD_CAMPAIGN_COLUMNS}
  FROM "Campaign" WHERE "flowId" IS NULL AND "userId" = ${p(1)} AND "launchedAt" IS NOT NULL ORDER BY "launchedAt" DESC, "id" DESC LIMIT ${p(2)}`;
const RECENT_SEGMENTS_SQL = (
  p: Param,
) => `SELECT "id", "name", "description", "createdAt" FROM "Segment" WHERE "userId" = ${p(1)}
  ORDER BY "createdAt" DESC, "id" DESC LIMIT ${p(2)}`;
const RECENT_CUSTOMERS_SQL = (
  p: Param,
) => `SELECT "id", "firstName", "lastName", "email", "createdAt" FROM "Customer" WHERE "userId" = ${p(1)}
  ORDER BY "id" DESC LIMIT ${p(2)}`;

/** The statements both engines run, in the engine's spelling of parameters (made once per engine file). */
export const dashboardStatements = (p: Param) => ({
  totals: TOTALS_SQL(p),
  recentCampaigns: RECENT_CAMPAIGNS_SQL(p),
  launchedCampaigns: LAUNCHED_CAMPAIGNS_SQL(p),
  recentSegments: RECENT_SEGMENTS_SQL(p),
  recentCustomers: RECENT_CUSTOMERS_SQL(p),
  latestSnapshot: LATEST_SNAPSHOT_SQL(p),
  snapshotsSince: SNAPSHOTS_SINCE_SQL(p),
});

export type DashboardStatements = ReturnType<typeof dashboardStatements>;

/** How an engine reads a statement's rows for the functions written once here (at once on SQLite, a promise on PostgreSQL). */
export type ReadRows = <Row extends object>(sql: string, params: unknown[]) => Row[] | Promise<Row[]>;

/** dashboardRows() on either engine: the totals and the four lists, each statement started at once. */
export async function readDashboardRows(
  read: ReadRows,
  sql: DashboardStatements,
  userId: string,
  limits: DashboardLimits,
): Promise<DashboardRows> {
  const [[totals], recent, launched, segments, customers] = await Promise.all([
    read<DeliveryTotals>(sql.totals, [userId]),
    read<DashboardCampaignRow>(sql.recentCampaigns, [userId, limits.recentCampaigns]),
    read<DashboardCampaignRow>(sql.launchedCampaigns, [userId, limits.launchedCampaigns]),
    read<DashboardSegmentRow>(sql.recentSegments, [userId, limits.recentSegments]),
    read<DashboardCustomerRow>(sql.recentCustomers, [userId, limits.recentCustomers]),
  ]);
  return { totals: totals ?? { ...NO_TOTALS }, recent, launched, segments, customers };
}
