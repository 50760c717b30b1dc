// The one Prisma client. SQLite through the better-sqlite3 driver adapter behind this thread's
// write gate (app/db/gated-adapter.server.ts), with WAL and foreign keys on.
import { GatedSqliteAdapter } from "~/db/gated-adapter.server";
import { WRITE_LOCK_TIMEOUT_MS } from "~/db/write-gate.server";
import { PrismaClient } from "~/generated/prisma/client";
import { getEnv } from "~/env.server";
import { singleton } from "~/lib/singleton.server";

export type Db = PrismaClient;

export function createDb(file: string): PrismaClient {
  // Behind this thread's write gate: transactions begin IMMEDIATE and wait for the lock on a timer
  // (decision 0020). Prisma's own limits for a transaction match the wait for the lock, so a
  // write queued behind others is never cut short by a shorter clock than SQLite's.
  const adapter = new GatedSqliteAdapter({ url: file }, { timestampFormat: "unixepoch-ms" });
  return new PrismaClient({
    adapter,
    transactionOptions: { maxWait: WRITE_LOCK_TIMEOUT_MS, timeout: WRITE_LOCK_TIMEOUT_MS },
  });
}

// Kept across a development reload of this module, which would otherwise open a second client.
const current = singleton("prisma", () => ({ client: null as PrismaClient | null, file: "" }));

/** The process-wide client for the configured database (tests point DATABASE_URL at their copy). */
export function db(): PrismaClient {
  const file = getEnv().databaseFile;
  if (!current.client || current.file !== file) {
    current.client = createDb(file);
    current.file = file;
  }
  return current.client;
}

/** Pragmas that must hold on the connection Prisma uses. Called once at start. */
export async function tuneDatabase(client: PrismaClient = db()) {
  await client.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  await client.$executeRawUnsafe("PRAGMA foreign_keys = ON");
  await client.$executeRawUnsafe("PRAGMA synchronous = NORMAL");
}
