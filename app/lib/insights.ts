// The dashboard's AI insights as GET /api/ai/insights answers them and the screen shows them.
// Every insight carries the figures it was made from (computed from the tenant's data, never
// invented); the text only phrases them. See docs/decisions/0013-grounded-insights.md.

import { hasEnoughForInsights } from "~/lib/dashboard";

// The card's threshold is the dashboard's rule (at least 3 campaigns and 10 customers).
export { INSIGHTS_MIN_CAMPAIGNS, INSIGHTS_MIN_CUSTOMERS } from "~/lib/dashboard";
export const hasEnoughDataForInsights = hasEnoughForInsights;

/** How a figure's value reads: a count, a percentage (one decimal) or an amount in rupees. */
export type FigureUnit = "count" | "percent" | "rupees";

/** One number from the database, named: e.g. { label: "Open rate of Diwali Sale", value: 31.2, unit: "percent" }. */
export type InsightFigure = { label: string; value: number; unit: FigureUnit };

/** One insight: a sentence and the figures it states; href points at the record it is about, if any. */
export type Insight = { text: string; figures: InsightFigure[]; href?: string };

export type InsightBlocks = {
  /** Made from campaignSuggestions: best and worst campaigns by delivery and open rate. */
  campaignPerformance: string;
  /** Made from segmentRecommendations: segments with the most reachable customers not yet sent to. */
  segmentInsight: string;
  /** Made from customerTrends and growthPredictions: growth, inactivity, spend concentration. */
  recentActivity: string;
};

/** "ai": an LLM phrased the figures (and its answer passed the checks); "local": written here. */
export type InsightsWriter = "ai" | "local";

export type Insights = {
  customerTrends: Insight[];
  segmentRecommendations: Insight[];
  campaignSuggestions: Insight[];
  growthPredictions: Insight[];
  /** The card's three text blocks. Empty strings when enoughData is false. */
  blocks: InsightBlocks;
  writer: InsightsWriter;
  /** The model's name when writer is "ai". */
  model?: string;
  /** ISO time the figures were computed. */
  generatedAt: string;
  /** False below the thresholds: the card shows 'Not enough data for insights' and the lists are empty. */
  enoughData: boolean;
  /** The counts the thresholds were checked against. */
  counts: { customers: number; campaigns: number; segments: number };
};

/** The card's line saying who wrote the text. */
export function insightsWriterLabel(insights: Pick<Insights, "writer" | "model">): string {
  if (insights.writer === "ai") return insights.model ? `Written by AI (${insights.model})` : "Written by AI";
  return "Written from your data";
}

/** A figure as the insight text states it: 1,23,456 / 12.5% / ₹1,234.50. */
export function formatFigure(figure: Pick<InsightFigure, "value" | "unit">): string {
  if (figure.unit === "percent") return `${figure.value.toFixed(1)}%`;
  if (figure.unit === "rupees") {
    return new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR", maximumFractionDigits: 0 }).format(
      figure.value,
    );
  }
  return figure.value.toLocaleString("en-IN");
}
