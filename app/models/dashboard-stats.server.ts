// The dashboard's counting queries, every one scoped to the tenant and each a range of an index,
// tenant first: customers by id (ids begin with their creation second, app/lib/id.ts, so "created
// in [from, to)" is an id range of the (userId, id) index), segments and campaigns by
// (userId, createdAt) and (userId, launchedAt). Windows are whole seconds. The counts run on the
// read connection, or on the snapshots job's own connection when it passes one. On PostgreSQL the
// twins in ./dashboard-stats.postgres.server.ts answer (postgresTarget()).
import type { CampaignCounters } from "~/lib/campaigns";
import type { CampaignRow } from "~/models/campaigns.server";
import {
  addedInWindowsPg,
  createdInWindowsPg,
  currentCountsPg,
  dashboardRowsPg,
} from "~/models/dashboard-stats.postgres.server";
import {
  countOf,
  type DashboardConnection,
  idFloor,
  postgresTarget,
  statementsOf,
} from "~/models/dashboard-statements.server";

/** A window of time [from, to), in ms. */
export type Window = { from: number; to: number };

export type Created = { customers: number; segments: number; campaigns: number; campaignsSent: number };
type Added = { customersAdded: number; campaignsSent: number };
export type Counts = { customers: number; segments: number; campaigns: number };

const CUSTOMERS_BETWEEN = `SELECT count(*) AS n FROM "Customer" WHERE "userId" = ? AND "id" >= ? AND "id" < ?`;
const SEGMENTS_BETWEEN = `SELECT count(*) AS n FROM "Segment" WHERE "userId" = ? AND "createdAt" >= ? AND "createdAt" < ?`;
const CAMPAIGNS_BETWEEN = `SELECT count(*) AS campaigns,
  (SELECT count(*) FROM "Campaign" WHERE "userId" = ? AND "launchedAt" >= ? AND "launchedAt" < ?) AS campaignsSent
  FROM "Campaign" WHERE "userId" = ? AND "createdAt" >= ? AND "createdAt" < ?`;
const LAUNCHED_BETWEEN = `SELECT count(*) AS n FROM "Campaign" WHERE "userId" = ? AND "launchedAt" >= ? AND "launchedAt" < ?`;

function created(conn: DashboardConnection | undefined, userId: string, { from, to }: Window): Created {
  if (to <= from) return { customers: 0, segments: 0, campaigns: 0, campaignsSent: 0 };
  const prepare = statementsOf(conn);
  const customers = countOf(prepare, CUSTOMERS_BETWEEN, userId, idFloor(from), idFloor(to)) ?? 0;
  const segments = countOf(prepare, SEGMENTS_BETWEEN, userId, from, to) ?? 0;
  const c = prepare<{ campaigns: number; campaignsSent: number }>(CAMPAIGNS_BETWEEN).get(
    userId,
    from,
    to,
    userId,
    from,
    to,
  ) ?? { campaigns: 0, campaignsSent: 0 };
  return { customers, segments, campaigns: c.campaigns, campaignsSent: c.campaignsSent };
}

/** Customers, segments and campaigns created, and campaigns launched, in each window. */
export async function createdInWindows(
  userId: string,
  windows: Window[],
  conn?: DashboardConnection,
): Promise<Created[]> {
  const target = postgresTarget(conn);
  if (target) return createdInWindowsPg(target, userId, windows);
  return windows.map((w) => created(conn, userId, w));
}

/** Customers created and campaigns launched in each window: what the weekly series adds. */
export async function addedInWindows(userId: string, windows: Window[], conn?: DashboardConnection): Promise<Added[]> {
  const target = postgresTarget(conn);
  if (target) return addedInWindowsPg(target, userId, windows);
  const prepare = statementsOf(conn);
  return windows.map(({ from, to }) =>
    to <= from
      ? { customersAdded: 0, campaignsSent: 0 }
      : {
          customersAdded: countOf(prepare, CUSTOMERS_BETWEEN, userId, idFloor(from), idFloor(to)) ?? 0,
          campaignsSent: countOf(prepare, LAUNCHED_BETWEEN, userId, from, to) ?? 0,
        },
  );
}

/** The exact counts now: the kept customer tally (counted once when missing), segments, campaigns. */
export async function currentCounts(userId: string, conn?: DashboardConnection): Promise<Counts> {
  const target = postgresTarget(conn);
  if (target) return currentCountsPg(target, userId);
  const prepare = statementsOf(conn);
  const tally = countOf(prepare, `SELECT "customers" AS n FROM "CustomerTally" WHERE "userId" = ?`, userId);
  const customers =
    tally === undefined
      ? (countOf(prepare, `SELECT count(*) AS n FROM "Customer" WHERE "userId" = ?`, userId) ?? 0)
      : Math.max(0, tally);
  const segments = countOf(prepare, `SELECT count(*) AS n FROM "Segment" WHERE "userId" = ?`, userId) ?? 0;
  const campaigns = countOf(prepare, `SELECT count(*) AS n FROM "Campaign" WHERE "userId" = ?`, userId) ?? 0;
  return { customers, segments, campaigns };
}

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

const DASHBOARD_CAMPAIGN_COLUMNS = `"id", "name", "status", "audienceSize", "pendingCount", "sentCount", "deliveredCount",
  "failedCount", "bouncedCount", "complainedCount", "cancelledCount", "suppressedCount", "openedCount", "clickedCount", "launchedAt",
  "createdAt"`;

// A message reported as spam reached the mailbox: delivered, as the campaign's success rate counts
// it (deliveryStats in app/lib/campaigns.ts), and a base of the open rate (its opener is in opened).
const TOTALS_SQL = `SELECT coalesce(sum("deliveredCount" + "complainedCount"), 0) AS delivered,
            coalesce(sum("deliveredCount" + "failedCount" + "bouncedCount" + "complainedCount"), 0) AS attempted,
            coalesce(sum("openedCount"), 0) AS opened, coalesce(sum("clickedCount"), 0) AS clicked,
            coalesce(sum("complainedCount"), 0) AS complained,
            coalesce(sum("sentCount" + "deliveredCount" + "complainedCount"), 0) AS reached
     FROM "Campaign" WHERE "userId" = ?`;
const RECENT_CAMPAIGNS_SQL = `SELECT ${DASHBOARD_CAMPAIGN_COLUMNS}
  FROM "Campaign" WHERE "userId" = ? ORDER BY coalesce("launchedAt", "createdAt") DESC, "id" DESC LIMIT ?`;
const LAUNCHED_CAMPAIGNS_SQL = `SELECT ${DASHBOARD_CAMPAIGN_COLUMNS}
  FROM "Campaign" WHERE "userId" = ? AND "launchedAt" IS NOT NULL ORDER BY "launchedAt" DESC, "id" DESC LIMIT ?`;
const RECENT_SEGMENTS_SQL = `SELECT "id", "name", "description", "createdAt" FROM "Segment" WHERE "userId" = ?
  ORDER BY "createdAt" DESC, "id" DESC LIMIT ?`;
const RECENT_CUSTOMERS_SQL = `SELECT "id", "firstName", "lastName", "email", "createdAt" FROM "Customer" WHERE "userId" = ?
  ORDER BY "id" DESC LIMIT ?`;

/**
 * What the dashboard lists besides its counts: the delivery totals over every campaign (from the
 * counters each keeps; complaints and the messages that reached a mailbox too, for the complaint
 * rate), the newest campaigns by launch (or creation), the newest launched ones,
 * and the newest segments and customers.
 */
export async function dashboardRows(
  userId: string,
  limits: { recentCampaigns: number; launchedCampaigns: number; recentSegments: number; recentCustomers: number },
): Promise<{
  totals: DeliveryTotals;
  recent: DashboardCampaignRow[];
  launched: DashboardCampaignRow[];
  segments: DashboardSegmentRow[];
  customers: DashboardCustomerRow[];
}> {
  const target = postgresTarget();
  if (target) return dashboardRowsPg(target, userId, limits);
  const prepare = statementsOf();
  return {
    totals: prepare<DeliveryTotals>(TOTALS_SQL).get(userId) ?? {
      delivered: 0,
      attempted: 0,
      opened: 0,
      clicked: 0,
      complained: 0,
      reached: 0,
    },
    recent: prepare<DashboardCampaignRow>(RECENT_CAMPAIGNS_SQL).all(userId, limits.recentCampaigns),
    launched: prepare<DashboardCampaignRow>(LAUNCHED_CAMPAIGNS_SQL).all(userId, limits.launchedCampaigns),
    segments: prepare<DashboardSegmentRow>(RECENT_SEGMENTS_SQL).all(userId, limits.recentSegments),
    customers: prepare<DashboardCustomerRow>(RECENT_CUSTOMERS_SQL).all(userId, limits.recentCustomers),
  };
}
