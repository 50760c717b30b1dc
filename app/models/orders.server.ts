// The orders as stored: an Order row and its OrderItem rows (in form order, `position`), the
// search and paging queries of the orders list, the customer lookups of the order form, and the
// customer columns the order rules keep in step (totalSpendPaise, visits, lastActive). The rules
// themselves (amounts, the customer-totals delta) are the service's: app/services/orders.server.ts.
// The raw-SQL reads have PostgreSQL twins in ./orders.postgres.server.ts.
import { db } from "~/db/prisma.server";
import { databaseEngine } from "~/db/connection.server";
import { postgres } from "~/db/postgres.server";
import { readConnection, readStatement } from "~/db/reader.server";
import type { Prisma } from "~/generated/prisma/client";
import { newId } from "~/lib/id";
import type { Tx } from "~/models/transaction.server";
import { customerSearchSql, ftsPhrase } from "~/models/customer-search.server";
import {
  customerOfUserExistsPg,
  findOrderPageIdsPg,
  lockCustomerTotalsPg,
  lockOrderOfUserPg,
  recentOrdersOfCustomerPg,
} from "~/models/orders.postgres.server";

const onPostgres = () => databaseEngine() === "postgres";

const customerSelect = { id: true, firstName: true, lastName: true, email: true, phone: true } as const;
const orderInclude = {
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

function itemRows(orderId: string, items: OrderItemFields[]) {
  return items.map((item, position) => ({ id: newId(), orderId, position, ...item }));
}

/** Whether the tenant has this customer (in `tx`, not deleted before it ends). */
export async function customerOfUserExists(userId: string, customerId: string, tx: Tx = db()): Promise<boolean> {
  if (onPostgres()) return customerOfUserExistsPg(tx, userId, customerId);
  const row = await tx.customer.findFirst({ where: { id: customerId, userId }, select: { id: true } });
  return row !== null;
}

/** A new order and its items; returns the order row. */
export async function insertOrderWithItems(
  order: OrderFields & { id: string; userId: string; customerId: string },
  items: OrderItemFields[],
  tx: Tx = db(),
): Promise<OrderRow> {
  const created = await tx.order.create({ data: order });
  await tx.orderItem.createMany({ data: itemRows(order.id, items) });
  return created;
}

/** Rewrites an order and replaces its items; returns the order row as updated. */
export async function updateOrderWithItems(
  id: string,
  fields: OrderFields,
  items: OrderItemFields[],
  tx: Tx = db(),
): Promise<OrderRow> {
  const updated = await tx.order.update({ where: { id }, data: fields });
  await tx.orderItem.deleteMany({ where: { orderId: id } });
  await tx.orderItem.createMany({ data: itemRows(id, items) });
  return updated;
}

/** Deletes an order (its items go with it). */
export async function deleteOrderById(id: string, tx: Tx = db()): Promise<void> {
  await tx.order.delete({ where: { id } });
}

/** The tenant's order, or null; in `tx`, locked until it ends (the order's writes queue on it). */
export async function findOrderOfUser(userId: string, id: string, tx: Tx = db()): Promise<OrderRow | null> {
  if (onPostgres()) await lockOrderOfUserPg(tx, userId, id);
  return tx.order.findFirst({ where: { id, userId } });
}

/** An order known to exist (just written), with its customer and items. */
export async function orderWithItems(id: string, tx: Tx = db()): Promise<OrderWithItemsRow> {
  return tx.order.findUniqueOrThrow({ where: { id }, include: orderInclude });
}

/** The tenant's order with its customer and items, or null. */
export async function findOrderWithItemsOfUser(
  userId: string,
  id: string,
  tx: Tx = db(),
): Promise<OrderWithItemsRow | null> {
  return tx.order.findFirst({ where: { id, userId }, include: orderInclude });
}

/**
 * The tenant's customer's stored totals, or null (the customer was deleted); in `tx`, locked until
 * it ends, so the totals written from them are not computed from a read another write overtook.
 */
export async function findCustomerTotals(
  userId: string,
  customerId: string,
  tx: Tx = db(),
): Promise<CustomerTotalsRow | null> {
  if (onPostgres()) await lockCustomerTotalsPg(tx, userId, customerId);
  return tx.customer.findFirst({
    where: { id: customerId, userId },
    select: { totalSpendPaise: true, visits: true, lastActive: true },
  });
}

/** Stores a customer's totals. */
export async function writeCustomerTotals(customerId: string, totals: CustomerTotalsRow, tx: Tx = db()): Promise<void> {
  await tx.customer.update({ where: { id: customerId }, data: totals });
}

/**
 * The WHERE clause (on "Order" o) of a search on customer name or order id, as raw SQL so that it
 * stays fast with a million customers:
 *   - the name is matched as one phrase against "first last" (so "priya sharma" works), through the
 *     customers' trigram index, inside the tenant's part of it (customerSearchSql), for three
 *     characters or more, and by a per-order customer lookup for shorter terms;
 *   - an order id matches on any part of it (the list shows its last 6 characters).
 * SQLite walks the tenant's orders newest first on (userId, id) and stops at the page size.
 * A pure builder of SQL text (no query), exported for the plan test.
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

/**
 * SQLite's query plan of the orders search on `q` for the tenant, one line a step (the FTS5 lookup
 * inside the tenant's part of the trigram table), for the plan test.
 */
export async function orderSearchPlan(userId: string, q: string): Promise<string[]> {
  const { where, params } = orderSearchSql(userId, q);
  return readConnection()
    .db.prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN SELECT o."id" FROM "Order" o WHERE ${where}`)
    .all(...params)
    .map((r) => r.detail);
}

async function ordersWithItemsByIds(ids: string[]): Promise<OrderWithItemsRow[]> {
  if (!ids.length) return [];
  const rows = await db().order.findMany({ where: { id: { in: ids } }, include: orderInclude });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

type CountRow = { n: number | bigint };
const countOf = (rows: CountRow[]) => Number(rows[0]?.n ?? 0);

export type OrderPageRows = {
  /** The ids of the page, newest first. */
  ids: string[];
  /** The page, newest first. */
  orders: OrderWithItemsRow[];
  /** All the tenant's orders the search matches. */
  total: number;
  /** The matches newer than the page's first order. */
  newer: number;
  /** Whether older matches follow the page. */
  hasMore: boolean;
};

/**
 * A page of the tenant's orders newest first (ids are time-ordered): after `cursor` (the last id
 * of the previous page), or the page before `before` (the first id of the current page), with the
 * counts the pager needs. `limit` is a clamped integer written into the SQL.
 */
export async function findOrderPage(
  userId: string,
  options: { q?: string; limit: number; cursor?: string; before?: string },
): Promise<OrderPageRows> {
  const { limit } = options;
  if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`findOrderPage: limit ${limit} is not a page size`);
  if (onPostgres()) {
    const page = await findOrderPageIdsPg(postgres().pool, userId, options);
    return { ...page, orders: await ordersWithItemsByIds(page.ids) };
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
    client.$queryRawUnsafe<CountRow[]>(`SELECT count(*) AS n FROM "Order" o WHERE ${where}`, ...params).then(countOf),
    first
      ? client
          .$queryRawUnsafe<CountRow[]>(
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
  return { ids, orders: await ordersWithItemsByIds(ids), total, newer, hasMore };
}

/** The customer's latest orders, newest first (1 to 100 of them). */
export async function recentOrdersOfCustomer(
  userId: string,
  customerId: string,
  take: number,
): Promise<RecentOrderRow[]> {
  const limit = Math.min(Math.max(1, Math.trunc(take) || 1), 100);
  if (onPostgres()) return recentOrdersOfCustomerPg(postgres().pool, userId, customerId, limit);
  // Part of every customer detail: a prepared statement on the read connection (see
  // ~/db/reader.server), on the (customerId, createdAt, id) index, which gives the order without a
  // sort. The limit is a clamped integer written into the SQL: a bound LIMIT makes SQLite (built with STAT4) prepare
  // the statement again at every call, measured 29 µs against 5 µs.
  return readStatement<RecentOrderRow>(
    `SELECT "id", "createdAt", "amountPaise", "taxPaise", "status" FROM "Order"
     WHERE "userId" = ? AND "customerId" = ? ORDER BY "createdAt" DESC, "id" DESC LIMIT ${limit}`,
  ).all(userId, customerId);
}

/** The tenant's customer by id, or by any of the e-mails given. */
export async function findOrderCustomer(
  userId: string,
  ref: { id: string } | { emails: string[] },
): Promise<OrderCustomerRow | null> {
  return db().customer.findFirst({
    where: "id" in ref ? { userId, id: ref.id } : { userId, email: { in: ref.emails } },
    select: customerSelect,
  });
}
