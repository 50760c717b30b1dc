// `crm db copy --to postgres://…`: moves an SQLite install into an empty PostgreSQL database, every
// table of prisma/schema.prisma, in one PostgreSQL transaction, then proves the copy by row counts
// and sums taken on both sides before it commits. docs/decisions/0031-copy-sqlite-to-postgresql.md.
//
// The SQLite file is only read, inside one read transaction (a consistent snapshot even while the
// server runs); if anything was written to it meanwhile the copy is rolled back and the admin is
// told to stop the server first. PostgreSQL is migrated first when it has no tables yet; a database
// that holds any row, or tables that are not the CRM's, is refused before anything changes.
import { existsSync } from "node:fs";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import Database from "better-sqlite3";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { MIGRATIONS_DIR, migrationNames } from "./migrate.server.ts";
import { describeConnectError, migratePostgres } from "./migrate-postgres.server.ts";

/**
 * Every table of prisma/schema.prisma, parents before children, each copied whole. The queues are
 * copied too, not required empty: receipts in "ReceiptInbox" are outcomes the delivery job has not
 * applied yet (it applies them on PostgreSQL), pending "Delivery" rows go out from PostgreSQL (a
 * claimed batch is claimed again when its lease ends, as after a crash), and "IdempotencyKey" rows
 * still answer a client that repeats a request after the switch. "CustomerTally" is copied as it is:
 * PostgreSQL counts only deletes by trigger (the services add on create). A model added to
 * schema.prisma must be added here (the test compares the two lists).
 */
export const COPY_TABLES = [
  "User",
  "Notification",
  "Customer",
  "CustomerTally",
  "Order",
  "OrderItem",
  "Segment",
  "Campaign",
  "Delivery",
  "DeliveryEvent",
  "ReceiptInbox",
  "DashboardSnapshot",
  "IdempotencyKey",
  "Suppression",
  "SuppressionEvent",
  // Sign-in counters: empty on SQLite (its workers count in memory), so nothing goes across today.
  "SignInAttempt",
  // The send rate's bucket: empty on SQLite too (its one delivery job keeps it in memory).
  "SendRate",
] as const;

// SQLite's own tables and the ones made by hand there that PostgreSQL does another way (the FTS5
// search table: an index of "Customer" on PostgreSQL) or keeps for itself (the migrations' record).
const NOT_COPIED = /^(customer_search(_\w+)?|_prisma_migrations|sqlite_\w+)$/;

/** An error whose message tells the admin what to do; the CLI prints it without a stack. */
export class CopyRefused extends Error {
  override name = "CopyRefused";
}

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

type Column = { name: string; type: "text" | "int" | "real" | "bool" | "timestamp" };

const PG_TYPES: Record<string, Column["type"]> = {
  text: "text",
  integer: "int",
  bigint: "int",
  "double precision": "real",
  boolean: "bool",
  "timestamp with time zone": "timestamp",
};

/** "postgres://crm:***@db:5432/crm": the URL without its password, for messages. */
export function urlForDisplay(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = "***";
  return u.toString();
}

function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Opens the source read-only, with a message for each way it can be missing or wrong. */
function openSource(file: string): Database.Database {
  if (!existsSync(file))
    throw new CopyRefused(
      `No SQLite database at ${file}. Name the install's file with --from <file>, or set DATABASE_URL=file:… (or DATA_DIR) as the server has it.`,
    );
  let sqlite: Database.Database;
  try {
    sqlite = new Database(file, { readonly: true, fileMustExist: true });
    sqlite.pragma("busy_timeout = 10000");
    sqlite.prepare("SELECT count(*) FROM sqlite_master").get();
  } catch (error) {
    throw new CopyRefused(
      `${file} cannot be read as an SQLite database: ${error instanceof Error ? error.message : String(error)}.`,
    );
  }
  return sqlite;
}

/** The source must be a CRM database with every migration this version knows applied. */
function checkSourceSchema(sqlite: Database.Database, file: string): void {
  const tables = new Set(
    (sqlite.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]).map(
      (t) => t.name,
    ),
  );
  if (!tables.has("_prisma_migrations") || !tables.has("Customer"))
    throw new CopyRefused(`${file} is not a CRM database (it has no "Customer" table or no migration record).`);
  const applied = new Set(
    (
      sqlite
        .prepare(
          `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
        )
        .all() as { migration_name: string }[]
    ).map((m) => m.migration_name),
  );
  const known = migrationNames(MIGRATIONS_DIR);
  const missing = known.filter((name) => !applied.has(name));
  if (missing.length > 0)
    throw new CopyRefused(
      `${file} lacks ${missing.length} migration(s) of this version (${missing.join(", ")}). Run \`crm db migrate\` on it first (with DATABASE_URL naming it), then copy.`,
    );
  const unknown = [...applied].filter((name) => !known.includes(name));
  if (unknown.length > 0)
    throw new CopyRefused(
      `${file} has migrations this version of crm does not know (${unknown.join(", ")}): copy it with the version that made them.`,
    );
  const extra = [...tables].filter((t) => !NOT_COPIED.test(t) && !(COPY_TABLES as readonly string[]).includes(t));
  if (extra.length > 0)
    throw new CopyRefused(`${file} has tables this version of crm does not copy: ${extra.join(", ")}.`);
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  // A connection error after connect (the server going away) must not crash the process.
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    throw new CopyRefused(describeConnectError(url, error));
  }
  return client;
}

/** Tables of the target's schema; refuses tables that are not the CRM's and any row in them. */
async function checkTargetEmpty(client: pg.Client, url: string): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`,
  );
  const names = rows.map((r) => r.name);
  const ours = new Set<string>([...COPY_TABLES, "_prisma_migrations"]);
  const foreign = names.filter((name) => !ours.has(name));
  if (foreign.length > 0)
    throw new CopyRefused(
      `${urlForDisplay(url)} has tables that are not the CRM's (${foreign.slice(0, 5).join(", ")}${foreign.length > 5 ? ", …" : ""}). Copy into an empty database of its own (createdb crm). Nothing was changed.`,
    );
  const filled: string[] = [];
  for (const name of names.filter((t) => t !== "_prisma_migrations")) {
    const { rows: any } = await client.query(`SELECT 1 FROM ${quote(name)} LIMIT 1`);
    if (any.length > 0) filled.push(name);
  }
  if (filled.length > 0)
    throw new CopyRefused(
      `${urlForDisplay(url)} already holds data (${filled.join(", ")}): crm db copy copies only into an empty database, so two installs are never mixed. If it is an earlier copy of this install, it is done: set DATABASE_URL to it and restart. To copy again, drop and create the database (dropdb, createdb) first. Nothing was changed.`,
    );
  return names;
}

/** The target's columns of one table, in order, with the kind of value each takes. */
async function targetColumns(client: pg.Client, table: string): Promise<Column[]> {
  const { rows } = await client.query<{ name: string; type: string }>(
    `SELECT column_name AS name, data_type AS type FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
    [table],
  );
  return rows.map((r) => {
    const type = PG_TYPES[r.type];
    if (!type) throw new Error(`"${table}"."${r.name}" has the type ${r.type}, which the copy does not know.`);
    return { name: r.name, type };
  });
}

function checkSameColumns(sqlite: Database.Database, table: string, columns: Column[]): void {
  const source = (sqlite.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]).map(
    (c) => c.name,
  );
  const target = columns.map((c) => c.name);
  const missing = target.filter((c) => !source.includes(c));
  const extra = source.filter((c) => !target.includes(c));
  if (missing.length || extra.length)
    throw new CopyRefused(
      `"${table}" differs between the engines (${[...missing.map((c) => `only PostgreSQL has ${c}`), ...extra.map((c) => `only SQLite has ${c}`)].join("; ")}): migrate both to this version (crm db migrate, crm db migrate --url) and copy again.`,
    );
}

// COPY's text format: a tab between values, a newline after a row, \N for null, and backslash
// escapes for the four characters that would otherwise end a value.
const NEEDS_ESCAPE = /[\\\n\r\t]/;
function escapeText(value: string): string {
  if (!NEEDS_ESCAPE.test(value)) return value;
  return value.replace(/[\\\n\r\t]/g, (c) => (c === "\\" ? "\\\\" : c === "\n" ? "\\n" : c === "\r" ? "\\r" : "\\t"));
}

/**
 * One value as COPY text. SQLite keeps DateTime as integer milliseconds (Prisma's unixepoch-ms);
 * a row written by SQL with the column's CURRENT_TIMESTAMP default holds "YYYY-MM-DD HH:MM:SS" in
 * UTC, which the session reads as UTC (SET LOCAL timezone). Booleans are 0/1, which PostgreSQL's
 * boolean input takes as they are.
 */
function formatValue(value: unknown, type: Column["type"]): string {
  if (value === null || value === undefined) return "\\N";
  if (type === "timestamp") {
    if (typeof value === "number" || typeof value === "bigint") return new Date(Number(value)).toISOString();
    const text = String(value);
    return /^-?\d+$/.test(text) ? new Date(Number(text)).toISOString() : escapeText(text);
  }
  if (typeof value === "string") return escapeText(value);
  if (Buffer.isBuffer(value)) return escapeText(value.toString("utf8"));
  return String(value);
}

/** The rows of one table as chunks of COPY text, read lazily so memory stays flat. */
function* copyChunks(
  statement: Database.Statement,
  columns: Column[],
  chunkBytes: number,
  onRows: (done: number) => void,
): Generator<string> {
  let chunk = "";
  let done = 0;
  const types = columns.map((c) => c.type);
  const width = types.length;
  for (const row of statement.iterate() as Iterable<unknown[]>) {
    let line = formatValue(row[0], types[0]);
    for (let i = 1; i < width; i++) line += "\t" + formatValue(row[i], types[i]);
    chunk += line + "\n";
    done += 1;
    if (chunk.length >= chunkBytes) {
      yield chunk;
      chunk = "";
      onRows(done);
    }
  }
  if (chunk) yield chunk;
  onRows(done);
}

/** The figures compared on both sides: the rows, and a sum for every column. */
function figureSql(columns: Column[], engine: "sqlite" | "postgres"): { names: string[]; select: string } {
  const names = ["rows"];
  const parts = ["count(*)"];
  for (const { name, type } of columns) {
    const c = quote(name);
    if (type === "int") {
      names.push(`sum of ${name}`);
      parts.push(`COALESCE(sum(${c}), 0)`);
    } else if (type === "real") {
      // Floating point: the sum in thousandths, so the order of the additions cannot tell them apart.
      names.push(`sum of ${name} (thousandths)`);
      parts.push(
        engine === "sqlite"
          ? `CAST(round(COALESCE(sum(${c}), 0) * 1000) AS INTEGER)`
          : `round(COALESCE(sum(${c}), 0) * 1000)::bigint`,
      );
    } else if (type === "bool") {
      names.push(`${name} true`);
      parts.push(engine === "sqlite" ? `COALESCE(sum(${c} <> 0), 0)` : `count(*) FILTER (WHERE ${c})`);
    } else if (type === "timestamp") {
      names.push(`sum of ${name} (ms)`);
      parts.push(
        engine === "sqlite"
          ? `COALESCE(sum(CASE WHEN typeof(${c}) IN ('integer', 'real') THEN CAST(${c} AS INTEGER) ELSE CAST(round(unixepoch(${c}, 'subsec') * 1000) AS INTEGER) END), 0)`
          : `COALESCE(sum((extract(epoch FROM ${c}) * 1000)::bigint), 0)`,
      );
    } else {
      names.push(`length of ${name}`);
      parts.push(`COALESCE(sum(length(${c})), 0)`);
    }
  }
  return { names, select: parts.join(", ") };
}

function sqliteFigures(sqlite: Database.Database, table: string, columns: Column[]): string[] {
  const { select } = figureSql(columns, "sqlite");
  const row = sqlite
    .prepare(`SELECT ${select} FROM ${quote(table)}`)
    .raw(true)
    .safeIntegers(true)
    .get() as unknown[];
  return row.map((v) => String(v));
}

async function postgresFigures(client: pg.Client, table: string, columns: Column[]): Promise<string[]> {
  const { select } = figureSql(columns, "postgres");
  const result = await client.query({ text: `SELECT ${select} FROM ${quote(table)}`, rowMode: "array" });
  return (result.rows[0] as unknown[]).map((v) => String(v));
}

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
