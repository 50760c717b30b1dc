// How an order's money is shown wherever orders are listed (the orders list, the customer page): its
// total, subtotal + tax, which is what the customer paid and what their total spend and a campaign's
// revenue add up, with the tax beside it ("₹2,948.82", "incl. ₹449.82 tax"). The order page shows
// the same total under its subtotal and tax (docs/rules.md#order-totals), as does the order form's
// running total: AmountRow.
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

/** One line of an order's subtotal, tax and total (a <dl>'s row): its name and the amount as shown. */
export function AmountRow({
  label,
  testId,
  total,
  children,
}: {
  label: string;
  testId: string;
  /** The total's line: a rule above it, larger and bold. */
  total?: boolean;
  children: string;
}) {
  return (
    <div
      className={
        total
          ? "flex justify-between border-t border-slate-100 pt-2 text-base font-semibold text-slate-900"
          : "flex justify-between"
      }
    >
      <dt className={total ? undefined : "text-slate-600"}>{label}</dt>
      <dd className="tabular-nums" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}
