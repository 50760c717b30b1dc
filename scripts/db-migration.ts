// `npm run db:migration -- <name>`: writes the next migration for both engines from the difference
// between each engine's migrations so far and prisma/schema.prisma, using Prisma's schema engine
// (WebAssembly, offline): prisma/migrations/<stamp>_<name> for SQLite and
// prisma/migrations-postgres/<stamp>_<name> for PostgreSQL (the same directory name). The
// PostgreSQL side is diffed on a scratch database made on the server TEST_POSTGRES_URL names
// (default postgres://postgres@127.0.0.1:5432/postgres) and dropped after.
// docs/decisions/0029-postgresql-schema-and-migrations.md.
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { z } from "zod";
import { migrateDatabase } from "../app/db/migrate.server.ts";
import { describeConnectError, migratePostgres } from "../app/db/migrate-postgres.server.ts";
import {
  adminPostgresUrl,
  diffDatabaseToSchema,
  isEmptyDiff,
  migrationsDir,
  openEngine,
  postgresMigrationsDir,
} from "../prisma/engine.ts";

const name = z
  .string({ message: "Usage: npm run db:migration -- <name>" })
  .regex(/^[a-z0-9_]+$/, "The migration name may use lowercase letters, digits and _ only")
  .safeParse(process.argv[2]);
if (!name.success) {
  console.error(name.error.issues[0].message);
  process.exit(2);
}

/** SQLite: a scratch file migrated from prisma/migrations, then what is missing. */
async function sqliteDiff(): Promise<string> {
  const scratch = mkdtempSync(path.join(tmpdir(), "crm-migration-"));
  try {
    const file = path.join(scratch, "scratch.db");
    migrateDatabase(file);
    return await diffDatabaseToSchema(await openEngine(file));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** PostgreSQL: a scratch database migrated from prisma/migrations-postgres, then what is missing. */
async function postgresDiff(): Promise<string> {
  const adminUrl = adminPostgresUrl();
  const db = `crm_migration_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `${describeConnectError(adminUrl, error)} The PostgreSQL migration is written against a scratch database there (set TEST_POSTGRES_URL to use another server).`,
      { cause: error },
    );
  }
  try {
    await admin.query(`CREATE DATABASE "${db}"`);
    const url = new URL(adminUrl);
    url.pathname = `/${db}`;
    await migratePostgres(url.toString());
    return await diffDatabaseToSchema(await openEngine(url.toString()));
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`).catch(() => {});
    await admin.end();
  }
}

try {
  const [sqlite, postgres] = [await sqliteDiff(), await postgresDiff()];
  if (isEmptyDiff(sqlite) && isEmptyDiff(postgres)) {
    console.log("schema.prisma matches the migrations of both engines: nothing to write.");
    process.exit(0);
  }
  const stamp = new Date()
    .toISOString()
    .replace(/[-:TZ.]/g, "")
    .slice(0, 14);
  const dirName = `${stamp}_${name.data}`;
  // Both sides always, so every migration has its twin (the drift test checks the pairs); a side
  // with nothing to change says so.
  for (const [base, sql, engine] of [
    [migrationsDir, sqlite, "SQLite"],
    [postgresMigrationsDir, postgres, "PostgreSQL"],
  ] as const) {
    const dir = path.join(base, dirName);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, "migration.sql"),
      isEmptyDiff(sql) ? `-- Nothing changes on ${engine} in this step.\nSELECT 1;\n` : sql,
    );
    console.log(`Wrote ${path.relative(process.cwd(), dir)}/migration.sql (${engine})`);
  }
  console.log("Hand-made parts (expression or partial indexes, triggers) go in both files by hand.");
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
