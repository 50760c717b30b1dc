// Bulk loads of customers (seeding, a CLI import) with the segment indexes built once at the end.
//
// Why: the three covering segment indexes of "Customer" (schema.prisma) are ordered by spend,
// visits and last activity, so rows arrive at random places in each of them. Measured inserting
// 1,000,000 customers into an empty table: 30.6 s with them kept row by row, 13.7 s without them,
// and 3.5 s more to build all three afterwards from the finished table (CREATE INDEX sorts).
// Building costs the whole table's size, so it only pays when the load is a good part of it.
//
// The search index takes a larger in-memory buffer for the load's length.
//
// The drop, the load and the rebuild are one write transaction: other connections keep reading
// the last committed state, indexes included, and a failure or a crash rolls back to it. The
// price is the write lock for the load's whole length: the server's own writes wait meanwhile.
import os from "node:os";
import type Database from "better-sqlite3";

/**
 * The covering segment indexes. The customer list names them in INDEXED BY, but only on the read
 * connection (app/db/reader.server.ts), which keeps seeing them while a load has them dropped.
 */
export const SEGMENT_INDEXES = [
  "Customer_userId_totalSpendPaise_visits_lastActive_idx",
  "Customer_userId_visits_totalSpendPaise_lastActive_idx",
  "Customer_userId_lastActive_totalSpendPaise_visits_idx",
] as const;

/** Rebuilt after a load as well: the list's name order, keyed by name so inserts land anywhere in it. */
const DEFERRED_INDEXES = [...SEGMENT_INDEXES, "Customer_userId_name_idx"] as const;

/**
 * The search index's in-memory buffer during a bulk load (FTS5 "hashsize"; its default is 1 MB,
 * restored afterwards). Measured indexing 1,000,000 customers in 100,000-row statements: 18.8 s
 * with 1 MB, 12.9 s with 64 MB, as fewer, larger segments leave its background merges less to do.
 */
export const BULK_SEARCH_BUFFER_BYTES = 64 * 1024 * 1024;
const DEFAULT_SEARCH_BUFFER_BYTES = 1024 * 1024;

/** The page cache (KiB) while the indexes are built. */
const SORT_CACHE_KIB = 4096;

/** Loads smaller than this (rows) always keep the indexes up to date row by row. */
const MIN_DEFERRED_ROWS = 50_000;

/**
 * Whether adding `adding` customers to a table of `existing` is faster with the segment indexes
 * rebuilt afterwards: the rebuild sorts all existing + adding rows, while keeping them costs a
 * random insert per added row and index (measured about 5x a sorted entry).
 */
export function shouldDeferSegmentIndexes(adding: number, existing: number): boolean {
  return adding >= MIN_DEFERRED_ROWS && adding * 4 >= existing;
}

/**
 * Runs `load` in one write transaction with the segment indexes dropped first and built again
 * after it; `onRebuild` is told before the rebuild starts (it takes a few seconds a million rows).
 * `searchBufferBytes` bounds the search index's buffer (a process with a memory budget passes less).
 * Transactions `load` opens with better-sqlite3 become savepoints inside this one.
 */
export async function withSegmentIndexesDeferred<T>(
  sqlite: Database.Database,
  load: () => Promise<T> | T,
  onRebuild?: () => void,
  searchBufferBytes: number = BULK_SEARCH_BUFFER_BYTES,
): Promise<T> {
  const indexes = sqlite
    .prepare(
      `SELECT "name", "sql" FROM sqlite_schema WHERE "type" = 'index' AND "tbl_name" = 'Customer' AND "name" IN (${DEFERRED_INDEXES.map(() => "?").join(", ")})`,
    )
    .all(...DEFERRED_INDEXES) as { name: string; sql: string }[];
  sqlite.exec("BEGIN IMMEDIATE");
  try {
    for (const index of indexes) sqlite.exec(`DROP INDEX "${index.name}"`);
    sqlite.exec(
      `INSERT INTO "customer_search" ("customer_search", rank) VALUES ('hashsize', ${Math.max(DEFAULT_SEARCH_BUFFER_BYTES, Math.trunc(searchBufferBytes))})`,
    );
    const result = await load();
    onRebuild?.();
    // CREATE INDEX sorts with helper threads when allowed: measured on 2,100,000 rows and 2
    // cores, the three builds took 8.0 s instead of 14.0 s.
    // Each sorting thread holds up to the page cache's size in memory; 4 MB a thread sorted as fast
    // as 12 MB and kept the process's peak 25 MB lower.
    const threads = sqlite.pragma("threads", { simple: true }) as number;
    const cache = sqlite.pragma("cache_size", { simple: true }) as number;
    sqlite.pragma(`threads = ${Math.min(4, os.availableParallelism())}`);
    sqlite.pragma(`cache_size = -${SORT_CACHE_KIB}`);
    try {
      for (const index of indexes) sqlite.exec(index.sql);
    } finally {
      sqlite.pragma(`threads = ${threads}`);
      sqlite.pragma(`cache_size = ${cache}`);
    }
    sqlite.exec(
      `INSERT INTO "customer_search" ("customer_search", rank) VALUES ('hashsize', ${DEFAULT_SEARCH_BUFFER_BYTES})`,
    );
    sqlite.exec("COMMIT");
    return result;
  } catch (error) {
    if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
    throw error;
  }
}

/** The customer rows in the table now (every tenant's: the rebuild sorts them all). */
export function customerTableRows(sqlite: Database.Database): number {
  return Number(sqlite.prepare(`SELECT coalesce(sum("customers"), 0) FROM "CustomerTally"`).pluck().get());
}
