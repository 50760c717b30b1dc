// crm db copy's work on real engines: a seeded SQLite install (the seed's customers, orders and
// campaign history, plus rows the seed does not make: events, receipts, snapshots, keys, odd
// text) copied into a real PostgreSQL database of the test's own, then compared row by row; what
// it refuses (a second run, a database with rows or other tables, a missing or unmigrated file,
// a server that does not answer) changes nothing.
import { readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COPY_TABLES, CopyRefused } from "~/db/copy-tables.server";
import { copySqliteToPostgres } from "~/db/copy-to-postgres.server";
import { migrateDatabase } from "~/db/migrate.server";
import { openSqlite } from "~/db/sqlite.server";
import { seedCampaignHistory } from "~/services/sending/history.server";
import { seedTenant } from "~/services/seed.server";
import { createTestUser, useTestDatabase } from "../../tests/helpers/db";
import {
  createMigratedPostgresDatabase,
  createPostgresDatabase,
  type PostgresDatabase,
} from "../../tests/helpers/postgres";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const { file, dir } = useTestDatabase();
const TRICKY = "tab\there, new\nline, cr\r, back\\slash, Zoë 🙂, \\N";
const RICH_PAISE = 3_000_000_000; // above 2^31: PostgreSQL's integer would refuse it
let userId = "";

/** Rows the seed does not make, written as the app's SQL would leave them. */
function addOddRows(sqlite: Database.Database) {
  const now = Date.UTC(2026, 10, 20, 10, 30, 15, 123);
  sqlite
    .prepare(
      `INSERT INTO "Customer" ("id", "userId", "firstName", "lastName", "email", "notes", "totalSpendPaise", "visits", "lastActive", "createdAt", "updatedAt")
       VALUES ('c0000000000000000000rich', ?, 'Zoë', 'Rich', 'rich@example.in', ?, ?, 7, ?, ?, ?)`,
    )
    .run(userId, TRICKY, RICH_PAISE, now, now - 1000, now);
  // createdAt left to the column's default: SQLite writes CURRENT_TIMESTAMP as UTC text.
  sqlite
    .prepare(
      `INSERT INTO "Customer" ("id", "userId", "firstName", "lastName", "email", "updatedAt") VALUES ('c00000000000000000textdt', ?, 'Text', 'Date', 'text.date@example.in', ?)`,
    )
    .run(userId, now);
  sqlite.prepare(`UPDATE "CustomerTally" SET "customers" = "customers" + 2 WHERE "userId" = ?`).run(userId);
  sqlite.prepare(`UPDATE "User" SET "emailVerified" = 1 WHERE "id" = ?`).run(userId);
  sqlite
    .prepare(
      `INSERT INTO "Notification" ("id", "userId", "type", "title", "read", "createdAt") VALUES ('n00000000000000000000001', ?, 'CAMPAIGN_COMPLETED', 'Done', 1, ?)`,
    )
    .run(userId, now);
  const campaign = sqlite.prepare(`SELECT "id", "firstSeq" FROM "Campaign" ORDER BY "id" LIMIT 1`).get() as {
    id: string;
    firstSeq: number;
  };
  sqlite.prepare(`UPDATE "Campaign" SET "trackingEnabled" = 0 WHERE "id" = ?`).run(campaign.id);
  const event = sqlite.prepare(
    `INSERT INTO "DeliveryEvent" ("userId", "campaignId", "seq", "customerId", "email", "kind", "machine", "link", "source", "eventId", "at")
     VALUES (?, ?, ?, 'c1', 'a@example.in', ?, ?, ?, ?, ?, ?)`,
  );
  event.run(userId, campaign.id, campaign.firstSeq, "opened", 1, null, "pixel", null, now);
  event.run(userId, campaign.id, campaign.firstSeq, "clicked", 0, 2, "link", null, now + 1);
  event.run(userId, campaign.id, campaign.firstSeq, "bounced", 0, null, "ses", "sns-1", now + 2);
  const receipt = sqlite.prepare(`INSERT INTO "ReceiptInbox" ("receipts", "count", "receivedAt") VALUES (?, 1, ?)`);
  for (let i = 0; i < 3; i++) receipt.run(`[{"id":"x${i}","status":"delivered"}]`, now + i);
  // The newest was applied and removed: SQLite will not give its id again, and neither may PostgreSQL.
  sqlite.prepare(`DELETE FROM "ReceiptInbox" WHERE "id" = 3`).run();
  sqlite
    .prepare(
      `INSERT INTO "DashboardSnapshot" ("userId", "day", "takenAt", "customers", "segments", "campaigns", "customersAdded", "campaignsSent") VALUES (?, '2026-11-20', ?, 3002, 0, 2, 5, 1)`,
    )
    .run(userId, now);
  sqlite
    .prepare(
      `INSERT INTO "IdempotencyKey" ("id", "userId", "key", "fingerprint", "resultId", "state", "createdAt", "updatedAt") VALUES ('k00000000000000000000001', ?, 'launch-1', 'f', ?, 'done', ?, ?)`,
    )
    .run(userId, campaign.id, now, now);
  // An uploaded image: bytes that hold what COPY's text format escapes (a backslash, a tab, a newline, NUL).
  sqlite
    .prepare(
      `INSERT INTO "Image" ("id", "userId", "name", "contentType", "size", "width", "height", "bytes", "sha256", "createdAt") VALUES ('i00000000000000000000001', ?, 'logo.png', 'image/png', 8, 2, 1, ?, 'abc', ?)`,
    )
    .run(userId, Buffer.from([0x89, 0x5c, 0x09, 0x0a, 0x00, 0x0d, 0x5c, 0x4e]), now);
  sqlite
    .prepare(
      `INSERT INTO "Brand" ("userId", "background", "textColor", "linkColor", "buttonColor", "buttonTextColor", "font", "logoUrl", "logoAlt", "postalAddress", "updatedAt") VALUES (?, '#ffffff', '#111111', '#2563eb', '#0f766e', '#ffffff', 'georgia', '', '', '1 Main Road', ?)`,
    )
    .run(userId, now);
}

beforeAll(async () => {
  userId = (await createTestUser("Copy Owner")).id;
  await createTestUser("Second Tenant");
  await seedTenant(userId, { customers: 3000, orders: 2000, fields: 4, tags: 5, seed: 11 });
  const sqlite = openSqlite(file);
  try {
    await seedCampaignHistory(sqlite, userId, 2);
    addOddRows(sqlite);
  } finally {
    sqlite.close();
  }
}, 60_000);

const databases: PostgresDatabase[] = [];
afterAll(async () => {
  for (const db of databases) await db.drop();
});
async function emptyDatabase(): Promise<PostgresDatabase> {
  const db = await createPostgresDatabase("crm_copy");
  databases.push(db);
  return db;
}

async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

async function rowCounts(url: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of COPY_TABLES)
    counts[table] = Number((await query<{ n: string }>(url, `SELECT count(*) AS n FROM "${table}"`))[0].n);
  return counts;
}

/** A value as SQLite's rows hold it: dates in milliseconds, booleans 0/1, integers as numbers. */
function normalisedPostgres(value: unknown, type: string): unknown {
  if (value === null) return null;
  if (type === "timestamp with time zone") return (value as Date).getTime();
  if (type === "boolean") return value ? 1 : 0;
  if (type === "bigint") return Number(value);
  return value;
}
function normalisedSqlite(value: unknown, type: string): unknown {
  if (value === null) return null;
  // CURRENT_TIMESTAMP's text is UTC without a zone.
  if (type === "timestamp with time zone" && typeof value === "string")
    return Date.parse(`${value.replace(" ", "T")}Z`);
  return value;
}

describe("copySqliteToPostgres", () => {
  let target: PostgresDatabase;

  it("migrates an empty database, copies every table and finds both sides equal", async () => {
    target = await emptyDatabase();
    const seen: string[] = [];
    const result = await copySqliteToPostgres(file, target.url, { onTable: (table) => seen.push(table) });

    expect(result.migrated.length).toBeGreaterThan(0);
    expect(seen).toEqual([...COPY_TABLES]);
    expect(result.tables.map((t) => t.table)).toEqual([...COPY_TABLES]);
    const differing = result.figures.filter((f) => f.sqlite !== f.postgres);
    expect(differing).toEqual([]);
    // Every column of every table has a figure besides the rows.
    expect(result.figures.length).toBeGreaterThan(150);

    const sqlite = new Database(file, { readonly: true });
    try {
      const expected = Object.fromEntries(
        COPY_TABLES.map((t) => [t, (sqlite.prepare(`SELECT count(*) AS n FROM "${t}"`).get() as { n: number }).n]),
      );
      expect(await rowCounts(target.url)).toEqual(expected);
      expect(expected.Customer).toBe(3002);
      expect(expected.Delivery).toBeGreaterThan(0);
      expect(expected.Suppression).toBeGreaterThan(0);
      // Fields, tags and the figures segments ask about go across too.
      for (const table of ["CustomField", "CustomerFieldValue", "Tag", "CustomerTag", "CustomerActivity"] as const)
        expect(expected[table], table).toBeGreaterThan(0);
      const sums = (table: string, column: string) =>
        String(
          (sqlite.prepare(`SELECT sum("${column}") AS s FROM "${table}"`).safeIntegers(true).get() as { s: bigint }).s,
        );
      const pgSum = async (table: string, column: string) =>
        (await query<{ s: string }>(target.url, `SELECT sum("${column}")::text AS s FROM "${table}"`))[0].s;
      for (const [table, column] of [
        ["Customer", "totalSpendPaise"],
        ["Order", "amountPaise"],
        ["OrderItem", "pricePaise"],
        ["Campaign", "deliveredCount"],
        ["Delivery", "seq"],
      ])
        expect(await pgSum(table, column), `${table}.${column}`).toBe(sums(table, column));
      const figure = (table: string, name: string) =>
        result.figures.find((f) => f.table === table && f.figure === name)!;
      expect(figure("Customer", "sum of totalSpendPaise").postgres).toBe(sums("Customer", "totalSpendPaise"));
      expect(BigInt(figure("Customer", "sum of totalSpendPaise").postgres)).toBeGreaterThan(2n ** 31n);

      // The first and last rows of every table, column by column.
      for (const table of COPY_TABLES) {
        const columns = await query<{ name: string; type: string }>(
          target.url,
          `SELECT column_name AS name, data_type AS type FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
          [table],
        );
        const key = (
          await query<{ name: string }>(
            target.url,
            `SELECT a.attname AS name FROM pg_index x JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = ANY(x.indkey)
              WHERE x.indrelid = $1::regclass AND x.indisprimary ORDER BY a.attnum`,
            [`"${table}"`],
          )
        ).map((k) => k.name);
        const rows = sqlite
          .prepare(
            `SELECT * FROM (SELECT * FROM "${table}" ORDER BY rowid LIMIT 2) UNION ALL SELECT * FROM (SELECT * FROM "${table}" ORDER BY rowid DESC LIMIT 2)`,
          )
          .all() as Record<string, unknown>[];
        for (const row of rows) {
          const where = key.map((k, i) => `"${k}" = $${i + 1}`).join(" AND ");
          const [copied] = await query<Record<string, unknown>>(
            target.url,
            `SELECT * FROM "${table}" WHERE ${where}`,
            key.map((k) => row[k]),
          );
          expect(copied, `${table} ${JSON.stringify(key.map((k) => row[k]))}`).toBeDefined();
          for (const { name, type } of columns)
            expect(normalisedPostgres(copied[name], type), `${table}.${name}`).toEqual(
              normalisedSqlite(row[name], type),
            );
        }
      }
    } finally {
      sqlite.close();
    }

    // The rows the seed does not make, as PostgreSQL holds them.
    const [rich] = await query<Record<string, unknown>>(
      target.url,
      `SELECT "notes", "firstName", "totalSpendPaise", "lastActive", "createdAt" FROM "Customer" WHERE "id" = 'c0000000000000000000rich'`,
    );
    expect(rich.notes).toBe(TRICKY);
    expect(rich.firstName).toBe("Zoë");
    expect(rich.totalSpendPaise).toBe(String(RICH_PAISE));
    expect((rich.lastActive as Date).toISOString()).toBe("2026-11-20T10:30:15.123Z");
    const [textDate] = await query<{ createdAt: Date; lastActive: Date | null }>(
      target.url,
      `SELECT "createdAt", "lastActive" FROM "Customer" WHERE "id" = 'c00000000000000000textdt'`,
    );
    expect(Math.abs(textDate.createdAt.getTime() - Date.now())).toBeLessThan(10 * 60_000);
    expect(textDate.lastActive).toBeNull();
    expect(await query(target.url, `SELECT "emailVerified" FROM "User" WHERE "id" = $1`, [userId])).toEqual([
      { emailVerified: true },
    ]);
    expect(
      await query(target.url, `SELECT "read" FROM "Notification" WHERE "id" = 'n00000000000000000000001'`),
    ).toEqual([{ read: true }]);
    expect(
      await query(target.url, `SELECT "kind", "machine", "link", "eventId" FROM "DeliveryEvent" ORDER BY "id"`),
    ).toEqual([
      { kind: "opened", machine: true, link: null, eventId: null },
      { kind: "clicked", machine: false, link: 2, eventId: null },
      { kind: "bounced", machine: false, link: null, eventId: "sns-1" },
    ]);
    expect(
      (await query(target.url, `SELECT count(*)::int AS n FROM "Campaign" WHERE NOT "trackingEnabled"`))[0],
    ).toEqual({ n: 1 });
  }, 120_000);

  it("leaves the sequences, indexes and foreign keys working: rows added after the copy get new ids", async () => {
    const [event] = await query<{ id: number }>(
      target.url,
      `INSERT INTO "DeliveryEvent" ("userId", "campaignId", "seq", "customerId", "email", "kind", "at")
       SELECT "userId", "campaignId", "seq", "customerId", "email", 'opened', 1 FROM "DeliveryEvent" WHERE "id" = 1
       RETURNING "id"`,
    );
    expect(event.id).toBe(4);
    // SQLite gave id 3 to a receipt since applied: PostgreSQL goes on from 4, as SQLite would.
    const [receipt] = await query<{ id: number }>(
      target.url,
      `INSERT INTO "ReceiptInbox" ("receipts", "count", "receivedAt") VALUES ('[]', 0, 1) RETURNING "id"`,
    );
    expect(receipt.id).toBe(4);
    await query(
      target.url,
      `INSERT INTO "Customer" ("id", "userId", "firstName", "lastName", "email", "totalSpendPaise", "updatedAt")
       VALUES ('c000000000000000000after', $1, 'After', 'Copy', 'after@example.in', 5000000000, now())`,
      [userId],
    );
    await expect(
      query(
        target.url,
        `INSERT INTO "Order" ("id", "userId", "customerId", "updatedAt") VALUES ('o0000000000000000000none', $1, 'no-such-customer', now())`,
        [userId],
      ),
    ).rejects.toThrow(/foreign key/);
    await expect(
      query(
        target.url,
        `INSERT INTO "Customer" ("id", "userId", "firstName", "lastName", "email", "updatedAt") VALUES ('c0000000000000000000dup1', $1, 'Dup', 'Licate', 'rich@example.in', now())`,
        [userId],
      ),
    ).rejects.toThrow(/duplicate key/);

    // The same indexes and constraints as a database the migrations made.
    const fresh = await createMigratedPostgresDatabase("crm_copy_ref");
    databases.push(fresh);
    const structure = `SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE schemaname = current_schema()
                       UNION ALL SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE connamespace = current_schema()::regnamespace
                       ORDER BY 1, 2`;
    expect(await query(target.url, structure)).toEqual(await query(fresh.url, structure));
  });

  it("refuses a second run into the same database and changes nothing", async () => {
    const before = await rowCounts(target.url);
    const run = copySqliteToPostgres(file, target.url);
    await expect(run).rejects.toThrow(CopyRefused);
    await expect(run).rejects.toThrow(
      /already holds data \(.*Customer.*\): crm db copy copies only into an empty database/,
    );
    expect(await rowCounts(target.url)).toEqual(before);
  });

  it("refuses a database with rows, or with tables that are not the CRM's, before migrating it", async () => {
    const filled = await createMigratedPostgresDatabase("crm_copy_filled");
    databases.push(filled);
    await query(
      filled.url,
      `INSERT INTO "User" ("id", "email", "displayName", "updatedAt") VALUES ('u1', 'someone@example.in', 'Someone', now())`,
    );
    await expect(copySqliteToPostgres(file, filled.url)).rejects.toThrow(/already holds data \(User\)/);
    expect((await rowCounts(filled.url)).User).toBe(1);

    const other = await emptyDatabase();
    await query(other.url, `CREATE TABLE invoices (id int)`);
    await expect(copySqliteToPostgres(file, other.url)).rejects.toThrow(
      /has tables that are not the CRM's \(invoices\).*Nothing was changed/,
    );
    expect(await query(other.url, `SELECT to_regclass('"_prisma_migrations"') AS t`)).toEqual([{ t: null }]);
  });

  it("keeps nothing when SQLite is written while it is copied (the server still running)", async () => {
    const target2 = await emptyDatabase();
    const writer = new Database(file);
    try {
      const run = copySqliteToPostgres(file, target2.url, {
        onTable: (table) => {
          if (table === "Order")
            writer
              .prepare(
                `INSERT INTO "Notification" ("id", "userId", "type", "title", "createdAt") VALUES ('n00000000000000000000002', ?, 'X', 'During the copy', 0)`,
              )
              .run(userId);
        },
      });
      await expect(run).rejects.toThrow(/changed while it was copied \(is the server still running\?\).*not kept/);
    } finally {
      writer.prepare(`DELETE FROM "Notification" WHERE "id" = 'n00000000000000000000002'`).run();
      writer.close();
    }
    const counts = await rowCounts(target2.url);
    expect(Object.values(counts).every((n) => n === 0)).toBe(true);
    // Migrated and empty: a second try is allowed.
    const again = await copySqliteToPostgres(file, target2.url);
    expect(again.figures.every((f) => f.sqlite === f.postgres)).toBe(true);
  }, 120_000);

  it("fails on a value PostgreSQL cannot hold, naming the table and the value, and keeps nothing", async () => {
    const odd = path.join(dir, "odd.db");
    migrateDatabase(odd);
    const sqlite = new Database(odd);
    try {
      sqlite
        .prepare(
          `INSERT INTO "User" ("id", "email", "displayName", "createdAt", "updatedAt") VALUES ('u0000000000000000000000a', 'a@example.in', 'A', 0, 0)`,
        )
        .run();
      // visits is integer on both engines, but SQLite's is 64-bit.
      sqlite
        .prepare(
          `INSERT INTO "Customer" ("id", "userId", "firstName", "lastName", "email", "visits", "createdAt", "updatedAt") VALUES ('c0000000000000000000000a', 'u0000000000000000000000a', 'A', 'B', 'a@example.in', 3000000000, 0, 0)`,
        )
        .run();
    } finally {
      sqlite.close();
    }
    const target4 = await emptyDatabase();
    await expect(copySqliteToPostgres(odd, target4.url)).rejects.toThrow(
      /PostgreSQL refused the rows of "Customer": value "3000000000" is out of range for type integer/,
    );
    expect(Object.values(await rowCounts(target4.url)).every((count) => count === 0)).toBe(true);
  });

  it("says what is wrong with the source or the server, without a stack", async () => {
    const target3 = await emptyDatabase();
    await expect(copySqliteToPostgres(path.join(dir, "missing.db"), target3.url)).rejects.toThrow(
      /No SQLite database at .*missing\.db\. Name the install's file with --from <file>/,
    );
    const notCrm = path.join(dir, "other.db");
    new Database(notCrm).exec("CREATE TABLE t (x)").close();
    await expect(copySqliteToPostgres(notCrm, target3.url)).rejects.toThrow(/other\.db is not a CRM database/);
    await expect(copySqliteToPostgres(file, "postgres://crm:s3cret@127.0.0.1:1/crm")).rejects.toThrow(
      /Cannot reach PostgreSQL at 127\.0\.0\.1:1 \(database crm, user crm\)/,
    );
    await expect(
      copySqliteToPostgres(file, target3.url.replace(/\/[^/]+$/, "/crm_copy_no_such_database")),
    ).rejects.toThrow(/Create the database first/);
    // Every refusal came before the migrations: the database is as it was made.
    expect(await query(target3.url, `SELECT to_regclass('"_prisma_migrations"') AS t`)).toEqual([{ t: null }]);
  });

  it("knows every model of schema.prisma", () => {
    const schema = readFileSync(path.resolve(import.meta.dirname, "../../prisma/schema.prisma"), "utf8");
    const models = [...schema.matchAll(/^model (\w+) \{/gm)].map((m) => m[1]).sort();
    expect([...COPY_TABLES].sort()).toEqual(models);
  });
});
