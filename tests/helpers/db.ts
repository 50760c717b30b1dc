// A fresh, migrated SQLite database for one test file: real SQL, no mocks. Call at the top of a
// test file (module scope or beforeAll); every service then uses this copy through db().
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { migrateDatabase } from "~/db/migrate.server";
import { db } from "~/db.server";
import { resetEnvCache } from "~/env.server";
import { parseConditions } from "~/lib/segments";
import { upsertLocalUser } from "~/services/users.server";

export function useTestDatabase() {
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
