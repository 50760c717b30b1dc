// The "Audience Preview" card beside the campaign wizard's first step and the segment form: its
// heading, a spinner while a preview loads (the card is aria-busy then), and what the form puts
// under them (the count and the customers it has).
import { Loader2 } from "lucide-react";
import type { ReactNode } from "react";

export function AudiencePreviewCard({ loading, children }: { loading: boolean; children: ReactNode }) {
  return (
    <section className="card flex flex-col p-4" aria-labelledby="audience-preview-title" aria-busy={loading}>
      <div className="flex items-center justify-between gap-2">
        <h3 id="audience-preview-title" className="font-semibold text-slate-900">
          Audience Preview
        </h3>
        {loading ? <Loader2 className="h-4 w-4 animate-spin text-primary" aria-label="Loading preview" /> : null}
      </div>
      {children}
    </section>
  );
}
