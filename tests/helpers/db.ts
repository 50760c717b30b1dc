// A fresh, migrated database for one test file: real SQL, no mocks. Call at the top of a test
// file (module scope); every service then uses this copy through db(). A SQLite file, or with
// TEST_DATABASE_ENGINE=postgres (the "postgres" project of vite.config.ts, tests/postgres-suite.ts)
// a PostgreSQL database of its own on TEST_POSTGRES_URL's server, created before the file's first
// test and dropped after its last.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { type AnyConnection, closeConnection, openConnection } from "~/db/connection.server";
import { migrateDatabase } from "~/db/migrate.server";
import { closePostgres } from "~/db/postgres.server";
import { db } from "~/db/prisma.server";
import { resetEnvCache } from "~/env.server";
import { createMigratedPostgresDatabase, type PostgresDatabase } from "./postgres";
import { parseConditions } from "~/lib/segment-parse";
import { upsertLocalUser } from "~/services/users.server";

/** The engine this run's useTestDatabase() gives. */
export const TEST_ENGINE: "sqlite" | "postgres" =
  process.env.TEST_DATABASE_ENGINE === "postgres" ? "postgres" : "sqlite";

export function useTestDatabase() {
  if (TEST_ENGINE === "postgres") return postgresTestDatabase();
  const dir = mkdtempSync(path.join(tmpdir(), "crm-test-"));
  const file = path.join(dir, "test.db");
  process.env.DATABASE_URL = `file:${file}`;
  process.env.DATA_DIR = dir;
  process.env.SESSION_SECRET ??= "test-secret-that-is-at-least-32-characters-long";
  resetEnvCache();
  migrateDatabase(file);
  afterAll(async () => {
    await db().$disconnect();
    rmSync(dir, { recursive: true, force: true });
  });
  return { file, dir };
}

function postgresTestDatabase() {
  const dir = mkdtempSync(path.join(tmpdir(), "crm-test-"));
  process.env.DATA_DIR = dir;
  process.env.SESSION_SECRET ??= "test-secret-that-is-at-least-32-characters-long";
  let database: PostgresDatabase | undefined;
  beforeAll(async () => {
    database = await createMigratedPostgresDatabase();
    process.env.DATABASE_URL = database.url;
    resetEnvCache();
  });
  afterAll(async () => {
    await db().$disconnect();
    await closePostgres();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });
  return { file: "", dir };
}

/**
 * A connection of the test file's own to its database (either engine), as a worker thread opens
 * one: opened once the database exists, closed after the file's tests. Call at module scope after
 * useTestDatabase(); the function it returns gives the connection inside tests.
 */
export function useTestConnection(): () => AnyConnection {
  let connection: AnyConnection | undefined;
  beforeAll(() => {
    connection = openConnection({ poolSize: 4 });
  });
  afterAll(async () => {
    if (connection) await closeConnection(connection);
  });
  return () => {
    if (!connection) throw new Error("useTestConnection(): the connection opens before the file's first test");
    return connection;
  };
}

let counter = 0;
/** A signed-up user (local account), unique per call. */
export async function createTestUser(name = "Test User") {
  counter += 1;
  return upsertLocalUser({ name, email: `user${counter}-${Date.now()}@example.com` });
}

/** A segment tree from its conditions, as the API would parse them (throws on bad ones). */
export function segmentTree(conditions: unknown) {
  const parsed = parseConditions(conditions);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.tree;
}
