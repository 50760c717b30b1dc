// The dashboard's figures for one tenant (docs/rules.md#dashboard): the counts, last month's counts
// and the weekly series (from the daily snapshots, app/services/dashboard/snapshots.server.ts), the
// performance block and the funnel (from the counters each campaign keeps), the recent campaigns
// and the recent activity. Nothing here counts a tenant's customers or reads delivery rows: the
// customer count is the kept tally, and only what was created since the latest snapshot is counted
// (a range of an index). Every query is scoped to the tenant; the queries are in
// app/models/dashboard/.
import { campaignStatus, deliveryStats } from "~/lib/campaigns";
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
import type { DashboardCampaignRow } from "~/models/dashboard/rows";
import { dashboard } from "~/models/dashboard/store.server";

/** The counts at the end of last month: its last snapshot, plus what was created after it was taken. */
async function previousCounts(userId: string, now: Date, latestTakenAt: number | undefined): Promise<DashboardCounts> {
  const start = monthStart(dayOf(now));
  const startMs = dayStartMs(start);
  const row = await dashboard.latestSnapshot(userId, addDays(start, -1));
  if (!row) {
    // No snapshot before this month. With none at all the job has not reached this tenant yet:
    // count by creation time once. Otherwise the tenant had nothing then (days before a tenant's
    // first customer, segment or campaign get no row).
    if (latestTakenAt !== undefined) return { customers: 0, segments: 0, campaigns: 0 };
    const [c] = await dashboard.createdInWindows(userId, [{ from: 0, to: startMs }]);
    return { customers: c.customers, segments: c.segments, campaigns: c.campaigns };
  }
  const [c] = await dashboard.createdInWindows(userId, [{ from: row.takenAt, to: startMs }]);
  return {
    customers: row.customers + c.customers,
    segments: row.segments + c.segments,
    campaigns: row.campaigns + c.campaigns,
  };
}

/** Customers added and campaigns launched per week, the last 12 weeks, oldest first. */
async function weeklySeries(userId: string, now: Date, latestTakenAt: number | undefined): Promise<WeeklyPoint[]> {
  const weeks = weekStarts(now);
  const points = new Map(weeks.map((w) => [w, { weekStart: w, customersAdded: 0, campaignsSent: 0 }]));
  for (const row of await dashboard.snapshotsSince(userId, weeks[0])) {
    const point = points.get(weekStart(row.day));
    if (!point) continue;
    point.customersAdded += row.customersAdded;
    point.campaignsSent += row.campaignsSent;
  }
  // What came after the latest snapshot, week by week (usually part of one week).
  // Up to the end of the current second, so a row made this second is in (the windows are whole seconds).
  const nowMs = Math.floor(now.getTime() / 1000) * 1000 + 1000;
  const from = Math.max(latestTakenAt ?? 0, dayStartMs(weeks[0]));
  const windows = weeks
    .map((w) => ({ week: w, from: Math.max(from, dayStartMs(w)), to: Math.min(nowMs, dayStartMs(w) + 7 * DAY_MS) }))
    .filter((w) => w.to > w.from);
  const added = await dashboard.addedInWindows(userId, windows);
  windows.forEach((w, i) => {
    const point = points.get(w.week);
    if (point) {
      point.customersAdded += added[i].customersAdded;
      point.campaignsSent += added[i].campaignsSent;
    }
  });
  return weeks.map((w) => points.get(w) as WeeklyPoint);
}

/** GET /api/stats/historical: the counts at the end of last month and the weekly series. */
export async function historicalStats(userId: string, now: Date = new Date()): Promise<HistoricalStats> {
  const latest = (await dashboard.latestSnapshot(userId))?.takenAt;
  const [previous, weekly] = await Promise.all([
    previousCounts(userId, now, latest),
    weeklySeries(userId, now, latest),
  ]);
  return {
    previousCustomers: previous.customers,
    previousSegments: previous.segments,
    previousCampaigns: previous.campaigns,
    weekly,
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

function campaignActivity(c: DashboardCampaignRow): ActivityItem {
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

/**
 * The complaint rate mailbox providers ask senders to keep under (Gmail's and Yahoo's sender
 * guidelines: under 0.1% of the mail delivered, never 0.3%), in percent.
 */
export const COMPLAINT_RATE_LIMIT = 0.1;

/** The dashboard's complaint rate: spam reports out of the messages that reached a mailbox. */
export type ComplaintRate = {
  complaints: number;
  reached: number;
  /** Percent with two decimals; null when nothing reached a mailbox yet. */
  rate: number | null;
  /** COMPLAINT_RATE_LIMIT, for the card's text. */
  limit: number;
  /** Above the limit. */
  over: boolean;
};

/** Complaints out of the messages sent, delivered or complained about, over every campaign (as Campaign Performance). */
export function complaintRate(t: { complained: number; reached: number }): ComplaintRate {
  const limit = COMPLAINT_RATE_LIMIT;
  if (t.reached <= 0) return { complaints: t.complained, reached: 0, rate: null, limit, over: false };
  return {
    complaints: t.complained,
    reached: t.reached,
    limit,
    rate: Math.round((t.complained / t.reached) * 10_000) / 100,
    over: t.complained * (100 / COMPLAINT_RATE_LIMIT) > t.reached,
  };
}

/** Everything the dashboard shows, for one tenant. */
export async function dashboardSummary(
  userId: string,
  now: Date = new Date(),
): Promise<DashboardSummary & { complaints: ComplaintRate }> {
  const [counts, historical, rows] = await Promise.all([
    dashboard.currentCounts(userId),
    historicalStats(userId, now),
    dashboard.dashboardRows(userId, {
      recentCampaigns: Math.max(RECENT_CAMPAIGNS, RECENT_ACTIVITY_EACH),
      launchedCampaigns: FUNNEL_CAMPAIGNS,
      recentSegments: RECENT_ACTIVITY_EACH,
      recentCustomers: RECENT_ACTIVITY_EACH,
    }),
  ]);
  const { totals, recent, launched, segments, customers } = rows;

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
    complaints: complaintRate(totals),
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
