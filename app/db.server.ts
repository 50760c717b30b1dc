// The one Prisma client. SQLite through the better-sqlite3 driver adapter, with WAL, a busy
// timeout and foreign keys on, set on every connection the adapter opens.
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "~/generated/prisma/client";
import { getEnv } from "~/env.server";

export type Db = PrismaClient;

export function createDb(file: string): PrismaClient {
  const adapter = new PrismaBetterSqlite3(
    { url: file, timeout: 10_000 },
    { timestampFormat: "unixepoch-ms" },
  );
  return new PrismaClient({ adapter });
}

const globalForDb = globalThis as unknown as { __crmDb?: PrismaClient; __crmDbFile?: string };

/** The process-wide client for the configured database (tests point DATABASE_URL at their copy). */
export function db(): PrismaClient {
  const file = getEnv().databaseFile;
  if (!globalForDb.__crmDb || globalForDb.__crmDbFile !== file) {
    globalForDb.__crmDb = createDb(file);
    globalForDb.__crmDbFile = file;
  }
  return globalForDb.__crmDb;
}

/** Pragmas that must hold on the connection Prisma uses. Called once at start. */
export async function tuneDatabase(client: PrismaClient = db()) {
  await client.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  await client.$executeRawUnsafe("PRAGMA foreign_keys = ON");
  await client.$executeRawUnsafe("PRAGMA synchronous = NORMAL");
}
