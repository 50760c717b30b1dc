// Applies the SQL migrations under prisma/migrations in order and records each one in
// _prisma_migrations exactly as `prisma migrate deploy` does (same table, sha256 checksum of the
// file), so a database can later be handed to Prisma's own tooling. Runs at start and from
// `crm db migrate`; safe to run concurrently (a write lock is held) and repeatedly.
import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";

/**
 * The nearest prisma/<folder> above this module: the source (app/db), the server build
 * (build/server, or a chunk of it in build/server/assets) and the container all find the same one.
 */
export function findMigrationsDir(folder: "migrations" | "migrations-postgres"): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = here; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "prisma", folder);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return path.resolve(here, "../../prisma", folder);
  }
}

export const MIGRATIONS_DIR = findMigrationsDir("migrations");

export type MigrationResult = { applied: string[]; total: number };

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

export function migrationNames(dir = MIGRATIONS_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort();
}

export function migrateDatabase(
  file: string,
  options: { dir?: string; onApply?: (name: string) => void } = {},
): MigrationResult {
  const dir = options.dir ?? MIGRATIONS_DIR;
  if (file !== ":memory:") mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("busy_timeout = 10000");
    db.exec(CREATE_TABLE);
    const names = migrationNames(dir);
    const applied: string[] = [];
    for (const name of names) {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      const checksum = createHash("sha256").update(sql).digest("hex");
      // BEGIN IMMEDIATE takes the write lock first, so two processes starting together apply
      // each migration once.
      db.exec("BEGIN IMMEDIATE");
      try {
        const done = db
          .prepare(
            `SELECT checksum FROM "_prisma_migrations" WHERE migration_name = ? AND finished_at IS NOT NULL AND rolled_back_at IS NULL`,
          )
          .get(name) as { checksum: string } | undefined;
        if (done) {
          db.exec("COMMIT");
          if (done.checksum !== checksum) {
            process.emitWarning(`Migration ${name} was changed after it was applied.`);
          }
          continue;
        }
        const id = randomUUID();
        const now = Date.now();
        db.prepare(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES (?, ?, ?, ?, 0)`,
        ).run(id, checksum, name, now);
        db.exec(sql);
        db.prepare(`UPDATE "_prisma_migrations" SET finished_at = ?, applied_steps_count = 1 WHERE id = ?`).run(
          Date.now(),
          id,
        );
        db.exec("COMMIT");
        applied.push(name);
        options.onApply?.(name);
      } catch (error) {
        if (db.inTransaction) db.exec("ROLLBACK");
        throw new Error(
          `Migration ${name} failed: ${error instanceof Error ? error.message : String(error)}. The database was left as it was before this migration.`,
          { cause: error },
        );
      }
    }
    return { applied, total: names.length };
  } finally {
    db.close();
  }
}
