// The dashboard's rules, shared by its screen, its /api calls and the statistics service:
// the answer's shape, percent change, rate colours, list sizes, the insights threshold and the
// calendar (days, weeks and months in India Standard Time, as every date is shown:
// docs/rules.md#dashboard). Pure: safe in the browser.
import { percent, successChipColour, type ChipColour } from "~/lib/campaigns";
import { formatRate } from "~/lib/numbers";

export { percent, type ChipColour };

/** Recent Campaigns lists this many, newest first by launch (or creation) time. */
export const RECENT_CAMPAIGNS = 3;
/** Recent Activity: the latest RECENT_ACTIVITY_EACH of each kind, merged newest first, cut to this. */
export const RECENT_ACTIVITY = 10;
export const RECENT_ACTIVITY_EACH = 5;
/** The delivery funnel chart shows this many recent campaigns. */
export const FUNNEL_CAMPAIGNS = 5;
/** The weekly charts cover this many weeks, the current one last. */
export const WEEKLY_WEEKS = 12;
/** AI insights need at least this many campaigns and customers. */
export const INSIGHTS_MIN_CAMPAIGNS = 3;
export const INSIGHTS_MIN_CUSTOMERS = 10;
/** The dashboard's snackbars hide after this long. */
export const SNACKBAR_MS = 6000;

export type DashboardCounts = { customers: number; segments: number; campaigns: number };

export type WeeklyPoint = {
  /** The week's Monday, YYYY-MM-DD (India Standard Time). */
  weekStart: string;
  customersAdded: number;
  campaignsSent: number;
};

export type FunnelCampaign = {
  id: string;
  name: string;
  sent: number;
  delivered: number;
  opened: number;
  clicked: number;
};

export type PerformanceFigures = {
  /** Percentages with one decimal. */
  deliveryRate: number;
  openRate: number;
  clickRate: number;
  attempted: number;
  delivered: number;
  opened: number;
  clicked: number;
};

export type RecentCampaign = {
  id: string;
  name: string;
  failed: number;
  /** The campaign detail's success rate (deliveryStats: delivered / attempted), null before any outcome. */
  successRate: number | null;
  /** launchedAt, or createdAt for a campaign never launched (ISO). */
  date: string;
};

export type ActivityType = "campaign" | "segment" | "customer";

export type ActivityItem = {
  type: ActivityType;
  id: string;
  title: string;
  /** ISO time. */
  date: string;
  details: string;
};

export type DashboardSummary = {
  counts: DashboardCounts;
  /** The counts at the end of last month (0 for a tenant without history). */
  previous: DashboardCounts;
  /** WEEKLY_WEEKS weeks, oldest first. */
  weekly: WeeklyPoint[];
  funnel: FunnelCampaign[];
  performance: PerformanceFigures;
  recentCampaigns: RecentCampaign[];
  recentActivity: ActivityItem[];
};

/** GET /api/stats/historical. */
export type HistoricalStats = {
  previousCustomers: number;
  previousSegments: number;
  previousCampaigns: number;
  weekly: WeeklyPoint[];
};

/**
 * The change against the previous period, with a sign and one decimal ("+12.5%", "-3.0%",
 * "0.0%" when nothing changed). A previous value of 0 gives "+100%" when the current one is above
 * 0, otherwise "0%".
 */
export function percentChange(current: number, previous: number): string {
  if (!previous) return current > 0 ? "+100%" : "0%";
  const change = Math.round(((current - previous) / Math.abs(previous)) * 1000) / 10;
  if (change === 0) return "0.0%";
  return `${change > 0 ? "+" : "-"}${Math.abs(change).toFixed(1)}%`;
}

/** Whether the change is a fall (the card's arrow and colour). */
export const isDecrease = (current: number, previous: number) => previous > 0 && current < previous;

/** Average Delivery Rate's colour: above 90 success, above 75 primary, above 50 warning, else error. */
export function deliveryRateColour(rate: number): ChipColour {
  return rate > 90 ? "success" : rate > 75 ? "primary" : rate > 50 ? "warning" : "error";
}

/** Average Open Rate's colour: above 25 success, above 15 secondary, above 10 warning, else error. */
export function openRateColour(rate: number): ChipColour {
  return rate > 25 ? "success" : rate > 15 ? "secondary" : rate > 10 ? "warning" : "error";
}

/** Average Click Rate's colour: above 15 success, above 10 info, above 5 warning, else error. */
export function clickRateColour(rate: number): ChipColour {
  return rate > 15 ? "success" : rate > 10 ? "info" : rate > 5 ? "warning" : "error";
}

/** A recent campaign's chip: its success rate and the list's chip colour (below 60, below 90); "—" before any outcome. */
export function dashboardSuccessChip(successRate: number | null): { label: string; colour: ChipColour } {
  if (successRate === null) return { label: formatRate(null), colour: "default" };
  return { label: formatRate(successRate), colour: successChipColour(successRate) };
}

/** The performance block from summed counters: delivered/attempted, opened/delivered, clicked/opened. */
export function performanceFigures(t: {
  attempted: number;
  delivered: number;
  opened: number;
  clicked: number;
}): PerformanceFigures {
  return {
    deliveryRate: percent(t.delivered, t.attempted),
    openRate: percent(t.opened, t.delivered),
    clickRate: percent(t.clicked, t.opened),
    attempted: t.attempted,
    delivered: t.delivered,
    opened: t.opened,
    clicked: t.clicked,
  };
}

/** How each rate is computed, for the tooltips. */
export const RATE_TOOLTIPS = {
  delivery:
    "Delivered messages (reported as spam included: they reached the mailbox) divided by attempted messages (delivered, failed, bounced or reported as spam)",
  open: "Opened messages divided by delivered messages",
  click: "Clicked messages divided by opened messages",
} as const;

/** Whether the AI Insights card has enough data: 3 campaigns and 10 customers or more. */
export const hasEnoughForInsights = (counts: Pick<DashboardCounts, "customers" | "campaigns">) =>
  counts.campaigns >= INSIGHTS_MIN_CAMPAIGNS && counts.customers >= INSIGHTS_MIN_CUSTOMERS;

/** Whether the info snackbar shows: all three counts are zero. */
export const isEmptyAccount = (counts: DashboardCounts) =>
  counts.customers === 0 && counts.segments === 0 && counts.campaigns === 0;

/** Merges the latest items of each kind, newest first, cut to RECENT_ACTIVITY. */
export function mergeActivity(...lists: ActivityItem[][]): ActivityItem[] {
  return lists
    .flat()
    .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0))
    .slice(0, RECENT_ACTIVITY);
}

// The calendar: India Standard Time has no daylight saving, so a day is a fixed 24 h window.
const IST_OFFSET_MS = 330 * 60_000;
export const DAY_MS = 86_400_000;

/** The day (YYYY-MM-DD, India Standard Time) an instant falls on. */
export function dayOf(at: Date | number): string {
  const ms = typeof at === "number" ? at : at.getTime();
  return new Date(ms + IST_OFFSET_MS).toISOString().slice(0, 10);
}

/** The instant (epoch ms) a day starts at. */
export function dayStartMs(day: string): number {
  return Date.parse(`${day}T00:00:00.000Z`) - IST_OFFSET_MS;
}

/** The day `n` days after (or before, negative) another. */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** The first day of the month a day is in. */
export const monthStart = (day: string) => `${day.slice(0, 8)}01`;

/** The Monday of the week a day is in. */
export function weekStart(day: string): string {
  const weekday = new Date(`${day}T00:00:00.000Z`).getUTCDay(); // 0 is Sunday
  return addDays(day, -((weekday + 6) % 7));
}

/** The Mondays of the last `weeks` weeks, oldest first, the current week last. */
export function weekStarts(now: Date, weeks = WEEKLY_WEEKS): string[] {
  const current = weekStart(dayOf(now));
  return Array.from({ length: weeks }, (_, i) => addDays(current, -7 * (weeks - 1 - i)));
}
