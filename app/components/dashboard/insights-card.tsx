// The AI Insights card. Below the thresholds (3 campaigns, 10 customers) it invites more data;
// otherwise it shows the three blocks and who wrote them. The insights never hold the page up: the
// loader streams them in when they come quickly, and when they do not (a language model can take
// up to 10 s, longer than a page stream is kept open) the browser asks GET /api/ai/insights itself.
// A failure shows no insights, never an error page.
import { Await, Link } from "@remix-run/react";
import { Lightbulb, Megaphone, Sparkles, Target, TrendingUp, UserPlus } from "lucide-react";
import { Suspense, useEffect, useState } from "react";
import { z } from "zod";
import { type Insights, insightsWriterLabel } from "~/lib/insights";

export const LOADING_TEXT = "Loading dashboard data...";

/** The part of GET /api/ai/insights the card shows, checked before it is shown. */
const CardInsightsSchema = z.object({
  enoughData: z.boolean(),
  writer: z.enum(["ai", "local"]),
  model: z.string().optional(),
  blocks: z.object({ campaignPerformance: z.string(), segmentInsight: z.string(), recentActivity: z.string() }),
});
type CardInsights = Pick<Insights, "enoughData" | "writer" | "model" | "blocks">;

function Frame({ children, writer }: { children: React.ReactNode; writer?: string }) {
  return (
    <section className="card p-5" aria-labelledby="ai-insights" data-testid="ai-insights">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h3 id="ai-insights" className="flex items-center gap-2 font-semibold text-slate-900">
          <Sparkles className="h-5 w-5 text-secondary" aria-hidden="true" /> AI Insights
        </h3>
        {writer ? (
          <span
            className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs text-slate-600"
            data-testid="insights-writer"
          >
            {writer}
          </span>
        ) : null}
      </div>
      {children}
    </section>
  );
}

function NotEnoughData() {
  return (
    <Frame>
      <div className="flex flex-col items-center py-4 text-center" data-testid="insights-not-enough">
        <Lightbulb className="h-9 w-9 text-slate-300" aria-hidden="true" />
        <p className="mt-2 font-medium text-slate-800">Not enough data for insights</p>
        <p className="mt-1 text-sm text-slate-500">
          Insights appear once you have at least 3 campaigns and 10 customers.
        </p>
        <div className="mt-4 flex flex-wrap justify-center gap-3">
          {/* The original screen pointed this button at /campaigns/create, a path outside the
              route table that falls through to the dashboard itself. /campaigns/new is the
              campaign wizard the button means. */}
          <Link to="/campaigns/new" className="btn-primary">
            <Megaphone className="h-4 w-4" aria-hidden="true" /> Create Campaign
          </Link>
          <Link to="/customers/new" className="btn-secondary">
            <UserPlus className="h-4 w-4" aria-hidden="true" /> Add Customer
          </Link>
        </div>
      </div>
    </Frame>
  );
}

function Loading() {
  return (
    <Frame>
      <p role="status" className="py-6 text-center text-sm text-slate-500">
        {LOADING_TEXT}
      </p>
    </Frame>
  );
}

function Unavailable() {
  return (
    <Frame>
      <p className="py-6 text-center text-sm text-slate-500" data-testid="insights-unavailable">
        Insights are not available right now.
      </p>
    </Frame>
  );
}

const BLOCKS = [
  { key: "campaignPerformance", title: "Campaign Performance", icon: Megaphone },
  { key: "segmentInsight", title: "Segment Insight", icon: Target },
  { key: "recentActivity", title: "Recent Activity", icon: TrendingUp },
] as const;

function InsightBlocks({ insights }: { insights: CardInsights }) {
  if (!insights.enoughData) return <NotEnoughData />;
  return (
    <Frame writer={insightsWriterLabel(insights)}>
      <div className="grid gap-3">
        {BLOCKS.map(({ key, title, icon: Icon }) => (
          <div key={key} className="rounded-lg bg-slate-50 p-4" data-testid={`insight-${key}`}>
            <h4 className="mb-1.5 flex items-center gap-2 text-sm font-semibold text-slate-800">
              <Icon className="h-4 w-4 text-primary" aria-hidden="true" /> {title}
            </h4>
            <p className="text-sm leading-relaxed text-slate-600">{insights.blocks[key]}</p>
          </div>
        ))}
      </div>
    </Frame>
  );
}

/** Asks GET /api/ai/insights from the browser (with the session cookie), for a slow first answer. */
function FetchedInsights() {
  const [state, setState] = useState<
    { kind: "loading" } | { kind: "done"; insights: CardInsights } | { kind: "failed" }
  >({ kind: "loading" });
  useEffect(() => {
    const controller = new AbortController();
    let mounted = true;
    // The server falls back to its own writer after 10 s; a little more than that is a lost answer.
    const timer = setTimeout(() => controller.abort(), 15_000);
    fetch("/api/ai/insights", { signal: controller.signal, headers: { Accept: "application/json" }, cache: "no-store" })
      .then(async (response) => {
        if (!response.ok) throw new Error(`Insights API returned ${response.status}`);
        const parsed = CardInsightsSchema.safeParse(await response.json());
        if (!parsed.success) throw new Error("Unexpected insights answer");
        if (mounted) setState({ kind: "done", insights: parsed.data });
      })
      .catch(() => {
        if (mounted) setState({ kind: "failed" });
      })
      .finally(() => clearTimeout(timer));
    return () => {
      mounted = false;
      clearTimeout(timer);
      controller.abort();
    };
  }, []);
  if (state.kind === "loading") return <Loading />;
  if (state.kind === "failed") return <Unavailable />;
  return <InsightBlocks insights={state.insights} />;
}

export function InsightsCard({
  enoughData,
  insights,
}: {
  enoughData: boolean;
  /** The insights the loader streams: null when they did not come in time (then the browser asks). */
  insights: Promise<CardInsights | null>;
}) {
  if (!enoughData) return <NotEnoughData />;
  return (
    <Suspense fallback={<Loading />}>
      <Await resolve={insights} errorElement={<Unavailable />}>
        {(ready) => (ready ? <InsightBlocks insights={ready} /> : <FetchedInsights />)}
      </Await>
    </Suspense>
  );
}
