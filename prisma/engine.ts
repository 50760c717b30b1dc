// Prisma's own schema engine, compiled to WebAssembly, driven offline (the native engine cannot be
// downloaded here). Used by `npm run db:migration` to write migrations and by the test that checks
// the migrations match schema.prisma. Node 20 cannot import a .wasm module without a flag, so we
// instantiate it ourselves and hand the instance to wasm-bindgen's glue.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
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

export async function openEngine(url: string): Promise<Engine> {
  const bg = await loadWasm();
  const adapter = bindMigrationAwareSqlAdapterFactory(
    new PrismaBetterSqlite3({ url }, { timestampFormat: "unixepoch-ms" }),
  );
  const schema = readFileSync(schemaPath, "utf8");
  return bg.SchemaEngine.new(
    { datamodels: [[schemaPath, schema]] },
    (log: string) => {
      if (process.env.DEBUG_SCHEMA_ENGINE) console.error(log);
    },
    adapter,
  );
}

// Tables made by hand-written migrations that schema.prisma cannot describe (an FTS5 virtual
// table and its shadow tables): the diff leaves them alone instead of dropping them.
export const EXTERNAL_TABLES = [
  "customer_search",
  ...["config", "data", "docsize", "idx", "content"].map((s) => `customer_search_${s}`),
];
const noFilters = { externalTables: EXTERNAL_TABLES, externalEnums: [] };

/**
 * The SQL that takes the database the engine was opened on to the state schema.prisma describes:
 * empty when they match. Open the engine on a database migrated from the files to diff those.
 */
export async function diffDatabaseToSchema(engine: Engine): Promise<string> {
  const schema = { path: schemaPath, content: readFileSync(schemaPath, "utf8") };
  const result = await engine.diff({
    from: { tag: "schemaDatasource", files: [schema], configDir: root },
    to: { tag: "schemaDatamodel", files: [schema] },
    script: true,
    exitCode: null,
    filters: noFilters,
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
