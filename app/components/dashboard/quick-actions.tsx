import { Link } from "@remix-run/react";
import { Megaphone, Target, UserPlus } from "lucide-react";
import { TitledCard } from "~/components/titled-card";

const QUICK_ACTIONS = [
  { label: "Create New Segment", to: "/segments/new", icon: Target },
  { label: "Launch New Campaign", to: "/campaigns/new", icon: Megaphone },
  { label: "Add New Customer", to: "/customers/new", icon: UserPlus },
] as const;

export function QuickActions() {
  return (
    <TitledCard headingId="quick-actions" title="Quick Actions" className="card p-5">
      <div className="grid gap-3">
        {QUICK_ACTIONS.map(({ label, to, icon: Icon }) => (
          <Link
            key={to}
            to={to}
            className="flex items-center gap-3 rounded-lg border border-slate-200 px-4 py-3 text-sm font-medium text-slate-700 hover:border-primary hover:bg-primary-light/40"
          >
            <Icon className="h-5 w-5 text-primary" aria-hidden="true" />
            {label}
          </Link>
        ))}
      </div>
    </TitledCard>
  );
}
