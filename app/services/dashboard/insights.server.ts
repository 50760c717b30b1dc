// The dashboard's AI insights (GET /api/ai/insights), grounded in the tenant's data: every figure
// is computed here from the database and named; a writer only phrases them. Without an LLM, or
// when it fails, times out or states a number it was not given, the local writer phrases the same
// figures (docs/decisions/0013-grounded-insights.md, docs/rules.md#ai-insights).
import { z } from "zod";
import { readStatement } from "~/db/reader.server";
import { getEnv } from "~/env.server";
import { type CampaignCounters, deliveryStats, percent } from "~/lib/campaigns";
import { DAY_MS, addDays, dayOf, dayStartMs, monthStart } from "~/lib/dashboard";
import {
  type Insight,
  type InsightBlocks,
  type InsightFigure,
  type Insights,
  formatFigure,
  hasEnoughDataForInsights,
} from "~/lib/insights";
import { logger } from "~/lib/logger.server";
import { paiseToRupees } from "~/lib/money";
import { singleton } from "~/lib/singleton.server";
import { AI_TIMEOUT_MS, chatJson } from "~/services/ai.server";
import { countCustomers } from "~/services/customers.server";
import { sqlAudienceCount } from "~/services/segment-sql.server";
import { segmentTree } from "~/services/segments.server";

/** Inactivity windows (days without activity, or never active). */
export const INACTIVE_DAYS = [30, 60, 90] as const;
/** Spend concentration: the share of all spend held by this fraction of customers, the biggest spenders. */
export const TOP_SPENDERS_SHARE = 0.1;
/** Unsent segments whose audiences are counted: the newest ones (each count scans an index). */
export const UNSENT_SEGMENTS_COUNTED = 5;
/** Segments recommended, the largest audiences first. */
export const SEGMENTS_RECOMMENDED = 3;
/** How long an answer is kept when the data has not changed. */
export const INSIGHTS_TTL_MS = 60 * 60_000;
/** How long an answer is kept even though the data changed (a sending campaign changes it constantly). */
export const INSIGHTS_MIN_REFRESH_MS = 30_000;

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

const idAt = (ms: number) =>
  Math.floor(ms / 1000)
    .toString(16)
    .padStart(8, "0") + "0".repeat(16);

/**
 * Customers added in [from, to) by the creation time their id carries (as the dashboard's snapshots
 * count them), through the (userId, id) index. A range that is most of the tenant is counted as the
 * tenant's total minus the rest, so neither side scans more than it must.
 */
function customersAdded(
  userId: string,
  total: number,
  from: number,
  to: number,
  firstId: string | null,
  at: number,
): number {
  const inRange = readStatement(
    `SELECT count(*) FROM "Customer" WHERE "userId" = ? AND "id" >= ? AND "id" < ?`,
  ).pluck();
  if (!firstId) return 0;
  const firstMs = Number.parseInt(firstId.slice(0, 8), 16) * 1000;
  const span = Math.max(1, at - firstMs);
  // The share of the tenant's life the range covers: roughly the share of its customers in it.
  if ((to - Math.max(from, firstMs)) / span <= 0.5) return Number(inRange.get(userId, idAt(from), idAt(to)));
  const before = Number(inRange.get(userId, "", idAt(from)));
  const after = Number(
    readStatement(`SELECT count(*) FROM "Customer" WHERE "userId" = ? AND "id" >= ?`).pluck().get(userId, idAt(to)),
  );
  return Math.max(0, total - before - after);
}

type Memo = { at: number; value: unknown };
type Entry = { key: string; at: number; insights: Insights };
const state = singleton("ai-insights", () => ({
  cache: new Map<string, Entry>(),
  running: new Map<string, Promise<Insights>>(),
  memo: new Map<string, Memo>(),
}));
const MAX_CACHED_TENANTS = 1000;
const MAX_MEMOS = 20_000;

/**
 * `make()`, or its value from the last hour under the same key. The figures that scan a million
 * index entries (inactivity, spend, segment audiences) are kept under the customers' key, so a
 * campaign's changing counters or a new segment do not make them be counted again.
 */
function remembered<T>(key: string, at: number, make: () => T): T {
  const hit = state.memo.get(key);
  if (hit && at - hit.at >= 0 && at - hit.at < INSIGHTS_TTL_MS) return hit.value as T;
  const value = make();
  state.memo.delete(key);
  if (state.memo.size >= MAX_MEMOS) state.memo.delete(state.memo.keys().next().value as string);
  state.memo.set(key, { at, value });
  return value;
}

const CUSTOMER_KEY_SQL = `SELECT (SELECT "customers" FROM "CustomerTally" WHERE "userId" = @u) AS c,
            (SELECT max("id") FROM "Customer" WHERE "userId" = @u) AS cm,
            (SELECT max("id") FROM "Order" WHERE "userId" = @u) AS om`;

/**
 * What changes when the customers' figures may: customers added or removed (the tally and the
 * newest id) and orders placed (they move spend and activity). Edits that change none of these
 * (a customer's spend typed in, an order edited) wait for the hour.
 */
function customerKey(userId: string): string {
  const row = readStatement(CUSTOMER_KEY_SQL).get({ u: userId }) as Record<string, unknown>;
  return [row.c, row.cm, row.om].join("|");
}

/** The figures, from the tenant's rows only. */
export async function insightFacts(userId: string, now: Date = new Date()): Promise<InsightFacts> {
  const at = now.getTime();
  const customers = (await countCustomers(userId)).total;
  const ck = customerKey(userId);
  const counts = readStatement(
    `SELECT (SELECT count(*) FROM "Campaign" WHERE "userId" = @u) AS campaigns,
            (SELECT count(*) FROM "Segment" WHERE "userId" = @u) AS segments,
            (SELECT min("id") FROM "Customer" WHERE "userId" = @u) AS firstId`,
  ).get({ u: userId }) as { campaigns: number; segments: number; firstId: string | null };

  // Growth, month on month (India Standard Time, as the dashboard's months).
  const today = dayOf(at);
  const thisMonthDay = monthStart(today);
  const lastMonthDay = monthStart(addDays(thisMonthDay, -1));
  const nextMonthDay = monthStart(addDays(thisMonthDay, 31));
  const thisMonthStart = dayStartMs(thisMonthDay);
  const thisMonth = customersAdded(userId, customers, thisMonthStart, at + 1000, counts.firstId, at);
  const lastMonth = customersAdded(userId, customers, dayStartMs(lastMonthDay), thisMonthStart, counts.firstId, at);
  const beforeThisMonth = Math.max(0, customers - thisMonth);
  const dayOfMonth = Number(today.slice(8, 10));
  const daysInMonth = Math.round((dayStartMs(nextMonthDay) - thisMonthStart) / DAY_MS);
  const projectedThisMonth = Math.round((thisMonth / dayOfMonth) * daysInMonth);

  // Inactivity: customers active within each window are a range of the lastActive index, counted
  // as disjoint slices (newest first) so each entry is read once; the rest, never active included,
  // are inactive. count(*) of a range reads no column, a sum over it would decode each entry.
  const inactive = remembered(`${userId}|inactive|${ck}`, at, () => {
    const slice = readStatement(
      `SELECT count(*) FROM "Customer" WHERE "userId" = ? AND "lastActive" >= ? AND "lastActive" < ?`,
    ).pluck();
    let active = 0;
    let upper = Number.MAX_SAFE_INTEGER;
    return [...INACTIVE_DAYS]
      .sort((a, b) => a - b)
      .map((days) => {
        const since = at - days * DAY_MS;
        active += Number(slice.get(userId, since, upper));
        upper = since;
        const n = Math.max(0, customers - active);
        return { days, customers: n, percent: percent(n, customers) };
      });
  });

  // Spend concentration: the biggest spenders are the head of the spend index, read backwards.
  const topCustomers = customers === 0 ? 0 : Math.max(1, Math.ceil(customers * TOP_SPENDERS_SHARE));
  const spendRow = remembered(`${userId}|spend|${ck}`, at, () =>
    readStatement(
      `SELECT (SELECT coalesce(sum("s"), 0) FROM (SELECT "totalSpendPaise" AS "s" FROM "Customer" WHERE "userId" = @u
               ORDER BY "totalSpendPaise" DESC LIMIT @n)) AS top,
            (SELECT coalesce(sum("totalSpendPaise"), 0) FROM "Customer" WHERE "userId" = @u) AS total`,
    ).get({ u: userId, n: topCustomers }),
  ) as { top: number; total: number };

  // Campaigns, from their kept counters.
  const campaignRows = readStatement(
    `SELECT "id", "name", "audienceSize", "pendingCount", "sentCount", "deliveredCount", "failedCount", "bouncedCount",
            "cancelledCount", "openedCount", "clickedCount"
     FROM "Campaign" WHERE "userId" = ? AND "status" <> 'Draft' ORDER BY "createdAt" DESC, "id" DESC`,
  ).all(userId) as (CampaignCounters & { id: string; name: string })[];
  const campaigns: CampaignFigures[] = [];
  for (const c of campaignRows) {
    const stats = deliveryStats(c);
    if (stats.attempted === 0) continue;
    campaigns.push({
      id: c.id,
      name: c.name,
      attempted: stats.attempted,
      delivered: stats.delivered,
      opened: stats.opened,
      deliveryRate: percent(stats.delivered, stats.attempted),
      openRate: percent(stats.opened, stats.delivered),
    });
  }

  // Segments no campaign has been sent to (a draft is not a send), newest first.
  const unsent = readStatement(
    `SELECT s."id", s."name", s."conditions" FROM "Segment" s
     WHERE s."userId" = ? AND NOT EXISTS (SELECT 1 FROM "Campaign" c WHERE c."segmentId" = s."id" AND c."status" <> 'Draft')
     ORDER BY s."createdAt" DESC, s."id" DESC`,
  ).all(userId) as { id: string; name: string; conditions: string }[];
  const counted = unsent.slice(0, UNSENT_SEGMENTS_COUNTED).map((s) => ({
    id: s.id,
    name: s.name,
    customers: remembered(`${userId}|segment|${s.id}|${s.conditions}|${ck}`, at, () =>
      sqlAudienceCount(userId, segmentTree(s)),
    ),
  }));
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
      topSpend: Math.round(paiseToRupees(spendRow.top)),
      totalSpend: Math.round(paiseToRupees(spendRow.total)),
      topPercent: percent(spendRow.top, spendRow.total),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The local writer: plain sentences that state the figures and name them.

type Lists = Pick<Insights, "customerTrends" | "segmentRecommendations" | "campaignSuggestions" | "growthPredictions">;

const fig = (label: string, value: number, unit: InsightFigure["unit"]): InsightFigure => ({ label, value, unit });
const show = (f: InsightFigure) => formatFigure(f);
const plural = (n: number, one: string, many = `${one}s`) => (n === 1 ? one : many);

function pickBy<T>(items: T[], score: (t: T) => number, best: boolean): T {
  return items.reduce((a, b) => (best ? (score(b) > score(a) ? b : a) : score(b) < score(a) ? b : a));
}

export function localLists(f: InsightFacts): Lists {
  const customerTrends: Insight[] = [];
  {
    const added = fig("New customers this month", f.growth.thisMonth, "count");
    const growth = fig("Customer growth this month", f.growth.growthPercent, "percent");
    const before = fig("Customers before this month", f.growth.beforeThisMonth, "count");
    const last = fig("New customers last month", f.growth.lastMonth, "count");
    customerTrends.push({
      text:
        f.growth.beforeThisMonth === 0
          ? `All ${show(added)} of your customers were added this month; last month brought ${show(last)}.`
          : `New customers this month: ${show(added)}, growing your customer base by ${show(growth)} from ${show(before)}; last month brought ${show(last)}.`,
      figures: [added, growth, before, last],
    });
  }
  {
    const shares = f.inactive.map((w) => fig(`Customers inactive for ${w.days} days or more`, w.percent, "percent"));
    const numbers = f.inactive.map((w) =>
      fig(`Customers inactive for ${w.days} days or more (count)`, w.customers, "count"),
    );
    const [d30, d60, d90] = f.inactive;
    customerTrends.push({
      text: `Inactive customers: ${show(shares[0])} have not been active for ${d30.days} days, ${show(shares[1])} for ${d60.days} days and ${show(shares[2])} for ${d90.days} days (${show(numbers[2])} customers).`,
      figures: [...shares, ...numbers],
    });
  }
  {
    const share = fig("Share of total spend held by the top 10% of customers", f.spend.topPercent, "percent");
    const top = fig("Customers in the top 10% by spend", f.spend.topCustomers, "count");
    const topSpend = fig("Spend of the top 10% of customers", f.spend.topSpend, "rupees");
    const total = fig("Total spend of all customers", f.spend.totalSpend, "rupees");
    customerTrends.push({
      text: `Spend concentration: the top 10% of customers (${show(top)}) hold ${show(share)} of total spend, ${show(topSpend)} of ${show(total)}.`,
      figures: [share, top, topSpend, total],
    });
  }

  const segmentRecommendations: Insight[] = f.unsentSegments.largest.map((s) => {
    const size = fig(`Customers in "${s.name}"`, s.customers, "count");
    return {
      text: `Segment "${s.name}" has ${show(size)} ${plural(s.customers, "customer")} and no campaign has been sent to it yet: launch one to reach them.`,
      figures: [size],
      href: `/campaigns/new?segmentId=${s.id}`,
    };
  });
  if (segmentRecommendations.length === 0) {
    const total = fig("Segments", f.counts.segments, "count");
    const empty = fig("Newest segments not yet sent to, all without customers", f.unsentSegments.counted, "count");
    segmentRecommendations.push(
      f.counts.segments === 0
        ? {
            text: "You have no segments yet: create one to target a group of customers.",
            figures: [],
            href: "/segments/new",
          }
        : f.unsentSegments.total === 0
          ? {
              text: `Every one of your ${show(total)} ${plural(f.counts.segments, "segment")} has had a campaign: create a new segment to reach other customers.`,
              figures: [total],
              href: "/segments/new",
            }
          : {
              text: `Your ${show(empty)} newest ${plural(f.unsentSegments.counted, "segment")} not yet sent to ${f.unsentSegments.counted === 1 ? "has" : "have"} no customers: loosen ${f.unsentSegments.counted === 1 ? "its" : "their"} conditions or create a new segment.`,
              figures: [empty],
              href: "/segments",
            },
    );
  }

  const campaignSuggestions: Insight[] = [];
  const rated = f.campaigns;
  if (rated.length === 0) {
    campaignSuggestions.push({
      text: "No campaign has delivery results yet: launch one to see how it performs.",
      figures: [],
    });
  } else {
    const best = pickBy(rated, (c) => c.deliveryRate, true);
    const worst = pickBy(rated, (c) => c.deliveryRate, false);
    const rate = (c: CampaignFigures) => fig(`Delivery rate of "${c.name}"`, c.deliveryRate, "percent");
    const attempted = (c: CampaignFigures) => fig(`Messages attempted by "${c.name}"`, c.attempted, "count");
    campaignSuggestions.push({
      text: `Best delivery rate: "${best.name}" delivered ${show(rate(best))} of its ${show(attempted(best))} attempted messages.`,
      figures: [rate(best), attempted(best)],
      href: `/campaigns/${best.id}`,
    });
    if (worst.id !== best.id && worst.deliveryRate < best.deliveryRate) {
      campaignSuggestions.push({
        text: `Lowest delivery rate: "${worst.name}" delivered ${show(rate(worst))}: check its failed and bounced addresses before sending to that audience again.`,
        figures: [rate(worst)],
        href: `/campaigns/${worst.id}`,
      });
    }
    const opened = rated.filter((c) => c.delivered > 0);
    if (opened.length > 0) {
      const bestOpen = pickBy(opened, (c) => c.openRate, true);
      const worstOpen = pickBy(opened, (c) => c.openRate, false);
      const open = (c: CampaignFigures) => fig(`Open rate of "${c.name}"`, c.openRate, "percent");
      campaignSuggestions.push({
        text: `Best open rate: "${bestOpen.name}" was opened by ${show(open(bestOpen))} of those who received it: reuse its subject and timing.`,
        figures: [open(bestOpen)],
        href: `/campaigns/${bestOpen.id}`,
      });
      if (worstOpen.id !== bestOpen.id && worstOpen.openRate < bestOpen.openRate) {
        campaignSuggestions.push({
          text: `Lowest open rate: "${worstOpen.name}" was opened by ${show(open(worstOpen))}: try a shorter subject or another time of day.`,
          figures: [open(worstOpen)],
          href: `/campaigns/${worstOpen.id}`,
        });
      }
    }
  }

  const g = f.growth;
  const pace = fig("New customers this month", g.thisMonth, "count");
  const days = fig("Days of this month so far", g.dayOfMonth, "count");
  const projected = fig("New customers expected this month at this month's pace", g.projectedThisMonth, "count");
  const total = fig("Customers expected at the end of this month at this month's pace", g.projectedTotal, "count");
  const growthPredictions: Insight[] = [
    {
      text: `At this month's pace (${show(pace)} new customers in ${show(days)} ${plural(g.dayOfMonth, "day")}), about ${show(projected)} will have joined by the month's end, for ${show(total)} customers in all.`,
      figures: [pace, days, projected, total],
    },
  ];
  return { customerTrends, segmentRecommendations, campaignSuggestions, growthPredictions };
}

/** The card's three blocks, made from the lists. */
export function blocksOf(lists: Lists): InsightBlocks {
  const join = (items: Insight[]) => items.map((i) => i.text).join(" ");
  return {
    campaignPerformance: join(lists.campaignSuggestions),
    segmentInsight: join(lists.segmentRecommendations),
    recentActivity: join([...lists.customerTrends, ...lists.growthPredictions]),
  };
}

// ---------------------------------------------------------------------------------------------
// The numbers check: every number a text states must be one of the figures given, as a value (in
// any of its usual roundings) or inside a figure's name ("30 days", "top 10%", "Campaign 12").

const NUMBER = /\d(?:[\d,]*\d)?(?:\.\d+)?/g;

/** The numbers a text states, as numbers ("1,23,456" and "12.5%" read as 123456 and 12.5). */
export function numbersIn(text: string): number[] {
  return (text.match(NUMBER) ?? []).map((n) => Number(n.replaceAll(",", "")));
}

function allowedNumbers(figures: InsightFigure[]): Set<number> {
  const allowed = new Set<number>();
  for (const f of figures) {
    allowed.add(f.value);
    allowed.add(Math.round(f.value));
    allowed.add(Math.round(f.value * 10) / 10);
    for (const n of numbersIn(f.label)) allowed.add(n);
  }
  return allowed;
}

/** The numbers in `text` that are none of the figures (empty: the text passes). */
export function unknownNumbers(text: string, figures: InsightFigure[]): number[] {
  const allowed = allowedNumbers(figures);
  return numbersIn(text).filter((n) => !allowed.has(n));
}

// ---------------------------------------------------------------------------------------------
// The LLM writer.

const Text = z.string().trim().min(1).max(600);
const AnswerSchema = z.object({
  customerTrends: z.array(Text),
  segmentRecommendations: z.array(Text),
  campaignSuggestions: z.array(Text),
  growthPredictions: z.array(Text),
  blocks: z.object({
    campaignPerformance: z.string().trim().min(1).max(1200),
    segmentInsight: z.string().trim().min(1).max(1200),
    recentActivity: z.string().trim().min(1).max(1200),
  }),
});

const LIST_KEYS = ["customerTrends", "segmentRecommendations", "campaignSuggestions", "growthPredictions"] as const;

const BLOCK_SOURCES: Record<keyof InsightBlocks, (typeof LIST_KEYS)[number][]> = {
  campaignPerformance: ["campaignSuggestions"],
  segmentInsight: ["segmentRecommendations"],
  recentActivity: ["customerTrends", "growthPredictions"],
};

const SYSTEM_PROMPT =
  "You phrase dashboard insights for the marketer of an Indian retail business. Amounts are in rupees (₹). " +
  "You are given lists of insights, each with a plain draft and the figures it may state. Rewrite each draft as one or two clear, " +
  "friendly sentences, keeping its meaning and order, and write three short paragraphs for the dashboard card. " +
  "State no number that is not among the figures given (no years, no invented estimates); you may leave figures out. " +
  'Answer only with JSON: {"customerTrends":["…"],"segmentRecommendations":["…"],"campaignSuggestions":["…"],"growthPredictions":["…"],' +
  '"blocks":{"campaignPerformance":"…","segmentInsight":"…","recentActivity":"…"}} with exactly as many items in each list as given. ' +
  "campaignPerformance sums up campaignSuggestions, segmentInsight sums up segmentRecommendations, recentActivity sums up customerTrends and growthPredictions.";

function promptOf(lists: Lists): string {
  const out: Record<string, { draft: string; figures: { name: string; value: string }[] }[]> = {};
  for (const key of LIST_KEYS) {
    out[key] = lists[key].map((i) => ({
      draft: i.text,
      figures: i.figures.map((f) => ({ name: f.label, value: formatFigure(f) })),
    }));
  }
  return JSON.stringify(out, null, 1);
}

/** The model's phrasing of the lists, or the reason it is refused. */
export function checkAnswer(
  lists: Lists,
  answer: z.infer<typeof AnswerSchema>,
): { ok: true; lists: Lists; blocks: InsightBlocks } | { ok: false; reason: string } {
  const phrased = {} as Lists;
  for (const key of LIST_KEYS) {
    const given = lists[key];
    const texts = answer[key];
    if (texts.length !== given.length)
      return { ok: false, reason: `${key} has ${texts.length} items, not ${given.length}` };
    phrased[key] = given.map((insight, i) => ({ ...insight, text: texts[i] }));
    for (let i = 0; i < texts.length; i++) {
      const unknown = unknownNumbers(texts[i], given[i].figures);
      if (unknown.length)
        return { ok: false, reason: `${key}[${i}] states ${unknown.join(", ")}, not among its figures` };
    }
  }
  for (const block of Object.keys(BLOCK_SOURCES) as (keyof InsightBlocks)[]) {
    const figures = BLOCK_SOURCES[block].flatMap((key) => lists[key].flatMap((i) => i.figures));
    const unknown = unknownNumbers(answer.blocks[block], figures);
    if (unknown.length)
      return { ok: false, reason: `the ${block} block states ${unknown.join(", ")}, not among its figures` };
  }
  return { ok: true, lists: phrased, blocks: answer.blocks };
}

// ---------------------------------------------------------------------------------------------
// The answer, cached per tenant.

export type InsightsOptions = {
  /** The LLM's time limit (10 s unless a test shortens it). */
  timeoutMs?: number;
  now?: Date;
};

/**
 * What changes when the answer may: the customers' key, segments and campaigns written, delivery
 * counters, and the LLM settings.
 */
function dataKey(userId: string): string {
  const row = readStatement(
    `SELECT (SELECT count(*) || ':' || coalesce(max("updatedAt"), 0) FROM "Segment" WHERE "userId" = @u) AS s,
            (SELECT count(*) || ':' || coalesce(max("updatedAt"), 0) || ':' ||
                    coalesce(sum("sentCount" + "deliveredCount" + "failedCount" + "bouncedCount" + "openedCount" + "clickedCount"), 0)
               FROM "Campaign" WHERE "userId" = @u) AS k`,
  ).get({ u: userId }) as Record<string, unknown>;
  const env = getEnv();
  return [customerKey(userId), row.s, row.k, env.AI_BASE_URL ?? "", env.AI_MODEL ?? ""].join("|");
}

/** Forgets every cached answer (tests, and a tenant's data replaced wholesale). */
export function clearInsightsCache(): void {
  state.cache.clear();
  state.memo.clear();
}

async function compute(userId: string, options: InsightsOptions): Promise<Insights> {
  const now = options.now ?? new Date();
  const facts = await insightFacts(userId, now);
  const base = { generatedAt: now.toISOString(), counts: facts.counts };
  if (!hasEnoughDataForInsights(facts.counts)) {
    return {
      customerTrends: [],
      segmentRecommendations: [],
      campaignSuggestions: [],
      growthPredictions: [],
      blocks: { campaignPerformance: "", segmentInsight: "", recentActivity: "" },
      writer: "local",
      enoughData: false,
      ...base,
    };
  }
  const lists = localLists(facts);
  const env = getEnv();
  if (env.AI_BASE_URL && env.AI_MODEL) {
    try {
      const answer = await chatJson(AnswerSchema, SYSTEM_PROMPT, promptOf(lists), options.timeoutMs ?? AI_TIMEOUT_MS);
      const checked = checkAnswer(lists, answer);
      if (checked.ok) {
        return {
          ...checked.lists,
          blocks: checked.blocks,
          writer: "ai",
          model: env.AI_MODEL,
          enoughData: true,
          ...base,
        };
      }
      logger().warn({ reason: checked.reason }, "AI insights: the LLM's answer was refused, writing them locally");
    } catch (error) {
      logger().warn({ reason: (error as Error).message }, "AI insights: the LLM failed, writing them locally");
    }
  }
  return { ...lists, blocks: blocksOf(lists), writer: "local", enoughData: true, ...base };
}

/** GET /api/ai/insights: the tenant's insights, from the cache while the data is unchanged and under an hour old. */
export async function getInsights(userId: string, options: InsightsOptions = {}): Promise<Insights> {
  const nowMs = (options.now ?? new Date()).getTime();
  const key = dataKey(userId);
  const cached = state.cache.get(userId);
  if (cached) {
    const age = nowMs - cached.at;
    const fresh = cached.key === key && age < INSIGHTS_TTL_MS;
    // A tenant that just crossed the threshold sees its insights at once.
    const recent = age < INSIGHTS_MIN_REFRESH_MS && cached.insights.enoughData;
    if (age >= 0 && (fresh || recent)) return cached.insights;
  }
  // One computation per tenant at a time: concurrent loads of the dashboard share it.
  const running = state.running.get(userId);
  if (running) return running;
  const work = compute(userId, options)
    .then((insights) => {
      state.cache.delete(userId);
      if (state.cache.size >= MAX_CACHED_TENANTS) state.cache.delete(state.cache.keys().next().value as string);
      state.cache.set(userId, { key, at: nowMs, insights });
      return insights;
    })
    .finally(() => state.running.delete(userId));
  state.running.set(userId, work);
  return work;
}
