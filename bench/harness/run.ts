// `npm run bench`: builds a temporary database, seeds tenant A with 1,000,000 customers (timed:
// the seeding goal) and tenant B with 100,000 (and orders), then runs every bench/sections/sqlite/*.ts
// module in name order and writes bench/results/report.json.
//
// Environment: BENCH_CUSTOMERS (default 1000000) and BENCH_OTHER_CUSTOMERS (default 100000) size
// the tenants for quick runs; BENCH_SECTIONS=customers,segments runs only those; BENCH_SKIP_BUILD=1
// uses the existing production build instead of running `npm run build` first; BENCH_KEEP=1 keeps
// the temporary directory; BENCH_REUSE=DIR runs the sections on a directory an earlier run kept
// (no seeding, so no seed figures) to iterate on one section without waiting for the seed.
// The smtp section (bench/sections/sqlite/smtp.ts) seeds a database of its own: BENCH_SMTP_RECIPIENTS
// (default 100000) sizes it, BENCH_SMTP_POOL and BENCH_DELIVERY_CONCURRENCY set the server's
// SMTP_POOL and DELIVERY_CONCURRENCY for it.
//
// BENCH_ENGINES=sqlite,postgres measures PostgreSQL beside SQLite on the same machine and the same
// customers: right after the seed, a fresh database on TEST_POSTGRES_URL's server gets a copy of
// the seeded file (`crm db copy`), the SQLite sections run as before, then bench/sections/postgres/*.ts
// run on that database (bench/harness/postgres.ts), and the report carries each PostgreSQL goal
// beside its SQLite one with the ratio (`comparison`). BENCH_ENGINES=postgres skips the SQLite
// sections (the seed still runs on SQLite: it is what is copied). BENCH_KEEP=1 keeps the
// PostgreSQL database too, and BENCH_REUSE reuses it.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { benchEngines, compareEngines, loadAverage, type PostgresDatabaseInfo } from "./postgres.ts";
import type { BenchContext, BenchModule, BenchSection } from "./types.ts";

const root = path.resolve(import.meta.dirname, "../..");
const reuse = process.env.BENCH_REUSE;
const workDir = reuse ? path.resolve(reuse) : mkdtempSync(path.join(os.tmpdir(), "crm-bench-"));
const dbFile = path.join(workDir, "bench.db");
process.env.DATA_DIR = workDir;
process.env.DATABASE_URL = `file:${dbFile}`;
process.env.SESSION_SECRET ??= randomBytes(32).toString("hex");
process.env.LOG_LEVEL ??= "warn";

const engines = benchEngines(process.env.BENCH_ENGINES);
const customers = Number(process.env.BENCH_CUSTOMERS ?? 1_000_000);
const others = Number(process.env.BENCH_OTHER_CUSTOMERS ?? 100_000);
const only = process.env.BENCH_SECTIONS?.split(",")
  .map((s) => s.trim())
  .filter(Boolean);
const started = Date.now();
const log = (message: string) =>
  console.log(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${message}`);

if (process.env.BENCH_SKIP_BUILD !== "1") {
  log("npm run build");
  execFileSync("npm", ["run", "-s", "build"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
}

const { migrateDatabase } = await import("../../app/db/migrate.server.ts");
const { upsertLocalUser } = await import("../../app/services/users.server.ts");
const { seedTenant } = await import("../../app/services/seed.server.ts");
const { db } = await import("../../app/db/prisma.server.ts");

migrateDatabase(dbFile);
const userA = await upsertLocalUser({ email: "bench-a@example.com", name: "Bench Tenant A" });
const userB = await upsertLocalUser({ email: "bench-b@example.com", name: "Bench Tenant B" });

async function seedSection(): Promise<BenchSection> {
  log(`seeding tenant A with ${customers.toLocaleString("en-IN")} customers`);
  let lastShown = 0;
  const seedA = await seedTenant(userA.id, {
    customers,
    orders: 0,
    seed: 1,
    onProgress: (_stage, done, total) => {
      if (done - lastShown >= total / 10 || done === total) {
        lastShown = done;
        log(`  ${done.toLocaleString("en-IN")} / ${total.toLocaleString("en-IN")}`);
      }
    },
  });
  log(`tenant A seeded in ${(seedA.durationMs / 1000).toFixed(1)} s`);
  log(
    `seeding tenant B with ${others.toLocaleString("en-IN")} customers and ${Math.floor(others / 2).toLocaleString("en-IN")} orders`,
  );
  const seedB = await seedTenant(userB.id, { customers: others, orders: Math.floor(others / 2), seed: 2 });
  log(`tenant B seeded in ${(seedB.durationMs / 1000).toFixed(1)} s`);
  // The goal is for 1,000,000 customers; a smaller run is scaled to that size.
  const scaled = (seedA.durationMs / 1000) * (1_000_000 / Math.max(1, customers));
  return {
    name: "seed",
    figures: {
      customers: seedA.customersCreated,
      seconds: seedA.durationMs / 1000,
      rowsPerSecond: Math.round(seedA.customersCreated / (seedA.durationMs / 1000)),
      tenantB: { customers: seedB.customersCreated, orders: seedB.ordersCreated, seconds: seedB.durationMs / 1000 },
      note: "seeding uses raw better-sqlite3 prepared statements itself, so it is its own baseline",
    },
    goals: [{ goal: "seed 1,000,000 customers", value: scaled, limit: 60, unit: "s", met: scaled < 60 }],
  };
}

const tenantSize = reuse ? await db().customer.count({ where: { userId: userA.id } }) : customers;
const ctx: BenchContext = { dbFile, userId: userA.id, otherUserId: userB.id, customers: tenantSize, workDir, log };
const sections: BenchSection[] = reuse ? [] : [await seedSection()];
if (reuse) log(`reusing the seeded database in ${workDir}`);
// The copy is made before any SQLite section writes to the seeded file: both engines start from
// the same customers.
let postgresDatabase: PostgresDatabaseInfo | undefined;
if (engines.includes("postgres")) {
  const { preparePostgres } = await import("./postgres.ts");
  postgresDatabase = await preparePostgres(ctx, Boolean(reuse));
}
const files = engines.includes("sqlite")
  ? readdirSync(path.join(import.meta.dirname, "../sections/sqlite"))
      .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
      .sort()
      .filter((f) => !only || only.includes(f.replace(/\.ts$/, "")))
  : [];
for (const file of files) {
  log(`section ${file}`);
  const t = Date.now();
  const before = loadAverage();
  try {
    const mod = (await import(path.join(import.meta.dirname, "../sections/sqlite", file))) as BenchModule;
    const section = await mod.default(ctx);
    section.figures.loadAverage = { before, after: loadAverage() };
    sections.push(section);
    log(`section ${file} done in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  } catch (error) {
    console.error(error);
    sections.push({
      name: file.replace(/\.ts$/, ""),
      figures: { error: error instanceof Error ? error.message : String(error) },
      goals: [],
    });
  }
}

let postgresSections: BenchSection[] = [];
if (postgresDatabase) {
  const { runPostgresSections } = await import("./postgres.ts");
  try {
    postgresSections = await runPostgresSections(ctx, postgresDatabase, started, only);
  } catch (error) {
    console.error(error);
    postgresSections = [
      { name: "postgres", figures: { error: error instanceof Error ? error.message : String(error) }, goals: [] },
    ];
  }
}

const report = {
  startedAt: new Date(started).toISOString(),
  durationSeconds: (Date.now() - started) / 1000,
  machine: {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    loadAverage: os.loadavg(),
  },
  customers: tenantSize,
  otherCustomers: others,
  engines,
  sections,
  ...(postgresDatabase
    ? {
        postgres: { database: postgresDatabase.figures, sections: postgresSections },
        comparison: compareEngines(sections, postgresSections),
      }
    : {}),
  goalsMet: [...sections, ...postgresSections].every((s) => !("error" in s.figures) && s.goals.every((g) => g.met)),
};
mkdirSync(path.join(import.meta.dirname, "../results"), { recursive: true });
const out = path.join(import.meta.dirname, "../results", "report.json");
writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
for (const s of sections)
  for (const g of s.goals)
    log(`${g.met ? "MET " : "MISS"} ${s.name}: ${g.goal}: ${g.value.toFixed(1)} ${g.unit} (limit ${g.limit})`);
for (const c of report.comparison ?? [])
  log(
    `${c.postgres.met ? "MET " : "MISS"} postgres ${c.section}: ${c.goal}: ${c.postgres.value.toFixed(1)} ${c.unit} (limit ${c.limit}; SQLite ${c.sqlite ? c.sqlite.value.toFixed(1) : "–"}${c.ratio === null ? "" : `, ratio ${c.ratio}`})`,
  );
const failedSections = [...sections, ...postgresSections.map((s) => ({ ...s, name: `postgres ${s.name}` }))].filter(
  (s) => "error" in s.figures,
);
for (const s of failedSections) log(`FAILED section ${s.name}: ${String(s.figures.error)}`);
log(`report written to ${path.relative(process.cwd(), out)}`);
await db().$disconnect();
if (process.env.BENCH_KEEP !== "1" && !reuse) {
  await postgresDatabase?.drop();
  rmSync(workDir, { recursive: true, force: true });
} else log(`kept ${workDir}${postgresDatabase ? ` and the PostgreSQL database ${postgresDatabase.name}` : ""}`);
// A section that broke measured nothing: say so to the shell too.
process.exit(failedSections.length ? 1 : 0);
