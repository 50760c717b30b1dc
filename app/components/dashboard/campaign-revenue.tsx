// The dashboard's "Revenue from campaigns" (docs/rules.md#revenue-per-campaign): orders placed this
// month that a campaign's click brought (within the attribution window, each order once), and
// their revenue.
import { Link } from "@remix-run/react";
import { ArrowRight, IndianRupee } from "lucide-react";
import { formatRupees } from "~/lib/money";
import { formatCount } from "~/lib/numbers";

export function CampaignRevenue({
  revenue,
}: {
  revenue: { orders: number; revenue: number; windowDays: number } | null;
}) {
  return (
    <section className="card flex items-start gap-4 p-5" aria-labelledby="campaign-revenue-title">
      <div className="flex h-11 w-11 shrink-0 items-center justify-center rounded-lg bg-primary-light text-primary">
        <IndianRupee className="h-5 w-5" aria-hidden="true" />
      </div>
      <div className="min-w-0 flex-1">
        <h3 id="campaign-revenue-title" className="text-sm text-slate-500">
          Revenue from campaigns
        </h3>
        {revenue ? (
          <>
            <p className="break-words text-2xl font-semibold text-slate-900" data-testid="campaign-revenue-total">
              {formatRupees(revenue.revenue)}
            </p>
            <p className="mt-1 text-xs text-slate-500">
              <span data-testid="campaign-revenue-orders">
                {formatCount(revenue.orders)} {revenue.orders === 1 ? "order" : "orders"}
              </span>{" "}
              this month, placed within {revenue.windowDays} {revenue.windowDays === 1 ? "day" : "days"} after a
              campaign click
            </p>
          </>
        ) : (
          <p className="mt-1 text-sm text-slate-600">Not available right now.</p>
        )}
      </div>
      <Link
        to="/campaigns?sort=revenue"
        aria-label="Campaigns by revenue"
        className="shrink-0 rounded-md p-1 text-slate-400 hover:bg-slate-100 hover:text-primary"
      >
        <ArrowRight className="h-5 w-5" aria-hidden="true" />
      </Link>
    </section>
  );
}
