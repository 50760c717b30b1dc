// One of the dashboard's three counts: the figure, its change against the end of last month
// ('this month'), and an arrow to the list it counts.
import { Link } from "@remix-run/react";
import { ArrowRight, TrendingDown, TrendingUp, type LucideIcon } from "lucide-react";
import { formatCount } from "~/lib/numbers";

export function StatCard({
  label,
  count,
  change,
  to,
  icon: Icon,
}: {
  label: string;
  count: number;
  /** The change as shown, with its sign and one decimal: "+12.5%", "-3.0%", "0%". */
  change: string;
  to: string;
  icon: LucideIcon;
}) {
  const rising = change.startsWith("+");
  const falling = change.startsWith("-");
  const Trend = falling ? TrendingDown : TrendingUp;
  return (
    <section className="card flex items-start gap-4 p-5" aria-label={label} data-testid={`stat-card-${to.slice(1)}`}>
      <div className="flex h-11 w-11 shrink-0 items-center justify-center rounded-lg bg-primary-light text-primary">
        <Icon className="h-5 w-5" aria-hidden="true" />
      </div>
      <div className="min-w-0 flex-1">
        <h3 className="text-sm text-slate-500">{label}</h3>
        <p className="text-2xl font-semibold text-slate-900" data-testid="stat-count">
          {formatCount(count)}
        </p>
        <p className="mt-1 flex items-center gap-1 text-xs text-slate-500">
          <Trend
            className={`h-3.5 w-3.5 ${rising ? "text-green-600" : falling ? "text-red-600" : "text-slate-400"}`}
            aria-hidden="true"
          />
          <span
            data-testid="stat-change"
            className={`font-medium ${rising ? "text-green-700" : falling ? "text-red-700" : "text-slate-600"}`}
          >
            {change}
          </span>
          this month
        </p>
      </div>
      <Link
        to={to}
        aria-label={`Go to ${label.replace(/^Total /, "").toLowerCase()}`}
        className="btn-ghost shrink-0 rounded-full p-2"
      >
        <ArrowRight className="h-5 w-5" aria-hidden="true" />
      </Link>
    </section>
  );
}
