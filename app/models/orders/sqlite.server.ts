// The orders on SQLite: the search and paging queries of the orders list as raw SQL, the customer
// detail's recent orders on the read connection, and the reads the order writes start from (SQLite's
// one writer runs those transactions one after another, so they need no lock).
import { db } from "~/db/prisma.server";
import { readConnection, readStatement } from "~/db/reader.server";
import { customerSearchSql, ftsPhrase } from "~/models/customers/search-sql";
import { commonOrders, findOrderRow, findTotalsRow, orderPage, type OrderPageSql } from "./common.server";
import type { OrdersStore } from "./contract";
import { mayBeOrderId, orderSearchTerm, recentOrdersLimit, type RecentOrderRow } from "./rows";

/**
 * The WHERE clause (on "Order" o) of a search on customer name or order id, as raw SQL so that it
 * stays fast with a million customers:
 *   - the name is matched as one phrase against "first last" (so "priya sharma" works), through the
 *     customers' trigram index, inside the tenant's part of it (customerSearchSql), for three
 *     characters or more, and by a per-order customer lookup for shorter terms;
 *   - an order id matches on any part of it (the list shows its last 6 characters).
 * SQLite walks the tenant's orders newest first on (userId, id) and stops at the page size.
 */
function orderSearchSql(userId: string, q: string | undefined): { where: string; params: (string | number)[] } {
  const term = orderSearchTerm(q);
  if (!term) return { where: `o."userId" = ?`, params: [userId] };
  const needle = term.toLowerCase();
  const search = [...term].length >= 3 ? customerSearchSql(userId, ftsPhrase(term)) : null;
  const name = search
    ? `o."customerId" IN (SELECT c."id" FROM ${search.sql})`
    : `EXISTS (SELECT 1 FROM "Customer" c WHERE c."id" = o."customerId"
           AND instr(lower(c."firstName" || ' ' || c."lastName"), ?) > 0)`;
  const nameParams = search ? search.params : [needle];
  if (mayBeOrderId(needle)) {
    return { where: `o."userId" = ? AND (instr(o."id", ?) > 0 OR ${name})`, params: [userId, needle, ...nameParams] };
  }
  return { where: `o."userId" = ? AND ${name}`, params: [userId, ...nameParams] };
}

type CountRow = { n: number | bigint };

/** The page's statements on SQLite: the search's WHERE, `?` placeholders, run through Prisma. */
function pageSql(userId: string, q: string | undefined): OrderPageSql {
  return {
    ...orderSearchSql(userId, q),
    next: "?",
    ids: async (sql, params) => (await db().$queryRawUnsafe<{ id: string }[]>(sql, ...params)).map((r) => r.id),
    count: async (sql, params) => Number((await db().$queryRawUnsafe<CountRow[]>(sql, ...params))[0]?.n ?? 0),
  };
}

export const sqliteOrders: OrdersStore = {
  ...commonOrders,

  async customerOfUserExists(userId, customerId, tx = db()) {
    const row = await tx.customer.findFirst({ where: { id: customerId, userId }, select: { id: true } });
    return row !== null;
  },

  async findOrderOfUser(userId, id, tx = db()) {
    return findOrderRow(userId, id, tx);
  },

  async findCustomerTotals(userId, customerId, tx = db()) {
    return findTotalsRow(userId, customerId, tx);
  },

  async findOrderPage(userId, options) {
    return orderPage(options, pageSql(userId, options.q));
  },

  /** The FTS5 lookup inside the tenant's part of the trigram table, as EXPLAIN QUERY PLAN shows it. */
  async orderSearchPlan(userId, q) {
    const { where, params } = orderSearchSql(userId, q);
    return readConnection()
      .db.prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN SELECT o."id" FROM "Order" o WHERE ${where}`)
      .all(...params)
      .map((r) => r.detail);
  },

  async recentOrdersOfCustomer(userId, customerId, take) {
    const limit = recentOrdersLimit(take);
    // Part of every customer detail: a prepared statement on the read connection (see
    // ~/db/reader.server), on the (customerId, createdAt, id) index, which gives the order without a
    // sort. The limit is a clamped integer written into the SQL: a bound LIMIT makes SQLite (built with STAT4) prepare
    // the statement again at every call, measured 29 µs against 5 µs.
    return readStatement<RecentOrderRow>(
      `SELECT "id", "createdAt", "amountPaise", "taxPaise", "status" FROM "Order"
     WHERE "userId" = ? AND "customerId" = ? ORDER BY "createdAt" DESC, "id" DESC LIMIT ${limit}`,
    ).all(userId, customerId);
  },
};
