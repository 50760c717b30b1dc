// The seed's writes on SQLite: prepared statements on the seed's own connection, a batch per
// transaction; the seed's customers are found again by rowid (all above the table's last one at
// the start).
import { isPostgresSession } from "~/db/bulk-load.postgres.server";
import { customerTableRows, shouldDeferSegmentIndexes, withSegmentIndexesDeferred } from "~/db/bulk-load.server";
import { afterCustomerBulkLoad } from "~/db/planner-statistics.server";
import { openSqlite, type Sqlite } from "~/db/sqlite.server";
import { ADD_TO_TALLY_SQL, personalFields } from "~/models/customers/rows";
import { INDEX_CUSTOMERS_AFTER_SQL } from "~/models/customers/search-sql";
import type { SeedConnection, SeedStore } from "~/models/seed/contract";
import type { SeedCustomer } from "~/models/seed/rows";

/** The seed's connection as SQLite's (a PostgreSQL session here is a wiring mistake). */
function sqliteSeed(connection: SeedConnection): Sqlite {
  if (isPostgresSession(connection)) throw new Error("A PostgreSQL session reached SQLite's seed.");
  return connection;
}

export const sqliteSeedStore: SeedStore = {
  async openSeedConnection(file) {
    const connection = openSqlite(file);
    connection.pragma("cache_size = -524288");
    connection.pragma("synchronous = OFF");
    return connection;
  },

  async closeSeedConnection(connection) {
    sqliteSeed(connection).close();
  },

  async seedStartingPoint(connection, userId) {
    const own = sqliteSeed(connection);
    const lastRowid = own.prepare<[], { m: number }>(`SELECT coalesce(max(rowid), 0) AS m FROM "Customer"`).get()!.m;
    const tenantCustomers = own
      .prepare<[string], { n: number }>(
        `SELECT coalesce((SELECT "customers" FROM "CustomerTally" WHERE "userId" = ?), 0) AS n`,
      )
      .get(userId)!.n;
    return { lastRowid, tenantCustomers };
  },

  async insertSeedCustomers(connection, userId, customers) {
    const own = sqliteSeed(connection);
    const insert = own.prepare(`INSERT INTO "Customer" ("id", "userId", "firstName", "lastName", "email", "phone",
      "address", "company", "notes", "totalSpendPaise", "visits", "lastActive", "createdAt", "updatedAt")
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT ("userId", "email") DO NOTHING`);
    const indexNew = own.prepare(INDEX_CUSTOMERS_AFTER_SQL);
    const addToTally = own.prepare(ADD_TO_TALLY_SQL);
    const maxRow = own.prepare<[], { m: number }>(`SELECT coalesce(max(rowid), 0) AS m FROM "Customer"`);
    return own.transaction(() => {
      const before = maxRow.get()!.m;
      const inserted: SeedCustomer[] = [];
      for (const c of customers) {
        const result = insert.run(
          c.id,
          userId,
          ...personalFields(c),
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
  },

  async insertSeedExtras(connection, userId, values, tags) {
    const own = sqliteSeed(connection);
    const insertValue =
      own.prepare(`INSERT INTO "CustomerFieldValue" ("userId", "customerId", "name", "value", "textKey", "numberValue")
      VALUES (?, ?, ?, ?, ?, ?)`);
    const insertTag = own.prepare(`INSERT INTO "CustomerTag" ("tagId", "customerId", "userId") VALUES (?, ?, ?)
      ON CONFLICT DO NOTHING`);
    own.transaction(() => {
      for (const v of values) insertValue.run(userId, v.customerId, v.name, v.value, v.textKey, v.numberValue);
      for (const t of tags) insertTag.run(t.tagId, t.customerId, userId);
    })();
  },

  async insertSeedOrders(connection, userId, orders) {
    const own = sqliteSeed(connection);
    const insertOrder = own.prepare(`INSERT INTO "Order" ("id", "userId", "customerId", "status", "amountPaise",
      "taxPaise", "notes", "createdAt", "updatedAt")
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const insertItem = own.prepare(`INSERT INTO "OrderItem" ("id", "orderId", "position", "name", "description",
      "quantity", "pricePaise")
    VALUES (?, ?, ?, ?, ?, ?, ?)`);
    own.transaction(() => {
      for (const o of orders) {
        insertOrder.run(o.id, userId, o.customerId, o.status, o.amountPaise, o.taxPaise, "", o.createdAt, o.createdAt);
        o.items.forEach((item, position) => {
          insertItem.run(item.id, o.id, position, item.name, item.description, item.quantity, item.pricePaise);
        });
      }
    })();
  },

  async recomputeSeedCustomerTotals(connection, userId, afterRowid) {
    sqliteSeed(connection)
      .prepare(
        `UPDATE "Customer" SET
         "totalSpendPaise" = coalesce((SELECT sum(o."amountPaise" + o."taxPaise") FROM "Order" o WHERE o."customerId" = "Customer"."id" AND o."status" <> 'Cancelled'), 0),
         "visits" = (SELECT count(*) FROM "Order" o WHERE o."customerId" = "Customer"."id" AND o."status" <> 'Cancelled'),
         "lastActive" = (SELECT max(o."createdAt") FROM "Order" o WHERE o."customerId" = "Customer"."id" AND o."status" <> 'Cancelled')
       WHERE rowid > ? AND "userId" = ?`,
      )
      .run(afterRowid, userId);
    // Their order figures for segments (~/models/customer-activity), as an order write keeps them.
    sqliteSeed(connection)
      .prepare(
        `INSERT INTO "CustomerActivity" ("customerId", "userId", "orderCount", "orderSpendPaise", "averageOrderPaise", "firstOrderAt", "lastOrderAt")
         SELECT o."customerId", o."userId", count(*), sum(o."amountPaise" + o."taxPaise"),
                CAST(round(1.0 * sum(o."amountPaise" + o."taxPaise") / count(*)) AS INTEGER), min(o."createdAt"), max(o."createdAt")
         FROM "Order" o WHERE o."userId" = ? AND o."status" <> 'Cancelled'
           AND o."customerId" IN (SELECT "id" FROM "Customer" WHERE rowid > ? AND "userId" = ?)
         GROUP BY o."customerId"
         ON CONFLICT ("customerId") DO UPDATE SET "orderCount" = excluded."orderCount",
           "orderSpendPaise" = excluded."orderSpendPaise", "averageOrderPaise" = excluded."averageOrderPaise",
           "firstOrderAt" = excluded."firstOrderAt", "lastOrderAt" = excluded."lastOrderAt"`,
      )
      .run(userId, afterRowid, userId);
  },

  async loadSeed(connection, adding, load, onRebuild) {
    const own = sqliteSeed(connection);
    if (!shouldDeferSegmentIndexes(adding, customerTableRows(own))) {
      await load();
      return false;
    }
    await withSegmentIndexesDeferred(own, load, onRebuild);
    return true;
  },

  async afterSeedLoad(connection, customersAdded) {
    afterCustomerBulkLoad(sqliteSeed(connection), customersAdded);
  },
};
