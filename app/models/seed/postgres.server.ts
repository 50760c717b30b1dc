// The seed's writes on PostgreSQL (./contract.ts), on a session of the seed's own
// (~/db/bulk-load.postgres.server). Customers go in a batch at a time through COPY into a
// temporary table and one INSERT … SELECT … ON CONFLICT DO NOTHING (COPY cannot skip an e-mail the
// tenant has); orders and their items, which cannot conflict, are copied straight into their
// tables. The search index is an index of "Customer": nothing to add to it by hand.
//
// SQLite finds the seed's customers again by rowid (all above the table's last one at the start);
// PostgreSQL has no rowid and the seed's ids are dated in the past, so the session keeps the ids
// it inserted in a temporary table, "seed_customers", for the totals at the end.
import {
  closePostgresSession,
  copyRows,
  inSessionTransaction,
  isPostgresSession,
  openPostgresSession,
  type PostgresSession,
} from "~/db/bulk-load.postgres.server";
import { afterCustomerBulkLoadPg } from "~/db/planner-statistics.postgres.server";
import { ADD_TO_TALLY_SQL_PG, personalFields, STAGED_COLUMNS } from "~/models/customers/rows";
import type { SeedConnection, SeedStore } from "~/models/seed/contract";
import type { SeedCustomer, SeedCustomerTag, SeedFieldValue, SeedOrder } from "~/models/seed/rows";

/** A batch's columns: an import's staged row's, and the customer's creation time. */
const SEED_BATCH_COLUMNS = [...STAGED_COLUMNS, `"createdAt"`];

/** The seed's temporary tables: this batch's rows, and every customer the seed has inserted. */
async function createSeedTables(session: PostgresSession): Promise<void> {
  if (session.seedTables) return;
  await session.client.query(`CREATE TEMP TABLE IF NOT EXISTS "seed_batch" (
    "n" bigserial, "id" text NOT NULL, "firstName" text NOT NULL, "lastName" text NOT NULL, "email" text NOT NULL,
    "phone" text NOT NULL, "address" text NOT NULL, "company" text NOT NULL, "notes" text NOT NULL,
    "totalSpendPaise" bigint NOT NULL, "visits" integer NOT NULL, "lastActive" timestamptz, "createdAt" timestamptz NOT NULL)`);
  await session.client.query(`CREATE TEMP TABLE IF NOT EXISTS "seed_customers" ("id" text PRIMARY KEY)`);
  session.seedTables = true;
}

async function seedStartingPoint(
  session: PostgresSession,
  userId: string,
): Promise<{ lastRowid: number; tenantCustomers: number }> {
  await createSeedTables(session);
  await session.client.query(`TRUNCATE "seed_customers"`);
  const { rows } = await session.client.query<{ n: number }>(
    `SELECT coalesce((SELECT "customers" FROM "CustomerTally" WHERE "userId" = $1), 0) AS n`,
    [userId],
  );
  // No rowid to start from: recomputeSeedCustomerTotals() reads "seed_customers" instead.
  return { lastRowid: 0, tenantCustomers: rows[0]?.n ?? 0 };
}

async function insertSeedCustomers(
  session: PostgresSession,
  userId: string,
  customers: readonly SeedCustomer[],
): Promise<SeedCustomer[]> {
  const client = session.client;
  await createSeedTables(session);
  const inserted = await inSessionTransaction(session, async () => {
    await client.query(`TRUNCATE "seed_batch" RESTART IDENTITY`);
    await copyRows(
      client,
      `"seed_batch"`,
      SEED_BATCH_COLUMNS,
      customers.map((c) => [
        c.id,
        ...personalFields(c),
        c.totalSpendPaise,
        c.visits,
        c.lastActive === null ? null : new Date(c.lastActive),
        new Date(c.createdAt),
      ]),
    );
    const { rows } = await client.query<{ id: string }>(
      `WITH "added" AS (
         INSERT INTO "Customer" ("id", "userId", "firstName", "lastName", "email", "phone", "address", "company",
           "notes", "totalSpendPaise", "visits", "lastActive", "createdAt", "updatedAt")
         SELECT "id", $1, "firstName", "lastName", "email", "phone", "address", "company", "notes",
           "totalSpendPaise", "visits", "lastActive", "createdAt", "createdAt"
         FROM "seed_batch" ORDER BY "n"
         ON CONFLICT ("userId", "email") DO NOTHING RETURNING "id"),
       "kept" AS (INSERT INTO "seed_customers" SELECT "id" FROM "added")
       SELECT "id" FROM "added"`,
      [userId],
    );
    if (rows.length > 0) await client.query(ADD_TO_TALLY_SQL_PG, [userId, rows.length]);
    return new Set(rows.map((r) => r.id));
  });
  return customers.filter((c) => inserted.has(c.id));
}

async function insertSeedExtras(
  session: PostgresSession,
  userId: string,
  values: readonly SeedFieldValue[],
  tags: readonly SeedCustomerTag[],
): Promise<void> {
  const client = session.client;
  await inSessionTransaction(session, async () => {
    if (values.length > 0) {
      await copyRows(
        client,
        `"CustomerFieldValue"`,
        [`"userId"`, `"customerId"`, `"name"`, `"value"`, `"textKey"`, `"numberValue"`],
        values.map((v) => [userId, v.customerId, v.name, v.value, v.textKey, v.numberValue]),
      );
    }
    if (tags.length > 0) {
      await copyRows(
        client,
        `"CustomerTag"`,
        [`"tagId"`, `"customerId"`, `"userId"`],
        tags.map((t) => [t.tagId, t.customerId, userId]),
      );
    }
  });
}

async function insertSeedOrders(session: PostgresSession, userId: string, orders: readonly SeedOrder[]): Promise<void> {
  const client = session.client;
  await inSessionTransaction(session, async () => {
    await copyRows(
      client,
      `"Order"`,
      [
        `"id"`,
        `"userId"`,
        `"customerId"`,
        `"status"`,
        `"amountPaise"`,
        `"taxPaise"`,
        `"notes"`,
        `"createdAt"`,
        `"updatedAt"`,
      ],
      orders.map((o) => {
        const at = new Date(o.createdAt);
        return [o.id, userId, o.customerId, o.status, o.amountPaise, o.taxPaise, "", at, at];
      }),
    );
    await copyRows(
      client,
      `"OrderItem"`,
      [`"id"`, `"orderId"`, `"position"`, `"name"`, `"description"`, `"quantity"`, `"pricePaise"`],
      orders.flatMap((o) =>
        o.items.map((item, position) => [
          item.id,
          o.id,
          position,
          item.name,
          item.description,
          item.quantity,
          item.pricePaise,
        ]),
      ),
    );
  });
}

/** The customer totals rule for the customers this seed inserted ("seed_customers"). */
async function recomputeSeedCustomerTotals(session: PostgresSession, userId: string): Promise<void> {
  // Statistics first: a temporary table has none until it is analysed (autovacuum never does), and
  // a tenant the last ANALYZE did not see is estimated at one row. Without them the planner joined
  // the tenant's customers and orders row by row: the totals of 100,000 customers with 300,000
  // orders ran for more than ten minutes. ANALYZE samples, so it takes seconds at any size.
  await session.client.query(`ANALYZE "seed_customers", "Customer", "Order"`);
  await inSessionTransaction(session, async () => {
    await session.client.query(
      `UPDATE "Customer" c SET
         "totalSpendPaise" = coalesce(t."spend", 0), "visits" = coalesce(t."visits", 0), "lastActive" = t."last"
       FROM (
         SELECT s."id", o."spend", o."visits", o."last" FROM "seed_customers" s
         LEFT JOIN (
           SELECT "customerId", sum("amountPaise" + "taxPaise") AS "spend", count(*)::int AS "visits", max("createdAt") AS "last"
           FROM "Order" WHERE "userId" = $1 AND "status" <> 'Cancelled' AND "customerId" IN (SELECT "id" FROM "seed_customers")
           GROUP BY "customerId"
         ) o ON o."customerId" = s."id"
       ) t
       WHERE c."id" = t."id" AND c."userId" = $1`,
      [userId],
    );
    // Their order figures for segments (~/models/customer-activity), as an order write keeps them.
    await session.client.query(
      `INSERT INTO "CustomerActivity" ("customerId", "userId", "orderCount", "orderSpendPaise", "averageOrderPaise", "firstOrderAt", "lastOrderAt")
       SELECT "customerId", $1, count(*), sum("amountPaise" + "taxPaise"),
              round(sum("amountPaise" + "taxPaise")::numeric / count(*))::bigint, min("createdAt"), max("createdAt")
       FROM "Order" WHERE "userId" = $1 AND "status" <> 'Cancelled' AND "customerId" IN (SELECT "id" FROM "seed_customers")
       GROUP BY "customerId"
       ON CONFLICT ("customerId") DO UPDATE SET "orderCount" = excluded."orderCount",
         "orderSpendPaise" = excluded."orderSpendPaise", "averageOrderPaise" = excluded."averageOrderPaise",
         "firstOrderAt" = excluded."firstOrderAt", "lastOrderAt" = excluded."lastOrderAt"`,
      [userId],
    );
  });
}

/** Refreshes the query planner's statistics when the seed changed the customer table enough. */
async function afterSeedLoad(session: PostgresSession, customersAdded: number): Promise<void> {
  await afterCustomerBulkLoadPg(session.client, customersAdded);
}

/** The seed's connection as PostgreSQL's session (a SQLite connection here is a wiring mistake). */
function sessionOf(connection: SeedConnection): PostgresSession {
  if (!isPostgresSession(connection)) throw new Error("A SQLite connection reached PostgreSQL's seed.");
  return connection;
}

export const postgresSeedStore: SeedStore = {
  async openSeedConnection(file) {
    if (file !== undefined)
      throw new Error("A database file names a SQLite database; this process runs on PostgreSQL.");
    return openPostgresSession("crm seed");
  },
  closeSeedConnection: (connection) => closePostgresSession(sessionOf(connection)),
  seedStartingPoint: (connection, userId) => seedStartingPoint(sessionOf(connection), userId),
  insertSeedCustomers: (connection, userId, customers) => insertSeedCustomers(sessionOf(connection), userId, customers),
  insertSeedExtras: (connection, userId, values, tags) => insertSeedExtras(sessionOf(connection), userId, values, tags),
  insertSeedOrders: (connection, userId, orders) => insertSeedOrders(sessionOf(connection), userId, orders),
  // No rowid here: the customers this session's seed inserted are in "seed_customers".
  recomputeSeedCustomerTotals: (connection, userId) => recomputeSeedCustomerTotals(sessionOf(connection), userId),
  // PostgreSQL keeps its indexes during a load (why: ~/db/bulk-load.postgres.server).
  async loadSeed(connection, _adding, load) {
    sessionOf(connection);
    await load();
    return false;
  },
  afterSeedLoad: (connection, customersAdded) => afterSeedLoad(sessionOf(connection), customersAdded),
};
