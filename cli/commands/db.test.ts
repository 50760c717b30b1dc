// `crm db migrate --url postgres://…` and `crm db copy --to postgres://…` as an admin runs them, on
// real PostgreSQL databases of the test's own (tests/helpers/postgres.ts): what they applied or
// copied, then up to date or refused; bad input and an unreachable server get a message saying
// what to fix, never a stack; without --url, DATABASE_URL=postgres:// is the database migrated.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { COPY_TABLES } from "../../app/db/copy-tables.server";
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

  it("without --url, migrates the PostgreSQL database DATABASE_URL names, as the server does at start", async () => {
    const db = await createPostgresDatabase("crm_cli");
    try {
      const names = migrationNames(POSTGRES_MIGRATIONS_DIR);
      const run = await crm(["db", "migrate"], { DATABASE_URL: db.url });
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`Applied ${names.length} of ${names.length} PostgreSQL migrations to`);
      const again = await crm(["db", "migrate"], { DATABASE_URL: db.url });
      expect(again.stdout).toContain(`is up to date (${names.length} PostgreSQL migrations)`);
    } finally {
      await db.drop();
    }
  }, 60_000);
});

describe("crm db copy --to", () => {
  it("copies a seeded install with progress bars and the checks, says what to set next, then refuses a second run", async () => {
    const install = mkdtempSync(path.join(tmpdir(), "crm-cli-copy-"));
    const db = await createPostgresDatabase("crm_cli_copy");
    const here = (argv: string[]) => runCli(install, argv, { env: { SESSION_SECRET: SECRET } });
    try {
      expect((await here(["db", "migrate"])).code).toBe(0);
      expect((await here(["users", "create", "--email", "owner@example.com", "--name", "Owner"])).code).toBe(0);
      const seeded = await here([
        "seed",
        "--user",
        "owner@example.com",
        "--customers",
        "800",
        "--orders",
        "300",
        "--campaigns",
        "1",
        "--seed",
        "3",
      ]);
      expect(seeded.code, seeded.stderr).toBe(0);

      const url = db.url.replace("postgres://postgres@", "postgres://postgres:s3cret@");
      const copy = await here(["db", "copy", "--to", url]);
      expect(copy.code, copy.stderr).toBe(0);
      expect(copy.stdout).toContain("Applied 20261122044310_init");
      expect(copy.stderr).toMatch(/Customer\s+\[.*\] 100% \| 800\/800/);
      expect(copy.stderr).toMatch(/Order\s+\[.*\] 100% \| 300\/300/);
      expect(copy.stderr).toMatch(/Checks\s+\[.*\] 100%/);
      expect(copy.stdout).toMatch(
        new RegExp(
          `Copied ${COPY_TABLES.length} tables \\([\\d,]+ rows\\) from .*crm\\.db to postgres://postgres:\\*\\*\\*@`,
        ),
      );
      expect(copy.stdout).toMatch(/^ {2}Customer\s+800 rows; totalSpendPaise [\d,]+, visits [\d,]+$/m);
      expect(copy.stdout).toMatch(/All [\d,]+ figures equal/);
      expect(copy.stdout).toContain("DeliveryEvent.id goes on from 1");
      expect(copy.stdout).toContain(
        `DATABASE_URL=${db.url.replace("postgres://postgres@", "postgres://postgres:***@")}`,
      );
      expect(copy.stdout).toContain("Keep DATA_DIR as it is");
      expect(copy.stdout + copy.stderr).not.toContain("s3cret");

      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      const count = async () => (await client.query(`SELECT count(*)::int AS n FROM "Customer"`)).rows[0].n as number;
      try {
        expect(await count()).toBe(800);
        const again = await here(["db", "copy", "--to", db.url]);
        expect(again.code).toBe(1);
        expect(again.stderr).toContain("already holds data");
        expect(again.stderr).toContain("Nothing was changed.");
        expect(again.stderr).not.toMatch(/^\s+at /m);
        expect(await count()).toBe(800);
      } finally {
        await client.end();
      }
    } finally {
      await db.drop();
      rmSync(install, { recursive: true, force: true });
    }
  }, 120_000);

  it("refuses a URL that is not PostgreSQL's, a server that does not answer and a missing file, each saying why", async () => {
    const [bad, noDb, missing] = await Promise.all([
      crm(["db", "copy", "--to", "mysql://root@localhost/crm"]),
      crm(["db", "copy", "--to", "postgres://postgres@127.0.0.1:5432"]),
      crm(["db", "copy", "--to", "postgres://crm:s3cret@127.0.0.1:1/crm", "--from", path.join(dataDir, "none.db")]),
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("--to must be a PostgreSQL URL like postgres://user:password@host:5432/crm");
    expect(noDb.stderr).toContain("--to must name a host and a database");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/No SQLite database at .*none\.db\. Name the install's file with --from <file>/);
    expect(missing.stderr).not.toContain("s3cret");

    const made = await crm(["db", "migrate"]);
    expect(made.code, made.stderr).toBe(0);
    const unreachable = await crm(["db", "copy", "--to", "postgres://crm:s3cret@127.0.0.1:1/crm"]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain("Cannot reach PostgreSQL at 127.0.0.1:1 (database crm, user crm)");
    expect(unreachable.stderr).not.toContain("s3cret");
    for (const run of [bad, noDb, missing, unreachable]) expect(run.stderr).not.toMatch(/^\s+at /m);
  });
});
