// Orders: create, update, delete, read and list (paged on the server, searchable by customer name or
// order id), scoped to the tenant. Items live in OrderItem in their form order (position).
//
// The amount of an order is its subtotal (sum of price × quantity), always computed here from the
// items; whatever amount a caller sends is ignored. Total = amount + tax.
//
// Customer totals (docs/rules.md#customer-totals): a customer's totalSpend, visits and lastActive follow their
// non-cancelled orders and change in the SAME transaction as every order write. The rule is a delta,
// not a recount, so that starting values given by an import or the API are kept:
//   - an order "counts" unless it is Cancelled; a counting order contributes its TOTAL
//     (subtotal + tax: what the customer paid is what they spent) and one visit;
//   - every write removes the order's old contribution and adds its new one (create: nothing → new;
//     update, including a change to or from Cancelled: old → new; delete: old → nothing);
//     totals never go below zero;
//   - lastActive only moves forward: when an order starts counting (created, or un-cancelled),
//     lastActive = max(lastActive, order date). Cancelling or deleting an order leaves it alone:
//     the customer was active on that day all the same.
// The order figures segments ask about (number of orders, average, first and last order;
// ~/models/customer-activity) are recomputed from the customer's orders in the same transaction:
// they have no starting values to keep, so a recount is exact after any write.
import { ApiError, notFound } from "~/lib/api.server";
import { isId, newId } from "~/lib/id";
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT } from "~/lib/list-limits";
import { paiseToRupees } from "~/lib/money";
import { DEFAULT_ORDER_STATUS, orderContribution, subtotalPaise, toPaise, totalPaise } from "~/lib/orders";
import {
  orders,
  type OrderItemFields,
  type OrderWithItemsRow,
  type RecentOrderRow,
} from "~/models/orders/store.server";
import { customerActivity } from "~/models/customer-activity/store.server";
import { type Tx, transaction } from "~/models/transaction/store.server";
import { ORDER_MESSAGES, type OrderInput, type OrderUpdateInput } from "~/schemas/order";
import { enterOnEvents } from "~/services/flows/flow-entry.server";
import { OWN_EVENTS, type OwnEvent, recordOwnEvent } from "~/services/own-events.server";

/** A customer as every payload that names one says it: the ids, the names, the e-mail and the phone. */
export type CustomerContactDto = {
  _id: string;
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
};

export type OrderItemDto = {
  name: string;
  description: string;
  quantity: number;
  /** Unit price in rupees. */
  price: number;
  /** price × quantity in rupees. */
  total: number;
};

/** An order as pages and /api callers see it (docs/rules.md#payloads): rupees, ids as _id (and id). */
export type OrderDto = {
  _id: string;
  id: string;
  customerId: string;
  customer: CustomerContactDto | null;
  status: string;
  /** The subtotal in rupees. */
  amount: number;
  tax: number;
  total: number;
  notes: string;
  items: OrderItemDto[];
  createdAt: string;
  updatedAt: string;
};

export function toCustomerContact(c: {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
}): CustomerContactDto {
  return { _id: c.id, id: c.id, firstName: c.firstName, lastName: c.lastName, email: c.email, phone: c.phone };
}

export function toOrderDto(order: OrderWithItemsRow): OrderDto {
  return {
    _id: order.id,
    id: order.id,
    customerId: order.customerId,
    customer: order.customer ? toCustomerContact(order.customer) : null,
    status: order.status,
    amount: paiseToRupees(order.amountPaise),
    tax: paiseToRupees(order.taxPaise),
    total: paiseToRupees(totalPaise(order.amountPaise, order.taxPaise)),
    notes: order.notes,
    items: order.items.map((i) => ({
      name: i.name,
      description: i.description,
      quantity: i.quantity,
      price: paiseToRupees(i.pricePaise),
      total: paiseToRupees(i.quantity * i.pricePaise),
    })),
    createdAt: order.createdAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
  };
}

function itemFields(items: OrderInput["items"]): OrderItemFields[] {
  return items.map((item) => ({
    name: item.name,
    description: item.description,
    quantity: item.quantity,
    pricePaise: toPaise(item.price),
  }));
}

type Contribution = { status: string; amountPaise: number; taxPaise: number; createdAt: Date };

/**
 * Applies (new contribution − old contribution) to the customer's stored totals. What it learnt of
 * the customer: "locked" when it read (and on PostgreSQL locked) their totals, "gone" when the
 * customer was deleted in this transaction, "unread" when the totals did not change.
 */
async function applyToCustomer(
  tx: Tx,
  userId: string,
  customerId: string,
  before: Contribution | null,
  after: Contribution | null,
): Promise<"locked" | "gone" | "unread"> {
  const old = before ? orderContribution(before) : { spendPaise: 0, visits: 0 };
  const now = after ? orderContribution(after) : { spendPaise: 0, visits: 0 };
  const startsCounting = after !== null && now.visits > 0 && old.visits === 0;
  if (old.spendPaise === now.spendPaise && old.visits === now.visits && !startsCounting) return "unread";
  const customer = await orders.findCustomerTotals(userId, customerId, tx);
  if (!customer) return "gone"; // deleted with its orders in the same transaction
  let lastActive = customer.lastActive;
  if (startsCounting && after && (!lastActive || lastActive < after.createdAt)) lastActive = after.createdAt;
  await orders.writeCustomerTotals(
    customerId,
    {
      totalSpendPaise: Math.max(0, customer.totalSpendPaise - old.spendPaise + now.spendPaise),
      visits: Math.max(0, customer.visits - old.visits + now.visits),
      lastActive,
    },
    tx,
  );
  return "locked";
}

/**
 * Recomputes the customer's order figures in the order write's transaction, after taking the
 * customer's totals lock (PostgreSQL: two writes of one customer's orders queue, so the second
 * counts the first's order; SQLite's one writer queues them already). `totals` is what
 * applyToCustomer() learnt: the lock is taken already when it read the totals.
 */
async function keepOrderFigures(tx: Tx, userId: string, customerId: string, totals: "locked" | "gone" | "unread") {
  if (totals === "gone") return;
  if (totals === "unread" && !(await orders.findCustomerTotals(userId, customerId, tx))) return; // deleted with its orders
  await customerActivity.refreshOrderFigures(userId, customerId, tx);
}

/** Follows one order's change (created: no `before`; deleted: no `after`) in its customer's totals and figures. */
async function followOrderChange(
  tx: Tx,
  userId: string,
  customerId: string,
  before: Contribution | null,
  after: Contribution | null,
) {
  const totals = await applyToCustomer(tx, userId, customerId, before, after);
  await keepOrderFigures(tx, userId, customerId, totals);
}

/** An order's amount before tax and its tax, in paise. */
function orderAmounts(input: Pick<OrderInput, "items" | "tax">) {
  return {
    amountPaise: subtotalPaise(input.items.map((i) => ({ quantity: i.quantity, pricePaise: toPaise(i.price) }))),
    taxPaise: toPaise(input.tax),
  };
}

async function requireCustomer(tx: Tx, userId: string, customerId: string): Promise<void> {
  if (!isId(customerId) || !(await orders.customerOfUserExists(userId, customerId, tx)))
    throw new ApiError("not_found", "Customer not found", { customerId: ORDER_MESSAGES.customer });
}

export async function createOrder(userId: string, input: OrderInput): Promise<OrderDto> {
  const id = newId();
  const { amountPaise, taxPaise } = orderAmounts(input);
  const status = input.status ?? DEFAULT_ORDER_STATUS;
  let placed: OwnEvent | undefined;
  const order = await transaction(async (tx) => {
    await requireCustomer(tx, userId, input.customerId);
    const created = await orders.insertOrderWithItems(
      { id, userId, customerId: input.customerId, status, amountPaise, taxPaise, notes: input.notes },
      itemFields(input.items),
      tx,
    );
    await followOrderChange(tx, userId, input.customerId, null, created);
    placed = await recordOwnEvent(tx, userId, {
      name: OWN_EVENTS.orderPlaced,
      key: `order:${id}`,
      customerId: input.customerId,
      properties: { orderId: id, status, amount: (amountPaise + taxPaise) / 100, amountPaise: amountPaise + taxPaise },
    });
    return orders.orderWithItems(id, tx);
  });
  if (placed) await enterOnEvents(userId, [placed]);
  return toOrderDto(order);
}

export async function updateOrder(userId: string, id: string, input: OrderUpdateInput): Promise<OrderDto> {
  if (!isId(id)) throw notFound("Order");
  const { amountPaise, taxPaise } = orderAmounts(input);
  const order = await transaction(async (tx) => {
    const before = await orders.findOrderOfUser(userId, id, tx);
    if (!before) throw notFound("Order");
    if (input.customerId !== undefined && input.customerId !== before.customerId) {
      throw new ApiError("bad_request", ORDER_MESSAGES.customerFixed, { customerId: ORDER_MESSAGES.customerFixed });
    }
    const after = await orders.updateOrderWithItems(
      id,
      { status: input.status, amountPaise, taxPaise, notes: input.notes },
      itemFields(input.items),
      tx,
    );
    await followOrderChange(tx, userId, before.customerId, before, after);
    return orders.orderWithItems(id, tx);
  });
  return toOrderDto(order);
}

export async function deleteOrder(userId: string, id: string): Promise<void> {
  if (!isId(id)) throw notFound("Order");
  await transaction(async (tx) => {
    const before = await orders.findOrderOfUser(userId, id, tx);
    if (!before) throw notFound("Order");
    await orders.deleteOrderById(id, tx);
    await followOrderChange(tx, userId, before.customerId, before, null);
  });
}

export async function getOrder(userId: string, id: string): Promise<OrderDto> {
  if (!isId(id)) throw notFound("Order");
  const order = await orders.findOrderWithItemsOfUser(userId, id);
  if (!order) throw notFound("Order");
  return toOrderDto(order);
}

export type ListOrdersOptions = {
  q?: string;
  limit?: number;
  /** The id of the last order of the previous page: the next page starts after it. */
  cursor?: string;
  /** The id of the first order of the current page: the page before it. */
  before?: string;
};

export type OrderPage = {
  orders: OrderDto[];
  total: number;
  /** 1-based position of the first order of this page among all matches (0 when empty). */
  start: number;
  nextCursor: string | null;
  prevCursor: string | null;
};

/** Orders newest first (ids are time-ordered), a page at a time, with the count of all matches. */
export async function listOrders(userId: string, options: ListOrdersOptions = {}): Promise<OrderPage> {
  const limit = Math.min(Math.max(1, Math.trunc(options.limit ?? DEFAULT_LIST_LIMIT)), MAX_LIST_LIMIT);
  for (const c of [options.cursor, options.before]) {
    if (c !== undefined && !isId(c))
      throw new ApiError("bad_request", "cursor is not valid", { cursor: "cursor is not valid" });
  }
  const page = await orders.findOrderPage(userId, {
    q: options.q,
    limit,
    cursor: options.cursor,
    before: options.before,
  });
  const first = page.ids[0];
  const last = page.ids.at(-1);
  return {
    orders: page.orders.map(toOrderDto),
    total: page.total,
    start: first ? page.newer + 1 : 0,
    nextCursor: page.hasMore && last ? last : null,
    prevCursor: first && page.newer > 0 ? first : null,
  };
}

export type RecentOrder = { _id: string; id: string; date: string; amount: number; total: number; status: string };

/** The customer's latest orders (id, date, amount, total, status) for the customer detail screen. */
export async function recentOrdersForCustomer(userId: string, customerId: string, take = 10): Promise<RecentOrder[]> {
  if (!isId(customerId)) return [];
  const rows = await orders.recentOrdersOfCustomer(userId, customerId, take);
  return rows.map(toRecentOrder);
}

/** A recent order as the customer detail shows it. */
export function toRecentOrder(o: RecentOrderRow): RecentOrder {
  return {
    _id: o.id,
    id: o.id,
    date: new Date(o.createdAt).toISOString(),
    amount: paiseToRupees(o.amountPaise),
    total: paiseToRupees(totalPaise(o.amountPaise, o.taxPaise)),
    status: o.status,
  };
}

export type CustomerOption = CustomerContactDto;

/** One of the tenant's customers by id or by e-mail (the form's no-JavaScript fallback). */
export async function findCustomerByRef(userId: string, ref: string): Promise<CustomerOption | null> {
  const value = ref.trim();
  if (!value) return null;
  const lower = value.toLowerCase();
  const row = await orders.findOrderCustomer(
    userId,
    isId(lower) ? { id: lower } : { emails: [...new Set([value, lower])] },
  );
  return row ? toCustomerContact(row) : null;
}
