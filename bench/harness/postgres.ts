// The bench on PostgreSQL (BENCH_ENGINES=sqlite,postgres, or postgres alone), for bench/harness/run.ts:
// - preparePostgres(): a fresh database on TEST_POSTGRES_URL's server holding a copy of the
//   seeded SQLite file, made by the product's own `crm db copy` (copySqliteToPostgres) right after
//   the seed and before any SQLite section writes to it, then VACUUM ANALYZE (what autovacuum
//   would reach after a while: the visibility map that index-only scans read, and statistics);
// - runPostgresSections(): bench/sections/postgres/*.ts in a process of its own whose DATABASE_URL is that
//   database (bench/harness/run-postgres.ts), so every service and model there takes its PostgreSQL body;
// - compareEngines(): each PostgreSQL goal beside the SQLite goal it pairs with (same section, same
//   text or the one `sqliteGoal` names), with the ratio PostgreSQL / SQLite.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { BenchContext, BenchSection, PostgresBenchContext } from "./types.ts";

const root = path.resolve(import.meta.dirname, "../..");
const tsx = path.join(root, "node_modules/.bin/tsx");

export type BenchEngine = "sqlite" | "postgres";

/** BENCH_ENGINES: "sqlite" (the default), "postgres", or both, comma-separated. */
export function benchEngines(setting: string | undefined): BenchEngine[] {
  const names = (setting ?? "sqlite")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const bad = names.filter((n) => n !== "sqlite" && n !== "postgres");
  if (bad.length > 0 || names.length === 0)
    throw new Error(
      `BENCH_ENGINES must be sqlite, postgres or sqlite,postgres (got "${setting ?? ""}"); PostgreSQL runs on TEST_POSTGRES_URL's server`,
    );
  return [...new Set(names)] as BenchEngine[];
}

export type PostgresDatabaseInfo = {
  name: string;
  url: string;
  /** The seeded file's last customer rowid when it was copied (the SQLite sections add others later). */
  copiedCustomerRowid: number;
  /** How the database was made, for the report. */
  figures: Record<string, unknown>;
  drop(): Promise<void>;
};

const KEPT = "postgres.json";

// The helpers are imported when first needed: this module is imported by bench/harness/run.ts before it
// sets DATABASE_URL, and nothing of the app may read the environment before that.
const helpers = () => import("../../tests/helpers/postgres.ts");

async function exists(name: string): Promise<boolean> {
  const { TEST_POSTGRES_URL } = await helpers();
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    return (await client.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [name])).rowCount === 1;
  } finally {
    await client.end();
  }
}

async function dropDatabase(name: string) {
  const { TEST_POSTGRES_URL } = await helpers();
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/**
 * The PostgreSQL database the sections run on. With BENCH_REUSE, the one the earlier run kept in
 * the same directory (its name in postgres.json) when it is still there; else a new one, copied.
 */
export async function preparePostgres(
  ctx: Pick<BenchContext, "dbFile" | "workDir" | "log">,
  reuse: boolean,
): Promise<PostgresDatabaseInfo> {
  const { createPostgresDatabase, databaseUrl } = await helpers();
  const keptFile = path.join(ctx.workDir, KEPT);
  if (reuse && existsSync(keptFile)) {
    const kept = JSON.parse(readFileSync(keptFile, "utf8")) as { name: string; copiedCustomerRowid?: number };
    if (await exists(kept.name)) {
      ctx.log(`postgres: reusing the database ${kept.name}`);
      return {
        name: kept.name,
        url: databaseUrl(kept.name),
        copiedCustomerRowid: kept.copiedCustomerRowid ?? Number.MAX_SAFE_INTEGER,
        figures: { reused: true },
        drop: () => dropDatabase(kept.name),
      };
    }
  }
  const { default: Database } = await import("better-sqlite3");
  const sqlite = new Database(ctx.dbFile, { readonly: true });
  const copiedCustomerRowid = Number(sqlite.prepare(`SELECT coalesce(max(rowid), 0) FROM "Customer"`).pluck().get());
  sqlite.close();
  const database = await createPostgresDatabase("crm_bench");
  writeFileSync(keptFile, `${JSON.stringify({ name: database.name, copiedCustomerRowid })}\n`);
  try {
    const { copySqliteToPostgres } = await import("../../app/db/copy-to-postgres.server.ts");
    ctx.log(`postgres: crm db copy of the seeded database into ${database.name}`);
    let shown = "";
    const copy = await copySqliteToPostgres(ctx.dbFile, database.url, {
      onTable: (table, total) => {
        if (total >= 100_000 && table !== shown) {
          shown = table;
          ctx.log(`postgres:   ${table}: ${total.toLocaleString("en-IN")} rows`);
        }
      },
    });
    ctx.log(`postgres: copied in ${(copy.durationMs / 1000).toFixed(1)} s; VACUUM ANALYZE`);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const t = performance.now();
    try {
      await client.query("VACUUM ANALYZE");
    } finally {
      await client.end();
    }
    const vacuumSeconds = (performance.now() - t) / 1000;
    ctx.log(`postgres: VACUUM ANALYZE in ${vacuumSeconds.toFixed(1)} s`);
    const server = new pg.Client({ connectionString: database.url });
    await server.connect();
    let settings: Record<string, string> = {};
    try {
      const rows = (
        await server.query<{ name: string; setting: string }>(
          `SELECT name, current_setting(name) AS setting FROM pg_settings WHERE name IN ('server_version', 'shared_buffers', 'work_mem', 'max_connections', 'synchronous_commit', 'effective_cache_size', 'max_wal_size', 'random_page_cost', 'jit')`,
        )
      ).rows;
      settings = Object.fromEntries(rows.map((r) => [r.name, r.setting]));
      settings.databaseSize = (
        await server.query<{ size: string }>(`SELECT pg_size_pretty(pg_database_size(current_database())) AS size`)
      ).rows[0].size;
    } finally {
      await server.end();
    }
    return {
      name: database.name,
      url: database.url,
      copiedCustomerRowid,
      figures: {
        madeBy: "crm db copy (copySqliteToPostgres) of the seeded SQLite file, then VACUUM ANALYZE",
        copySeconds: copy.durationMs / 1000,
        rowsCopied: copy.tables.reduce((n, t) => n + t.rows, 0),
        tables: Object.fromEntries(copy.tables.filter((t) => t.rows > 0).map((t) => [t.table, t.rows])),
        vacuumAnalyzeSeconds: Math.round(vacuumSeconds * 10) / 10,
        server: settings,
        sameMachine: "PostgreSQL runs on the bench's machine, sharing its cores with the servers and the load client",
      },
      drop: database.drop,
    };
  } catch (error) {
    await database.drop();
    throw error;
  }
}

/** Runs bench/sections/postgres/*.ts (those `only` names, or all) in a process on `databaseUrl`. */
export async function runPostgresSections(
  ctx: BenchContext,
  database: Pick<PostgresDatabaseInfo, "url" | "copiedCustomerRowid">,
  started: number,
  only: string[] | undefined,
): Promise<BenchSection[]> {
  const out = path.join(ctx.workDir, "postgres-sections.json");
  const child = spawn(tsx, [path.join(import.meta.dirname, "run-postgres.ts"), out], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      BENCH_POSTGRES_CONTEXT: JSON.stringify({
        dbFile: ctx.dbFile,
        userId: ctx.userId,
        otherUserId: ctx.otherUserId,
        customers: ctx.customers,
        workDir: ctx.workDir,
        databaseUrl: database.url,
        copiedCustomerRowid: database.copiedCustomerRowid,
        started,
        only: only ?? null,
      }),
    },
  });
  const [code] = (await once(child, "exit")) as [number | null];
  if (!existsSync(out)) throw new Error(`bench/harness/run-postgres.ts exited ${code} without a report`);
  return JSON.parse(readFileSync(out, "utf8")) as BenchSection[];
}

export type EngineComparison = {
  section: string;
  goal: string;
  unit: string;
  limit: number;
  sqlite: { goal: string; value: number; met: boolean } | null;
  postgres: { value: number; met: boolean };
  /** PostgreSQL's value / SQLite's: above 1 is more time (ms, s) or more throughput (/s). */
  ratio: number | null;
};

/** Each PostgreSQL goal beside its SQLite goal. */
export function compareEngines(sqlite: BenchSection[], postgres: BenchSection[]): EngineComparison[] {
  const round = (n: number) => Math.round(n * 100) / 100;
  return postgres.flatMap((section) =>
    section.goals.map((g) => {
      const pairName = g.sqliteGoal ?? g.goal;
      const pair = sqlite.find((s) => s.name === section.name)?.goals.find((s) => s.goal === pairName);
      return {
        section: section.name,
        goal: g.goal,
        unit: g.unit,
        limit: g.limit,
        sqlite: pair ? { goal: pair.goal, value: round(pair.value), met: pair.met } : null,
        postgres: { value: round(g.value), met: g.met },
        ratio: pair && pair.value !== 0 ? round(g.value / pair.value) : null,
      };
    }),
  );
}

/**
 * The customers the SQLite sections read (`rowid % 97 = 0`, up to 5,000, spread over the tenant),
 * of those the copy took: a customer a SQLite section made after the copy is not on PostgreSQL.
 */
export async function sampleCustomerIds(ctx: PostgresBenchContext): Promise<string[]> {
  const { default: Database } = await import("better-sqlite3");
  const sqlite = new Database(ctx.dbFile, { readonly: true });
  let ids: string[];
  try {
    ids = sqlite
      .prepare<[string, number], string>(
        `SELECT "id" FROM "Customer" WHERE "userId" = ? AND rowid % 97 = 0 AND rowid <= ? LIMIT 5000`,
      )
      .pluck()
      .all(ctx.userId, ctx.copiedCustomerRowid);
  } finally {
    sqlite.close();
  }
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  try {
    const there = new Set(
      (
        await client.query<{ id: string }>(
          `SELECT "id" FROM "Customer" WHERE "userId" = $1 AND "id" = ANY($2::text[])`,
          [ctx.userId, ids],
        )
      ).rows.map((r) => r.id),
    );
    return ids.filter((id) => there.has(id));
  } finally {
    await client.end();
  }
}

/** The machine's load average now (1, 5 and 15 minutes), for each section's figures. */
export const loadAverage = () => os.loadavg().map((n) => Math.round(n * 100) / 100);
