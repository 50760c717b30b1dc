// The campaign detail's "Revenue" card (docs/rules.md#revenue-per-campaign): the orders the
// campaign's clicks brought within the attribution window, their revenue and the revenue per
// recipient; below, apart and labelled as weaker, the same after an open.
import { FigureTile, type FigureTileProps } from "~/components/figure-tile";
import { formatCount, NO_RATE } from "~/lib/numbers";
import { formatRupees } from "~/lib/money";

export type CampaignAttributionView = {
  orders: number;
  revenue: number;
  perRecipient: number | null;
  byOpens: { orders: number; revenue: number };
  windowDays: number;
};

/** A figure of the card, its test id under "attribution-". */
function Figure(props: Omit<FigureTileProps, "note">) {
  return <FigureTile {...props} testId={`attribution-${props.testId}`} />;
}

const days = (n: number) => `${n} ${n === 1 ? "day" : "days"}`;

export function CampaignAttribution({ attribution: a }: { attribution: CampaignAttributionView }) {
  return (
    <section className="card space-y-4 p-5" aria-labelledby="attribution-title" data-testid="campaign-attribution">
      <div>
        <h3 id="attribution-title" className="font-semibold text-slate-900">
          Revenue
        </h3>
        <p className="text-sm text-slate-600">
          Orders placed within {days(a.windowDays)} after a recipient clicked a link in this campaign. An order counts
          once, for the campaign clicked last before it.
        </p>
      </div>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <Figure label="Orders" value={formatCount(a.orders)} testId="orders" />
        <Figure label="Revenue" value={formatRupees(a.revenue)} testId="revenue" />
        <Figure
          label="Per recipient"
          value={a.perRecipient === null ? NO_RATE : formatRupees(a.perRecipient)}
          testId="per-recipient"
        />
      </div>
      <div className="rounded-lg border border-dashed border-slate-200 p-3" data-testid="attribution-by-opens">
        <p className="text-sm font-medium text-slate-700">After opening (a weaker signal, not added above)</p>
        <p className="mt-1 text-sm text-slate-600">
          <span data-testid="attribution-opens-orders">
            {formatCount(a.byOpens.orders)} {a.byOpens.orders === 1 ? "order" : "orders"}
          </span>{" "}
          · <span data-testid="attribution-opens-revenue">{formatRupees(a.byOpens.revenue)}</span> within{" "}
          {days(a.windowDays)} after a recipient opened it. Opens are counted by an image that some mail apps load by
          themselves, so this can include orders the campaign did not bring.
        </p>
      </div>
      <p className="text-xs text-slate-500">
        Revenue is each order&apos;s total (subtotal and tax); cancelled orders are left out. Per recipient is the
        revenue divided by the recipients it was sent to.
      </p>
    </section>
  );
}
