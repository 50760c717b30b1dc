// The one Prisma client. SQLite through the better-sqlite3 driver adapter, with WAL, a busy
// timeout and foreign keys on, set on every connection the adapter opens.
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "~/generated/prisma/client";
import { getEnv } from "~/env.server";
import { singleton } from "~/lib/singleton.server";

export type Db = PrismaClient;

export function createDb(file: string): PrismaClient {
  const adapter = new PrismaBetterSqlite3({ url: file, timeout: 10_000 }, { timestampFormat: "unixepoch-ms" });
  return new PrismaClient({ adapter });
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
