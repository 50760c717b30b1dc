// The orders' functions whose body is the same on both engines: Prisma's writes and reads, which
// db() runs on whichever engine DATABASE_URL names. Both engine objects spread them.
import { db } from "~/db/prisma.server";
import type { Tx } from "~/models/transaction/store.server";
import type { OrdersStore } from "./contract";
import {
  customerSelect,
  itemRows,
  orderInclude,
  type OrderPageOptions,
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

/** What an engine gives the orders list's page: its search's WHERE (on "Order" o) and how it runs the page's statements. */
export type OrderPageSql = {
  where: string;
  params: unknown[];
  /** The placeholder of the parameter after the search's. */
  next: string;
  ids(sql: string, params: unknown[]): Promise<string[]>;
  count(sql: string, params: unknown[]): Promise<number>;
};

/**
 * A page of the orders list, the same on both engines: the ids of the page (one row more than
 * `limit` forwards, to know whether older ones follow), the matches in all and those newer than
 * the page, and the orders of those ids with their customers and items.
 */
export async function orderPage(options: OrderPageOptions, sql: OrderPageSql): Promise<OrderPageRows> {
  const { limit } = options;
  if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`findOrderPage: limit ${limit} is not a page size`);
  const { where, params, next } = sql;
  let ids: string[];
  if (options.before) {
    ids = await sql.ids(
      `SELECT o."id" AS id FROM "Order" o WHERE ${where} AND o."id" > ${next} ORDER BY o."id" ASC LIMIT ${limit}`,
      [...params, options.before],
    );
    ids.reverse();
  } else {
    ids = await sql.ids(
      `SELECT o."id" AS id FROM "Order" o WHERE ${where}${options.cursor ? ` AND o."id" < ${next}` : ""} ORDER BY o."id" DESC LIMIT ${limit + 1}`,
      options.cursor ? [...params, options.cursor] : params,
    );
  }
  const first = ids[0];
  const [total, newer] = await Promise.all([
    sql.count(`SELECT count(*) AS n FROM "Order" o WHERE ${where}`, params),
    first
      ? sql.count(`SELECT count(*) AS n FROM "Order" o WHERE ${where} AND o."id" > ${next}`, [...params, first])
      : Promise.resolve(0),
  ]);
  let hasMore: boolean;
  if (options.before) {
    hasMore = newer + ids.length < total;
  } else {
    hasMore = ids.length > limit;
    ids = ids.slice(0, limit);
  }
  return { ids, total, newer, hasMore, orders: await ordersWithItemsByIds(ids) };
}
