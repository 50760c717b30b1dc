// The orders on PostgreSQL: the orders list's search and paging, the customer detail's recent
// orders, and the locks the order writes take before they read (the Prisma functions that run on
// either engine as they are: ./common.server.ts).
//
// The search means what it means on SQLite: three characters or more match the phrase anywhere in
// the customer's "first last" or e-mail (SQLite's trigram table holds both columns) through the
// trigram index on "Customer" itself (Customer_search_idx, pg_trgm, the tenant first), shorter terms
// the name only, checked per order; an id matches on any part of it.
import { db } from "~/db/prisma.server";
import { postgres, query, type Queryable } from "~/db/postgres.server";
import { likePattern } from "~/models/customers/search-sql";
import type { Tx } from "~/models/transaction/store.server";
import { commonOrders, findOrderRow, findTotalsRow, orderPage, type OrderPageSql } from "./common.server";
import type { OrdersStore } from "./contract";
import { mayBeOrderId, orderSearchTerm, recentOrdersLimit, type RecentOrderRow } from "./rows";

/** SQL text with numbered placeholders, built from left to right. */
type Sql = { where: string; params: string[] };

/** The WHERE (on "Order" o) of the tenant's orders matching `q`, as orderSearchSql() on SQLite. */
function orderSearchSql(userId: string, q: string | undefined): Sql {
  const params: string[] = [];
  const p = (value: string) => {
    params.push(value);
    return `$${params.length}`;
  };
  const tenant = `o."userId" = ${p(userId)}`;
  const term = orderSearchTerm(q);
  if (!term) return { where: tenant, params };
  const needle = term.toLowerCase();
  const byId = mayBeOrderId(needle) ? `strpos(o."id", ${p(needle)}) > 0` : null;
  let name: string;
  if ([...term].length >= 3) {
    const pattern = p(likePattern(needle));
    // The e-mail as stored may have capitals; SQLite's trigram table ignores case in both columns.
    name = `o."customerId" IN (SELECT c."id" FROM "Customer" c WHERE c."userId" = $1
           AND (lower(c."firstName" || ' ' || c."lastName") LIKE ${pattern} OR c."email" ILIKE ${pattern}))`;
  } else {
    name = `EXISTS (SELECT 1 FROM "Customer" c WHERE c."id" = o."customerId"
           AND strpos(lower(c."firstName" || ' ' || c."lastName"), ${p(needle)}) > 0)`;
  }
  return { where: byId ? `${tenant} AND (${byId} OR ${name})` : `${tenant} AND ${name}`, params };
}

/** The page's statements on PostgreSQL: the search's WHERE, numbered placeholders, run on the pool. */
function pageSql(userId: string, q: string | undefined): OrderPageSql {
  const { where, params } = orderSearchSql(userId, q);
  return {
    where,
    params,
    next: `$${params.length + 1}`,
    ids: async (sql, values) => (await query<{ id: string }>(postgres().pool, sql, values)).map((r) => r.id),
    count: async (sql, values) => Number((await query<{ n: number }>(postgres().pool, sql, values))[0]?.n ?? 0),
  };
}

async function recentOrdersOfCustomer(
  db: Queryable,
  userId: string,
  customerId: string,
  limit: number,
): Promise<RecentOrderRow[]> {
  return query<RecentOrderRow>(
    db,
    `SELECT "id", "createdAt", "amountPaise", "taxPaise", "status" FROM "Order"
     WHERE "userId" = $1 AND "customerId" = $2 ORDER BY "createdAt" DESC, "id" DESC LIMIT $3`,
    [userId, customerId, limit],
    { prepare: true },
  );
}

// An order write reads the order and the customer's totals, then writes a delta computed from
// them. On SQLite the one writer runs such transactions one after another; on PostgreSQL two run
// side by side, and each would compute from what it read before the other committed (measured: 8
// orders created at once for one customer counted 1). Each read therefore first takes its row's
// lock, held to the end of the transaction: a second writer waits, then reads what the first left.

/**
 * Whether the tenant has this customer, kept so (FOR KEY SHARE) to the end of `tx`: a delete of the
 * customer waits for the order about to be inserted, rather than the insert failing on the foreign
 * key after the check (a 500 instead of the 404 or the order). Order writes still run side by side.
 */
async function customerOfUserExists(tx: Tx, userId: string, customerId: string): Promise<boolean> {
  const rows = await tx.$queryRawUnsafe<unknown[]>(
    `SELECT 1 FROM "Customer" WHERE "id" = $1 AND "userId" = $2 FOR KEY SHARE`,
    customerId,
    userId,
  );
  return rows.length > 0;
}

/** Locks the tenant's order for the rest of `tx` (none is taken when it is not the tenant's). */
async function lockOrderOfUser(tx: Tx, userId: string, id: string): Promise<void> {
  await tx.$executeRawUnsafe(`SELECT 1 FROM "Order" WHERE "id" = $1 AND "userId" = $2 FOR UPDATE`, id, userId);
}

/**
 * Locks the tenant's customer's totals for the rest of `tx`. FOR NO KEY UPDATE, the lock the totals'
 * UPDATE takes anyway: it does not wait for the key share a concurrent order insert holds on its
 * customer, so two order writes of one customer queue rather than deadlock.
 */
async function lockCustomerTotals(tx: Tx, userId: string, customerId: string): Promise<void> {
  await tx.$executeRawUnsafe(
    `SELECT 1 FROM "Customer" WHERE "id" = $1 AND "userId" = $2 FOR NO KEY UPDATE`,
    customerId,
    userId,
  );
}

export const postgresOrders: OrdersStore = {
  ...commonOrders,

  async customerOfUserExists(userId, customerId, tx = db()) {
    return customerOfUserExists(tx, userId, customerId);
  },

  async findOrderOfUser(userId, id, tx = db()) {
    await lockOrderOfUser(tx, userId, id);
    return findOrderRow(userId, id, tx);
  },

  async findCustomerTotals(userId, customerId, tx = db()) {
    await lockCustomerTotals(tx, userId, customerId);
    return findTotalsRow(userId, customerId, tx);
  },

  async findOrderPage(userId, options) {
    return orderPage(options, pageSql(userId, options.q));
  },

  /** PostgreSQL's EXPLAIN of the orders search, one line a step. */
  async orderSearchPlan(userId, q) {
    const { where, params } = orderSearchSql(userId, q);
    const rows = await query<{ "QUERY PLAN": string }>(
      postgres(),
      `EXPLAIN SELECT o."id" FROM "Order" o WHERE ${where}`,
      params,
    );
    return rows.map((r) => r["QUERY PLAN"]);
  },

  async recentOrdersOfCustomer(userId, customerId, take) {
    return recentOrdersOfCustomer(postgres().pool, userId, customerId, recentOrdersLimit(take));
  },
};
