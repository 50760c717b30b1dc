// @engines sqlite postgres
// The PostgreSQL runtime on a real server (tests/helpers/postgres.ts): rows in the SQLite side's
// shapes, the settings on every connection, a transaction retried after a deadlock, and the
// Prisma client generated for PostgreSQL working through db().
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPostgres, openConnection } from "~/db/connection.server";
import { closePostgres, isRetryable, openPostgres, type Postgres, query, transaction } from "~/db/postgres.server";
import { db } from "~/db/prisma.server";
import { resetEnvCache } from "~/env.server";
import { createMigratedPostgresDatabase, type PostgresDatabase } from "../../tests/helpers/postgres";

let database: PostgresDatabase;
let pg: Postgres;

beforeAll(async () => {
  database = await createMigratedPostgresDatabase();
  pg = openPostgres(database.url, { poolSize: 4, statementTimeoutMs: 2_000, lockTimeoutMs: 500 });
}, 60_000);

afterAll(async () => {
  await pg.pool.end();
  await db().$disconnect();
  await closePostgres();
  delete process.env.DATABASE_URL;
  resetEnvCache();
  await database.drop();
});

describe("the PostgreSQL pool", () => {
  it("reads dates as unix milliseconds and bigint as numbers, as SQLite gives them", async () => {
    const [row] = await query<{ at: number; big: number; sum: number }>(
      pg,
      `SELECT $1::timestamptz AS at, 9007199254740991::bigint AS big, sum(x)::numeric AS sum FROM (VALUES (2), (3)) v(x)`,
      [new Date(Date.UTC(2026, 10, 26, 10, 31, 2, 123))],
    );
    expect(row).toEqual({ at: Date.UTC(2026, 10, 26, 10, 31, 2, 123), big: 9007199254740991, sum: 5 });
  });

  it("reads any date a customer may be given as unix milliseconds, whatever the server's time zone", async () => {
    // initdb gives a server its machine's zone; India's had offsets in seconds before 1906, and a
    // year before 1 AD prints with " BC", one after 9999 with five digits.
    const dates = [
      Date.UTC(2026, 10, 26, 10, 31, 2, 123),
      Date.UTC(1900, 0, 1),
      Date.UTC(1850, 5, 30, 23, 59, 59, 999),
      new Date("0001-01-01T00:00:00.000Z").getTime(),
      new Date("-000010-03-01T12:00:00.250Z").getTime(),
      new Date("+012345-01-01T00:00:00.000Z").getTime(),
    ];
    const client = await pg.pool.connect();
    try {
      for (const zone of ["UTC", "Asia/Kolkata", "America/St_Johns"]) {
        await client.query(`SET TIME ZONE '${zone}'`);
        for (const ms of dates) {
          const { rows } = await client.query<{ at: number }>(`SELECT $1::timestamptz AS at`, [new Date(ms)]);
          expect(rows[0].at, `${new Date(ms).toISOString()} in ${zone}`).toBe(ms);
        }
      }
    } finally {
      await client.query("RESET TIME ZONE");
      client.release();
    }
  });

  it("puts the statement and lock timeouts on every connection", async () => {
    const [row] = await query<{ statement: string; lock: string }>(
      pg,
      `SELECT current_setting('statement_timeout') AS statement, current_setting('lock_timeout') AS lock`,
    );
    expect(row).toEqual({ statement: "2s", lock: "500ms" });
    await expect(query(pg, "SELECT pg_sleep(3)")).rejects.toThrow(/statement timeout/);
  });

  it("prepares a statement asked to once per connection, by a name made from its text", async () => {
    const client = await pg.pool.connect();
    try {
      const sql = `SELECT $1::int + 1 AS "next"`;
      for (const n of [1, 2, 3]) expect(await query(client, sql, [n], { prepare: true })).toEqual([{ next: n + 1 }]);
      await query(client, `SELECT $1::int * 2 AS "double"`, [4], { prepare: true });
      await query(client, `SELECT $1::int - 1 AS "unnamed"`, [4]);
      const prepared = await query<{ name: string; statement: string }>(
        client,
        `SELECT "name", "statement" FROM pg_prepared_statements ORDER BY "statement"`,
      );
      // Two names, one a text; the statement run without `prepare` left nothing behind.
      expect(prepared.map((p) => p.statement)).toEqual([`SELECT $1::int * 2 AS "double"`, sql]);
      expect(prepared.every((p) => /^crm_[\w-]{27}$/.test(p.name))).toBe(true);
      expect(new Set(prepared.map((p) => p.name)).size).toBe(2);
    } finally {
      client.release();
    }
  });

  it("runs a transaction again when it loses a deadlock, so both writers succeed", async () => {
    await query(pg, `CREATE TABLE deadlock_probe (id int PRIMARY KEY, n int NOT NULL)`);
    await query(pg, `INSERT INTO deadlock_probe VALUES (1, 0), (2, 0)`);
    let tries = 0;
    const crossing = (first: number, second: number) =>
      transaction(pg, async (client) => {
        tries++;
        await client.query(`UPDATE deadlock_probe SET n = n + 1 WHERE id = $1`, [first]);
        await new Promise((r) => setTimeout(r, 150));
        await client.query(`UPDATE deadlock_probe SET n = n + 1 WHERE id = $1`, [second]);
      });
    await Promise.all([crossing(1, 2), crossing(2, 1)]);
    expect(tries).toBeGreaterThan(2);
    const rows = await query<{ id: number; n: number }>(pg, `SELECT id, n FROM deadlock_probe ORDER BY id`);
    expect(rows).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 2 },
    ]);
  });

  it("does not retry what is not the database's passing trouble", async () => {
    let tries = 0;
    await expect(
      transaction(pg, async (client) => {
        tries++;
        await client.query(`SELECT 1/0`);
      }),
    ).rejects.toThrow(/division by zero/);
    expect(tries).toBe(1);
    expect(isRetryable({ code: "40P01" })).toBe(true);
    expect(isRetryable({ code: "23505" })).toBe(false);
  });
});

describe("DATABASE_URL=postgres://", () => {
  it("gives model code a pool and the Prisma client generated for PostgreSQL", async () => {
    process.env.DATABASE_URL = database.url;
    resetEnvCache();
    const own = openConnection({ poolSize: 2 });
    try {
      expect(isPostgres(own)).toBe(true);
    } finally {
      if (isPostgres(own)) await own.pool.end();
    }
    const user = await db().user.create({
      data: { id: "a".repeat(24), email: "pg@example.com", displayName: "Asha" },
    });
    const found = await db().user.findUnique({ where: { id: user.id } });
    expect(found?.email).toBe("pg@example.com");
    expect(found?.createdAt).toBeInstanceOf(Date);
    const [raw] = await query<{ createdAt: number }>(pg, `SELECT "createdAt" FROM "User" WHERE id = $1`, [user.id]);
    expect(raw.createdAt).toBe(found?.createdAt.getTime());
  });

  it("reads dates through Prisma whatever zone the server was set up in", async () => {
    process.env.DATABASE_URL = database.url;
    resetEnvCache();
    // initdb takes the machine's zone; India's printed dates before 1906 with an offset in seconds,
    // which Prisma's adapter read as an invalid Date.
    await query(pg, `ALTER DATABASE "${database.name}" SET timezone = 'Asia/Kolkata'`);
    await db().$disconnect(); // connections made from now on take the database's zone
    const lastActive = new Date("1900-01-01T00:00:00.000Z");
    const user = await db().user.create({
      data: { id: "b".repeat(24), email: "zone@example.com", displayName: "Zone" },
    });
    await db().customer.create({
      data: {
        id: "c".repeat(24),
        userId: user.id,
        firstName: "Old",
        lastName: "Date",
        email: "old@example.in",
        lastActive,
      },
    });
    const read = await db().customer.findUniqueOrThrow({ where: { id: "c".repeat(24) } });
    expect(read.lastActive?.toISOString()).toBe(lastActive.toISOString());
  });
});
