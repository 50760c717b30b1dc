// `crm db migrate --url postgres://…` as an admin runs it, on a real PostgreSQL database of the
// test's own (tests/helpers/postgres.ts): what it applied, then up to date; bad input and an
// unreachable server get a message saying what to fix; the server's setting still refuses
// postgres:// and names this command.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { migrationNames } from "../../app/db/migrate.server";
import { POSTGRES_MIGRATIONS_DIR } from "../../app/db/migrate-postgres.server";
import { createPostgresDatabase } from "../../tests/helpers/postgres";
import { runCli } from "../run-cli";

const dataDir = mkdtempSync(path.join(tmpdir(), "crm-cli-db-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const SECRET = "cli-db-test-secret-that-is-long-enough-for-hs256";
const crm = (argv: string[], env: Record<string, string> = {}) =>
  runCli(dataDir, argv, { env: { SESSION_SECRET: SECRET, ...env } });

describe("crm db migrate --url", () => {
  it("applies the PostgreSQL migrations and prints them, then reports the database up to date", async () => {
    const db = await createPostgresDatabase("crm_cli");
    try {
      const names = migrationNames(POSTGRES_MIGRATIONS_DIR);
      const first = await crm(["db", "migrate", "--url", db.url]);
      expect(first.stderr).toBe("");
      expect(first.code).toBe(0);
      for (const name of names) expect(first.stdout).toContain(`Applied ${name}`);
      expect(first.stdout).toContain(`Applied ${names.length} of ${names.length} PostgreSQL migrations to`);

      const second = await crm(["db", "migrate", "--url", db.url]);
      expect(second.code).toBe(0);
      expect(second.stdout).toContain(`is up to date (${names.length} PostgreSQL migrations)`);

      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      const tables = await client.query(`SELECT to_regclass('"Customer"') AS t`);
      await client.end();
      expect(tables.rows[0].t).toBe('"Customer"');
    } finally {
      await db.drop();
    }
  }, 60_000);

  it("refuses a URL that is not PostgreSQL's, and says what it wants", async () => {
    const run = await crm(["db", "migrate", "--url", "mysql://root@localhost/crm"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("--url must be a PostgreSQL URL like postgres://user:password@host:5432/crm");
    const noDb = await crm(["db", "migrate", "--url", "postgres://postgres@127.0.0.1:5432"]);
    expect(noDb.code).toBe(1);
    expect(noDb.stderr).toContain("--url must name a host and a database");
  });

  it("says what to check when nothing answers, and hides the password", async () => {
    const run = await crm(["db", "migrate", "--url", "postgres://crm:s3cret@127.0.0.1:1/crm"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Cannot reach PostgreSQL at 127.0.0.1:1 (database crm, user crm)");
    expect(run.stderr).toContain("Check that the server is running");
    expect(run.stderr).not.toContain("s3cret");
  });

  it("without --url, DATABASE_URL=postgres://… is still refused, naming the command that works today", async () => {
    const run = await crm(["db", "migrate"], { DATABASE_URL: "postgres://postgres@127.0.0.1:5432/crm" });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("PostgreSQL is coming, but the server cannot run on it yet");
    expect(run.stderr).toContain("crm db migrate --url postgres://");
  });
});
