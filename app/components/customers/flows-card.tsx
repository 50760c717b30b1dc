// The customer page's Flows card: the steps of the tenant's flows this customer passed, newest first
// (docs/decisions/0046-flows.md): which flow, which step, what happened there, when. Shown only when
// there are some.
import { Link } from "@remix-run/react";
import { Workflow } from "lucide-react";
import { DateTime } from "~/components/date-time";
import { TitledCard } from "~/components/titled-card";

export type ShownPassage = {
  flowId: string;
  flowName: string;
  stepId: string;
  outcome: string;
  details: string;
  at: string;
};

/** The passages the card shows. */
export const PASSAGES_SHOWN = 10;

const OUTCOME_WORDS: Record<string, string> = {
  sent: "message sent",
  waited: "waited",
  yes: "condition met",
  no: "condition not met",
  tagged: "tags changed",
  exited: "left the flow",
  skipped: "skipped",
};

export function FlowsCard({ passages }: { passages: ShownPassage[] }) {
  if (passages.length === 0) return null;
  return (
    <TitledCard
      headingId="flows-heading"
      title={
        <span className="flex items-center gap-2">
          <Workflow className="h-4 w-4" aria-hidden /> Flows
        </span>
      }
    >
      <ul className="divide-y divide-slate-100" data-testid="customer-flows">
        {passages.map((p) => (
          <li
            key={`${p.flowId}-${p.stepId}-${p.at}`}
            className="flex flex-col gap-1 py-2 sm:flex-row sm:items-baseline sm:justify-between"
          >
            <p className="min-w-0 break-words text-sm text-slate-700">
              <Link to={`/flows/${p.flowId}`} className="font-medium text-primary hover:underline">
                {p.flowName || "A deleted flow"}
              </Link>{" "}
              · {p.stepId}: {OUTCOME_WORDS[p.outcome] ?? p.outcome}
              {p.details ? ` (${p.details})` : ""}
            </p>
            <DateTime value={p.at} format="dateTime" className="shrink-0 text-xs text-slate-500" />
          </li>
        ))}
      </ul>
    </TitledCard>
  );
}
