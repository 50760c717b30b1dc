// The PostgreSQL half of `npm run bench` (BENCH_ENGINES=…postgres), started by bench/harness/run.ts
// (bench/harness/postgres.ts) with DATABASE_URL naming the copied database, so every service and
// model in this process takes its PostgreSQL body. Runs bench/sections/postgres/*.ts in name order (those
// BENCH_SECTIONS names when set) and writes their sections as JSON to the file named by argv[2].
import { readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadAverage } from "./postgres.ts";
import type { BenchSection, PostgresBenchContext, PostgresBenchModule } from "./types.ts";

const out = process.argv[2];
if (!out) throw new Error("usage: tsx bench/harness/run-postgres.ts <report.json> (bench/harness/run.ts starts it)");
const given = JSON.parse(process.env.BENCH_POSTGRES_CONTEXT ?? "null") as
  (Omit<PostgresBenchContext, "log"> & { started: number; only: string[] | null }) | null;
if (!given) throw new Error("BENCH_POSTGRES_CONTEXT is not set: bench/harness/run.ts starts this file");

const log = (message: string) =>
  console.log(`[bench ${((Date.now() - given.started) / 1000).toFixed(0).padStart(4)}s] postgres ${message}`);
const ctx: PostgresBenchContext = {
  dbFile: given.dbFile,
  userId: given.userId,
  otherUserId: given.otherUserId,
  customers: given.customers,
  workDir: given.workDir,
  databaseUrl: given.databaseUrl,
  copiedCustomerRowid: given.copiedCustomerRowid,
  log,
};

const sections: BenchSection[] = [];
// In name order, but delivery last: its writers add customers, and the others compare the tenant
// with the SQLite file's copied customers.
const files = readdirSync(path.join(import.meta.dirname, "../sections/postgres"))
  .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
  .sort((a, b) => Number(a === "delivery.ts") - Number(b === "delivery.ts") || a.localeCompare(b))
  .filter((f) => !given.only || given.only.includes(f.replace(/\.ts$/, "")));
for (const file of files) {
  log(`section ${file}`);
  const t = Date.now();
  const before = loadAverage();
  try {
    const mod = (await import(path.join(import.meta.dirname, "../sections/postgres", file))) as PostgresBenchModule;
    const section = await mod.default(ctx);
    section.figures.loadAverage = { before, after: loadAverage() };
    sections.push(section);
    log(`section ${file} done in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  } catch (error) {
    console.error(error);
    sections.push({
      name: file.replace(/\.ts$/, ""),
      figures: { error: error instanceof Error ? error.message : String(error), loadAverage: { before } },
      goals: [],
    });
  }
  // Written after each section: what was measured survives a later section's crash.
  writeFileSync(out, `${JSON.stringify(sections, null, 2)}\n`);
}
writeFileSync(out, `${JSON.stringify(sections, null, 2)}\n`);
const { db } = await import("../../app/db/prisma.server.ts");
await db().$disconnect();
process.exit(0);
