// The dashboard's AI insights (GET /api/ai/insights), grounded in the tenant's data: every figure
// is computed from the database and named (insights/facts.server.ts); a writer only phrases them.
// Without an LLM, or when it fails, times out or states a number it was not given, the local
// writer phrases the same figures (docs/decisions/0013-grounded-insights.md,
// docs/rules.md#ai-insights). The answer is cached per tenant while its data is unchanged.
import { getEnv } from "~/env.server";
import { type Insights, hasEnoughDataForInsights } from "~/lib/insights";
import { logger } from "~/lib/logger.server";
import { singleton } from "~/lib/singleton.server";
import { insightFigures } from "~/models/insights/store.server";
import {
  INSIGHTS_TTL_MS,
  customerKey,
  forgetInsightFigures,
  insightFacts,
} from "~/services/dashboard/insights/facts.server";
import { phraseWithLlm } from "~/services/dashboard/insights/llm-writer.server";
import { blocksOf, localLists } from "~/services/dashboard/insights/local-writer.server";

/** How long an answer is kept even though the data changed (a sending campaign changes it constantly). */
export const INSIGHTS_MIN_REFRESH_MS = 30_000;

type Entry = { key: string; at: number; insights: Insights };
const state = singleton("ai-insights", () => ({
  cache: new Map<string, Entry>(),
  running: new Map<string, Promise<Insights>>(),
}));
const MAX_CACHED_TENANTS = 1000;

export type InsightsOptions = {
  /** The LLM's time limit (10 s unless a test shortens it). */
  timeoutMs?: number;
  now?: Date;
};

/**
 * What changes when the answer may: the customers' key, segments and campaigns written, delivery
 * counters, and the LLM settings.
 */
async function dataKey(userId: string): Promise<string> {
  const [customers, written] = await Promise.all([customerKey(userId), insightFigures.writingMarks(userId)]);
  const env = getEnv();
  return [customers, written.segments, written.campaigns, env.AI_BASE_URL ?? "", env.AI_MODEL ?? ""].join("|");
}

/** Forgets every cached answer (tests, and a tenant's data replaced wholesale). */
export function clearInsightsCache(): void {
  state.cache.clear();
  forgetInsightFigures();
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
      const checked = await phraseWithLlm(lists, options.timeoutMs);
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
  const key = await dataKey(userId);
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
