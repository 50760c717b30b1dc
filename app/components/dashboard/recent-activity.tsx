// Recent Activity: the newest campaigns, segments and customers merged, each a link to its record.
import { Link } from "@remix-run/react";
import { Megaphone, Target, UserPlus, type LucideIcon } from "lucide-react";
import type { ActivityItem, ActivityType } from "~/lib/dashboard";
import { DateTime } from "~/components/date-time";
import { TitledCard } from "~/components/titled-card";

const KINDS: Record<ActivityType, { icon: LucideIcon; href: (id: string) => string; tint: string }> = {
  campaign: { icon: Megaphone, href: (id) => `/campaigns/${id}`, tint: "bg-primary-light text-primary" },
  segment: { icon: Target, href: (id) => `/segments/${id}`, tint: "bg-secondary-light text-secondary" },
  customer: { icon: UserPlus, href: (id) => `/customers/${id}`, tint: "bg-green-100 text-green-700" },
};

export function RecentActivity({ items }: { items: ActivityItem[] }) {
  return (
    <TitledCard
      headingId="recent-activity"
      title="Recent Activity"
      className="card p-5"
      headingClassName="mb-3 font-semibold text-slate-900"
    >
      {items.length === 0 ? (
        <p className="py-4 text-sm text-slate-500">No activity yet</p>
      ) : (
        <ul className="-mx-2 divide-y divide-slate-100" data-testid="activity-list">
          {items.map((item) => {
            const kind = KINDS[item.type];
            const Icon = kind.icon;
            return (
              <li key={`${item.type}-${item.id}`}>
                <Link
                  to={kind.href(item.id)}
                  className="flex items-center gap-3 rounded-lg px-2 py-2.5 hover:bg-slate-50"
                  data-testid="activity-item"
                  data-type={item.type}
                >
                  <span className={`flex h-8 w-8 shrink-0 items-center justify-center rounded-full ${kind.tint}`}>
                    <Icon className="h-4 w-4" aria-hidden="true" />
                  </span>
                  <span className="min-w-0 flex-1">
                    <span className="block truncate text-sm font-medium text-slate-800">{item.title}</span>
                    {item.details ? (
                      <span className="block truncate text-xs text-slate-500">{item.details}</span>
                    ) : null}
                  </span>
                  <DateTime value={item.date} className="shrink-0 text-xs text-slate-500" />
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </TitledCard>
  );
}
