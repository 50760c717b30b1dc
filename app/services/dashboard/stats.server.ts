// The dashboard's figures for one tenant (docs/rules.md#dashboard): the counts, last month's counts
// and the weekly series (from the daily snapshots, app/services/dashboard/snapshots.server.ts), the
// performance block and the funnel (from the counters each campaign keeps), the recent campaigns
// and the recent activity. Nothing here counts a tenant's customers or reads delivery rows: the
// customer count is the kept tally, and only what was created since the latest snapshot is counted
// (a range of an index). Every query is scoped to the tenant.
import { readStatement } from "~/db/reader.server";
import { type CampaignCounters, campaignStatus, deliveryStats } from "~/lib/campaigns";
import {
  type ActivityItem,
  addDays,
  type DashboardCounts,
  type DashboardSummary,
  dayOf,
  dayStartMs,
  DAY_MS,
  FUNNEL_CAMPAIGNS,
  type HistoricalStats,
  mergeActivity,
  monthStart,
  performanceFigures,
  RECENT_ACTIVITY_EACH,
  RECENT_CAMPAIGNS,
  weekStart,
  weekStarts,
  type WeeklyPoint,
} from "~/lib/dashboard";
import { formatCount } from "~/lib/numbers";
import {
  addedBetween,
  createdBetween,
  currentCounts,
  latestSnapshot,
  type Prepare,
  snapshotsSince,
} from "~/services/dashboard/snapshots.server";

const prepare: Prepare = readStatement;

/** The counts at the end of last month: its last snapshot, plus what was created after it was taken. */
function previousCounts(userId: string, now: Date, latestTakenAt: number | undefined): DashboardCounts {
  const start = monthStart(dayOf(now));
  const startMs = dayStartMs(start);
  const row = latestSnapshot(prepare, userId, addDays(start, -1));
  if (!row) {
    // No snapshot before this month. With none at all the job has not reached this tenant yet:
    // count by creation time once. Otherwise the tenant had nothing then (days before a tenant's
    // first customer, segment or campaign get no row).
    if (latestTakenAt !== undefined) return { customers: 0, segments: 0, campaigns: 0 };
    const c = createdBetween(prepare, userId, 0, startMs);
    return { customers: c.customers, segments: c.segments, campaigns: c.campaigns };
  }
  const c = createdBetween(prepare, userId, row.takenAt, startMs);
  return {
    customers: row.customers + c.customers,
    segments: row.segments + c.segments,
    campaigns: row.campaigns + c.campaigns,
  };
}

/** Customers added and campaigns launched per week, the last 12 weeks, oldest first. */
function weeklySeries(userId: string, now: Date, latestTakenAt: number | undefined): WeeklyPoint[] {
  const weeks = weekStarts(now);
  const points = new Map(weeks.map((w) => [w, { weekStart: w, customersAdded: 0, campaignsSent: 0 }]));
  for (const row of snapshotsSince(prepare, userId, weeks[0])) {
    const point = points.get(weekStart(row.day));
    if (!point) continue;
    point.customersAdded += row.customersAdded;
    point.campaignsSent += row.campaignsSent;
  }
  // What came after the latest snapshot, week by week (usually part of one week).
  // Up to the end of the current second, so a row made this second is in (the windows are whole seconds).
  const nowMs = Math.floor(now.getTime() / 1000) * 1000 + 1000;
  const from = Math.max(latestTakenAt ?? 0, dayStartMs(weeks[0]));
  for (const w of weeks) {
    const start = Math.max(from, dayStartMs(w));
    const end = Math.min(nowMs, dayStartMs(w) + 7 * DAY_MS);
    if (end <= start) continue;
    const added = addedBetween(prepare, userId, start, end);
    const point = points.get(w);
    if (point) {
      point.customersAdded += added.customersAdded;
      point.campaignsSent += added.campaignsSent;
    }
  }
  return weeks.map((w) => points.get(w) as WeeklyPoint);
}

/** GET /api/stats/historical: the counts at the end of last month and the weekly series. */
export async function historicalStats(userId: string, now: Date = new Date()): Promise<HistoricalStats> {
  const latest = latestSnapshot(prepare, userId)?.takenAt;
  const previous = previousCounts(userId, now, latest);
  return {
    previousCustomers: previous.customers,
    previousSegments: previous.segments,
    previousCampaigns: previous.campaigns,
    weekly: weeklySeries(userId, now, latest),
  };
}

type CampaignRow = CampaignCounters & {
  id: string;
  name: string;
  status: string;
  launchedAt: number | null;
  createdAt: number;
};

const RECENT_CAMPAIGNS_SQL = `SELECT "id", "name", "status", "audienceSize", "pendingCount", "sentCount", "deliveredCount",
  "failedCount", "bouncedCount", "cancelledCount", "openedCount", "clickedCount", "launchedAt", "createdAt"
  FROM "Campaign" WHERE "userId" = ? ORDER BY coalesce("launchedAt", "createdAt") DESC, "id" DESC LIMIT ?`;

const iso = (ms: number) => new Date(ms).toISOString();

function campaignActivity(c: CampaignRow): ActivityItem {
  const status = campaignStatus(c.status);
  return {
    type: "campaign",
    id: c.id,
    title: c.name || "Unnamed Campaign",
    date: iso(c.launchedAt ?? c.createdAt),
    details:
      status === "Draft"
        ? "Draft campaign"
        : `${status} campaign to ${formatCount(c.audienceSize)} ${c.audienceSize === 1 ? "customer" : "customers"}`,
  };
}

/** Everything the dashboard shows, for one tenant. */
export async function dashboardSummary(userId: string, now: Date = new Date()): Promise<DashboardSummary> {
  const counts = currentCounts(prepare, userId);
  const historical = await historicalStats(userId, now);

  const totals = prepare(
    `SELECT coalesce(sum("deliveredCount"), 0) AS delivered,
            coalesce(sum("deliveredCount" + "failedCount" + "bouncedCount"), 0) AS attempted,
            coalesce(sum("openedCount"), 0) AS opened, coalesce(sum("clickedCount"), 0) AS clicked
     FROM "Campaign" WHERE "userId" = ?`,
  ).get(userId) as { delivered: number; attempted: number; opened: number; clicked: number };

  const recent = prepare(RECENT_CAMPAIGNS_SQL).all(
    userId,
    Math.max(RECENT_CAMPAIGNS, RECENT_ACTIVITY_EACH),
  ) as CampaignRow[];

  const launched = prepare(
    `SELECT "id", "name", "status", "audienceSize", "pendingCount", "sentCount", "deliveredCount", "failedCount",
       "bouncedCount", "cancelledCount", "openedCount", "clickedCount", "launchedAt", "createdAt"
     FROM "Campaign" WHERE "userId" = ? AND "launchedAt" IS NOT NULL ORDER BY "launchedAt" DESC, "id" DESC LIMIT ?`,
  ).all(userId, FUNNEL_CAMPAIGNS) as CampaignRow[];
  const segments = prepare(
    `SELECT "id", "name", "description", "createdAt" FROM "Segment" WHERE "userId" = ? ORDER BY "createdAt" DESC, "id" DESC LIMIT ?`,
  ).all(userId, RECENT_ACTIVITY_EACH) as { id: string; name: string; description: string; createdAt: number }[];
  const customers = prepare(
    `SELECT "id", "firstName", "lastName", "email", "createdAt" FROM "Customer" WHERE "userId" = ? ORDER BY "id" DESC LIMIT ?`,
  ).all(userId, RECENT_ACTIVITY_EACH) as {
    id: string;
    firstName: string;
    lastName: string;
    email: string;
    createdAt: number;
  }[];

  return {
    counts,
    previous: {
      customers: historical.previousCustomers,
      segments: historical.previousSegments,
      campaigns: historical.previousCampaigns,
    },
    weekly: historical.weekly,
    funnel: launched.map((c) => {
      const s = deliveryStats(c);
      return { id: c.id, name: c.name, sent: s.sent, delivered: s.delivered, opened: s.opened, clicked: s.clicked };
    }),
    performance: performanceFigures(totals),
    recentCampaigns: recent.slice(0, RECENT_CAMPAIGNS).map((c) => {
      // The campaign detail's own figures (deliveryStats): its Failed count and its success rate,
      // none before anything was attempted.
      const s = deliveryStats(c);
      return {
        id: c.id,
        name: c.name || "Unnamed Campaign",
        failed: s.failed,
        successRate: s.successRateValue,
        date: iso(c.launchedAt ?? c.createdAt),
      };
    }),
    recentActivity: mergeActivity(
      recent.slice(0, RECENT_ACTIVITY_EACH).map(campaignActivity),
      segments.map((s) => ({
        type: "segment" as const,
        id: s.id,
        title: s.name || "Unnamed Segment",
        date: iso(s.createdAt),
        details: s.description || "Segment created",
      })),
      customers.map((c) => ({
        type: "customer" as const,
        id: c.id,
        title: `${c.firstName} ${c.lastName}`.trim() || "No Name",
        date: iso(c.createdAt),
        details: c.email || "No Email",
      })),
    ),
  };
}
