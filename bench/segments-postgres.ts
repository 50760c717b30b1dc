// `npx tsx bench/segments-postgres.ts`: segment counts on SQLite and on PostgreSQL over the same
// customers, through the product's own audience functions (app/models/segments/audience/sqlite.server.ts
// and postgres.server.ts), for the segments of bench/sections/segments.ts (1 to 4
// conditions matching about 0.1% to 90% of the tenant). Prints JSON on stdout: per segment the
// count, the p50 and p95 of the count and of the preview (count and 10 rows) on each engine, and
// PostgreSQL's EXPLAIN (ANALYZE, BUFFERS) of the count in the shape it chose. Figures: docs/decisions/0032-segments-on-postgresql.md.
//
// Tenant A gets SEG_CUSTOMERS customers (default 1,000,000), tenant B a tenth of that, seeded on
// SQLite by the product's seed (seedTenant(), no orders: the seed then draws the totals itself) and
// copied row for row into a migrated PostgreSQL database of its own (crm_segments_bench_<customers>
// on TEST_POSTGRES_URL's server, VACUUM ANALYZE after). SEG_WORKDIR=<dir> keeps the SQLite file there
// and the PostgreSQL database after the run, and reuses both when they are there (seed once,
// measure again); SEG_RUNS sets the timed runs per segment and engine (default 40).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import Database from "better-sqlite3";
import pg from "pg";

const keep = process.env.SEG_WORKDIR;
const workDir = keep ? path.resolve(keep) : mkdtempSync(path.join(os.tmpdir(), "crm-seg-pg-"));
mkdirSync(workDir, { recursive: true });
const dbFile = path.join(workDir, "segments.db");
process.env.DATA_DIR = workDir;
process.env.DATABASE_URL = `file:${dbFile}`;
process.env.SESSION_SECRET ??= randomBytes(32).toString("hex");
process.env.LOG_LEVEL ??= "warn";

const CUSTOMERS = Number(process.env.SEG_CUSTOMERS ?? 1_000_000);
const RUNS = Number(process.env.SEG_RUNS ?? 40);
const WARMUP = 3;
const PG_DB = `crm_segments_bench_${CUSTOMERS}`;
const started = Date.now();
const log = (m: string) =>
  console.error(`[segments-pg ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${m}`);

const { migrateDatabase } = await import("../app/db/migrate.server.ts");
const { migratePostgres } = await import("../app/db/migrate-postgres.server.ts");
const { upsertLocalUser } = await import("../app/services/users.server.ts");
const { seedTenant } = await import("../app/services/seed.server.ts");
const { parseConditions } = await import("../app/lib/segments.ts");
const { sqliteAudience } = await import("../app/models/segments/audience/sqlite.server.ts");
const { postgresAudienceOn } = await import("../app/models/segments/audience/postgres.server.ts");
const { adminPostgresUrl } = await import("../prisma/engine.ts");

const admin = adminPostgresUrl();
const pgUrl = (() => {
  const u = new URL(admin);
  u.pathname = `/${PG_DB}`;
  return u.toString();
})();

async function adminQuery(sql: string) {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function pgDatabaseExists(): Promise<boolean> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    return (await client.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [PG_DB])).rowCount === 1;
  } finally {
    await client.end();
  }
}

type Tenants = { a: string; b: string };

async function seedBoth(): Promise<Tenants> {
  log(`migrating ${dbFile}`);
  migrateDatabase(dbFile);
  const a = await upsertLocalUser({ email: "segments-a@example.com", name: "Segments Tenant A" });
  const b = await upsertLocalUser({ email: "segments-b@example.com", name: "Segments Tenant B" });
  log(`seeding tenant A with ${CUSTOMERS} customers on SQLite`);
  await seedTenant(a.id, { customers: CUSTOMERS, orders: 0, seed: 1 });
  log(`seeding tenant B with ${Math.floor(CUSTOMERS / 10)} customers`);
  await seedTenant(b.id, { customers: Math.floor(CUSTOMERS / 10), orders: 0, seed: 2 });

  await adminQuery(`DROP DATABASE IF EXISTS "${PG_DB}" WITH (FORCE)`);
  await adminQuery(`CREATE DATABASE "${PG_DB}"`);
  await migratePostgres(pgUrl);
  const sqlite = new Database(dbFile, { readonly: true });
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    for (const u of sqlite
      .prepare<[], { id: string; email: string; displayName: string }>(
        `SELECT "id", "email", "displayName" FROM "User"`,
      )
      .all()) {
      await client.query(`INSERT INTO "User" ("id", "email", "displayName", "updatedAt") VALUES ($1, $2, $3, now())`, [
        u.id,
        u.email,
        u.displayName,
      ]);
    }
    for (const t of sqlite
      .prepare<[], { userId: string; customers: number }>(`SELECT "userId", "customers" FROM "CustomerTally"`)
      .all()) {
      await client.query(`INSERT INTO "CustomerTally" ("userId", "customers") VALUES ($1, $2)`, [
        t.userId,
        t.customers,
      ]);
    }
    // The search index is not what is measured here; building it once after the load is much
    // faster than keeping it up to date row by row.
    const searchIndex = (
      await client.query<{ def: string }>(
        `SELECT pg_get_indexdef(indexrelid) AS def FROM pg_index WHERE indexrelid = '"Customer_search_idx"'::regclass`,
      )
    ).rows[0].def;
    await client.query(`DROP INDEX "Customer_search_idx"`);
    type Row = {
      id: string;
      userId: string;
      firstName: string;
      lastName: string;
      email: string;
      phone: string;
      totalSpendPaise: number;
      visits: number;
      lastActive: number | null;
      createdAt: number;
    };
    const select = sqlite.prepare<[], Row>(
      `SELECT "id", "userId", "firstName", "lastName", "email", "phone", "totalSpendPaise", "visits", "lastActive", "createdAt" FROM "Customer" ORDER BY rowid`,
    );
    let batch: Row[] = [];
    let copied = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      const col = <K extends keyof Row>(k: K) => batch.map((r) => r[k]);
      await client.query(
        `INSERT INTO "Customer" ("id", "userId", "firstName", "lastName", "email", "phone", "totalSpendPaise", "visits", "lastActive", "createdAt", "updatedAt")
         SELECT i, u, f, l, e, p, s, v, to_timestamp(a / 1000), to_timestamp(c / 1000), to_timestamp(c / 1000)
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::int[], $9::float8[], $10::float8[])
           AS t(i, u, f, l, e, p, s, v, a, c)`,
        [
          col("id"),
          col("userId"),
          col("firstName"),
          col("lastName"),
          col("email"),
          col("phone"),
          col("totalSpendPaise"),
          col("visits"),
          col("lastActive"),
          col("createdAt"),
        ],
      );
      copied += batch.length;
      if (copied % 200_000 < batch.length) log(`  copied ${copied} customers to PostgreSQL`);
      batch = [];
    };
    for (const row of select.iterate()) {
      batch.push(row);
      if (batch.length >= 20_000) await flush();
    }
    await flush();
    log("rebuilding the search index, VACUUM ANALYZE");
    await client.query(searchIndex);
    await client.query(`VACUUM ANALYZE`);
  } finally {
    sqlite.close();
    await client.end();
  }
  return { a: a.id, b: b.id };
}

async function tenants(): Promise<Tenants> {
  if (keep && existsSync(dbFile) && (await pgDatabaseExists())) {
    log(`reusing ${dbFile} and the PostgreSQL database ${PG_DB}`);
    const sqlite = new Database(dbFile, { readonly: true });
    const id = (email: string) =>
      sqlite.prepare<[string], { id: string }>(`SELECT "id" FROM "User" WHERE "email" = ?`).get(email)?.id ?? "";
    const t = { a: id("segments-a@example.com"), b: id("segments-b@example.com") };
    sqlite.close();
    return t;
  }
  return seedBoth();
}

const { a: userId, b: otherId } = await tenants();

// The segments of bench/sections/segments.ts, their thresholds from the data's quantiles.
const raw = new Database(dbFile, { readonly: true });
type Col = "totalSpendPaise" | "visits" | "lastActive";
const q = (col: Col, fraction: number): number => {
  const n = Number(
    raw.prepare(`SELECT count(*) FROM "Customer" WHERE "userId" = ? AND "${col}" IS NOT NULL`).pluck().get(userId),
  );
  return Number(
    raw
      .prepare(
        `SELECT "${col}" FROM "Customer" WHERE "userId" = ? AND "${col}" IS NOT NULL ORDER BY "${col}" LIMIT 1 OFFSET ?`,
      )
      .pluck()
      .get(userId, Math.min(n - 1, Math.floor(n * fraction))),
  );
};
const tenantSize = Number(raw.prepare(`SELECT count(*) FROM "Customer" WHERE "userId" = ?`).pluck().get(userId));
const rupees = (paise: number) => paise / 100;
const iso = (ms: number) => new Date(ms).toISOString();
const [sp999, sp10, sp50, sp90, sp95, sp99] = [0.999, 0.1, 0.5, 0.9, 0.95, 0.99].map((f) => q("totalSpendPaise", f));
const [v10, v50, v80, v90] = [0.1, 0.5, 0.8, 0.9].map((f) => q("visits", f));
const [la001, la10, la80, la95] = [0.001, 0.1, 0.8, 0.95].map((f) => q("lastActive", f));
raw.close();

const cases: { name: string; conditions: Record<string, unknown> }[] = [
  { name: "1 condition: top spenders (0.1%)", conditions: { totalSpend: { $gt: rupees(sp999) } } },
  { name: "1 condition: long inactive (0.1%)", conditions: { lastActiveDate: { $lt: iso(la001) } } },
  { name: "1 condition: regular visitors (50%)", conditions: { visits: { $gte: v50 } } },
  { name: "1 condition: active lately (90%)", conditions: { lastActiveDate: { $gte: iso(la10) } } },
  {
    name: "2 conditions AND: high spend, many visits (1%)",
    conditions: { $and: [{ totalSpend: { $gt: rupees(sp90) } }, { visits: { $gt: v90 } }] },
  },
  {
    name: "2 conditions OR: high spend or very recent (10%)",
    conditions: { $or: [{ totalSpend: { $gt: rupees(sp95) } }, { lastActiveDate: { $gt: iso(la95) } }] },
  },
  {
    name: "2 conditions AND: almost everyone (90%)",
    conditions: { $and: [{ totalSpend: { $gte: rupees(sp10) } }, { visits: { $gte: v10 } }] },
  },
  {
    name: "3 conditions AND: spend, visits, activity (70%)",
    conditions: {
      $and: [
        { totalSpend: { $gte: rupees(sp10) } },
        { visits: { $gte: v10 } },
        { lastActiveDate: { $gte: iso(la10) } },
      ],
    },
  },
  {
    name: "4 conditions nested: mid spenders, engaged (10%)",
    conditions: {
      $and: [
        { totalSpend: { $gt: rupees(sp50) } },
        { totalSpend: { $lt: rupees(sp99) } },
        { $or: [{ visits: { $gt: v80 } }, { lastActiveDate: { $gt: iso(la80) } }] },
      ],
    },
  },
  { name: "rolling: active in the last 30 days", conditions: { lastActiveDate: { $gte: { $daysAgo: 30 } } } },
];

const pool = new pg.Pool({ connectionString: pgUrl, max: 2 });
const pgAudience = postgresAudienceOn(pool);
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
const round = (n: number) => Math.round(n * 100) / 100;
async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}
const stats = (ms: number[]) => {
  const s = [...ms].sort((x, y) => x - y);
  return { p50: round(percentile(s, 0.5)), p95: round(percentile(s, 0.95)), max: round(s[s.length - 1]) };
};

const results: Record<string, unknown>[] = [];
for (const c of cases) {
  const parsed = parseConditions(c.conditions);
  if (!parsed.ok) throw new Error(`${c.name}: ${parsed.message}`);
  const tree = parsed.tree;
  log(c.name);
  const onSqlite = await sqliteAudience.sqlAudienceCount(userId, tree);
  const onPostgres = await pgAudience.sqlAudienceCount(userId, tree);
  if (onSqlite !== onPostgres) throw new Error(`${c.name}: SQLite counts ${onSqlite}, PostgreSQL ${onPostgres}`);
  const otherSqlite = await sqliteAudience.sqlAudienceCount(otherId, tree);
  const otherPostgres = await pgAudience.sqlAudienceCount(otherId, tree);
  if (otherSqlite !== otherPostgres) throw new Error(`${c.name}: tenant B counts differ`);
  const timings = {
    sqliteCount: [] as number[],
    postgresCount: [] as number[],
    sqlitePreview: [] as number[],
    postgresPreview: [] as number[],
  };
  for (let r = 0; r < WARMUP + RUNS; r++) {
    const round = {
      sqliteCount: await time(() => sqliteAudience.sqlAudienceCount(userId, tree)),
      postgresCount: await time(() => pgAudience.sqlAudienceCount(userId, tree)),
      sqlitePreview: await time(() => sqliteAudience.sqlAudiencePreview(userId, tree, 10)),
      postgresPreview: await time(() => pgAudience.sqlAudiencePreview(userId, tree, 10)),
    };
    if (r >= WARMUP) for (const [k, v] of Object.entries(round)) timings[k as keyof typeof timings].push(v);
  }
  const { query: count } = await pgAudience.audienceCountQuery(userId, tree);
  const analyze = await pool.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${count.sql}`, count.params);
  results.push({
    name: c.name,
    count: onSqlite,
    share: round((onSqlite / tenantSize) * 100),
    sqliteShape: await sqliteAudience.audienceCountShape(userId, tree),
    postgresShape: await pgAudience.audienceCountShape(userId, tree),
    sqliteCountMs: stats(timings.sqliteCount),
    postgresCountMs: stats(timings.postgresCount),
    sqlitePreviewMs: stats(timings.sqlitePreview),
    postgresPreviewMs: stats(timings.postgresPreview),
    postgresPlan: analyze.rows.map((r) => r["QUERY PLAN"]),
    // The machine is shared: the load average (1, 5, 15 min) when the segment's runs ended.
    load: os.loadavg().map((l) => round(l)),
  });
}
await pool.end();

console.log(
  JSON.stringify(
    { customers: tenantSize, otherTenant: Math.floor(CUSTOMERS / 10), runs: RUNS, load: os.loadavg(), results },
    null,
    2,
  ),
);
if (!keep) {
  await adminQuery(`DROP DATABASE IF EXISTS "${PG_DB}" WITH (FORCE)`);
  rmSync(workDir, { recursive: true, force: true });
}
process.exit(0);
