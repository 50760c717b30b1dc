// Bulk loads with the segment indexes built at the end: when they are deferred, that the indexes
// come back exactly as the migrations made them (Prisma sees no drift), that readers never see
// them missing, that a failed load leaves everything as it was, and that a large seed takes this
// path and leaves searchable, segmentable customers.
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase } from "../../tests/helpers/db";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const { file } = useTestDatabase();

import { SEGMENT_INDEXES, shouldDeferSegmentIndexes, withSegmentIndexesDeferred } from "~/db/bulk-load.server";
import { openSqlite } from "~/db/sqlite.server";
import { listCustomers } from "~/services/customers.server";
import { seedTenant } from "~/services/seed.server";
import { sqlAudienceCount } from "~/models/segments/audience.server";
import { parseConditions } from "~/lib/segments";
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

  it("rebuilds the same indexes in the same transaction; a reader meanwhile still has them", async () => {
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
  }, 120_000);

  it("rolls a failed load back, indexes and rows alike", async () => {
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
    expect(stages).toEqual(["customers", "indexes"]);

    const sqlite = new Database(file, { readonly: true });
    const [raw] = sqlite
      .prepare(`SELECT count(*) AS n, sum("visits" >= 3) AS v FROM "Customer" NOT INDEXED WHERE "userId" = ?`)
      .all(user.id) as { n: number; v: number }[];
    const plan = (
      sqlite
        .prepare(`EXPLAIN QUERY PLAN SELECT count(*) FROM "Customer" WHERE "userId" = ? AND "visits" >= ?`)
        .all(user.id, 3) as { detail: string }[]
    )
      .map((r) => r.detail)
      .join(" ");
    const someone = sqlite
      .prepare(`SELECT "email" FROM "Customer" WHERE "userId" = ? ORDER BY rowid LIMIT 1 OFFSET 31337`)
      .pluck()
      .get(user.id) as string;
    sqlite.close();
    expect(raw.n).toBe(60_000);
    expect(plan).toContain("COVERING INDEX Customer_userId_visits_totalSpendPaise_lastActive_idx");
    const parsed = parseConditions({ visits: { $gte: 3 } });
    if (!parsed.ok) throw new Error(parsed.message);
    expect(await sqlAudienceCount(user.id, parsed.tree)).toBe(raw.v);

    const page = await listCustomers(user.id, { q: someone, limit: 5 });
    expect(page.customers.map((c) => c.email)).toEqual([someone]);
  }, 120_000);
});
