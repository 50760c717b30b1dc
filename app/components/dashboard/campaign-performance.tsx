// Campaign Performance: the three average rates over all the tenant's campaigns, each with a bar in
// its band's colour and a tooltip that says how it is computed. A rate with nothing to divide by
// (no message attempted, delivered or opened yet) reads "—" on a neutral bar (docs/rules.md#numbers).
import { ProgressBar } from "~/components/campaign-chips";
import {
  type ChipColour,
  type PerformanceFigures,
  RATE_TOOLTIPS,
  clickRateColour,
  deliveryRateColour,
  openRateColour,
} from "~/lib/dashboard";
import { formatCount, formatRate } from "~/lib/numbers";
import { InfoTip } from "./info-tip";

function Rate({
  label,
  value,
  meaningful,
  colour: bandColour,
  tooltip,
  basis,
}: {
  label: string;
  value: number;
  /** Whether there was anything to divide by. */
  meaningful: boolean;
  colour: ChipColour;
  tooltip: string;
  basis: string;
}) {
  const colour = meaningful ? bandColour : "default";
  return (
    <div data-testid={`rate-${label}`} data-colour={colour}>
      <div className="mb-1.5 flex items-center justify-between gap-2 text-sm">
        <span className="flex items-center gap-1.5 text-slate-700">
          {label}
          <InfoTip label={`How ${label} is computed`} text={tooltip} />
        </span>
        <span className="font-semibold text-slate-900" data-testid="rate-value">
          {formatRate(meaningful ? value : null)}
        </span>
      </div>
      <ProgressBar value={meaningful ? value : 0} label={label} colour={colour} />
      <p className="mt-1 text-xs text-slate-500">{basis}</p>
    </div>
  );
}

export function CampaignPerformance({ performance: p }: { performance: PerformanceFigures }) {
  const n = formatCount;
  return (
    <section className="card p-5" aria-labelledby="campaign-performance">
      <h3 id="campaign-performance" className="mb-4 font-semibold text-slate-900">
        Campaign Performance
      </h3>
      <div className="space-y-5">
        <Rate
          label="Average Delivery Rate"
          value={p.deliveryRate}
          meaningful={p.attempted > 0}
          colour={deliveryRateColour(p.deliveryRate)}
          tooltip={RATE_TOOLTIPS.delivery}
          basis={`${n(p.delivered)} delivered of ${n(p.attempted)} attempted`}
        />
        <Rate
          label="Average Open Rate"
          value={p.openRate}
          meaningful={p.delivered > 0}
          colour={openRateColour(p.openRate)}
          tooltip={RATE_TOOLTIPS.open}
          basis={`${n(p.opened)} opened of ${n(p.delivered)} delivered`}
        />
        <Rate
          label="Average Click Rate"
          value={p.clickRate}
          meaningful={p.opened > 0}
          colour={clickRateColour(p.clickRate)}
          tooltip={RATE_TOOLTIPS.click}
          basis={`${n(p.clicked)} clicked of ${n(p.opened)} opened`}
        />
      </div>
    </section>
  );
}
