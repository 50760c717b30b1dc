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
import { TitledCard } from "~/components/titled-card";

/** What each rate is out of, shown beside it: another screen's rate of the same kind may have another base. */
export const PERFORMANCE_BASES = {
  "Average Delivery Rate": "of attempted",
  "Average Open Rate": "of delivered",
  "Average Click Rate": "of openers",
} as const;

function Rate({
  label,
  value,
  meaningful,
  colour: bandColour,
  tooltip,
  base,
  basis,
}: {
  label: string;
  /** What the rate is out of, said beside it ("of openers"): the campaign detail's rates are out of sent. */
  base: string;
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
        <span className="text-right">
          <span className="font-semibold text-slate-900" data-testid="rate-value">
            {formatRate(meaningful ? value : null)}
          </span>{" "}
          <span className="text-xs text-slate-500" data-testid="rate-base">
            {base}
          </span>
        </span>
      </div>
      <ProgressBar value={meaningful ? value : 0} label={label} colour={colour} />
      <p className="mt-1 text-xs text-slate-500">{basis}</p>
    </div>
  );
}

type Count = "attempted" | "delivered" | "opened" | "clicked";

/** Each rate: what it divides (`part` of `whole`), its band's colour and how it is computed. */
const RATES: readonly {
  label: keyof typeof PERFORMANCE_BASES;
  rate: "deliveryRate" | "openRate" | "clickRate";
  part: Count;
  whole: Count;
  colour: (rate: number) => ChipColour;
  tooltip: string;
}[] = [
  {
    label: "Average Delivery Rate",
    rate: "deliveryRate",
    part: "delivered",
    whole: "attempted",
    colour: deliveryRateColour,
    tooltip: RATE_TOOLTIPS.delivery,
  },
  {
    label: "Average Open Rate",
    rate: "openRate",
    part: "opened",
    whole: "delivered",
    colour: openRateColour,
    tooltip: RATE_TOOLTIPS.open,
  },
  {
    label: "Average Click Rate",
    rate: "clickRate",
    part: "clicked",
    whole: "opened",
    colour: clickRateColour,
    tooltip: RATE_TOOLTIPS.click,
  },
];

export function CampaignPerformance({ performance: p }: { performance: PerformanceFigures }) {
  return (
    <TitledCard headingId="campaign-performance" title="Campaign Performance" className="card p-5">
      <div className="space-y-5">
        {RATES.map(({ label, rate, part, whole, colour, tooltip }) => (
          <Rate
            key={label}
            label={label}
            base={PERFORMANCE_BASES[label]}
            value={p[rate]}
            meaningful={p[whole] > 0}
            colour={colour(p[rate])}
            tooltip={tooltip}
            basis={`${formatCount(p[part])} ${part} of ${formatCount(p[whole])} ${whole}`}
          />
        ))}
      </div>
    </TitledCard>
  );
}
