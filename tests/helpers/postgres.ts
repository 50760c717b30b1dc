// A real PostgreSQL for tests: one setting, TEST_POSTGRES_URL (default
// postgres://postgres@127.0.0.1:5432/postgres, the server .ci/run makes sure of), names a server
// and a database to connect to for administration; each test gets a fresh database of its own with
// a random name, migrated or empty, dropped after.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { migratePostgres } from "../../app/db/migrate-postgres.server";
import { adminPostgresUrl } from "../../prisma/engine";

export const TEST_POSTGRES_URL = adminPostgresUrl();

export type PostgresDatabase = { name: string; url: string; drop(): Promise<void> };

/** The URL of another database on the same server. */
export function databaseUrl(name: string, base = TEST_POSTGRES_URL): string {
  const u = new URL(base);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A new empty database with a random name; `drop()` removes it (connections and all). */
export async function createPostgresDatabase(prefix = "crm_test"): Promise<PostgresDatabase> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  return {
    name,
    url: databaseUrl(name),
    async drop() {
      const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A new database with every PostgreSQL migration applied. */
export async function createMigratedPostgresDatabase(prefix = "crm_test"): Promise<PostgresDatabase> {
  const db = await createPostgresDatabase(prefix);
  try {
    await migratePostgres(db.url);
  } catch (error) {
    await db.drop();
    throw error;
  }
  return db;
}
