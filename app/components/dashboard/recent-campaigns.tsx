// Recent Campaigns: the newest few, each a link to its detail, with failures, the success chip and
// a short date; the empty state invites the first one.
import { Link } from "@remix-run/react";
import { ChevronRight, Megaphone } from "lucide-react";
import { Chip, NoRateChip } from "~/components/campaign-chips";
import { type RecentCampaign, dashboardSuccessChip } from "~/lib/dashboard";
import { CreateLink } from "~/components/create-link";
import { DateTime } from "~/components/date-time";
import { formatCount } from "~/lib/numbers";

export function RecentCampaigns({ campaigns }: { campaigns: RecentCampaign[] }) {
  return (
    <section className="card flex flex-col p-5" aria-labelledby="recent-campaigns">
      <div className="mb-3 flex items-center justify-between gap-2">
        <h3 id="recent-campaigns" className="font-semibold text-slate-900">
          Recent Campaigns
        </h3>
        <Link to="/campaigns" className="btn-ghost text-sm text-primary">
          View All
        </Link>
      </div>
      {campaigns.length === 0 ? (
        <div
          className="flex flex-1 flex-col items-center justify-center py-6 text-center"
          data-testid="recent-campaigns-empty"
        >
          <Megaphone className="h-9 w-9 text-slate-300" aria-hidden="true" />
          <p className="mt-2 font-medium text-slate-800">No recent campaigns</p>
          <p className="mt-1 text-sm text-slate-500">Launch your first campaign to see it here</p>
          <CreateLink to="/campaigns/new" className="btn-primary mt-4">
            Create Campaign
          </CreateLink>
        </div>
      ) : (
        <ul className="-mx-2 divide-y divide-slate-100" data-testid="recent-campaigns-list">
          {campaigns.map((c) => {
            // No rate before anything was delivered, failed or bounced (docs/rules.md#numbers).
            const chip = dashboardSuccessChip(c.successRate);
            return (
              <li key={c.id}>
                <Link
                  to={`/campaigns/${c.id}`}
                  className="flex items-center gap-3 rounded-lg px-2 py-3 hover:bg-slate-50"
                  data-testid="recent-campaign"
                >
                  <div className="min-w-0 flex-1">
                    <p className="truncate font-medium text-slate-800">{c.name || "Unnamed Campaign"}</p>
                    <p className="text-xs text-slate-500">
                      <span data-testid="recent-campaign-failed">{formatCount(c.failed)} failed</span>
                      {" · "}
                      <DateTime value={c.date} />
                    </p>
                  </div>
                  {c.successRate === null ? (
                    <NoRateChip testId="recent-campaign-success" />
                  ) : (
                    <Chip
                      colour={chip.colour}
                      testId="recent-campaign-success"
                      title="Delivered out of delivered, failed and bounced"
                    >
                      {chip.label} success
                    </Chip>
                  )}
                  <ChevronRight className="h-4 w-4 shrink-0 text-slate-400" aria-hidden="true" />
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
