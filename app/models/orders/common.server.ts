// The orders' functions whose body is the same on both engines: Prisma's writes and reads, which
// db() runs on whichever engine DATABASE_URL names. Both engine objects spread them.
import { db } from "~/db/prisma.server";
import type { Tx } from "~/models/transaction.server";
import type { OrdersStore } from "./contract";
import {
  customerSelect,
  itemRows,
  orderInclude,
  type OrderPageIds,
  type OrderPageRows,
  type OrderWithItemsRow,
} from "./rows";

export const commonOrders = {
  async insertOrderWithItems(order, items, tx = db()) {
    const created = await tx.order.create({ data: order });
    await tx.orderItem.createMany({ data: itemRows(order.id, items) });
    return created;
  },

  async updateOrderWithItems(id, fields, items, tx = db()) {
    const updated = await tx.order.update({ where: { id }, data: fields });
    await tx.orderItem.deleteMany({ where: { orderId: id } });
    await tx.orderItem.createMany({ data: itemRows(id, items) });
    return updated;
  },

  async deleteOrderById(id, tx = db()) {
    await tx.order.delete({ where: { id } });
  },

  async orderWithItems(id, tx = db()) {
    return tx.order.findUniqueOrThrow({ where: { id }, include: orderInclude });
  },

  async findOrderWithItemsOfUser(userId, id, tx = db()) {
    return tx.order.findFirst({ where: { id, userId }, include: orderInclude });
  },

  async writeCustomerTotals(customerId, totals, tx = db()) {
    await tx.customer.update({ where: { id: customerId }, data: totals });
  },

  async findOrderCustomer(userId, ref) {
    return db().customer.findFirst({
      where: "id" in ref ? { userId, id: ref.id } : { userId, email: { in: ref.emails } },
      select: customerSelect,
    });
  },
} satisfies Partial<OrdersStore>;

/** The tenant's order, or null (in `tx`, after the engine took whatever lock it needs). */
export function findOrderRow(userId: string, id: string, tx: Tx) {
  return tx.order.findFirst({ where: { id, userId } });
}

/** The tenant's customer's totals, or null (in `tx`, after the engine took whatever lock it needs). */
export function findTotalsRow(userId: string, customerId: string, tx: Tx) {
  return tx.customer.findFirst({
    where: { id: customerId, userId },
    select: { totalSpendPaise: true, visits: true, lastActive: true },
  });
}

async function ordersWithItemsByIds(ids: string[]): Promise<OrderWithItemsRow[]> {
  if (!ids.length) return [];
  const rows = await db().order.findMany({ where: { id: { in: ids } }, include: orderInclude });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * A page of the orders list, the same on both engines: the limit checked, the engine's page of ids
 * (`pageIds`, its own search SQL), and the orders of those ids with their customers and items.
 */
export async function orderPage(limit: number, pageIds: () => Promise<OrderPageIds>): Promise<OrderPageRows> {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`findOrderPage: limit ${limit} is not a page size`);
  const page = await pageIds();
  return { ...page, orders: await ordersWithItemsByIds(page.ids) };
}

/**
 * Whether older matches follow the page, and the page itself: a page before `before` has them when
 * the newer ones and its own do not add up to the total; a page forwards read one row more than
 * `limit` to know.
 */
export function pageEnd(
  ids: string[],
  options: { limit: number; before?: string },
  total: number,
  newer: number,
): { ids: string[]; hasMore: boolean } {
  if (options.before) return { ids, hasMore: newer + ids.length < total };
  return { ids: ids.slice(0, options.limit), hasMore: ids.length > options.limit };
}
