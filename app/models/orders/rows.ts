// The orders as stored, what both engines share: an Order row and its OrderItem rows (in form
// order, `position`), the customer columns an order shows and the order rules keep in step
// (totalSpendPaise, visits, lastActive), and what the orders list's search and paging take and
// give. The rules themselves (amounts, the customer-totals delta) are the service's:
// app/services/orders.server.ts.
import type { Prisma } from "~/generated/prisma/client";
import { newId } from "~/lib/id";

export const customerSelect = { id: true, firstName: true, lastName: true, email: true, phone: true } as const;
export const orderInclude = {
  customer: { select: customerSelect },
  items: { orderBy: { position: "asc" } },
} as const satisfies Prisma.OrderInclude;

/** One Order row (dates as Date). */
export type OrderRow = Prisma.OrderGetPayload<object>;
/** An order with its customer's contact columns and its items in form order. */
export type OrderWithItemsRow = Prisma.OrderGetPayload<{ include: typeof orderInclude }>;
/** The customer columns an order shows and the order form looks up. */
export type OrderCustomerRow = Prisma.CustomerGetPayload<{ select: typeof customerSelect }>;
/** The customer columns the customer-totals rule keeps in step with the orders. */
export type CustomerTotalsRow = { totalSpendPaise: number; visits: number; lastActive: Date | null };
/** An order as the customer detail lists it (createdAt as unixepoch milliseconds). */
export type RecentOrderRow = { id: string; createdAt: number; amountPaise: number; taxPaise: number; status: string };

/** What an order write stores; the amounts are the service's to compute. */
export type OrderFields = { status: string; amountPaise: number; taxPaise: number; notes: string };
export type OrderItemFields = { name: string; description: string; quantity: number; pricePaise: number };

/** The OrderItem rows of an order's items, in form order. */
export function itemRows(orderId: string, items: OrderItemFields[]) {
  return items.map((item, position) => ({ id: newId(), orderId, position, ...item }));
}

/** Which page of the orders list: after `cursor` (the last id of the previous page), or the page before `before`. */
export type OrderPageOptions = { q?: string; limit: number; cursor?: string; before?: string };

/** A page's ids and the counts the pager needs. */
export type OrderPageIds = {
  /** The ids of the page, newest first. */
  ids: string[];
  /** All the tenant's orders the search matches. */
  total: number;
  /** The matches newer than the page's first order. */
  newer: number;
  /** Whether older matches follow the page. */
  hasMore: boolean;
};

export type OrderPageRows = OrderPageIds & {
  /** The page, newest first. */
  orders: OrderWithItemsRow[];
};

/** The search term as both engines search it: spaces folded, at most 100 characters (empty: no search). */
export function orderSearchTerm(q: string | undefined): string {
  return (q ?? "").trim().replace(/\s+/g, " ").slice(0, 100);
}

/** Whether a (lower-cased) term may be part of an order id, which a search matches on any part of. */
export function mayBeOrderId(needle: string): boolean {
  return /^[0-9a-f]{1,24}$/.test(needle);
}

/** The customer detail's limit on recent orders: 1 to 100. */
export function recentOrdersLimit(take: number): number {
  return Math.min(Math.max(1, Math.trunc(take) || 1), 100);
}
