// A customer's figures kept for segments (CustomerActivity; docs/decisions/0041-custom-fields-and-tags.md):
// the counting orders' number, totals, average and first and last dates, and the latest open and
// click. Counting orders are those not Cancelled, as for totalSpend (docs/rules.md#customer-totals).

/** The order figures of one customer, as an order write leaves them. */
export type OrderFigures = {
  orderCount: number;
  orderSpendPaise: number;
  averageOrderPaise: number;
  firstOrderAt: Date | null;
  lastOrderAt: Date | null;
};
