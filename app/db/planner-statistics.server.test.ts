// @engines sqlite postgres
// Planner statistics after bulk loads: when they are gathered, that a connection opened before the
// load plans with them, and that Prisma's schema engine still sees no drift with them present. On
// PostgreSQL (the postgres project): the same rule for when, ANALYZE's figures in pg_statistic, and
// the check at start; every connection plans with new figures there without being told.
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { useTestDatabase, createTestUser, TEST_ENGINE, useTestConnection } from "../../tests/helpers/db";
import { sqlRow } from "../../tests/helpers/sql";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const { file } = useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { isPostgres } from "~/db/connection.server";
import { ensureCustomerStatistics, needsFreshStatistics } from "~/db/planner-statistics.server";
import { ensureCustomerStatisticsPg, hasCustomerStatisticsPg } from "~/db/planner-statistics.postgres.server";
import { openSqlite } from "~/db/sqlite.server";
import { seedTenant } from "~/services/seed.server";
import { diffDatabaseToSchema, isEmptyDiff, openEngine } from "../../prisma/engine";

const statRows = () => {
  const sqlite = new Database(file, { readonly: true });
  try {
    const has = sqlite.prepare(`SELECT 1 FROM sqlite_schema WHERE "name" = 'sqlite_stat1'`).get();
    return has
      ? Number(sqlite.prepare(`SELECT count(*) FROM "sqlite_stat1" WHERE "tbl" = 'Customer'`).pluck().get())
      : 0;
  } finally {
    sqlite.close();
  }
};

describe("planner statistics", () => {
  it("are due after a load of at least 10,000 rows that is a tenth of the table or more", () => {
    expect(needsFreshStatistics(9_999, 9_999)).toBe(false);
    expect(needsFreshStatistics(10_000, 10_000)).toBe(true);
    expect(needsFreshStatistics(10_000, 100_000)).toBe(true);
    expect(needsFreshStatistics(10_000, 100_001)).toBe(false);
  });

  it.runIf(TEST_ENGINE === "postgres")(
    "are gathered by a large seed, and at start for a large table that has none",
    async () => {
      const pg = connection();
      if (!isPostgres(pg)) throw new Error("the postgres project's connection");
      // ANALYZE run by hand (ours), not by the autovacuum daemon.
      const lastAnalyze = async () =>
        (
          await sqlRow<{ at: number | null }>(
            pg,
            `SELECT "last_analyze" AS at FROM pg_stat_user_tables WHERE "relname" = 'Customer'`,
          )
        )?.at ?? null;
      const user = await createTestUser("Stats");
      await seedTenant(user.id, { customers: 500, orders: 0, seed: 3 });
      expect(await lastAnalyze()).toBeNull();
      await seedTenant(user.id, { customers: 12_000, orders: 0, seed: 4 });
      expect(await lastAnalyze()).not.toBeNull();
      expect(await hasCustomerStatisticsPg(pg)).toBe(true);

      expect(await ensureCustomerStatisticsPg(pg)).toBe(false);
      await sqlRow(pg, `DELETE FROM pg_statistic WHERE "starelid" = '"Customer"'::regclass`);
      expect(await hasCustomerStatisticsPg(pg)).toBe(false);
      expect(await ensureCustomerStatisticsPg(pg)).toBe(true);
      expect(await hasCustomerStatisticsPg(pg)).toBe(true);
    },
    120_000,
  );

  it.runIf(TEST_ENGINE === "sqlite")(
    "are gathered by a large seed, reach a connection opened before it, and leave the schema as Prisma expects",
    async () => {
      const user = await createTestUser("Stats");
      await seedTenant(user.id, { customers: 500, orders: 0, seed: 3 });
      expect(statRows()).toBe(0);

      // An already-open connection with a prepared plan, as the server's reader would have.
      const reader = new Database(file, { readonly: true });
      const plan = () =>
        (
          reader
            .prepare(
              `EXPLAIN QUERY PLAN SELECT count(*) FROM "Customer" WHERE "userId" = ? AND "totalSpendPaise" > ? AND "visits" >= ?`,
            )
            .all(user.id, 10 ** 12, 0) as { detail: string }[]
        )
          .map((r) => r.detail)
          .join(" | ");
      const countStatement = reader.prepare(`SELECT count(*) FROM "Customer" WHERE "userId" = ?`).pluck();
      expect(countStatement.get(user.id)).toBe(500);
      // Without statistics SQLite walks the visits index for this tree.
      expect(plan()).toContain("(userId=? AND visits>?)");

      await seedTenant(user.id, { customers: 12_000, orders: 0, seed: 4 });
      expect(statRows()).toBeGreaterThan(0);
      // The open connection reloaded its schema: its statement still runs and sees the new rows,
      // and the spend condition that matches nobody now leads the plan.
      expect(countStatement.get(user.id)).toBe(12_500);
      expect(plan()).toContain("(userId=? AND totalSpendPaise>?)");
      reader.close();

      const sqlite = openSqlite(file);
      expect(ensureCustomerStatistics(sqlite)).toBe(false);
      sqlite.exec(`DELETE FROM "sqlite_stat1"`);
      expect(ensureCustomerStatistics(sqlite)).toBe(true);
      sqlite.close();
      expect(statRows()).toBeGreaterThan(0);

      const engine = await openEngine(file);
      expect(isEmptyDiff(await diffDatabaseToSchema(engine))).toBe(true);
    },
    120_000,
  );
});
