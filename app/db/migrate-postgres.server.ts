// Applies the PostgreSQL migrations under prisma/migrations-postgres in order, each in its own
// transaction, and records each one in "_prisma_migrations" with the layout `prisma migrate deploy`
// uses on PostgreSQL (sha256 checksum of the file), as app/db/migrate.server.ts does on SQLite.
// Several instances starting at once are safe: the whole run holds a PostgreSQL advisory lock, so
// the first applies what is missing and the others wait, then find nothing to do.
// docs/decisions/0029-postgresql-schema-and-migrations.md.
import { createHash, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { findMigrationsDir, migrationNames } from "./migrate.server.ts";

export const POSTGRES_MIGRATIONS_DIR = findMigrationsDir("migrations-postgres");

/**
 * The PostgreSQL baseline: one migration holding the whole schema as the SQLite migrations up to
 * `coversThrough` left it (PostgreSQL had no databases before it, so replaying SQLite's history
 * step by step would only repeat it). Every later migration has the same directory name on both
 * engines. The runner writes what it covers into the baseline's record (its logs column).
 */
export const POSTGRES_BASELINE = {
  name: "20261122044310_init",
  coversThrough: "20261126074500_attribution_orders",
} as const;

/** One key for every instance of the product: pg_advisory_lock takes a bigint. */
export const MIGRATION_LOCK_KEY = 7_261_126_000_026n;

export type PostgresMigrationResult = { applied: string[]; total: number };

// Prisma's own table on PostgreSQL, column for column, so `prisma migrate status` can read it.
const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

/** Says what to check when the server does not answer, instead of pg's bare error code. */
export function describeConnectError(url: string, error: unknown): string {
  const code = (error as { code?: string } | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  let where = "the PostgreSQL server";
  try {
    const u = new URL(url);
    where = `PostgreSQL at ${u.hostname}:${u.port || "5432"} (database ${u.pathname.slice(1) || "postgres"}, user ${decodeURIComponent(u.username) || "the current user"})`;
  } catch {
    // The URL was validated by the caller; keep the generic wording.
  }
  if (code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "ETIMEDOUT" || code === "EHOSTUNREACH")
    return `Cannot reach ${where}: ${message}. Check that the server is running and listening there (pg_isready -h <host> -p <port>).`;
  if (code === "28P01" || code === "28000")
    return `${where} refused the sign-in: ${message}. Check the user and password in the URL, and pg_hba.conf.`;
  if (code === "3D000") return `${where}: ${message}. Create the database first (createdb), or name one that exists.`;
  return `Cannot use ${where}: ${message}.`;
}

export async function migratePostgres(
  url: string,
  options: { dir?: string; onApply?: (name: string) => void } = {},
): Promise<PostgresMigrationResult> {
  const dir = options.dir ?? POSTGRES_MIGRATIONS_DIR;
  const names = migrationNames(dir);
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    throw new Error(describeConnectError(url, error), { cause: error });
  }
  try {
    // Held for the whole run on this session: a second instance waits here, then sees every
    // migration recorded. Released below, or by the server when the connection ends.
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY.toString()]);
    await client.query(CREATE_TABLE);
    const applied: string[] = [];
    for (const name of names) {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      const checksum = createHash("sha256").update(sql).digest("hex");
      const done = await client.query<{ checksum: string }>(
        `SELECT checksum FROM "_prisma_migrations" WHERE migration_name = $1 AND finished_at IS NOT NULL AND rolled_back_at IS NULL`,
        [name],
      );
      if (done.rows[0]) {
        if (done.rows[0].checksum !== checksum)
          process.emitWarning(`PostgreSQL migration ${name} was changed after it was applied.`);
        continue;
      }
      const id = randomUUID();
      const logs =
        name === POSTGRES_BASELINE.name && dir === POSTGRES_MIGRATIONS_DIR
          ? `Baseline: the schema of the SQLite migrations through ${POSTGRES_BASELINE.coversThrough}.`
          : null;
      await client.query("BEGIN");
      try {
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, logs, started_at, applied_steps_count) VALUES ($1, $2, $3, $4, now(), 0)`,
          [id, checksum, name, logs],
        );
        await client.query(sql);
        await client.query(
          `UPDATE "_prisma_migrations" SET finished_at = clock_timestamp(), applied_steps_count = 1 WHERE id = $1`,
          [id],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw new Error(
          `PostgreSQL migration ${name} failed: ${error instanceof Error ? error.message : String(error)}. The database was left as it was before this migration.`,
          { cause: error },
        );
      }
      applied.push(name);
      options.onApply?.(name);
    }
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY.toString()]);
    return { applied, total: names.length };
  } finally {
    await client.end().catch(() => {});
  }
}
