// Campaign Performance: the three average rates over all the tenant's campaigns, each with a bar in
// its band's colour and a tooltip that says how it is computed.
import { ProgressBar } from "~/components/campaign-chips";
import {
  type ChipColour,
  type PerformanceFigures,
  RATE_TOOLTIPS,
  clickRateColour,
  deliveryRateColour,
  openRateColour,
} from "~/lib/dashboard";
import { InfoTip } from "./info-tip";

function Rate({
  label,
  value,
  colour,
  tooltip,
  basis,
}: {
  label: string;
  value: number;
  colour: ChipColour;
  tooltip: string;
  basis: string;
}) {
  return (
    <div data-testid={`rate-${label}`} data-colour={colour}>
      <div className="mb-1.5 flex items-center justify-between gap-2 text-sm">
        <span className="flex items-center gap-1.5 text-slate-700">
          {label}
          <InfoTip label={`How ${label} is computed`} text={tooltip} />
        </span>
        <span className="font-semibold text-slate-900" data-testid="rate-value">
          {value.toFixed(1)}%
        </span>
      </div>
      <ProgressBar value={value} label={label} colour={colour} />
      <p className="mt-1 text-xs text-slate-500">{basis}</p>
    </div>
  );
}

export function CampaignPerformance({ performance: p }: { performance: PerformanceFigures }) {
  const n = (x: number) => x.toLocaleString("en-IN");
  return (
    <section className="card p-5" aria-labelledby="campaign-performance">
      <h3 id="campaign-performance" className="mb-4 font-semibold text-slate-900">
        Campaign Performance
      </h3>
      <div className="space-y-5">
        <Rate
          label="Average Delivery Rate"
          value={p.deliveryRate}
          colour={deliveryRateColour(p.deliveryRate)}
          tooltip={RATE_TOOLTIPS.delivery}
          basis={`${n(p.delivered)} delivered of ${n(p.attempted)} attempted`}
        />
        <Rate
          label="Average Open Rate"
          value={p.openRate}
          colour={openRateColour(p.openRate)}
          tooltip={RATE_TOOLTIPS.open}
          basis={`${n(p.opened)} opened of ${n(p.delivered)} delivered`}
        />
        <Rate
          label="Average Click Rate"
          value={p.clickRate}
          colour={clickRateColour(p.clickRate)}
          tooltip={RATE_TOOLTIPS.click}
          basis={`${n(p.clicked)} clicked of ${n(p.opened)} opened`}
        />
      </div>
    </section>
  );
}
