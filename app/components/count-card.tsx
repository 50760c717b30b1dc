// One of the counts over a list (the campaign and segment pages): an icon in a tinted square, the
// count's name and the count, whole and grouped ("1,234").
import type { LucideIcon } from "lucide-react";
import { formatCount } from "~/lib/numbers";

export function CountCard({ label, count, icon: Icon }: { label: string; count: number; icon: LucideIcon }) {
  return (
    <div className="card flex items-center gap-4 p-4">
      <div className="flex h-11 w-11 shrink-0 items-center justify-center rounded-lg bg-primary-light text-primary">
        <Icon className="h-5 w-5" aria-hidden="true" />
      </div>
      <div className="min-w-0">
        <p className="text-sm text-slate-500">{label}</p>
        <p className="text-2xl font-semibold text-slate-900" data-testid={`stat-${label}`}>
          {formatCount(count)}
        </p>
      </div>
    </div>
  );
}
