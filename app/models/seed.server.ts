// The seed's writes (app/services/seed.server.ts makes the rows): a connection of its own tuned
// for a bulk load, customers and orders inserted a whole batch per call and per transaction, the
// batch indexed for search in one statement, and the customers' totals computed in SQL at the end.
// A seed that is a good part of the table builds the segment indexes once at the end, the whole
// seed one transaction (~/db/bulk-load.server).
//
// On PostgreSQL (DATABASE_URL=postgres://…, no `file` given) each function has a twin in
// ./seed.postgres.server.ts on a session of the seed's own, chosen by the connection it is given.
import { customerTableRows, shouldDeferSegmentIndexes, withSegmentIndexesDeferred } from "~/db/bulk-load.server";
import {
  closePostgresSession,
  isPostgresSession,
  openPostgresSession,
  type PostgresSession,
} from "~/db/bulk-load.postgres.server";
import { databaseEngine } from "~/db/connection.server";
import { afterCustomerBulkLoad } from "~/db/planner-statistics.server";
import { openSqlite, type Sqlite } from "~/db/sqlite.server";
import { ADD_TO_TALLY_SQL, type CustomerRow } from "~/models/customers/rows";
import { INDEX_CUSTOMERS_AFTER_SQL } from "~/models/customers/search-sql";
import {
  afterSeedLoadPg,
  insertSeedCustomersPg,
  insertSeedOrdersPg,
  recomputeSeedCustomerTotalsPg,
  seedStartingPointPg,
} from "~/models/seed.postgres.server";

/** The seed's connection: a SQLite connection, or a PostgreSQL session (opaque to the service). */
export type SeedConnection = Sqlite | PostgresSession;

/** A customer the seed made up; dates as unixepoch milliseconds, money in paise. */
export type SeedCustomer = Omit<CustomerRow, "userId" | "updatedAt">;

export type SeedOrderItem = { id: string; name: string; description: string; quantity: number; pricePaise: number };

/** An order the seed made up, with its items in their order. */
export type SeedOrder = {
  id: string;
  customerId: string;
  status: string;
  amountPaise: number;
  taxPaise: number;
  createdAt: number;
  items: SeedOrderItem[];
};

/**
 * A connection of the seed's own to `file` (default: the configured database). A bulk load: a
 * large page cache keeps the randomly ordered indexes (e-mail, spend, dates) in memory, and a
 * crash mid-seed only loses seed data. Close it with closeSeedConnection().
 */
export async function openSeedConnection(file?: string): Promise<SeedConnection> {
  if (file === undefined && databaseEngine() === "postgres") return openPostgresSession("crm seed");
  const sqlite = openSqlite(file);
  sqlite.pragma("cache_size = -524288");
  sqlite.pragma("synchronous = OFF");
  return sqlite;
}

export async function closeSeedConnection(sqlite: SeedConnection): Promise<void> {
  if (isPostgresSession(sqlite)) return closePostgresSession(sqlite);
  sqlite.close();
}

/**
 * Where the seed starts: the customer table's last rowid (every customer the seed adds comes
 * after it) and how many customers the tenant has (the seed numbers its e-mails from there).
 */
export async function seedStartingPoint(
  sqlite: SeedConnection,
  userId: string,
): Promise<{ lastRowid: number; tenantCustomers: number }> {
  if (isPostgresSession(sqlite)) return seedStartingPointPg(sqlite, userId);
  const lastRowid = sqlite.prepare<[], { m: number }>(`SELECT coalesce(max(rowid), 0) AS m FROM "Customer"`).get()!.m;
  const tenantCustomers = sqlite
    .prepare<[string], { n: number }>(
      `SELECT coalesce((SELECT "customers" FROM "CustomerTally" WHERE "userId" = ?), 0) AS n`,
    )
    .get(userId)!.n;
  return { lastRowid, tenantCustomers };
}

/**
 * Inserts a batch of the tenant's customers in one transaction (an e-mail the tenant has already
 * is skipped), indexes them for search and counts them in the tenant's tally. Resolves with the
 * customers that went in, in the given order.
 */
export async function insertSeedCustomers(
  sqlite: SeedConnection,
  userId: string,
  customers: readonly SeedCustomer[],
): Promise<SeedCustomer[]> {
  if (isPostgresSession(sqlite)) return insertSeedCustomersPg(sqlite, userId, customers);
  const insert = sqlite.prepare(`INSERT INTO "Customer" ("id", "userId", "firstName", "lastName", "email", "phone",
      "address", "company", "notes", "totalSpendPaise", "visits", "lastActive", "createdAt", "updatedAt")
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT ("userId", "email") DO NOTHING`);
  const indexNew = sqlite.prepare(INDEX_CUSTOMERS_AFTER_SQL);
  const addToTally = sqlite.prepare(ADD_TO_TALLY_SQL);
  const maxRow = sqlite.prepare<[], { m: number }>(`SELECT coalesce(max(rowid), 0) AS m FROM "Customer"`);
  return sqlite.transaction(() => {
    const before = maxRow.get()!.m;
    const inserted: SeedCustomer[] = [];
    for (const c of customers) {
      const result = insert.run(
        c.id,
        userId,
        c.firstName,
        c.lastName,
        c.email,
        c.phone,
        c.address,
        c.company,
        c.notes,
        c.totalSpendPaise,
        c.visits,
        c.lastActive,
        c.createdAt,
        c.createdAt,
      );
      if (result.changes) inserted.push(c);
    }
    indexNew.run(before);
    if (inserted.length > 0) addToTally.run(userId, inserted.length);
    return inserted;
  })();
}

/** Inserts a batch of the tenant's orders and their items in one transaction (notes empty). */
export async function insertSeedOrders(
  sqlite: SeedConnection,
  userId: string,
  orders: readonly SeedOrder[],
): Promise<void> {
  if (isPostgresSession(sqlite)) return insertSeedOrdersPg(sqlite, userId, orders);
  const insertOrder = sqlite.prepare(`INSERT INTO "Order" ("id", "userId", "customerId", "status", "amountPaise",
      "taxPaise", "notes", "createdAt", "updatedAt")
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertItem = sqlite.prepare(`INSERT INTO "OrderItem" ("id", "orderId", "position", "name", "description",
      "quantity", "pricePaise")
    VALUES (?, ?, ?, ?, ?, ?, ?)`);
  sqlite.transaction(() => {
    for (const o of orders) {
      insertOrder.run(o.id, userId, o.customerId, o.status, o.amountPaise, o.taxPaise, "", o.createdAt, o.createdAt);
      o.items.forEach((item, position) => {
        insertItem.run(item.id, o.id, position, item.name, item.description, item.quantity, item.pricePaise);
      });
    }
  })();
}

/**
 * The customer totals rule for the tenant's customers after `afterRowid` (on PostgreSQL: those
 * this session's seed inserted): their non-cancelled orders give totalSpend (subtotal + tax),
 * visits and lastActive.
 */
export async function recomputeSeedCustomerTotals(
  sqlite: SeedConnection,
  userId: string,
  afterRowid: number,
): Promise<void> {
  if (isPostgresSession(sqlite)) return recomputeSeedCustomerTotalsPg(sqlite, userId);
  sqlite
    .prepare(
      `UPDATE "Customer" SET
         "totalSpendPaise" = coalesce((SELECT sum(o."amountPaise" + o."taxPaise") FROM "Order" o WHERE o."customerId" = "Customer"."id" AND o."status" <> 'Cancelled'), 0),
         "visits" = (SELECT count(*) FROM "Order" o WHERE o."customerId" = "Customer"."id" AND o."status" <> 'Cancelled'),
         "lastActive" = (SELECT max(o."createdAt") FROM "Order" o WHERE o."customerId" = "Customer"."id" AND o."status" <> 'Cancelled')
       WHERE rowid > ? AND "userId" = ?`,
    )
    .run(afterRowid, userId);
}

/**
 * Runs `load` (which adds `adding` customers): when that is a good part of the table, in one
 * transaction with the segment indexes dropped first and built again after it (`onRebuild` is
 * told before the rebuild); else as it is. Resolves with whether the indexes were rebuilt.
 * PostgreSQL keeps its indexes during a load (why: ~/db/bulk-load.postgres.server).
 */
export async function loadSeed(
  sqlite: SeedConnection,
  adding: number,
  load: () => Promise<void>,
  onRebuild: () => void,
): Promise<boolean> {
  if (isPostgresSession(sqlite)) {
    await load();
    return false;
  }
  if (!shouldDeferSegmentIndexes(adding, customerTableRows(sqlite))) {
    await load();
    return false;
  }
  await withSegmentIndexesDeferred(sqlite, load, onRebuild);
  return true;
}

/** Refreshes the query planner's statistics when the seed changed the customer table enough. */
export async function afterSeedLoad(sqlite: SeedConnection, customersAdded: number): Promise<void> {
  if (isPostgresSession(sqlite)) return afterSeedLoadPg(sqlite, customersAdded);
  afterCustomerBulkLoad(sqlite, customersAdded);
}
