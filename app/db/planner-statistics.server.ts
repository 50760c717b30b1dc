// The query planner's statistics of the customer table (sqlite_stat1 and sqlite_stat4).
//
// Why: segment audiences at a million customers depend on the planner picking the right covering
// index. Without statistics SQLite guesses from index shape alone and, for a narrow spend
// condition AND'ed with a broad visits one, walks the visits index (measured 1.2-1.3x slower than
// the spend index); with STAT4 samples it picks the selective one. ANALYZE of a million rows takes
// about a second, so it runs after bulk loads that change the table by a tenth or more, and once
// at start when a large table has none.
//
// PostgreSQL's twins, with the same rule for when, are in ./planner-statistics.postgres.server.ts.
import type Database from "better-sqlite3";

/** Loads smaller than this (rows) never trigger an ANALYZE on their own. */
export const MIN_ROWS = 10_000;

/** Whether adding `added` rows to a table that now holds `total` calls for fresh statistics. */
export function needsFreshStatistics(added: number, total: number): boolean {
  return added >= MIN_ROWS && added * 10 >= total;
}

function customerRows(sqlite: Database.Database): number {
  return Number(sqlite.prepare(`SELECT coalesce(sum("customers"), 0) FROM "CustomerTally"`).pluck().get());
}

/** Re-gathers the customer table's statistics and makes every open connection load them. */
export function analyzeCustomers(sqlite: Database.Database) {
  sqlite.exec(`ANALYZE "Customer"`);
  // Other connections (the server's, when the CLI did the load) read statistics only when they
  // reload the schema; a schema change makes each of them do so before its next statement.
  sqlite.exec(`CREATE TABLE "_planner_statistics_reload" ("x"); DROP TABLE "_planner_statistics_reload";`);
}

/** After a bulk load of `added` customers: refresh the statistics if the load was large. */
export function afterCustomerBulkLoad(sqlite: Database.Database, added: number): boolean {
  if (!needsFreshStatistics(added, customerRows(sqlite))) return false;
  analyzeCustomers(sqlite);
  return true;
}

/**
 * afterCustomerBulkLoad for a load that ran beside a server answering requests (the import's worker
 * thread): one index at a time with a pause between, so the write lock ANALYZE holds is never held
 * for the whole table at once (a request that writes waits for it on its own thread).
 */
export async function afterCustomerBulkLoadInSteps(
  sqlite: Database.Database,
  added: number,
  pauseMs: number,
): Promise<boolean> {
  if (!needsFreshStatistics(added, customerRows(sqlite))) return false;
  const indexes = sqlite
    .prepare(`SELECT "name" FROM sqlite_schema WHERE "type" = 'index' AND "tbl_name" = 'Customer' ORDER BY "name"`)
    .pluck()
    .all() as string[];
  for (const index of indexes) {
    sqlite.exec(`ANALYZE "${index.replace(/"/g, '""')}"`);
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  sqlite.exec(`CREATE TABLE "_planner_statistics_reload" ("x"); DROP TABLE "_planner_statistics_reload";`);
  return true;
}

/** At start: a large customer table without statistics (data from before this rule) gets them. */
export function ensureCustomerStatistics(sqlite: Database.Database): boolean {
  const hasStatTable = sqlite.prepare(`SELECT 1 FROM sqlite_schema WHERE "name" = 'sqlite_stat1'`).get() !== undefined;
  const analyzed =
    hasStatTable && sqlite.prepare(`SELECT 1 FROM "sqlite_stat1" WHERE "tbl" = 'Customer' LIMIT 1`).get() !== undefined;
  if (analyzed || customerRows(sqlite) < MIN_ROWS) return false;
  analyzeCustomers(sqlite);
  return true;
}
