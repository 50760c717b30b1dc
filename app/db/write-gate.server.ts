// One writer at a time in this thread, and the SQLite write lock taken without stopping the event
// loop ([decision 0020](../../docs/decisions/0020-one-writer-per-thread.md)).
//
// The thread that answers requests holds two read-write connections (Prisma's and the raw writer
// for the campaign controls). A transaction on one of them stays open across awaits, so a write on
// the other in the same thread would wait in SQLite's busy handler for a lock that only this
// thread can release: the event loop stops, the open transaction cannot finish, and both fail
// after the busy timeout. The gate queues every write of the thread instead, and whoever holds it
// takes SQLite's write lock with `BEGIN IMMEDIATE` tried again on a timer while another thread or
// process (the delivery job, an import) has it, so the event loop keeps answering meanwhile.
import type Database from "better-sqlite3";
import { singleton } from "~/lib/singleton.server";

/** How long a write waits for the lock before it is refused (the busy timeout of every connection). */
export const WRITE_LOCK_TIMEOUT_MS = 10_000;

export type Release = () => void;

export type WriteGate = {
  /** Resolves with the release once every earlier holder has released, in the order asked. */
  acquire(): Promise<Release>;
  /** Whether someone holds the gate now. */
  readonly held: boolean;
};

export function createWriteGate(): WriteGate {
  let tail: Promise<void> = Promise.resolve();
  let holders = 0;
  return {
    acquire() {
      let release!: Release;
      const next = new Promise<void>((resolve) => {
        release = () => {
          holders--;
          resolve();
        };
      });
      const ready = tail.then(() => {
        holders++;
        return once(release);
      });
      tail = tail.then(() => next);
      return ready;
    },
    get held() {
      return holders > 0;
    },
  };
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}

/** This thread's gate (each worker thread and process has its own module state). */
export function writeGate(): WriteGate {
  return singleton("write-gate", createWriteGate);
}

export class WriteLockTimeout extends Error {
  constructor() {
    super(`The database stayed locked by another writer for ${WRITE_LOCK_TIMEOUT_MS / 1000} s.`);
  }
}

/** SQLITE_BUSY and its extended codes (BUSY_SNAPSHOT, BUSY_RECOVERY, BUSY_TIMEOUT). */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How often a writer asks for the lock again while another thread holds it. */
export const LOCK_RETRY_MS = 1;

/**
 * Runs `attempt` until it stops answering SQLITE_BUSY, asking again every LOCK_RETRY_MS (the
 * delivery job leaves the lock free for a moment between its transactions, and a writer that asks
 * often takes it then), for at most the write-lock timeout. `attempt` must change nothing when it
 * fails busy (a single statement, or `BEGIN IMMEDIATE`), and its connection must not wait in
 * SQLite's busy handler itself (busy_timeout 0), or the event loop would stop there instead.
 */
export async function retryWhileBusy<T>(
  attempt: () => T | Promise<T>,
  isBusyError: (e: unknown) => boolean = isBusy,
): Promise<T> {
  const deadline = Date.now() + WRITE_LOCK_TIMEOUT_MS;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (!isBusyError(error)) throw error;
      if (Date.now() >= deadline) throw new WriteLockTimeout();
    }
    await pause(LOCK_RETRY_MS);
  }
}

/**
 * A write transaction on a raw connection of this thread: takes the gate, then SQLite's write lock
 * (`BEGIN IMMEDIATE`, tried again on a timer), runs `work` synchronously inside it and commits.
 * `work` may use better-sqlite3's own `.transaction()` helpers: inside an open transaction they
 * become savepoints. The connection must have busy_timeout 0 (see `openSqlite({ busyTimeoutMs })`).
 */
export async function writeTransaction<T>(sqlite: Database.Database, work: () => T): Promise<T> {
  const release = await writeGate().acquire();
  try {
    await retryWhileBusy(() => sqlite.exec("BEGIN IMMEDIATE"));
    try {
      const result = work();
      sqlite.exec("COMMIT");
      return result;
    } catch (error) {
      if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
      throw error;
    }
  } finally {
    release();
  }
}
