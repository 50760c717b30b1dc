// The PostgreSQL runner on a real server (tests/helpers/postgres.ts): each migration once, even with
// three instances starting together; recorded as prisma migrate deploy records them; a failing
// migration leaves the database as it was and is named.
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../../tests/helpers/postgres";
import { migrationNames } from "./migrate.server";
import { POSTGRES_BASELINE, POSTGRES_MIGRATIONS_DIR, migratePostgres } from "./migrate-postgres.server";

const scratch = mkdtempSync(path.join(tmpdir(), "crm-migrate-pg-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function rows(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe("migratePostgres", () => {
  it("three runners started at once on a fresh database apply each migration exactly once", async () => {
    const db = await createPostgresDatabase("crm_migrate");
    try {
      const results = await Promise.all([1, 2, 3].map(() => migratePostgres(db.url)));
      const names = migrationNames(POSTGRES_MIGRATIONS_DIR);
      expect(results.flatMap((r) => r.applied).sort()).toEqual(names);
      expect(results.filter((r) => r.applied.length > 0)).toHaveLength(1);
      const recorded = await rows(
        db.url,
        `SELECT migration_name, checksum, finished_at, applied_steps_count, logs FROM "_prisma_migrations" ORDER BY migration_name`,
      );
      expect(recorded.map((r) => r.migration_name)).toEqual(names);
      for (const r of recorded) {
        const file = readFileSync(path.join(POSTGRES_MIGRATIONS_DIR, r.migration_name, "migration.sql"));
        expect(r.checksum).toBe(createHash("sha256").update(file).digest("hex"));
        expect(r.finished_at).toBeInstanceOf(Date);
        expect(r.applied_steps_count).toBe(1);
      }
      expect(recorded[0].logs).toContain(POSTGRES_BASELINE.coversThrough);
      const again = await migratePostgres(db.url);
      expect(again).toEqual({ applied: [], total: names.length });
    } finally {
      await db.drop();
    }
  }, 120_000);

  it("a failing migration is rolled back, named in the error, and not recorded", async () => {
    const dir = path.join(scratch, "broken");
    cpSync(POSTGRES_MIGRATIONS_DIR, dir, { recursive: true });
    mkdirSync(path.join(dir, "99999999999999_broken"));
    writeFileSync(
      path.join(dir, "99999999999999_broken", "migration.sql"),
      `CREATE TABLE "Half" (id TEXT PRIMARY KEY);\nALTER TABLE "NoSuchTable" ADD COLUMN x TEXT;\n`,
    );
    const db = await createPostgresDatabase("crm_migrate");
    try {
      await expect(migratePostgres(db.url, { dir })).rejects.toThrow(
        /PostgreSQL migration 99999999999999_broken failed: .*"NoSuchTable" does not exist/,
      );
      const half = await rows(db.url, `SELECT to_regclass('"Half"') AS t`);
      expect(half[0].t).toBeNull();
      const names = (await rows(db.url, `SELECT migration_name FROM "_prisma_migrations"`)).map(
        (r) => r.migration_name,
      );
      expect(names).toEqual(migrationNames(POSTGRES_MIGRATIONS_DIR));
    } finally {
      await db.drop();
    }
  }, 120_000);

  it("says what to check when the server does not answer", async () => {
    await expect(migratePostgres("postgres://postgres@127.0.0.1:1/crm")).rejects.toThrow(
      /Cannot reach PostgreSQL at 127\.0\.0\.1:1 .*Check that the server is running/,
    );
  });
});
