// The planner's statistics of the customer table on PostgreSQL: the twin of
// ./planner-statistics.server.ts, with its rule for when (needsFreshStatistics).
//
// ANALYZE samples the table (30,000 rows at the default statistics target, whatever its size) and
// writes pg_statistic in its own transaction; every connection's next plan reads the new figures,
// so nothing like SQLite's schema-reload trick is needed. It takes a lock that only schema changes
// and VACUUM wait for: readers and writers go on meanwhile, so a server's import analyses in one
// step. The autovacuum daemon analyses a table that changed by a tenth as well, but a minute or
// more later; a bulk load asks at once, before the next segment count plans without them.
import type pg from "pg";
import { MIN_ROWS, needsFreshStatistics } from "~/db/planner-statistics.server";
import type { Postgres } from "~/db/postgres.server";

type Db = Postgres | pg.Pool | pg.PoolClient;

async function run<Row extends pg.QueryResultRow>(db: Db, sql: string): Promise<Row[]> {
  const target = "engine" in db ? db.pool : db;
  return (await target.query<Row>(sql)).rows;
}

async function customerRows(db: Db): Promise<number> {
  const [row] = await run<{ n: string | number }>(db, `SELECT coalesce(sum("customers"), 0) AS n FROM "CustomerTally"`);
  return Number(row?.n ?? 0);
}

/** Re-gathers the customer table's statistics. */
export async function analyzeCustomersPg(db: Db): Promise<void> {
  await run(db, `ANALYZE "Customer"`);
}

/** After a bulk load of `added` customers: refresh the statistics if the load was large. */
export async function afterCustomerBulkLoadPg(db: Db, added: number): Promise<boolean> {
  if (!needsFreshStatistics(added, await customerRows(db))) return false;
  await analyzeCustomersPg(db);
  return true;
}

/** Whether the customer table has statistics (pg_stats, the readable view of pg_statistic). */
export async function hasCustomerStatisticsPg(db: Db): Promise<boolean> {
  const rows = await run(
    db,
    `SELECT 1 FROM pg_stats WHERE "schemaname" = current_schema() AND "tablename" = 'Customer' LIMIT 1`,
  );
  return rows.length > 0;
}

/** At start: a large customer table without statistics gets them. */
export async function ensureCustomerStatisticsPg(db: Db): Promise<boolean> {
  if ((await hasCustomerStatisticsPg(db)) || (await customerRows(db)) < MIN_ROWS) return false;
  await analyzeCustomersPg(db);
  return true;
}
