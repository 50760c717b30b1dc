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
import { db } from "~/db.server";
import { readStatement } from "~/db/reader.server";
import type { Prisma } from "~/generated/prisma/client";
import { ApiError, notFound } from "~/lib/api.server";
import { isId, newId } from "~/lib/id";
import { paiseToRupees } from "~/lib/money";
import { DEFAULT_ORDER_STATUS, orderContribution, subtotalPaise, toPaise, totalPaise } from "~/lib/orders";
import { ORDER_MESSAGES, type OrderInput, type OrderUpdateInput } from "~/schemas/order";
import { customerSearchSql, ftsPhrase } from "~/services/customer-search.server";

type Tx = Prisma.TransactionClient;

export type OrderCustomerDto = {
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
  customer: OrderCustomerDto | null;
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

const customerSelect = { id: true, firstName: true, lastName: true, email: true, phone: true } as const;
const orderInclude = {
  customer: { select: customerSelect },
  items: { orderBy: { position: "asc" } },
} as const satisfies Prisma.OrderInclude;

type OrderRow = Prisma.OrderGetPayload<{ include: typeof orderInclude }>;

export function toCustomerDto(c: {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
}): OrderCustomerDto {
  return { _id: c.id, id: c.id, firstName: c.firstName, lastName: c.lastName, email: c.email, phone: c.phone };
}

export function toOrderDto(order: OrderRow): OrderDto {
  return {
    _id: order.id,
    id: order.id,
    customerId: order.customerId,
    customer: order.customer ? toCustomerDto(order.customer) : null,
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

function itemRows(orderId: string, items: OrderInput["items"]) {
  return items.map((item, position) => ({
    id: newId(),
    orderId,
    position,
    name: item.name,
    description: item.description,
    quantity: item.quantity,
    pricePaise: toPaise(item.price),
  }));
}

type Contribution = { status: string; amountPaise: number; taxPaise: number; createdAt: Date };

/** Applies (new contribution − old contribution) to the customer's stored totals. */
async function applyToCustomer(
  tx: Tx,
  userId: string,
  customerId: string,
  before: Contribution | null,
  after: Contribution | null,
) {
  const old = before ? orderContribution(before) : { spendPaise: 0, visits: 0 };
  const now = after ? orderContribution(after) : { spendPaise: 0, visits: 0 };
  const startsCounting = after !== null && now.visits > 0 && old.visits === 0;
  if (old.spendPaise === now.spendPaise && old.visits === now.visits && !startsCounting) return;
  const customer = await tx.customer.findFirst({
    where: { id: customerId, userId },
    select: { totalSpendPaise: true, visits: true, lastActive: true },
  });
  if (!customer) return; // deleted with its orders in the same transaction
  let lastActive = customer.lastActive;
  if (startsCounting && after && (!lastActive || lastActive < after.createdAt)) lastActive = after.createdAt;
  await tx.customer.update({
    where: { id: customerId },
    data: {
      totalSpendPaise: Math.max(0, customer.totalSpendPaise - old.spendPaise + now.spendPaise),
      visits: Math.max(0, customer.visits - old.visits + now.visits),
      lastActive,
    },
  });
}

async function requireCustomer(tx: Tx, userId: string, customerId: string) {
  const customer = isId(customerId)
    ? await tx.customer.findFirst({ where: { id: customerId, userId }, select: { id: true } })
    : null;
  if (!customer) throw new ApiError("not_found", "Customer not found", { customerId: ORDER_MESSAGES.customer });
  return customer;
}

export async function createOrder(userId: string, input: OrderInput): Promise<OrderDto> {
  const id = newId();
  const amountPaise = subtotalPaise(input.items.map((i) => ({ quantity: i.quantity, pricePaise: toPaise(i.price) })));
  const taxPaise = toPaise(input.tax);
  const status = input.status ?? DEFAULT_ORDER_STATUS;
  const order = await db().$transaction(async (tx) => {
    await requireCustomer(tx, userId, input.customerId);
    const created = await tx.order.create({
      data: { id, userId, customerId: input.customerId, status, amountPaise, taxPaise, notes: input.notes },
    });
    await tx.orderItem.createMany({ data: itemRows(id, input.items) });
    await applyToCustomer(tx, userId, input.customerId, null, created);
    return tx.order.findUniqueOrThrow({ where: { id }, include: orderInclude });
  });
  return toOrderDto(order);
}

export async function updateOrder(userId: string, id: string, input: OrderUpdateInput): Promise<OrderDto> {
  if (!isId(id)) throw notFound("Order");
  const amountPaise = subtotalPaise(input.items.map((i) => ({ quantity: i.quantity, pricePaise: toPaise(i.price) })));
  const taxPaise = toPaise(input.tax);
  const order = await db().$transaction(async (tx) => {
    const before = await tx.order.findFirst({ where: { id, userId } });
    if (!before) throw notFound("Order");
    if (input.customerId !== undefined && input.customerId !== before.customerId) {
      throw new ApiError("bad_request", ORDER_MESSAGES.customerFixed, { customerId: ORDER_MESSAGES.customerFixed });
    }
    const after = await tx.order.update({
      where: { id },
      data: { status: input.status, amountPaise, taxPaise, notes: input.notes },
    });
    await tx.orderItem.deleteMany({ where: { orderId: id } });
    await tx.orderItem.createMany({ data: itemRows(id, input.items) });
    await applyToCustomer(tx, userId, before.customerId, before, after);
    return tx.order.findUniqueOrThrow({ where: { id }, include: orderInclude });
  });
  return toOrderDto(order);
}

export async function deleteOrder(userId: string, id: string): Promise<void> {
  if (!isId(id)) throw notFound("Order");
  await db().$transaction(async (tx) => {
    const before = await tx.order.findFirst({ where: { id, userId } });
    if (!before) throw notFound("Order");
    await tx.order.delete({ where: { id } });
    await applyToCustomer(tx, userId, before.customerId, before, null);
  });
}

export async function getOrder(userId: string, id: string): Promise<OrderDto> {
  if (!isId(id)) throw notFound("Order");
  const order = await db().order.findFirst({ where: { id, userId }, include: orderInclude });
  if (!order) throw notFound("Order");
  return toOrderDto(order);
}

export const DEFAULT_LIST_LIMIT = 100;
export const MAX_LIST_LIMIT = 1000;

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

/**
 * The WHERE clause (on "Order" o) of a search on customer name or order id, as raw SQL so that it
 * stays fast with a million customers:
 *   - the name is matched as one phrase against "first last" (so "priya sharma" works), through the
 *     customers' trigram index, inside the tenant's part of it (customerSearchSql), for three
 *     characters or more, and by a per-order customer lookup for shorter terms;
 *   - an order id matches on any part of it (the list shows its last 6 characters).
 * SQLite walks the tenant's orders newest first on (userId, id) and stops at the page size.
 */
export function orderSearchSql(userId: string, q: string | undefined): { where: string; params: (string | number)[] } {
  const term = (q ?? "").trim().replace(/\s+/g, " ").slice(0, 100);
  if (!term) return { where: `o."userId" = ?`, params: [userId] };
  const needle = term.toLowerCase();
  const search = [...term].length >= 3 ? customerSearchSql(userId, ftsPhrase(term)) : null;
  const name = search
    ? `o."customerId" IN (SELECT c."id" FROM ${search.sql})`
    : `EXISTS (SELECT 1 FROM "Customer" c WHERE c."id" = o."customerId"
           AND instr(lower(c."firstName" || ' ' || c."lastName"), ?) > 0)`;
  const nameParams = search ? search.params : [needle];
  if (/^[0-9a-f]{1,24}$/.test(needle)) {
    return { where: `o."userId" = ? AND (instr(o."id", ?) > 0 OR ${name})`, params: [userId, needle, ...nameParams] };
  }
  return { where: `o."userId" = ? AND ${name}`, params: [userId, ...nameParams] };
}

async function orderRows(ids: string[]): Promise<OrderRow[]> {
  if (!ids.length) return [];
  const rows = await db().order.findMany({ where: { id: { in: ids } }, include: orderInclude });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

const countOf = (rows: { n: number | bigint }[]) => Number(rows[0]?.n ?? 0);

/** Orders newest first (ids are time-ordered), a page at a time, with the count of all matches. */
export async function listOrders(userId: string, options: ListOrdersOptions = {}): Promise<OrderPage> {
  const limit = Math.min(Math.max(1, Math.trunc(options.limit ?? DEFAULT_LIST_LIMIT)), MAX_LIST_LIMIT);
  for (const c of [options.cursor, options.before]) {
    if (c !== undefined && !isId(c))
      throw new ApiError("bad_request", "cursor is not valid", { cursor: "cursor is not valid" });
  }
  const { where, params } = orderSearchSql(userId, options.q);
  const client = db();
  let ids: string[];
  if (options.before) {
    const rows = await client.$queryRawUnsafe<{ id: string }[]>(
      `SELECT o."id" AS id FROM "Order" o WHERE ${where} AND o."id" > ? ORDER BY o."id" ASC LIMIT ${limit}`,
      ...params,
      options.before,
    );
    ids = rows.map((r) => r.id).reverse();
  } else {
    const rows = await client.$queryRawUnsafe<{ id: string }[]>(
      `SELECT o."id" AS id FROM "Order" o WHERE ${where}${options.cursor ? ` AND o."id" < ?` : ""} ORDER BY o."id" DESC LIMIT ${limit + 1}`,
      ...params,
      ...(options.cursor ? [options.cursor] : []),
    );
    ids = rows.map((r) => r.id);
  }
  const first = ids[0];
  const [total, newer] = await Promise.all([
    client
      .$queryRawUnsafe<{ n: number | bigint }[]>(`SELECT count(*) AS n FROM "Order" o WHERE ${where}`, ...params)
      .then(countOf),
    first
      ? client
          .$queryRawUnsafe<{ n: number | bigint }[]>(
            `SELECT count(*) AS n FROM "Order" o WHERE ${where} AND o."id" > ?`,
            ...params,
            first,
          )
          .then(countOf)
      : Promise.resolve(0),
  ]);
  let hasMore: boolean;
  if (options.before) {
    hasMore = newer + ids.length < total;
  } else {
    hasMore = ids.length > limit;
    ids = ids.slice(0, limit);
  }
  const rows = await orderRows(ids);
  const last = ids.at(-1);
  return {
    orders: rows.map(toOrderDto),
    total,
    start: first ? newer + 1 : 0,
    nextCursor: hasMore && last ? last : null,
    prevCursor: first && newer > 0 ? first : null,
  };
}

export type RecentOrder = { _id: string; id: string; date: string; amount: number; total: number; status: string };

/** The customer's latest orders (id, date, amount, total, status) for the customer detail screen. */
export async function recentOrdersForCustomer(userId: string, customerId: string, take = 10): Promise<RecentOrder[]> {
  if (!isId(customerId)) return [];
  // Part of every customer detail: a prepared statement on the read connection (see
  // ~/db/reader.server), on the (customerId, createdAt, id) index, which gives the order without a
  // sort. The limit is a clamped integer written into the SQL: a bound LIMIT makes SQLite (built with
  // STAT4) prepare the statement again at every call, measured 29 µs against 5 µs.
  const limit = Math.min(Math.max(1, Math.trunc(take) || 1), 100);
  const rows = readStatement(
    `SELECT "id", "createdAt", "amountPaise", "taxPaise", "status" FROM "Order"
     WHERE "userId" = ? AND "customerId" = ? ORDER BY "createdAt" DESC, "id" DESC LIMIT ${limit}`,
  ).all(userId, customerId) as {
    id: string;
    createdAt: number;
    amountPaise: number;
    taxPaise: number;
    status: string;
  }[];
  return rows.map((o) => ({
    _id: o.id,
    id: o.id,
    date: new Date(o.createdAt).toISOString(),
    amount: paiseToRupees(o.amountPaise),
    total: paiseToRupees(totalPaise(o.amountPaise, o.taxPaise)),
    status: o.status,
  }));
}

export type CustomerOption = OrderCustomerDto;

/** One of the tenant's customers by id or by e-mail (the form's no-JavaScript fallback). */
export async function findCustomerByRef(userId: string, ref: string): Promise<CustomerOption | null> {
  const value = ref.trim();
  if (!value) return null;
  const lower = value.toLowerCase();
  const row = await db().customer.findFirst({
    where: isId(lower) ? { userId, id: lower } : { userId, email: { in: [...new Set([value, lower])] } },
    select: customerSelect,
  });
  return row ? toCustomerDto(row) : null;
}
