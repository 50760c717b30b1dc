// isDatabaseUnavailable() against the errors the real drivers throw: a PostgreSQL that refuses the
// connection, a backend the server ends (pg_terminate_backend: 57P01, or pg's own message), Prisma's
// code for a server it cannot reach, a SQLite file that cannot be opened and a write lock waited
// out; and not the errors of a request that is wrong (a syntax error, a unique violation).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresDb } from "~/db/prisma.server";
import { WriteLockTimeout } from "~/db/write-gate.server";
import { TEST_POSTGRES_URL } from "../../../tests/helpers/postgres";
import { isDatabaseUnavailable } from "./store.server";

const dir = mkdtempSync(path.join(tmpdir(), "crm-unavailable-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function thrown(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}

describe("isDatabaseUnavailable", () => {
  it("PostgreSQL: a refused connection, on the raw pool and through Prisma", async () => {
    // Nothing listens on port 1.
    const raw = new pg.Client({ connectionString: "postgres://postgres@127.0.0.1:1/postgres" });
    expect(isDatabaseUnavailable(await thrown(() => raw.connect()))).toBe(true);
    const prisma = createPostgresDb("postgres://postgres@127.0.0.1:1/postgres");
    try {
      expect(isDatabaseUnavailable(await thrown(() => prisma.user.count()))).toBe(true);
    } finally {
      await prisma.$disconnect();
    }
  });

  it("PostgreSQL: a backend the server ends (57P01), and not a wrong query", async () => {
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    client.on("error", () => undefined);
    await client.connect();
    expect(isDatabaseUnavailable(await thrown(() => client.query("SELEC 1")))).toBe(false);
    const pid = (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0].pid;
    const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    try {
      const ended = thrown(() => client.query("SELECT pg_sleep(5)"));
      await new Promise((resolve) => setTimeout(resolve, 100));
      await admin.query("SELECT pg_terminate_backend($1)", [pid]);
      expect(isDatabaseUnavailable(await ended)).toBe(true);
      // The client is broken now: its next query fails the same way.
      expect(isDatabaseUnavailable(await thrown(() => client.query("SELECT 1")))).toBe(true);
    } finally {
      await admin.end();
      await client.end().catch(() => undefined);
    }
  });

  it("SQLite: a file that cannot be opened, a write lock waited out; not a constraint", async () => {
    // A directory where the file should be: SQLITE_CANTOPEN.
    const cannotOpen = await thrown(() => new Database(dir).prepare("SELECT 1").get());
    expect((cannotOpen as { code?: string }).code).toBe("SQLITE_CANTOPEN");
    expect(isDatabaseUnavailable(cannotOpen)).toBe(true);
    expect(isDatabaseUnavailable(new WriteLockTimeout())).toBe(true);
    const sqlite = new Database(path.join(dir, "crm.db"));
    try {
      sqlite.exec("CREATE TABLE t (id INTEGER PRIMARY KEY)");
      sqlite.exec("INSERT INTO t VALUES (1)");
      expect(isDatabaseUnavailable(await thrown(() => sqlite.exec("INSERT INTO t VALUES (1)")))).toBe(false);
    } finally {
      sqlite.close();
    }
  });

  it("looks through causes and aggregated errors", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    expect(isDatabaseUnavailable(new Error("wrapped", { cause: refused }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([new Error("other"), refused]))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Something else"))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});
