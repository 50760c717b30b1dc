// The charts' grid and its placeholder while the charts' script loads (app/components/dashboard/charts.tsx).
import { LOADING_TEXT } from "./insights-card";

const TITLES = ["Customers added per week", "Campaigns sent per week", "Delivery funnel"];

export function ChartsGrid({ children }: { children: React.ReactNode }) {
  return (
    // The funnel (last) spans the row when two charts fill the one above it.
    <div className="grid gap-6 md:grid-cols-2 xl:grid-cols-3 md:[&>*:last-child]:col-span-2 xl:[&>*:last-child]:col-span-1">
      {children}
    </div>
  );
}

export function ChartsLoading() {
  return (
    <ChartsGrid>
      {TITLES.map((title) => (
        <section key={title} className="card min-w-0 p-5" aria-label={title} aria-busy="true">
          <h3 className="font-semibold text-slate-900">{title}</h3>
          <div className="mt-3 flex h-56 items-center justify-center rounded-lg bg-slate-50">
            <p role="status" className="text-sm text-slate-500">
              {LOADING_TEXT}
            </p>
          </div>
        </section>
      ))}
    </ChartsGrid>
  );
}
