// The one Prisma client. SQLite through the better-sqlite3 driver adapter behind this thread's
// write gate (app/db/gated-adapter.server.ts), with WAL and foreign keys on. On PostgreSQL
// (DATABASE_URL=postgres://…) the client generated from the same schema for PostgreSQL
// (scripts/postgres-schema-file.ts) through @prisma/adapter-pg: the two clients have the same
// models, fields and methods, so model code calls either through the SQLite client's type.
import { PrismaPg } from "@prisma/adapter-pg";
import { GatedSqliteAdapter } from "~/db/gated-adapter.server";
import { postgresSettings, SESSION_OPTIONS } from "~/db/postgres.server";
import { WRITE_LOCK_TIMEOUT_MS } from "~/db/write-gate.server";
import { PrismaClient } from "~/generated/prisma/client";
import { PrismaClient as PostgresPrismaClient } from "~/generated/prisma-postgres/client";
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

/**
 * The Prisma client of a PostgreSQL database, typed as the SQLite one: both are generated from one
 * schema.prisma (postgresSchema() in prisma/engine.ts changes the provider and the dates' column
 * type only), so their model methods take and return the same shapes.
 */
export function createPostgresDb(url: string): PrismaClient {
  const settings = postgresSettings();
  // A pool of its own: Prisma's adapter sets pg's type parsers as it needs them, the raw pool
  // (app/db/postgres.server.ts) reads dates as milliseconds.
  const adapter = new PrismaPg({
    connectionString: url,
    max: Math.max(2, Math.ceil(settings.poolSize / 2)),
    statement_timeout: settings.statementTimeoutMs,
    lock_timeout: settings.lockTimeoutMs,
    application_name: "crm-prisma",
    options: SESSION_OPTIONS,
  });
  const client = new PostgresPrismaClient({
    adapter,
    transactionOptions: { maxWait: settings.lockTimeoutMs, timeout: settings.statementTimeoutMs },
  });
  return client as unknown as PrismaClient;
}

// Kept across a development reload of this module, which would otherwise open a second client.
const current = singleton("prisma", () => ({ client: null as PrismaClient | null, url: "" }));

/** The process-wide client for the configured database (tests point DATABASE_URL at their copy). */
export function db(): PrismaClient {
  const env = getEnv();
  if (!current.client || current.url !== env.databaseUrl) {
    if (current.client) void current.client.$disconnect().catch(() => undefined);
    current.client = env.databaseEngine === "postgres" ? createPostgresDb(env.databaseUrl) : createDb(env.databaseFile);
    current.url = env.databaseUrl;
  }
  return current.client;
}

/** Pragmas that must hold on the connection Prisma uses. Called once at start (SQLite only). */
export async function tuneDatabase(client: PrismaClient = db()) {
  if (getEnv().databaseEngine === "postgres") return;
  await client.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  await client.$executeRawUnsafe("PRAGMA foreign_keys = ON");
  await client.$executeRawUnsafe("PRAGMA synchronous = NORMAL");
}
