// `npm run db:migration -- <name>`: writes the next migration from the difference between the
// migrations so far and prisma/schema.prisma, using Prisma's schema engine (WebAssembly, offline).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { migrateDatabase } from "../app/db/migrate.server.ts";
import { diffDatabaseToSchema, isEmptyDiff, migrationsDir, openEngine } from "../prisma/engine.ts";

const name = z
  .string({ message: "Usage: npm run db:migration -- <name>" })
  .regex(/^[a-z0-9_]+$/, "The migration name may use lowercase letters, digits and _ only")
  .safeParse(process.argv[2]);
if (!name.success) {
  console.error(name.error.issues[0].message);
  process.exit(2);
}

// Build a scratch database from the migrations so far, then ask the engine what is missing.
const scratch = mkdtempSync(path.join(tmpdir(), "crm-migration-"));
const file = path.join(scratch, "scratch.db");
migrateDatabase(file);
const engine = await openEngine(file);
const sql = await diffDatabaseToSchema(engine);
rmSync(scratch, { recursive: true, force: true });
if (isEmptyDiff(sql)) {
  console.log("schema.prisma matches the migrations: nothing to write.");
  process.exit(0);
}
const stamp = new Date()
  .toISOString()
  .replace(/[-:TZ.]/g, "")
  .slice(0, 14);
const dir = path.join(migrationsDir, `${stamp}_${name.data}`);
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, "migration.sql"), sql);
console.log(`Wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
