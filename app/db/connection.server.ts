// Which engine answers, and a connection of one's own to it: what a worker thread, a CLI command
// or a test holds and hands to model functions (docs/decisions/0033-postgresql-runtime.md). On
// SQLite it is a better-sqlite3 connection (app/db/sqlite.server.ts); on PostgreSQL a pool
// (app/db/postgres.server.ts). Only app/models looks inside: a model function with two bodies
// picks one with isPostgres().
import { openPostgres, type Postgres, postgresSettings } from "~/db/postgres.server";
import { openSqlite, type Sqlite } from "~/db/sqlite.server";
import { getEnv } from "~/env.server";

export type DatabaseEngine = "sqlite" | "postgres";

/** A connection to either engine. */
export type AnyConnection = Sqlite | Postgres;

/** The engine DATABASE_URL names. */
export function databaseEngine(): DatabaseEngine {
  return getEnv().databaseEngine;
}

export function isPostgres(connection: AnyConnection): connection is Postgres {
  return "engine" in connection && connection.engine === "postgres";
}

export type OpenOptions = {
  /** SQLite: the page cache in MiB. */
  cacheMiB?: number;
  /** PostgreSQL: connections in this handle's pool (default DATABASE_POOL_SIZE). */
  poolSize?: number;
  /** PostgreSQL: the name in pg_stat_activity. */
  applicationName?: string;
};

/** A new connection of one's own to the configured database. */
export function openConnection(options: OpenOptions = {}): AnyConnection {
  const env = getEnv();
  if (env.databaseEngine === "postgres") {
    return openPostgres(
      env.databaseUrl,
      postgresSettings({
        ...(options.poolSize ? { poolSize: options.poolSize } : {}),
        ...(options.applicationName ? { applicationName: options.applicationName } : {}),
      }),
    );
  }
  return openSqlite(env.databaseFile, { cacheMiB: options.cacheMiB });
}

export async function closeConnection(connection: AnyConnection): Promise<void> {
  if (isPostgres(connection)) await connection.pool.end();
  else connection.close();
}
