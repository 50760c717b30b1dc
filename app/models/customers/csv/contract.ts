// What the customers' CSV import and export ask of the database, whichever engine answers
// (./sqlite.server.ts, ./postgres.server.ts; callers use the door, ./store.server.ts). The rules
// (validation, batch sizes, pauses, progress, the CSV itself) are the services':
// app/services/customer-import.server.ts and customer-export.server.ts.
//
// The import and export run in a worker thread, or in the CLI's process, on a connection they
// open here: SQLite's, or on PostgreSQL a session of the import's own
// (~/db/bulk-load.postgres.server) and a pool of the export's. The import stages its good rows in
// a temporary table and then upserts them into the tenant's customers in batches (the handle
// prepareMerge() returns); the export reads the tenant's customers a slice at a time.
import type { Statement } from "better-sqlite3";
import type { CopyWriter, PostgresSession } from "~/db/bulk-load.postgres.server";
import type { AnyConnection } from "~/db/connection.server";
import type { Sqlite } from "~/db/sqlite.server";
import type { ColumnMapping } from "~/lib/customer-csv";
import type {
  CsvFieldRow,
  CustomerFieldValueRow,
  CustomerMerge,
  CustomerTagRow,
  ExportConsentRow,
  ExportExtras,
  ExportRow,
  MergeExtras,
  NewCsvField,
  RowKey,
} from "../rows";

/** The staging of an import's good rows on SQLite, in progress. */
export type SqliteStaging = {
  sqlite: Sqlite;
  /** Values a staged row: STAGED_VALUES, and STAGED_EXTRA_VALUES more when the file has field or tags columns. */
  width: number;
  stageOne: Statement;
  stageMany: Statement;
  begin: Statement;
  commit: Statement;
  /** Rows staged in the open transaction. */
  inBatch: number;
};

/** The staging of an import's good rows on PostgreSQL, in progress. */
export type PostgresStaging = { session: PostgresSession; copy: CopyWriter; width: number };

/** The staging of an import's good rows, in progress (opaque to the services). */
export type ImportStaging = SqliteStaging | PostgresStaging;

export type CustomerCsvStore = {
  /** The import's connection: its own, with room for the indexes the upsert walks in random order. */
  openImportConnection(file?: string): Promise<AnyConnection>;
  /** The export's connection: its own, read-only. */
  openExportConnection(file?: string): Promise<AnyConnection>;
  /** Closes an import's or export's connection. */
  closeConnection(connection: AnyConnection): Promise<void>;
  /**
   * Creates the staging table afresh and prepares the staging. With `extras` (the file has field or
   * tags columns) a staged row has STAGED_EXTRA_VALUES more values, in columns of their own.
   */
  startStaging(connection: AnyConnection, extras: boolean): Promise<ImportStaging>;
  /** Stages full groups of STAGE_ROWS rows, each STAGE_ROWS * the staging's width values. */
  stageImportGroups(staging: ImportStaging, groups: readonly unknown[][]): Promise<void>;
  /** Stages the last `rows` rows (fewer than a group, in `values`) and commits what is staged. */
  finishStaging(staging: ImportStaging, values: readonly unknown[], rows: number): Promise<void>;
  /** Drops what was staged (the file was refused). */
  discardStaging(staging: ImportStaging): Promise<void>;
  /** Empties the staging table. */
  clearStagedRows(connection: AnyConnection): Promise<void>;
  /**
   * Prepares the upsert of the staged rows into the tenant's customers (on e-mail), the new ones
   * indexed for search and counted in the tally. `mapping` says which columns the file has: on an
   * update only those are changed. `now` is the rows' createdAt and updatedAt. With `extras`, each
   * batch also writes, in its transaction and set-based, what the staged rows' extra columns hold:
   * the field values (set, or cleared by an empty cell) and the tags (tags the tenant lacks made,
   * then each customer's tags made exactly the row's). Rows of one e-mail: the last one's counts.
   * A new customer also takes `extras.defaults`.
   */
  prepareMerge(
    connection: AnyConnection,
    userId: string,
    mapping: ColumnMapping,
    now: number,
    extras?: MergeExtras,
  ): Promise<CustomerMerge>;
  /** The tenant's field definitions, in their order, retired ones too, on an import's or export's connection. */
  readCsvFields(connection: AnyConnection, userId: string): Promise<CsvFieldRow[]>;
  /**
   * Makes text fields of the tenant (an import's unknown columns), at the end of its order, in one
   * transaction on the import's connection; a name the tenant has meanwhile is left alone. Returns
   * the names made.
   */
  createCsvFields(
    connection: AnyConnection,
    userId: string,
    fields: readonly NewCsvField[],
    now: number,
  ): Promise<string[]>;
  /** The last staged row's number: staged rows are numbered 1..staged (the table was emptied before staging). */
  lastStagedRow(connection: AnyConnection): Promise<number>;
  /**
   * Whether adding `adding` customers is a bulk load: the segment indexes built once at the end
   * (~/db/bulk-load.server). Never on PostgreSQL, which keeps them (~/db/bulk-load.postgres.server).
   */
  isBulkLoad(connection: AnyConnection, adding: number): Promise<boolean>;
  /**
   * Runs `save` as a bulk load: on SQLite one transaction (the merge's transactions become
   * savepoints of it), the segment indexes dropped first and built once at the end, `onIndexing`
   * told before they are built; on PostgreSQL just `save`.
   */
  withIndexesDeferred<T>(connection: AnyConnection, save: () => Promise<T>, onIndexing: () => void): Promise<T>;
  /**
   * After `created` new customers: the planner's statistics refreshed if the load was large; with
   * `pauseMs`, on SQLite one index at a time with pauses between (a server answers requests meanwhile).
   */
  refreshStatisticsAfterImport(connection: AnyConnection, created: number, pauseMs: number | undefined): Promise<void>;
  /**
   * Up to `limit` of the tenant's customers (all, or those matching `term`) before the place
   * `after`, newest added first.
   */
  readExportSlice(
    connection: AnyConnection,
    userId: string,
    term: string,
    after: RowKey | null,
    limit: number,
  ): Promise<ExportRow[]>;
  /**
   * Whether the tenant holds any field value, any tag, any recorded consent or suppressed address:
   * an export without them reads none of them per slice.
   */
  readExportExtras(connection: AnyConnection, userId: string): Promise<ExportExtras>;
  /** The field values of these customers of the tenant (an export slice), in one statement. */
  readExportFieldValues(
    connection: AnyConnection,
    userId: string,
    customerIds: readonly string[],
  ): Promise<CustomerFieldValueRow[]>;
  /** The tags of these customers of the tenant (an export slice), each customer's by tag key, in one statement. */
  readExportTags(connection: AnyConnection, userId: string, customerIds: readonly string[]): Promise<CustomerTagRow[]>;
  /**
   * The recorded consent and the suppression-list entry of those of these customers of the tenant
   * (an export slice) that have either, in one statement; what it reads as is the consent
   * service's rule (consentReading()).
   */
  readExportConsents(
    connection: AnyConnection,
    userId: string,
    customerIds: readonly string[],
  ): Promise<ExportConsentRow[]>;
};
