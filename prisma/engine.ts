// Prisma's own schema engine, compiled to WebAssembly, driven offline (the native engine cannot be
// downloaded here). Used by `npm run db:migration` to write migrations for both engines (SQLite and
// PostgreSQL, docs/decisions/0029-postgresql-schema-and-migrations.md) and by the tests that check
// the migrations match schema.prisma. Node 20 cannot import a .wasm module without a flag, so we
// instantiate it ourselves and hand the instance to wasm-bindgen's glue.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";

const require = createRequire(import.meta.url);

type Bg = typeof import("@prisma/schema-engine-wasm/schema_engine_bg");
type Engine = import("@prisma/schema-engine-wasm").SchemaEngine;

let bgPromise: Promise<Bg> | undefined;

function loadWasm(): Promise<Bg> {
  bgPromise ??= (async () => {
    const bgFile = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
    const dir = path.dirname(bgFile);
    const bg = (await import("@prisma/schema-engine-wasm/schema_engine_bg")) as Bg & {
      __wbg_set_wasm(exports: WebAssembly.Exports): void;
    };
    const bytes = readFileSync(path.join(dir, "schema_engine_bg.wasm"));
    const { instance } = await WebAssembly.instantiate(bytes, {
      "./schema_engine_bg.js": bg as unknown as WebAssembly.ModuleImports,
    });
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start?: () => void }).__wbindgen_start?.();
    return bg;
  })();
  return bgPromise;
}

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
export const schemaPath = path.join(root, "prisma", "schema.prisma");
export const migrationsDir = path.join(root, "prisma", "migrations");
export const postgresMigrationsDir = path.join(root, "prisma", "migrations-postgres");

export type EngineKind = "sqlite" | "postgresql";

/**
 * The PostgreSQL server the tools and tests make scratch databases on (`npm run db:migration`, the
 * drift test, tests/helpers/postgres.ts): TEST_POSTGRES_URL, by default the local server as CI
 * starts it (.ci/run). Its database is only connected to, to create and drop others.
 */
export function adminPostgresUrl(): string {
  return process.env.TEST_POSTGRES_URL || "postgres://postgres@127.0.0.1:5432/postgres";
}

/**
 * schema.prisma as PostgreSQL sees it: the one place the description differs between the engines.
 * The provider is "postgresql" and every DateTime is `@db.Timestamptz(3)` (PostgreSQL keeps
 * dates as timestamptz; SQLite as integer milliseconds). Nothing else changes, so both engines'
 * migrations come from one description.
 */
export function postgresSchema(sqliteSchema: string): string {
  const swapped = sqliteSchema.replace(/(datasource\s+\w+\s*\{[^}]*?provider\s*=\s*)"sqlite"/, '$1"postgresql"');
  if (swapped === sqliteSchema) throw new Error('schema.prisma: no datasource with provider = "sqlite" found');
  return swapped
    .split("\n")
    .map((line) =>
      /^\s+\w+\s+DateTime\??(\s|$)/.test(line) && !line.includes("@db.")
        ? line.replace(/^(\s+\w+\s+DateTime\??)/, "$1 @db.Timestamptz(3)")
        : line,
    )
    .join("\n");
}

/** The schema text the engine is given for one engine. */
export function schemaFor(engine: EngineKind): string {
  const text = readFileSync(schemaPath, "utf8");
  return engine === "postgresql" ? postgresSchema(text) : text;
}

/**
 * Money columns: `Int` fields whose names end in "Paise" (Customer.totalSpendPaise, Order.amountPaise,
 * Order.taxPaise, OrderItem.pricePaise). PostgreSQL's integer is 32-bit, so a customer's total would
 * stop at ₹2.1 crore; SQLite's INTEGER is 64-bit already. docs/decisions/0031-copy-sqlite-to-postgresql.md.
 */
const PAISE_INT_FIELD = /^(\s+\w+Paise\s+)Int(\??)(?=\s|$)/;

/**
 * The tables as PostgreSQL's migrations build them: postgresSchema() with the money columns as
 * `BigInt` (bigint), which is what the schema engine diffs against (`npm run db:migration`, the
 * drift test). The Prisma client is still generated from postgresSchema(), where they stay `Int`,
 * so both clients give the app a number: Prisma reads a bigint column of an Int field as a number
 * and writes numbers above 2^31 into it (measured for decision 0031). `Int @db.BigInt` would say
 * this in one schema, but Prisma refuses it ("Native type BigInt is not compatible with declared
 * field type Int").
 */
export function postgresTablesSchema(sqliteSchema: string): string {
  return postgresSchema(sqliteSchema)
    .split("\n")
    .map((line) => line.replace(PAISE_INT_FIELD, "$1BigInt$2"))
    .join("\n");
}

/** What the schema engine compares one engine's database with. */
function engineSchemaFor(engine: EngineKind): string {
  const text = readFileSync(schemaPath, "utf8");
  return engine === "postgresql" ? postgresTablesSchema(text) : text;
}

/** Opens the schema engine on a SQLite file (`file:` path) or a PostgreSQL database (postgres:// URL). */
export async function openEngine(url: string): Promise<Engine> {
  const bg = await loadWasm();
  const postgres = /^postgres(ql)?:\/\//.test(url);
  const adapter = bindMigrationAwareSqlAdapterFactory(
    postgres
      ? new PrismaPg(describablePool(url))
      : new PrismaBetterSqlite3({ url }, { timestampFormat: "unixepoch-ms" }),
  );
  const schema = engineSchemaFor(postgres ? "postgresql" : "sqlite");
  const engine = await bg.SchemaEngine.new(
    { datamodels: [[schemaPath, schema]] },
    (log: string) => {
      if (process.env.DEBUG_SCHEMA_ENGINE) console.error(log);
    },
    adapter,
  );
  engineKinds.set(engine, postgres ? "postgresql" : "sqlite");
  return engine;
}

const engineKinds = new WeakMap<Engine, EngineKind>();

/** PostgreSQL's internal one-byte type "char" (pg_class.relkind, pg_constraint.confdeltype, ...). */
const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

/**
 * A pool for the schema engine's PostgreSQL adapter. The engine describes a database by reading
 * the catalogs, whose flag columns have PostgreSQL's internal type "char", which
 * @prisma/adapter-pg 7.10 does not map ("Column type 'char' could not be deserialized"); its
 * values arrive as one-letter strings, so the pool reports those columns as text.
 */
function describablePool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const asText = (result: unknown) => {
    const fields = (result as { fields?: { dataTypeID: number }[] } | undefined)?.fields;
    for (const field of fields ?? []) if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
    return result;
  };
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const last = args[args.length - 1];
      if (typeof last === "function") {
        args[args.length - 1] = (error: unknown, result: unknown) =>
          (last as (e: unknown, r: unknown) => void)(error, error ? result : asText(result));
        return query(...args);
      }
      const answer = query(...args);
      return answer instanceof Promise ? answer.then(asText) : answer;
    };
  });
  return pool;
}

// Tables made by hand-written migrations that schema.prisma cannot describe (an FTS5 virtual
// table and its shadow tables): the diff leaves them alone instead of dropping them.
export const EXTERNAL_TABLES = [
  "customer_search",
  ...["config", "data", "docsize", "idx", "content"].map((s) => `customer_search_${s}`),
];
const noFilters = { externalTables: EXTERNAL_TABLES, externalEnums: [] };
// PostgreSQL has no hand-made tables (its search is an index on "Customer"), and wants qualified names.
const postgresFilters = { externalTables: [], externalEnums: [] };
function filtersFor(engine: Engine) {
  return engineKinds.get(engine) === "postgresql" ? postgresFilters : noFilters;
}

/** The SQL that creates schema.prisma from nothing on PostgreSQL (the start of its baseline). */
export async function createSchemaSql(engine: Engine): Promise<string> {
  const schema = { path: schemaPath, content: engineSchemaFor(engineKinds.get(engine) ?? "sqlite") };
  const result = await engine.diff({
    from: { tag: "empty" },
    to: { tag: "schemaDatamodel", files: [schema] },
    script: true,
    exitCode: null,
    filters: filtersFor(engine),
  });
  return result.stdout ?? "";
}

/**
 * The SQL that takes the database the engine was opened on to the state schema.prisma describes:
 * empty when they match. Open the engine on a database migrated from the files to diff those.
 */
export async function diffDatabaseToSchema(engine: Engine): Promise<string> {
  const schema = { path: schemaPath, content: engineSchemaFor(engineKinds.get(engine) ?? "sqlite") };
  const result = await engine.diff({
    from: { tag: "schemaDatasource", files: [schema], configDir: root },
    to: { tag: "schemaDatamodel", files: [schema] },
    script: true,
    exitCode: null,
    filters: filtersFor(engine),
  });
  return result.stdout ?? "";
}

/** True when a diff script has no statements (the engine writes a comment for "no change"). */
export function isEmptyDiff(sql: string): boolean {
  return sql
    .split("\n")
    .map((l) => l.trim())
    .every((l) => l === "" || l.startsWith("--"));
}
