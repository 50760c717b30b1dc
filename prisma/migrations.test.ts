// The migration files are the database's source of truth at run time; schema.prisma is what the
// code is generated from. This proves they agree (Prisma's own schema engine finds nothing to
// change), and that the runner records migrations the way `prisma migrate deploy` does.
import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MIGRATIONS_DIR, migrateDatabase, migrationNames } from "../app/db/migrate.server";
import { createDb, tuneDatabase } from "../app/db/prisma.server";
import { diffDatabaseToSchema, isEmptyDiff, openEngine } from "./engine";

const scratch = mkdtempSync(path.join(tmpdir(), "crm-migrations-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Row = {
  migration_name: string;
  checksum: string;
  finished_at: number | null;
  rolled_back_at: number | null;
  applied_steps_count: number;
  started_at: number;
};

describe("migrations", () => {
  it("a fresh database migrated from the files matches schema.prisma (the engine's diff is empty)", async () => {
    const file = path.join(scratch, "fresh.db");
    const result = migrateDatabase(file);
    expect(result.applied).toEqual(migrationNames());
    expect(result.total).toBeGreaterThan(0);
    const engine = await openEngine(file);
    const sql = await diffDatabaseToSchema(engine);
    expect(
      isEmptyDiff(sql),
      `schema.prisma and prisma/migrations differ; run npm run db:migration -- <name>:\n${sql}`,
    ).toBe(true);
  }, 120_000);

  it("the check can fail: a database missing the latest migration is not empty-diff", async () => {
    const names = migrationNames();
    const partialDir = path.join(scratch, "partial");
    for (const name of names.slice(0, 1))
      cpSync(path.join(MIGRATIONS_DIR, name), path.join(partialDir, name), { recursive: true });
    const file = path.join(scratch, "partial.db");
    migrateDatabase(file, { dir: partialDir });
    const engine = await openEngine(file);
    const sql = await diffDatabaseToSchema(engine);
    expect(names.length > 1 ? isEmptyDiff(sql) : false).toBe(false);
  }, 120_000);

  it("records every migration in _prisma_migrations with the file's sha256, and re-running applies nothing", () => {
    const file = path.join(scratch, "recorded.db");
    const applied: string[] = [];
    migrateDatabase(file, { onApply: (name) => applied.push(name) });
    expect(applied).toEqual(migrationNames());

    const sqlite = new Database(file, { readonly: true });
    const rows = sqlite.prepare(`SELECT * FROM "_prisma_migrations" ORDER BY migration_name`).all() as Row[];
    sqlite.close();
    expect(rows.map((r) => r.migration_name)).toEqual(migrationNames());
    for (const row of rows) {
      const content = readFileSync(path.join(MIGRATIONS_DIR, row.migration_name, "migration.sql"));
      expect(row.checksum).toBe(createHash("sha256").update(content).digest("hex"));
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(row.finished_at).not.toBeNull();
      expect(row.rolled_back_at).toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }

    const again = migrateDatabase(file);
    expect(again.applied).toEqual([]);
    expect(again.total).toBe(rows.length);
    const check = new Database(file, { readonly: true });
    expect((check.prepare(`SELECT COUNT(*) AS n FROM "_prisma_migrations"`).get() as { n: number }).n).toBe(
      rows.length,
    );
    check.close();
  });

  it("a failing migration is rolled back and named in the error", () => {
    const dir = path.join(scratch, "broken");
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    const brokenName = "99999999999999_broken";
    cpSync(path.join(dir, migrationNames(dir)[0]), path.join(dir, brokenName), { recursive: true });
    const file = path.join(scratch, "broken.db");
    // The copy of the first migration creates tables that already exist.
    expect(() => migrateDatabase(file, { dir })).toThrow(/Migration 99999999999999_broken failed: .*already exists/);
    const sqlite = new Database(file, { readonly: true });
    const names = (sqlite.prepare(`SELECT migration_name FROM "_prisma_migrations"`).all() as Row[]).map(
      (r) => r.migration_name,
    );
    sqlite.close();
    expect(names).not.toContain(brokenName);
    expect(names).toEqual(migrationNames());
  });

  it("the app's connection runs with WAL and enforces foreign keys", async () => {
    const file = path.join(scratch, "pragmas.db");
    migrateDatabase(file);
    const client = createDb(file);
    try {
      await tuneDatabase(client);
      const [{ journal_mode }] = await client.$queryRawUnsafe<{ journal_mode: string }[]>("PRAGMA journal_mode");
      expect(journal_mode).toBe("wal");
      await expect(
        client.$executeRawUnsafe(
          `INSERT INTO "Notification" (id, userId, type, title) VALUES ('n1', 'no-such-user', 'SYSTEM', 't')`,
        ),
      ).rejects.toThrow(/FOREIGN KEY/i);
    } finally {
      await client.$disconnect();
    }
  });
});
