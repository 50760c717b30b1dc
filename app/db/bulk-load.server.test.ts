// @engines sqlite postgres
// Bulk loads with the segment indexes built at the end: when they are deferred, that the indexes
// come back exactly as the migrations made them (Prisma sees no drift), that readers never see
// them missing, that a failed load leaves everything as it was, and that a large seed takes this
// path and leaves searchable, segmentable customers.
//
// On PostgreSQL (the postgres project) a load keeps its indexes (why: bulk-load.postgres.server.ts):
// the deferral's own tests are SQLite's; a failed load's rollback and the large seed are checked
// on both engines.
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createTestUser, TEST_ENGINE, useTestConnection, useTestDatabase } from "../../tests/helpers/db";
import { postgresPlan } from "../../tests/helpers/explain";
import { sqlRow, sqlRows } from "../../tests/helpers/sql";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const { file } = useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { SEGMENT_INDEXES, shouldDeferSegmentIndexes, withSegmentIndexesDeferred } from "~/db/bulk-load.server";
import { closePostgresSession, inSessionTransaction, openPostgresSession } from "~/db/bulk-load.postgres.server";
import { hasCustomerStatisticsPg } from "~/db/planner-statistics.postgres.server";
import { isPostgres } from "~/db/connection.server";
import { openSqlite } from "~/db/sqlite.server";
import { listCustomers } from "~/services/customers.server";
import { seedTenant } from "~/services/seed.server";
import { segmentAudience } from "~/models/segments/audience/store.server";
import { parseConditions } from "~/lib/segment-parse";
import { diffDatabaseToSchema, isEmptyDiff, openEngine } from "../../prisma/engine";

const indexSql = (sqlite: Database.Database) =>
  sqlite
    .prepare(
      `SELECT "name", "sql" FROM sqlite_schema WHERE "type" = 'index' AND "tbl_name" = 'Customer' ORDER BY "name"`,
    )
    .all();
const searchBuffer = (sqlite: Database.Database) =>
  sqlite.prepare(`SELECT "v" FROM "customer_search_config" WHERE "k" = 'hashsize'`).pluck().get() as number | undefined;

describe("deferring the segment indexes", () => {
  it("pays from 50,000 rows that are at least a fifth of the table once loaded", () => {
    expect(shouldDeferSegmentIndexes(49_999, 0)).toBe(false);
    expect(shouldDeferSegmentIndexes(50_000, 0)).toBe(true);
    expect(shouldDeferSegmentIndexes(250_000, 1_000_000)).toBe(true);
    expect(shouldDeferSegmentIndexes(250_000, 1_000_001)).toBe(false);
  });

  it.runIf(TEST_ENGINE === "sqlite")(
    "rebuilds the same indexes in the same transaction; a reader meanwhile still has them",
    async () => {
      const user = await createTestUser("Bulk");
      const sqlite = openSqlite(file);
      const before = indexSql(sqlite);
      expect(before.map((r) => (r as { name: string }).name)).toEqual(expect.arrayContaining([...SEGMENT_INDEXES]));
      const reader = new Database(file, { readonly: true });
      const readerPlan = () =>
        (
          reader
            .prepare(`EXPLAIN QUERY PLAN SELECT count(*) FROM "Customer" WHERE "userId" = ? AND "visits" > ?`)
            .all(user.id, 3) as { detail: string }[]
        )
          .map((r) => r.detail)
          .join(" ");

      let seenInside = "";
      let rebuilt = false;
      await withSegmentIndexesDeferred(
        sqlite,
        async () => {
          // Inside: this connection has no segment indexes; the reader still plans with them.
          const inside = sqlite
            .prepare(`SELECT count(*) FROM sqlite_schema WHERE "name" IN (?, ?, ?)`)
            .pluck()
            .get(...SEGMENT_INDEXES);
          expect(inside).toBe(0);
          expect(searchBuffer(sqlite)).toBe(64 * 1024 * 1024);
          seenInside = readerPlan();
          await new Promise((resolve) => setTimeout(resolve, 1));
        },
        () => {
          rebuilt = true;
        },
      );
      expect(seenInside).toContain("Customer_userId_visits_totalSpendPaise_lastActive_idx");
      expect(rebuilt).toBe(true);
      expect(indexSql(sqlite)).toEqual(before);
      expect(searchBuffer(sqlite)).toBe(1024 * 1024);
      expect(sqlite.inTransaction).toBe(false);
      reader.close();
      sqlite.close();

      const engine = await openEngine(file);
      expect(isEmptyDiff(await diffDatabaseToSchema(engine))).toBe(true);
    },
    120_000,
  );

  it.runIf(TEST_ENGINE === "postgres")("rolls a failed load back, its batches with it", async () => {
    const user = await createTestUser("Failing");
    const session = await openPostgresSession("crm test");
    const rows = async () =>
      (await sqlRow<{ n: number }>(connection(), `SELECT count(*) AS n FROM "Customer" WHERE "userId" = ?`, [user.id]))
        ?.n;
    const insert = (email: string) =>
      session.client.query(
        `INSERT INTO "Customer" ("id", "userId", "firstName", "lastName", "email", "updatedAt") VALUES ($1, $2, 'A', 'B', $3, now())`,
        [email.slice(0, 2).padEnd(24, "0"), user.id, email],
      );
    try {
      await expect(
        inSessionTransaction(session, async () => {
          await insert("c1@example.com");
          // A batch inside the load: a savepoint, kept when it succeeds.
          await inSessionTransaction(session, () => insert("c2@example.com"));
          await expect(inSessionTransaction(session, () => insert("c2@example.com"))).rejects.toThrow(/duplicate key/);
          throw new Error("the file broke half-way");
        }),
      ).rejects.toThrow("the file broke half-way");
      expect(session.depth).toBe(0);
      expect(await rows()).toBe(0);
      await inSessionTransaction(session, () => insert("c3@example.com"));
      expect(await rows()).toBe(1);
    } finally {
      await closePostgresSession(session);
    }
  });

  it.runIf(TEST_ENGINE === "sqlite")("rolls a failed load back, indexes and rows alike", async () => {
    const user = await createTestUser("Failing");
    const sqlite = openSqlite(file);
    const before = indexSql(sqlite);
    const rows = () =>
      Number(sqlite.prepare(`SELECT count(*) FROM "Customer" WHERE "userId" = ?`).pluck().get(user.id));
    await expect(
      withSegmentIndexesDeferred(sqlite, () => {
        sqlite
          .prepare(
            `INSERT INTO "Customer" ("id", "userId", "firstName", "lastName", "email", "createdAt", "updatedAt") VALUES ('c1', ?, 'A', 'B', 'a@example.com', 0, 0)`,
          )
          .run(user.id);
        expect(rows()).toBe(1);
        throw new Error("the file broke half-way");
      }),
    ).rejects.toThrow("the file broke half-way");
    expect(sqlite.inTransaction).toBe(false);
    expect(rows()).toBe(0);
    expect(indexSql(sqlite)).toEqual(before);
    sqlite.close();
  });

  it("is the path of a large seed, which leaves every customer searchable and in segment counts", async () => {
    const user = await createTestUser("Large seed");
    const stages: string[] = [];
    const result = await seedTenant(user.id, {
      customers: 60_000,
      orders: 0,
      seed: 7,
      onProgress: (stage) => {
        if (!stages.includes(stage)) stages.push(stage);
      },
    });
    expect(result.customersCreated).toBe(60_000);
    // PostgreSQL keeps the indexes during the load: nothing to build at the end.
    expect(stages).toEqual(TEST_ENGINE === "sqlite" ? ["customers", "indexes"] : ["customers"]);

    const [raw] = await sqlRows<{ n: number; v: number }>(
      connection(),
      `SELECT count(*) AS n, sum(CASE WHEN "visits" >= 3 THEN 1 ELSE 0 END) AS v FROM "Customer" WHERE "userId" = ?`,
      [user.id],
    );
    const someone = String(
      (
        await sqlRow<{ email: string }>(
          connection(),
          `SELECT "email" FROM "Customer" WHERE "userId" = ? ORDER BY ${TEST_ENGINE === "sqlite" ? "rowid" : `"id"`} LIMIT 1 OFFSET 31337`,
          [user.id],
        )
      )?.email,
    );
    expect(raw.n).toBe(60_000);
    if (TEST_ENGINE === "sqlite") {
      const sqlite = new Database(file, { readonly: true });
      const plan = (
        sqlite
          .prepare(`EXPLAIN QUERY PLAN SELECT count(*) FROM "Customer" WHERE "userId" = ? AND "visits" >= ?`)
          .all(user.id, 3) as { detail: string }[]
      )
        .map((r) => r.detail)
        .join(" ");
      sqlite.close();
      expect(plan).toContain("COVERING INDEX Customer_userId_visits_totalSpendPaise_lastActive_idx");
    } else {
      // The seed analysed the table: the planner's estimate of the matches is the rows' own.
      const pg = connection();
      if (!isPostgres(pg)) throw new Error("the postgres project's connection");
      expect(await hasCustomerStatisticsPg(pg)).toBe(true);
      const plan = await postgresPlan(
        connection(),
        `SELECT count(*) FROM "Customer" WHERE "userId" = $1 AND "visits" >= $2`,
        [user.id, 3],
      );
      const estimate = Number(/Scan .* rows=(\d+)/.exec(plan.join("\n"))?.[1]);
      expect(Math.abs(estimate - raw.v) / raw.v).toBeLessThan(0.2);
    }
    const parsed = parseConditions({ visits: { $gte: 3 } });
    if (!parsed.ok) throw new Error(parsed.message);
    expect(await segmentAudience.sqlAudienceCount(user.id, parsed.tree)).toBe(raw.v);

    const page = await listCustomers(user.id, { q: someone, limit: 5 });
    expect(page.customers.map((c) => c.email)).toEqual([someone]);
  }, 120_000);
});
