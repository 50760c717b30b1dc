// What the LLM is asked to write for the dashboard's AI insights: the instructions, the lists of
// drafts with their figures, and the shape its answer must have.
import { z } from "zod";
import { type InsightBlocks, formatFigure } from "~/lib/insights";
import type { Lists } from "~/services/dashboard/insights/local-writer.server";

const Text = z.string().trim().min(1).max(600);
/** The answer the LLM must give: each list rephrased item for item, and the card's three blocks. */
export const AnswerSchema = z.object({
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

/** The insights' lists, in the order they are given and answered. */
export const LIST_KEYS = [
  "customerTrends",
  "segmentRecommendations",
  "campaignSuggestions",
  "growthPredictions",
] as const;

/** Which lists each of the card's blocks sums up (and so which figures it may state). */
export const BLOCK_SOURCES: Record<keyof InsightBlocks, (typeof LIST_KEYS)[number][]> = {
  campaignPerformance: ["campaignSuggestions"],
  segmentInsight: ["segmentRecommendations"],
  recentActivity: ["customerTrends", "growthPredictions"],
};

/** The instructions: rephrase, state only the figures given, answer in the shape of AnswerSchema. */
export const SYSTEM_PROMPT =
  "You phrase dashboard insights for the marketer of an Indian retail business. Amounts are in rupees (₹). " +
  "You are given lists of insights, each with a plain draft and the figures it may state. Rewrite each draft as one or two clear, " +
  "friendly sentences, keeping its meaning and order, and write three short paragraphs for the dashboard card. " +
  "State no number that is not among the figures given (no years, no invented estimates); you may leave figures out. " +
  'Answer only with JSON: {"customerTrends":["…"],"segmentRecommendations":["…"],"campaignSuggestions":["…"],"growthPredictions":["…"],' +
  '"blocks":{"campaignPerformance":"…","segmentInsight":"…","recentActivity":"…"}} with exactly as many items in each list as given. ' +
  "campaignPerformance sums up campaignSuggestions, segmentInsight sums up segmentRecommendations, recentActivity sums up customerTrends and growthPredictions.";

/** The user message: each list's drafts with the figures each may state, formatted as shown. */
export function promptOf(lists: Lists): string {
  const out: Record<string, { draft: string; figures: { name: string; value: string }[] }[]> = {};
  for (const key of LIST_KEYS) {
    out[key] = lists[key].map((i) => ({
      draft: i.text,
      figures: i.figures.map((f) => ({ name: f.label, value: formatFigure(f) })),
    }));
  }
  return JSON.stringify(out, null, 1);
}
