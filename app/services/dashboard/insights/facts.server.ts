// The figures the dashboard's AI insights are grounded in: every one computed here from the
// tenant's rows and named (docs/decisions/0013-grounded-insights.md). The writers only phrase them.
import { deliveryStats, percent } from "~/lib/campaigns";
import { DAY_MS, addDays, dayOf, dayStartMs, monthStart } from "~/lib/dashboard";
import { paiseToRupees } from "~/lib/money";
import { singleton } from "~/lib/singleton.server";
import { insightFigures } from "~/models/insights/store.server";
import { segmentAudience } from "~/models/segments/audience/store.server";
import { countCustomers } from "~/services/customers.server";
import { withSegmentReference } from "~/services/segment-references.server";
import { segmentTree } from "~/services/segments.server";

/** Inactivity windows (days without activity, or never active). */
export const INACTIVE_DAYS = [30, 60, 90] as const;
/** Spend concentration: the share of all spend held by this fraction of customers, the biggest spenders. */
export const TOP_SPENDERS_SHARE = 0.1;
/** Unsent segments whose audiences are counted: the newest ones (each count scans an index). */
export const UNSENT_SEGMENTS_COUNTED = 5;
/** Segments recommended, the largest audiences first. */
export const SEGMENTS_RECOMMENDED = 3;
/** How long an answer, or a figure kept for it, is kept when the data has not changed. */
export const INSIGHTS_TTL_MS = 60 * 60_000;

export type CampaignFigures = {
  id: string;
  name: string;
  attempted: number;
  delivered: number;
  opened: number;
  /** delivered / attempted and opened / delivered, percentages with one decimal. */
  deliveryRate: number;
  openRate: number;
};

export type SegmentChance = { id: string; name: string; customers: number };

/** Everything the insights say, computed from the tenant's rows. */
export type InsightFacts = {
  at: number;
  counts: { customers: number; campaigns: number; segments: number };
  growth: {
    /** Customers added this month and last month (India Standard Time months, by creation time). */
    thisMonth: number;
    lastMonth: number;
    /** Customers there were before this month began (those still kept). */
    beforeThisMonth: number;
    /** thisMonth / beforeThisMonth, a percentage with one decimal (100 when there were none before). */
    growthPercent: number;
    dayOfMonth: number;
    daysInMonth: number;
    /** thisMonth at its daily pace so far, over the whole month, and the total it would make. */
    projectedThisMonth: number;
    projectedTotal: number;
  };
  /** Launched campaigns with at least one final delivery, newest first. */
  campaigns: CampaignFigures[];
  unsentSegments: { total: number; counted: number; largest: SegmentChance[] };
  inactive: { days: number; customers: number; percent: number }[];
  spend: { topCustomers: number; topSpend: number; totalSpend: number; topPercent: number };
};

type Memo = { at: number; value: unknown };
const memos = singleton("ai-insights-figures", () => new Map<string, Memo>());
const MAX_MEMOS = 20_000;

/**
 * `make()`, or its value from the last hour under the same key. The figures that scan a million
 * index entries (inactivity, spend, segment audiences) are kept under the customers' key, so a
 * campaign's changing counters or a new segment do not make them be counted again.
 */
async function remembered<T>(key: string, at: number, make: () => Promise<T>): Promise<T> {
  const hit = memos.get(key);
  if (hit && at - hit.at >= 0 && at - hit.at < INSIGHTS_TTL_MS) return hit.value as T;
  const value = await make();
  memos.delete(key);
  if (memos.size >= MAX_MEMOS) memos.delete(memos.keys().next().value as string);
  memos.set(key, { at, value });
  return value;
}

/** Forgets every figure kept (with the cached answers, app/services/dashboard/insights.server.ts). */
export function forgetInsightFigures(): void {
  memos.clear();
}

/**
 * What changes when the customers' figures may: customers added or removed (the tally and the
 * newest id) and orders placed (they move spend and activity). Edits that change none of these
 * (a customer's spend typed in, an order edited) wait for the hour.
 */
export async function customerKey(userId: string): Promise<string> {
  const marks = await insightFigures.customerMarks(userId);
  return [marks.customers, marks.newestCustomer, marks.newestOrder].join("|");
}

/** The figures, from the tenant's rows only. */
export async function insightFacts(userId: string, now: Date = new Date()): Promise<InsightFacts> {
  const at = now.getTime();
  const [{ total: customers }, ck, counts] = await Promise.all([
    countCustomers(userId),
    customerKey(userId),
    insightFigures.insightCounts(userId),
  ]);

  // Growth, month on month (India Standard Time, as the dashboard's months).
  const today = dayOf(at);
  const thisMonthDay = monthStart(today);
  const lastMonthDay = monthStart(addDays(thisMonthDay, -1));
  const nextMonthDay = monthStart(addDays(thisMonthDay, 31));
  const thisMonthStart = dayStartMs(thisMonthDay);
  const [thisMonth, lastMonth] = await insightFigures.countCustomersAdded(
    userId,
    { total: customers, firstId: counts.firstCustomerId, at },
    [
      { from: thisMonthStart, to: at + 1000 },
      { from: dayStartMs(lastMonthDay), to: thisMonthStart },
    ],
  );
  const beforeThisMonth = Math.max(0, customers - thisMonth);
  const dayOfMonth = Number(today.slice(8, 10));
  const daysInMonth = Math.round((dayStartMs(nextMonthDay) - thisMonthStart) / DAY_MS);
  const projectedThisMonth = Math.round((thisMonth / dayOfMonth) * daysInMonth);

  // Inactivity: customers active within each window are a range of the lastActive index, counted
  // as disjoint slices (newest first) so each entry is read once; the rest, never active included,
  // are inactive.
  const inactive = await remembered(`${userId}|inactive|${ck}`, at, async () => {
    const windows = [...INACTIVE_DAYS].sort((a, b) => a - b);
    const bounds = windows.map((days) => at - days * DAY_MS);
    const slices = await insightFigures.countActiveBetween(
      userId,
      bounds.map((since, i) => ({ from: since, to: i === 0 ? Number.MAX_SAFE_INTEGER : bounds[i - 1] })),
    );
    let active = 0;
    return windows.map((days, i) => {
      active += slices[i];
      const n = Math.max(0, customers - active);
      return { days, customers: n, percent: percent(n, customers) };
    });
  });

  // Spend concentration: the biggest spenders are the head of the spend index, read backwards.
  const topCustomers = customers === 0 ? 0 : Math.max(1, Math.ceil(customers * TOP_SPENDERS_SHARE));
  const spend = await remembered(`${userId}|spend|${ck}`, at, () =>
    insightFigures.spendOfTopCustomers(userId, topCustomers),
  );

  // Campaigns, from their kept counters; segments no campaign has been sent to, newest first.
  const [campaignRows, unsent] = await Promise.all([
    insightFigures.launchedCampaignCounters(userId),
    insightFigures.segmentsNeverSent(userId),
  ]);
  const campaigns: CampaignFigures[] = [];
  for (const c of campaignRows) {
    const stats = deliveryStats(c);
    if (stats.attempted === 0) continue;
    // A message reported as spam reached the mailbox (attempted counts it): delivered, as the
    // campaign's success rate and the dashboard count it, and its opener is among the opened.
    const delivered = stats.delivered + stats.complained;
    campaigns.push({
      id: c.id,
      name: c.name,
      attempted: stats.attempted,
      delivered,
      opened: stats.opened,
      deliveryRate: percent(delivered, stats.attempted),
      openRate: percent(stats.opened, delivered),
    });
  }

  // Remembered by the rules as counted: a segment's own, and those of the segments it includes.
  const counted = await Promise.all(
    unsent.slice(0, UNSENT_SEGMENTS_COUNTED).map(async (s) => {
      const tree = await withSegmentReference(userId, segmentTree(s));
      const key = `${userId}|segment|${s.id}|${JSON.stringify(tree)}|${ck}`;
      return {
        id: s.id,
        name: s.name,
        customers: await remembered(key, at, () => segmentAudience.sqlAudienceCount(userId, tree)),
      };
    }),
  );
  const largest = counted
    .filter((s) => s.customers > 0)
    .sort((a, b) => b.customers - a.customers)
    .slice(0, SEGMENTS_RECOMMENDED);

  return {
    at,
    counts: { customers, campaigns: counts.campaigns, segments: counts.segments },
    growth: {
      thisMonth,
      lastMonth,
      beforeThisMonth,
      growthPercent: beforeThisMonth === 0 ? (thisMonth > 0 ? 100 : 0) : percent(thisMonth, beforeThisMonth),
      dayOfMonth,
      daysInMonth,
      projectedThisMonth,
      projectedTotal: beforeThisMonth + projectedThisMonth,
    },
    campaigns,
    unsentSegments: { total: unsent.length, counted: counted.length, largest },
    inactive,
    spend: {
      topCustomers,
      topSpend: Math.round(paiseToRupees(spend.top)),
      totalSpend: Math.round(paiseToRupees(spend.total)),
      topPercent: percent(spend.top, spend.total),
    },
  };
}
