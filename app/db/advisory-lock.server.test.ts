// Work that runs on one instance at a time (app/db/advisory-lock.server.ts), on a real PostgreSQL
// database of the file's own and real processes (tests/helpers/instances.ts): of two processes
// starting one job at once, one runs it and the other skips; a lock is free again when its holder
// releases it, when its holder is killed, and its holder hears when its connection is lost.
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase, type PostgresDatabase } from "../../tests/helpers/postgres";
import { type Instance, startInstance } from "../../tests/helpers/instances";
import { resetEnvCache } from "~/env.server";
import { advisoryLockKey, runOnceAcrossInstances, tryAdvisoryLock, withAdvisoryLock } from "~/db/advisory-lock.server";

let database: PostgresDatabase;
let admin: pg.Client;
const instances: Instance[] = [];

beforeAll(async () => {
  database = await createPostgresDatabase("crm_lock");
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
});

afterEach(async () => {
  await Promise.all(instances.splice(0).map((i) => i.stop()));
});

afterAll(async () => {
  await admin?.end();
  await database?.drop();
});

async function instance(): Promise<Instance> {
  const started = await startInstance(database.url);
  instances.push(started);
  return started;
}

/** The server processes holding the named lock now. */
async function holders(name: string): Promise<number[]> {
  const key = advisoryLockKey(name);
  // A bigint key is held as two 32-bit halves (classid high, objid low) with objsubid 1.
  const high = Number(BigInt.asUintN(32, key >> 32n));
  const low = Number(BigInt.asUintN(32, key));
  const { rows } = await admin.query<{ pid: number }>(
    `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1
       AND classid::text::bigint = $1 AND objid::text::bigint = $2`,
    [high, low],
  );
  return rows.map((r) => r.pid);
}

describe("advisory locks", () => {
  it("keys a name the same way everywhere and refuses an empty or overlong name", () => {
    expect(advisoryLockKey("job:snapshots")).toBe(2994230009595667529n);
    expect(advisoryLockKey("job:snapshots")).not.toBe(advisoryLockKey("job:bounce-mailbox"));
    expect(() => advisoryLockKey("")).toThrow(/1 to 200 characters/);
    expect(() => advisoryLockKey("x".repeat(201))).toThrow(/1 to 200 characters/);
  });

  it("of two processes starting one job at once, one runs it and the other skips; later runs take turns", async () => {
    const [a, b] = await Promise.all([instance(), instance()]);
    const first = await Promise.all([
      a.call<{ ran: boolean; value?: number }>({ cmd: "runJob", name: "snapshots", workMs: 800 }),
      b.call<{ ran: boolean; value?: number }>({ cmd: "runJob", name: "snapshots", workMs: 800 }),
    ]);
    expect(first.filter((r) => r.ran)).toHaveLength(1);
    expect(first.filter((r) => !r.ran)).toEqual([{ ran: false }]);
    expect([a.pid, b.pid]).toContain(first.find((r) => r.ran)?.value);
    // Released at the end of the run: each process in turn runs it alone.
    expect(await b.call({ cmd: "runJob", name: "snapshots", workMs: 10 })).toEqual({ ran: true, value: b.pid });
    expect(await a.call({ cmd: "runJob", name: "snapshots", workMs: 10 })).toEqual({ ran: true, value: a.pid });
    // Another job's lock is another key: both run at once.
    const apart = await Promise.all([
      a.call<{ ran: boolean }>({ cmd: "runJob", name: "snapshots", workMs: 300 }),
      b.call<{ ran: boolean }>({ cmd: "runJob", name: "bounce-mailbox", workMs: 300 }),
    ]);
    expect(apart.map((r) => r.ran)).toEqual([true, true]);
    expect(await holders("job:snapshots")).toEqual([]);
  });

  it("a lock another process holds is refused until that process releases it", async () => {
    const holder = await instance();
    expect(await holder.call({ cmd: "lock", name: "mailbox" })).toEqual({ got: true });
    expect(await holders("mailbox")).toHaveLength(1);
    expect(await tryAdvisoryLock(database.url, "mailbox")).toBeNull();
    expect(await withAdvisoryLock(database.url, "mailbox", async () => "ran")).toEqual({ ran: false });
    await holder.call({ cmd: "release", name: "mailbox" });
    expect(await withAdvisoryLock(database.url, "mailbox", async () => "ran")).toEqual({ ran: true, value: "ran" });
    // withAdvisoryLock released it on the way out, and closed its connection.
    expect(await holders("mailbox")).toEqual([]);
  });

  it("a holder killed with SIGKILL frees the lock as its connection closes", async () => {
    const holder = await instance();
    expect(await holder.call({ cmd: "lock", name: "crash" })).toEqual({ got: true });
    expect(await tryAdvisoryLock(database.url, "crash")).toBeNull();
    const killedAt = Date.now();
    await holder.kill();
    let lock = await tryAdvisoryLock(database.url, "crash");
    while (!lock && Date.now() - killedAt < 5_000) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      lock = await tryAdvisoryLock(database.url, "crash");
    }
    const freedInMs = Date.now() - killedAt;
    expect(lock).not.toBeNull();
    // The kernel closes a killed process's sockets: the server ends its session at once.
    expect(freedInMs).toBeLessThan(2_000);
    await lock?.release();
  });

  it("the holder's signal is aborted when the server ends its connection, and the lock is free again", async () => {
    const lock = await tryAdvisoryLock(database.url, "terminated");
    expect(lock).not.toBeNull();
    const [pid] = await holders("terminated");
    expect(pid).toBeGreaterThan(0);
    const aborted = new Promise<unknown>((resolve) =>
      lock?.signal.addEventListener("abort", () => resolve(lock.signal.reason)),
    );
    await admin.query("SELECT pg_terminate_backend($1)", [pid]);
    expect(await aborted).toBeInstanceOf(Error);
    const again = await tryAdvisoryLock(database.url, "terminated");
    expect(again).not.toBeNull();
    await again?.release();
    await lock?.release(); // after the loss: nothing to unlock, no error
  });

  it("a work that throws releases the lock and passes the error on", async () => {
    await expect(
      withAdvisoryLock(database.url, "throws", async () => {
        throw new Error("the job failed");
      }),
    ).rejects.toThrow("the job failed");
    expect(await holders("throws")).toEqual([]);
  });

  it("an unreachable database is said in words, with the lock's name", async () => {
    await expect(tryAdvisoryLock("postgres://postgres@127.0.0.1:1/none", "job:snapshots")).rejects.toThrow(
      /Could not reach PostgreSQL to take the lock "job:snapshots"/,
    );
  });

  it("on SQLite a job simply runs (one instance by construction)", async () => {
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = "file:/tmp/crm-advisory-lock-test-unused.db";
    resetEnvCache();
    try {
      expect(await runOnceAcrossInstances("snapshots", async () => 42)).toEqual({ ran: true, value: 42 });
    } finally {
      if (saved === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = saved;
      resetEnvCache();
    }
  });
});
