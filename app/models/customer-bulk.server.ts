// The CSV import's and export's queries, on a connection of their own (the import and export run
// in a worker thread, or in the CLI's process): the import stages its good rows in a temporary
// table and then upserts them into the tenant's customers in batches; the export reads the
// tenant's customers a slice at a time. The rules (parsing, validation, batch sizes, pauses,
// progress, the CSV itself) are the services': app/services/customer-import.server.ts and
// app/services/customer-export.server.ts.
//
// On PostgreSQL (DATABASE_URL=postgres://…, no `file` given) the connections are a session of the
// import's own and a pool of the export's, and each function has a twin in
// ./customer-bulk.postgres.server.ts, chosen by the connection or staging it is given.
import type { Statement } from "better-sqlite3";
import { customerTableRows, shouldDeferSegmentIndexes, withSegmentIndexesDeferred } from "~/db/bulk-load.server";
import {
  closePostgresSession,
  isPostgresSession,
  openPostgresSession,
  type PostgresSession,
} from "~/db/bulk-load.postgres.server";
import { databaseEngine, isPostgres, openConnection, type AnyConnection } from "~/db/connection.server";
import { afterCustomerBulkLoad, afterCustomerBulkLoadInSteps } from "~/db/planner-statistics.server";
import { openSqlite, type Sqlite } from "~/db/sqlite.server";
import type { ColumnMapping, ImportField } from "~/lib/customer-csv";
import {
  clearStagedRowsPg,
  discardStagingPg,
  finishStagingPg,
  lastStagedRowPg,
  prepareMergePg,
  readExportSlicePg,
  refreshStatisticsAfterImportPg,
  stageImportGroupsPg,
  startStagingPg,
  type PostgresStaging,
} from "~/models/customer-bulk.postgres.server";
import type { CustomerRow, RowKey } from "~/models/customers.server";
import { ADD_TO_TALLY_SQL } from "~/models/customers.server";
import { customerMatchSql, INDEX_CUSTOMERS_AFTER_SQL } from "~/models/customer-search.server";

/** The import's or export's connection (opaque to the services): SQLite's, or PostgreSQL's. */
export type BulkConnection = Sqlite | PostgresSession | AnyConnection;

/**
 * The search index's buffer in a bulk import, smaller than a seed's: the import keeps under 300 MB
 * of memory for a million rows.
 */
export const IMPORT_SEARCH_BUFFER_BYTES = 16 * 1024 * 1024;
/** The page cache (KiB) of a bulk import: measured at a million rows, 24 MB peaked at 299 MB, 12 MB at 274 MB and as fast. */
const BULK_CACHE_KIB = 12_288;

/** The values of one staged row, in this order: id, the seven personal fields, spend (paise), visits, last active (ms). */
export const STAGED_VALUES = 11;
/** Staged rows a statement: a group of them is STAGE_ROWS * STAGED_VALUES values. */
export const STAGE_ROWS = 50;
/** Staged rows a transaction of the temporary database (a multiple of STAGE_ROWS). */
const STAGE_BATCH = 5000;

/** The import's connection: its own, with room for the indexes the upsert walks in random order. */
export async function openImportConnection(file?: string): Promise<BulkConnection> {
  if (file === undefined && databaseEngine() === "postgres") return openPostgresSession("crm import");
  const sqlite = openSqlite(file);
  // Room for the indexes the upsert walks in random order (e-mail, spend, dates).
  sqlite.pragma("cache_size = -49152");
  // Staging only appends: the temporary database needs little cache of its own.
  sqlite.pragma("temp.cache_size = -4096");
  return sqlite;
}

/** The export's connection: its own, read-only. */
export async function openExportConnection(file?: string): Promise<BulkConnection> {
  if (file === undefined && databaseEngine() === "postgres")
    return openConnection({ poolSize: 1, applicationName: "crm export" });
  return openSqlite(file, { readonly: true });
}

export async function closeConnection(sqlite: BulkConnection): Promise<void> {
  if (isPostgresSession(sqlite)) return closePostgresSession(sqlite);
  if (isPostgres(sqlite)) return sqlite.pool.end();
  sqlite.close();
}

/** The import's SQLite connection or PostgreSQL session (an export's pool takes no import). */
function importSide(connection: BulkConnection): Sqlite | PostgresSession {
  if (isPostgresSession(connection) || !isPostgres(connection)) return connection;
  throw new Error("An import needs the connection openImportConnection() gives");
}

// ---------------------------------------------------------------------------------------------
// Staging

/** The staging of an import's good rows, in progress (SQLite's, or PostgreSQL's). */
export type ImportStaging = SqliteStaging | PostgresStaging;

type SqliteStaging = {
  sqlite: Sqlite;
  stageOne: Statement;
  stageMany: Statement;
  begin: Statement;
  commit: Statement;
  /** Rows staged in the open transaction. */
  inBatch: number;
};

/** Empties the staging table (creating it the first time) and prepares its statements. */
export async function startStaging(connection: BulkConnection): Promise<ImportStaging> {
  const sqlite = importSide(connection);
  if (isPostgresSession(sqlite)) return startStagingPg(sqlite);
  // Staged rows are appended in file order; merged in that order, a later row of the same e-mail
  // updates the earlier one, as an upsert row by row would.
  sqlite.exec(`CREATE TEMP TABLE IF NOT EXISTS import_rows (
    id TEXT NOT NULL, firstName TEXT NOT NULL, lastName TEXT NOT NULL, email TEXT NOT NULL,
    phone TEXT NOT NULL, address TEXT NOT NULL, company TEXT NOT NULL, notes TEXT NOT NULL,
    totalSpendPaise INTEGER, visits INTEGER, lastActive INTEGER)`);
  sqlite.exec("DELETE FROM temp.import_rows");
  return {
    sqlite,
    stageOne: sqlite.prepare(`INSERT INTO temp.import_rows VALUES (?,?,?,?,?,?,?,?,?,?,?)`),
    // Rows go in STAGE_ROWS at a statement: a call into SQLite a row cost as much as the rest of
    // reading the row (measured 7.8 of 16 µs a row).
    stageMany: sqlite.prepare(
      `INSERT INTO temp.import_rows VALUES ${Array.from({ length: STAGE_ROWS }, () => "(?,?,?,?,?,?,?,?,?,?,?)").join(",")}`,
    ),
    // Only the temporary database is written while the file is read: the tenant's data is
    // untouched until the whole file has parsed.
    begin: sqlite.prepare("BEGIN"),
    commit: sqlite.prepare("COMMIT"),
    inBatch: 0,
  };
}

function stageRows(staging: SqliteStaging, rows: number, run: () => void) {
  if (staging.inBatch === 0) staging.begin.run();
  run();
  staging.inBatch += rows;
  if (staging.inBatch >= STAGE_BATCH) {
    staging.commit.run();
    staging.inBatch = 0;
  }
}

/** Stages full groups of STAGE_ROWS rows, each STAGE_ROWS * STAGED_VALUES values. */
export async function stageImportGroups(staging: ImportStaging, groups: readonly unknown[][]): Promise<void> {
  if ("session" in staging) return stageImportGroupsPg(staging, groups, STAGE_ROWS);
  for (const group of groups) stageRows(staging, STAGE_ROWS, () => staging.stageMany.run(group));
}

/** Stages the last `rows` rows (fewer than a group, in `values`) and commits what is staged. */
export async function finishStaging(staging: ImportStaging, values: readonly unknown[], rows: number): Promise<void> {
  if ("session" in staging) return finishStagingPg(staging, values, rows);
  for (let r = 0; r < rows; r++)
    stageRows(staging, 1, () => staging.stageOne.run(values.slice(r * STAGED_VALUES, (r + 1) * STAGED_VALUES)));
  if (staging.inBatch > 0) {
    staging.commit.run();
    staging.inBatch = 0;
  }
}

/** Drops what was staged (the file was refused). */
export async function discardStaging(staging: ImportStaging): Promise<void> {
  if ("session" in staging) return discardStagingPg(staging);
  if (staging.sqlite.inTransaction) staging.sqlite.exec("ROLLBACK");
  staging.inBatch = 0;
  await clearStagedRows(staging.sqlite);
}

export async function clearStagedRows(connection: BulkConnection): Promise<void> {
  const sqlite = importSide(connection);
  if (isPostgresSession(sqlite)) return clearStagedRowsPg(sqlite);
  sqlite.exec("DELETE FROM temp.import_rows");
}

// ---------------------------------------------------------------------------------------------
// Merging

/** The upsert of staged rows into the tenant's customers, prepared. */
export type CustomerMerge = { batch: (from: number, to: number) => number | Promise<number> };

/**
 * Prepares the upsert of the staged rows into the tenant's customers (on e-mail), the new ones
 * indexed for search and counted in the tally. `mapping` says which columns the file has: on an
 * update only those are changed. `now` is the rows' createdAt and updatedAt.
 */
export async function prepareMerge(
  connection: BulkConnection,
  userId: string,
  mapping: ColumnMapping,
  now: number,
): Promise<CustomerMerge> {
  const sqlite = importSide(connection);
  if (isPostgresSession(sqlite)) return { batch: prepareMergePg(sqlite, userId, mapping, now) };
  const keep = (field: ImportField, column: string, value = `excluded."${column}"`) =>
    mapping[field] !== undefined ? `"${column}" = ${value}` : null;
  const sets = [
    keep("firstName", "firstName"),
    keep("lastName", "lastName"),
    keep("phone", "phone"),
    keep("address", "address"),
    keep("company", "company"),
    keep("notes", "notes"),
    keep("totalSpend", "totalSpendPaise", `coalesce(excluded."totalSpendPaise", "Customer"."totalSpendPaise")`),
    keep("visits", "visits", `coalesce(excluded."visits", "Customer"."visits")`),
    keep("lastActive", "lastActive", `coalesce(excluded."lastActive", "Customer"."lastActive")`),
    `"updatedAt" = excluded."updatedAt"`,
  ].filter(Boolean);
  const maxRowid = sqlite.prepare<unknown[], number>(`SELECT coalesce(max(rowid), 0) AS m FROM "Customer"`).pluck();
  const upsert = sqlite.prepare(
    `INSERT INTO "Customer" ("id", "userId", "firstName", "lastName", "email", "phone", "address", "company", "notes",
       "totalSpendPaise", "visits", "lastActive", "createdAt", "updatedAt")
     SELECT id, ?, firstName, lastName, email, phone, address, company, notes,
       coalesce(totalSpendPaise, 0), coalesce(visits, 0), lastActive, ?, ?
     FROM temp.import_rows WHERE rowid > ? AND rowid <= ? ORDER BY rowid
     ON CONFLICT ("userId", "email") DO UPDATE SET ${sets.join(", ")}`,
  );
  const index = sqlite.prepare(INDEX_CUSTOMERS_AFTER_SQL);
  const tally = sqlite.prepare(ADD_TO_TALLY_SQL);
  const batch = sqlite.transaction((from: number, to: number) => {
    const before = maxRowid.get()!;
    upsert.run(userId, now, now, from, to);
    const created = maxRowid.get()! - before;
    if (created > 0) {
      index.run(before);
      tally.run(userId, created);
    }
    return created;
  });
  return { batch: (from, to) => batch.immediate(from, to) };
}

/** The last staged row's rowid: staged rowids run 1..staged (the table was emptied before staging). */
export async function lastStagedRow(connection: BulkConnection): Promise<number> {
  const sqlite = importSide(connection);
  if (isPostgresSession(sqlite)) return lastStagedRowPg(sqlite);
  return sqlite.prepare<unknown[], number>(`SELECT coalesce(max(rowid), 0) FROM temp.import_rows`).pluck().get()!;
}

/** Upserts the staged rows (from, to] in one write transaction; returns how many were new customers. */
export async function mergeStagedRows(merge: CustomerMerge, from: number, to: number): Promise<number> {
  return merge.batch(from, to);
}

/**
 * Whether adding `adding` customers is a bulk load: the segment indexes built once at the end
 * (~/db/bulk-load.server). Never on PostgreSQL, which keeps them (~/db/bulk-load.postgres.server).
 */
export async function isBulkLoad(connection: BulkConnection, adding: number): Promise<boolean> {
  const sqlite = importSide(connection);
  if (isPostgresSession(sqlite)) return false;
  return shouldDeferSegmentIndexes(adding, customerTableRows(sqlite));
}

/**
 * Runs `save` as a bulk load: one transaction (the merge's transactions become savepoints of it),
 * the segment indexes dropped first and built once at the end; `onIndexing` is told before they
 * are built.
 */
export async function withIndexesDeferred<T>(
  connection: BulkConnection,
  save: () => Promise<T>,
  onIndexing: () => void,
): Promise<T> {
  const sqlite = importSide(connection);
  if (isPostgresSession(sqlite)) return save();
  // Without the segment indexes the save walks only the e-mail index at random; the index
  // builds at the end sort in memory of the cache's size, so a smaller cache keeps the peak down.
  sqlite.pragma(`cache_size = -${BULK_CACHE_KIB}`);
  return withSegmentIndexesDeferred(sqlite, save, onIndexing, IMPORT_SEARCH_BUFFER_BYTES);
}

/**
 * After `created` new customers: the planner's statistics refreshed if the load was large; with
 * `pauseMs`, one index at a time with pauses between (a server answers requests meanwhile).
 */
export async function refreshStatisticsAfterImport(
  connection: BulkConnection,
  created: number,
  pauseMs: number | undefined,
): Promise<void> {
  const sqlite = importSide(connection);
  if (isPostgresSession(sqlite)) return refreshStatisticsAfterImportPg(sqlite, created);
  if (pauseMs === undefined) afterCustomerBulkLoad(sqlite, created);
  else await afterCustomerBulkLoadInSteps(sqlite, created, pauseMs);
}

// ---------------------------------------------------------------------------------------------
// Export

/** One customer as the export reads it, with its rowid `r` (the slices' cursor; its id on PostgreSQL). */
export type ExportRow = Omit<CustomerRow, "userId" | "updatedAt"> & { r: RowKey };

/** Up to `limit` of the tenant's customers (all, or those matching `term`) below rowid `after`, newest added first. */
export async function readExportSlice(
  connection: BulkConnection,
  userId: string,
  term: string,
  after: RowKey | null,
  limit: number,
): Promise<ExportRow[]> {
  if (isPostgresSession(connection))
    return readExportSlicePg(connection.client, userId, term, after === null ? null : String(after), limit);
  if (isPostgres(connection))
    return readExportSlicePg(connection, userId, term, after === null ? null : String(after), limit);
  const sqlite = connection;
  const match = customerMatchSql(userId, term, after === null ? null : Number(after));
  return sqlite
    .prepare<unknown[], ExportRow>(
      `WITH m AS (${match.sql} LIMIT ${limit})
             SELECT m.r AS r, c."id", c."firstName", c."lastName", c."email", c."phone", c."address", c."company", c."notes",
               c."totalSpendPaise", c."visits", c."lastActive", c."createdAt"
             FROM m JOIN "Customer" c ON c.rowid = m.r ORDER BY m.r DESC`,
    )
    .all(...match.params);
}
