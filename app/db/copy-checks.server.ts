// What must hold before `crm db copy` (copy-to-postgres.server.ts) moves a row: the SQLite file is
// a CRM database with this version's migrations and no table the copy does not know, PostgreSQL
// answers and holds no row and no table that is not the CRM's, and each table has the same columns
// on both sides. Each refusal says what to do.
import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import pg from "pg";
import { type Column, COPY_TABLES, CopyRefused, NOT_COPIED, quote, urlForDisplay } from "./copy-tables.server.ts";
import { MIGRATIONS_DIR, migrationNames } from "./migrate.server.ts";
import { describeConnectError } from "./migrate-postgres.server.ts";

const PG_TYPES: Record<string, Column["type"]> = {
  text: "text",
  integer: "int",
  bigint: "int",
  "double precision": "real",
  boolean: "bool",
  "timestamp with time zone": "timestamp",
  bytea: "bytes",
};

/** Opens the source read-only, with a message for each way it can be missing or wrong. */
export function openSource(file: string): Database.Database {
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
export function checkSourceSchema(sqlite: Database.Database, file: string): void {
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

/** A client of the target, or a refusal that says why it could not connect. */
export async function connect(url: string): Promise<pg.Client> {
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
export async function checkTargetEmpty(client: pg.Client, url: string): Promise<string[]> {
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
export async function targetColumns(client: pg.Client, table: string): Promise<Column[]> {
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

/** Refuses a table whose columns differ between the engines. */
export function checkSameColumns(sqlite: Database.Database, table: string, columns: Column[]): void {
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
