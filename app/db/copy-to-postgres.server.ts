// `crm db copy --to postgres://…`: moves an SQLite install into an empty PostgreSQL database, every
// table of prisma/schema.prisma, in one PostgreSQL transaction, then proves the copy by row counts
// and sums taken on both sides before it commits. docs/decisions/0031-copy-sqlite-to-postgresql.md.
//
// The SQLite file is only read, inside one read transaction (a consistent snapshot even while the
// server runs); if anything was written to it meanwhile the copy is rolled back and the admin is
// told to stop the server first. PostgreSQL is migrated first when it has no tables yet; a database
// that holds any row, or tables that are not the CRM's, is refused before anything changes.
//
// In parts: what is copied (copy-tables.server.ts), what must hold before a row moves
// (copy-checks.server.ts), the rows as COPY text and the figures compared (copy-rows.server.ts).
// Here: the copy itself, in one transaction, with the indexes and keys rebuilt after the rows.
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import type Database from "better-sqlite3";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import {
  checkSameColumns,
  checkSourceSchema,
  checkTargetEmpty,
  connect,
  openSource,
  targetColumns,
} from "./copy-checks.server.ts";
import { copyChunks, figureSql, postgresFigures, sqliteFigures } from "./copy-rows.server.ts";
import { type Column, COPY_TABLES, CopyRefused, quote, urlForDisplay } from "./copy-tables.server.ts";
import { migratePostgres } from "./migrate-postgres.server.ts";

export type CopyFigure = { table: string; figure: string; sqlite: string; postgres: string };
export type CopiedTable = { table: string; rows: number };
export type CopyResult = {
  migrated: string[];
  tables: CopiedTable[];
  figures: CopyFigure[];
  /** Sequences set past the copied ids: the next id each will give. */
  sequences: { table: string; column: string; next: number }[];
  durationMs: number;
};

export type CopyOptions = {
  onMigrate?: (name: string) => void;
  /** A table starts (total rows), then its rows as they go. */
  onTable?: (table: string, total: number) => void;
  onRows?: (table: string, done: number) => void;
  /** The steps after the rows: rebuilding indexes and keys, then the checks. */
  onStep?: (step: "indexes" | "checks", done: number, total: number) => void;
  /** Bytes of COPY text sent at a time (default 512 KiB). */
  chunkBytes?: number;
};

/**
 * The secondary indexes and foreign keys of the copied tables, as PostgreSQL would recreate them.
 * They are dropped for the load and rebuilt after it (one sort per index instead of a million
 * inserts into it; one pass per foreign key instead of a check per row), in the same transaction.
 */
async function secondaryStructures(client: pg.Client): Promise<{ drop: string[]; create: string[] }> {
  const tables = [...COPY_TABLES];
  const keys = await client.query<{ table: string; name: string; def: string }>(
    `SELECT t.relname AS table, c.conname AS name, pg_get_constraintdef(c.oid) AS def
       FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
      WHERE c.contype = 'f' AND t.relnamespace = current_schema()::regnamespace AND t.relname = ANY($1)
      ORDER BY t.relname, c.conname`,
    [tables],
  );
  const indexes = await client.query<{ name: string; def: string }>(
    `SELECT i.relname AS name, pg_get_indexdef(x.indexrelid) AS def
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
      WHERE NOT x.indisprimary AND t.relnamespace = current_schema()::regnamespace AND t.relname = ANY($1)
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
      ORDER BY i.relname`,
    [tables],
  );
  return {
    drop: [
      ...keys.rows.map((k) => `ALTER TABLE ${quote(k.table)} DROP CONSTRAINT ${quote(k.name)}`),
      ...indexes.rows.map((i) => `DROP INDEX ${quote(i.name)}`),
    ],
    create: [
      ...indexes.rows.map((i) => i.def),
      ...keys.rows.map((k) => `ALTER TABLE ${quote(k.table)} ADD CONSTRAINT ${quote(k.name)} ${k.def}`),
    ],
  };
}

/** Advisory lock of the copy: a second `crm db copy` into the same database waits, then is refused. */
const COPY_LOCK_KEY = 7_261_126_000_031n;

export async function copySqliteToPostgres(
  sqliteFile: string,
  url: string,
  options: CopyOptions = {},
): Promise<CopyResult> {
  const started = Date.now();
  const chunkBytes = options.chunkBytes ?? 512 * 1024;
  const sqlite = openSource(sqliteFile);
  let client: pg.Client | undefined;
  try {
    checkSourceSchema(sqlite, sqliteFile);
    client = await connect(url);
    await checkTargetEmpty(client, url);
    const migrated = (await migratePostgres(url, { onApply: options.onMigrate })).applied;

    const targetTables = new Set(
      (
        await client.query<{ name: string }>(
          `SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()`,
        )
      ).rows.map((r) => r.name),
    );
    const missingTables = COPY_TABLES.filter((t) => !targetTables.has(t));
    if (missingTables.length > 0)
      throw new CopyRefused(
        `${urlForDisplay(url)} has no table ${missingTables.join(", ")} after migrating: is its search_path another schema than the migrations used?`,
      );
    const columnsOf = new Map<string, Column[]>();
    for (const table of COPY_TABLES) {
      const columns = await targetColumns(client, table);
      checkSameColumns(sqlite, table, columns);
      columnsOf.set(table, columns);
    }

    // What SQLite commits while we read is not in our snapshot: its change counter says whether
    // anything was (data_version changes when another connection commits).
    const versionBefore = sqlite.pragma("data_version", { simple: true }) as number;
    sqlite.exec("BEGIN");
    let committed = false;
    await client.query("BEGIN");
    try {
      await client.query("SELECT pg_advisory_xact_lock($1)", [COPY_LOCK_KEY.toString()]);
      // Checked again under the lock: a copy that ran meanwhile has committed its rows by now.
      await checkTargetEmpty(client, url);
      await client.query("SET LOCAL timezone = 'UTC'");
      await client.query("SET LOCAL maintenance_work_mem = '256MB'");
      const structures = await secondaryStructures(client);
      for (const statement of structures.drop) await client.query(statement);

      const tables: CopiedTable[] = [];
      const expected = new Map<string, string[]>();
      for (const table of COPY_TABLES) {
        const columns = columnsOf.get(table)!;
        expected.set(table, sqliteFigures(sqlite, table, columns));
        const total = Number(expected.get(table)![0]);
        options.onTable?.(table, total);
        const list = columns.map((c) => quote(c.name)).join(", ");
        const statement = sqlite.prepare(`SELECT ${list} FROM ${quote(table)}`).raw(true);
        const stream = client.query(copyFrom(`COPY ${quote(table)} (${list}) FROM STDIN`));
        try {
          await pipeline(
            Readable.from(copyChunks(statement, columns, chunkBytes, (done) => options.onRows?.(table, done))),
            stream,
          );
        } catch (error) {
          throw new CopyRefused(
            `PostgreSQL refused the rows of "${table}": ${error instanceof Error ? error.message : String(error)}${(error as { where?: string }).where ? ` (${(error as { where?: string }).where})` : ""}.`,
          );
        }
        tables.push({ table, rows: total });
      }

      for (let i = 0; i < structures.create.length; i++) {
        options.onStep?.("indexes", i, structures.create.length);
        try {
          await client.query(structures.create[i]);
        } catch (error) {
          throw new CopyRefused(
            `PostgreSQL refused the copied rows: ${error instanceof Error ? error.message : String(error)}${(error as { detail?: string }).detail ? ` ${(error as { detail?: string }).detail}` : ""} The SQLite database has rows its own checks let through; fix them there and copy again.`,
          );
        }
      }
      options.onStep?.("indexes", structures.create.length, structures.create.length);

      const sequences = await setSequences(client, sqlite);

      const figures: CopyFigure[] = [];
      for (const [i, table] of COPY_TABLES.entries()) {
        options.onStep?.("checks", i, COPY_TABLES.length);
        const columns = columnsOf.get(table)!;
        const names = figureSql(columns, "postgres").names;
        const got = await postgresFigures(client, table, columns);
        const want = expected.get(table)!;
        names.forEach((figure, k) => figures.push({ table, figure, sqlite: want[k], postgres: got[k] }));
      }
      options.onStep?.("checks", COPY_TABLES.length, COPY_TABLES.length);
      const differing = figures.filter((f) => f.sqlite !== f.postgres);
      if (differing.length > 0)
        throw new CopyRefused(
          `The copy does not add up, so it was not kept: ${differing
            .slice(0, 10)
            .map((f) => `${f.table} ${f.figure}: SQLite ${f.sqlite}, PostgreSQL ${f.postgres}`)
            .join("; ")}.`,
        );

      sqlite.exec("COMMIT");
      const versionAfter = sqlite.pragma("data_version", { simple: true }) as number;
      if (versionAfter !== versionBefore)
        throw new CopyRefused(
          `${sqliteFile} changed while it was copied (is the server still running?), so the copy was not kept. Stop the server (and its jobs), then run crm db copy again.`,
        );
      await client.query("COMMIT");
      committed = true;
      // Planner statistics for the first queries on PostgreSQL (autovacuum would take a while).
      await client.query(`ANALYZE ${COPY_TABLES.map(quote).join(", ")}`);
      return { migrated, tables, figures, sequences, durationMs: Date.now() - started };
    } finally {
      if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
      if (!committed) await client.query("ROLLBACK").catch(() => {});
    }
  } finally {
    sqlite.close();
    await client?.end().catch(() => {});
  }
}

/**
 * Autoincrement ids ("DeliveryEvent".id, "ReceiptInbox".id) go on past the copied ones: past the
 * largest copied id, and past SQLite's own high-water mark (sqlite_sequence), so an id SQLite gave
 * to a row since deleted (an applied receipt) is not given again.
 */
async function setSequences(
  client: pg.Client,
  sqlite: Database.Database,
): Promise<{ table: string; column: string; next: number }[]> {
  const { rows } = await client.query<{ table: string; column: string; sequence: string }>(
    `SELECT table_name AS table, column_name AS column,
            pg_get_serial_sequence(format('%I', table_name), column_name) AS sequence
       FROM information_schema.columns
      WHERE table_schema = current_schema() AND column_default LIKE 'nextval(%' AND table_name = ANY($1)
      ORDER BY table_name`,
    [[...COPY_TABLES]],
  );
  const hasSqliteSequence = sqlite.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'`).get();
  const result: { table: string; column: string; next: number }[] = [];
  for (const { table, column, sequence } of rows) {
    const copied = await client.query<{ max: string | null }>(
      `SELECT max(${quote(column)})::text AS max FROM ${quote(table)}`,
    );
    const highWater = hasSqliteSequence
      ? ((sqlite.prepare(`SELECT seq FROM sqlite_sequence WHERE name = ?`).get(table) as { seq: number } | undefined)
          ?.seq ?? 0)
      : 0;
    const last = Math.max(Number(copied.rows[0].max ?? 0), highWater);
    if (last > 0) await client.query(`SELECT setval($1, $2, true)`, [sequence, last]);
    else await client.query(`SELECT setval($1, 1, false)`, [sequence]);
    result.push({ table, column, next: last + 1 });
  }
  return result;
}
