// How an order's money is shown wherever orders are listed (the orders list, the customer page): its
// total, subtotal + tax, which is what the customer paid and what their total spend and a campaign's
// revenue add up, with the tax beside it ("₹2,948.82", "incl. ₹449.82 tax"). The order page shows
// the same total under its subtotal and tax (docs/rules.md#order-totals).
import { formatPaise, rupeesToPaise } from "~/lib/money";

/** An order's total and tax, in rupees as the services give them. */
export function OrderAmount({ total, tax, testId }: { total: number; tax: number; testId?: string }) {
  const taxPaise = rupeesToPaise(tax);
  return (
    <span className="inline-flex flex-col items-end tabular-nums" data-testid={testId}>
      <span className="font-medium text-slate-900" data-testid={testId ? `${testId}-total` : undefined}>
        {formatPaise(rupeesToPaise(total))}
      </span>
      <span className="text-xs text-slate-500" data-testid={testId ? `${testId}-tax` : undefined}>
        {taxPaise > 0 ? `incl. ${formatPaise(taxPaise)} tax` : "no tax"}
      </span>
    </span>
  );
}
