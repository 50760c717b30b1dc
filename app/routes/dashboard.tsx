// / and /dashboard: the greeting, the three counts with their change this month, Recent Campaigns,
// Campaign Performance, Quick Actions, the charts, Recent Activity and the AI Insights card. The
// figures come from kept counters and daily snapshots (app/services/dashboard/stats.server.ts), so
// the page never counts a million rows; the insights are streamed in after the page (see
// app/components/dashboard/insights-card.tsx). A failed load shows 'Dashboard Data Issue'.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteError } from "@remix-run/react";
import { Megaphone, Target, Users } from "lucide-react";
import { useEffect } from "react";
import { methodNotAllowed, keepAllowHeader } from "~/lib/api.server";
import { CampaignPerformance } from "~/components/dashboard/campaign-performance";
import DashboardCharts from "~/components/dashboard/charts";
import { DashboardDataIssue } from "~/components/dashboard/data-issue";
import { InsightsCard } from "~/components/dashboard/insights-card";
import { QuickActions } from "~/components/dashboard/quick-actions";
import { RecentActivity } from "~/components/dashboard/recent-activity";
import { RecentCampaigns } from "~/components/dashboard/recent-campaigns";
import { CampaignRevenue } from "~/components/dashboard/campaign-revenue";
import { ComplaintRate } from "~/components/dashboard/complaint-rate";
import { StatCard } from "~/components/dashboard/stat-card";
import { useSnackbar } from "~/components/snackbar";
import { BRAND } from "~/lib/brand";
import { hasEnoughForInsights, isEmptyAccount, percentChange } from "~/lib/dashboard";
import { logger } from "~/lib/logger.server";
import { campaignRevenueThisMonth } from "~/services/attribution.server";
import { requireUser } from "~/services/auth.server";
import { getInsights } from "~/services/dashboard/insights.server";
import { dashboardSummary } from "~/services/dashboard/stats.server";

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
export const headers = keepAllowHeader;

export const meta: MetaFunction = () => [{ title: `Dashboard · ${BRAND}` }];

const EMPTY_ACCOUNT_MESSAGE =
  "No customer, segment, or campaign data found. Create your first entries to populate the dashboard.";

/**
 * How long the page stream waits for the insights. It must end before the server entry aborts the
 * stream (5 s); a slower answer (a language model) is then asked for by the browser, and by then
 * the server's cache usually holds it.
 */
const STREAM_INSIGHTS_MS = 3_500;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [summary, campaignRevenue] = await Promise.all([
    dashboardSummary(user.id),
    // Revenue from campaigns this month (docs/rules.md#revenue-per-campaign): optional, like the insights.
    campaignRevenueThisMonth(user.id).catch((error: unknown) => {
      logger().warn({ err: error }, "Dashboard campaign revenue failed");
      return null;
    }),
  ]);
  const enoughData = hasEnoughForInsights(summary.counts);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const insights = enoughData
    ? Promise.race([
        getInsights(user.id).then(({ enoughData, writer, model, blocks }) => ({
          enoughData,
          writer,
          model,
          blocks,
        })),
        new Promise<null>((resolve) => (timer = setTimeout(resolve, STREAM_INSIGHTS_MS, null))),
      ])
        .catch((error: unknown) => {
          // Insights are optional: the card says they are unavailable, the page stays.
          logger().warn({ err: error }, "Dashboard insights failed");
          return null;
        })
        .finally(() => clearTimeout(timer))
    : Promise.resolve(null);
  return { summary, campaignRevenue, enoughData, insights };
}

/** This address takes GET only: any other method is a 405 that says so. */
export const action = methodNotAllowed("GET");

/** The three totals across the top, each with its change and the list it opens. */
const STAT_CARDS = [
  { label: "Total Customers", count: "customers", to: "/customers", icon: Users },
  { label: "Total Segments", count: "segments", to: "/segments", icon: Target },
  { label: "Total Campaigns", count: "campaigns", to: "/campaigns", icon: Megaphone },
] as const;

export default function Dashboard() {
  const { summary, campaignRevenue, enoughData, insights } = useLoaderData<typeof loader>();
  const { counts, previous } = summary;
  const showSnackbar = useSnackbar();
  const empty = isEmptyAccount(counts);
  useEffect(() => {
    if (empty) showSnackbar(EMPTY_ACCOUNT_MESSAGE, "info");
  }, [empty, showSnackbar]);

  return (
    <div className="space-y-6">
      <section>
        <h2 className="text-2xl font-bold text-slate-900">Welcome back!</h2>
        <p className="mt-1 text-slate-600">
          Here&apos;s what&apos;s happening with your customers and campaigns today.
        </p>
      </section>

      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        {STAT_CARDS.map(({ label, count, to, icon }) => (
          <StatCard
            key={count}
            label={label}
            count={counts[count]}
            change={percentChange(counts[count], previous[count])}
            to={to}
            icon={icon}
          />
        ))}
      </div>

      <CampaignRevenue revenue={campaignRevenue} />
      <ComplaintRate complaints={summary.complaints} />

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <RecentCampaigns campaigns={summary.recentCampaigns} />
        <CampaignPerformance performance={summary.performance} />
        <QuickActions />
      </div>

      <DashboardCharts weekly={summary.weekly} funnel={summary.funnel} />

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-5">
        <div className="min-w-0 lg:col-span-2">
          <RecentActivity items={summary.recentActivity} />
        </div>
        <div className="min-w-0 lg:col-span-3">
          <InsightsCard enoughData={enoughData} insights={insights} />
        </div>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardDataIssue error={useRouteError()} />;
}
