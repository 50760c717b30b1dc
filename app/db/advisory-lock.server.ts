// Work that must run on one instance at a time when several share one PostgreSQL database
// (docs/decisions/0034-many-instances.md): the dashboard's snapshots, the bounce mailbox's poll,
// any scheduled job every instance's scheduler starts on its own timer. Each run takes a
// session-level advisory lock, named after the job, on a connection of its own, and runs only if
// it got it: another instance holding it means the work is being done there, so this run skips.
//
// The lock lives as long as its connection: released at the end of the run, and by the server
// when the holder dies (a process killed, a thread ended), since its connection closes with it.
// It is taken on a connection outside any pool because a pooled connection goes back to the pool
// with its session locks still held, for the next borrower to inherit.
//
// On SQLite there is one instance by construction (one file, one machine, the jobs started only by
// the primary process), so runOnceAcrossInstances() simply runs the work.
import { createHash } from "node:crypto";
import pg from "pg";
import { getEnv } from "~/env.server";

/** A lock held by this process: released by release(), or lost with its connection. */
export type HeldLock = {
  readonly name: string;
  readonly key: bigint;
  /** Aborted when the lock's connection is lost (the server dropped it, and the lock with it). */
  readonly signal: AbortSignal;
  /** Unlocks and closes the connection; safe to call twice or after the connection was lost. */
  release(): Promise<void>;
};

/** The outcome of a run under a lock: `ran: false` when another session held it. */
export type LockedRun<T> = { ran: true; value: T } | { ran: false };

const MAX_NAME_LENGTH = 200;

/**
 * The lock's key (pg_try_advisory_lock takes a bigint): the first 8 bytes of a SHA-256 of the name,
 * so every instance and every version of the product computes the same key for the same name.
 */
export function advisoryLockKey(name: string): bigint {
  if (typeof name !== "string" || name.trim() === "" || name.length > MAX_NAME_LENGTH) {
    throw new Error(`An advisory lock needs a name of 1 to ${MAX_NAME_LENGTH} characters.`);
  }
  return createHash("sha256").update(`crm:lock:${name}`).digest().readBigInt64BE(0);
}

/**
 * Tries to take the named lock on a new connection to `url`, without waiting: the lock, or null
 * when another session holds it (the connection is then closed at once).
 */
export async function tryAdvisoryLock(url: string, name: string): Promise<HeldLock | null> {
  const key = advisoryLockKey(name);
  const client = new pg.Client({
    connectionString: url,
    application_name: `crm lock ${name}`.slice(0, 63),
    connectionTimeoutMillis: 10_000,
    // A holder whose machine vanished is noticed by TCP keep-alive on both sides, not hours later.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  const lost = new AbortController();
  let released = false;
  // Without a listener a dropped connection's error would end the process.
  client.on("error", (error) => lost.abort(error));
  client.on("end", () => {
    if (!released) lost.abort(new Error(`The connection holding the lock "${name}" was lost.`));
  });
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw new Error(`Could not reach PostgreSQL to take the lock "${name}": ${(error as Error).message}`, {
      cause: error,
    });
  }
  let got: boolean;
  try {
    const result = await client.query<{ got: boolean }>("SELECT pg_try_advisory_lock($1::bigint) AS got", [
      key.toString(),
    ]);
    got = result.rows[0]?.got === true;
  } catch (error) {
    released = true;
    await client.end().catch(() => undefined);
    throw error;
  }
  if (!got) {
    released = true;
    await client.end().catch(() => undefined);
    return null;
  }
  return {
    name,
    key,
    signal: lost.signal,
    async release() {
      if (released) return;
      released = true;
      if (!lost.signal.aborted) {
        // Closing the session would free it too; unlocking first says so in the server's terms.
        await client.query("SELECT pg_advisory_unlock($1::bigint)", [key.toString()]).catch(() => undefined);
      }
      await client.end().catch(() => undefined);
    },
  };
}

/**
 * Runs `work` holding the named lock, or skips it (`ran: false`) when another session holds it.
 * `work` is given the lock's signal: a long run may stop early once it is aborted (the lock is
 * gone, so another instance may start the same work).
 */
export async function withAdvisoryLock<T>(
  url: string,
  name: string,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<LockedRun<T>> {
  const lock = await tryAdvisoryLock(url, name);
  if (!lock) return { ran: false };
  try {
    return { ran: true, value: await work(lock.signal) };
  } finally {
    await lock.release();
  }
}

/**
 * Runs a scheduled job's `work` on one instance at a time: on PostgreSQL under the advisory lock
 * `job:<name>` (skipped while another instance runs it), on SQLite simply (one instance).
 */
export async function runOnceAcrossInstances<T>(
  name: string,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<LockedRun<T>> {
  const env = getEnv();
  if (env.databaseEngine !== "postgres") return { ran: true, value: await work(new AbortController().signal) };
  return withAdvisoryLock(env.databaseUrl, `job:${name}`, work);
}
