// A direct better-sqlite3 connection to the configured database, for the bulk paths (CSV import,
// export, seeding) where one prepared statement run in a big transaction is many times faster than
// a query per row. Same pragmas as the Prisma connection: WAL, busy timeout, foreign keys.
import Database from "better-sqlite3";
import { WRITE_LOCK_TIMEOUT_MS } from "~/db/write-gate.server";
import { getEnv } from "~/env.server";

export type Sqlite = Database.Database;

export function openSqlite(
  file: string = sqliteFile(),
  options: { readonly?: boolean; busyTimeoutMs?: number; cacheMiB?: number } = {},
): Sqlite {
  const sqlite = new Database(file, { readonly: options.readonly ?? false, fileMustExist: true });
  // A connection of a background thread may wait in SQLite's busy handler; the request thread's
  // writer waits on a timer instead (busy timeout 0, app/db/write-gate.server.ts).
  sqlite.pragma(`busy_timeout = ${options.busyTimeoutMs ?? WRITE_LOCK_TIMEOUT_MS}`);
  if (!options.readonly) {
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("synchronous = NORMAL");
  }
  sqlite.pragma("foreign_keys = ON");
  // The page cache is per connection and stays resident once filled: a connection that touches a
  // small working set (the delivery job's queue, the receipts inbox) asks for less.
  sqlite.pragma(`cache_size = -${(options.cacheMiB ?? 64) * 1024}`);
  return sqlite;
}

/**
 * The configured SQLite file. On PostgreSQL there is none: a code path that asks for one was not
 * given its PostgreSQL body (docs/decisions/0033-postgresql-runtime.md), and says so at once
 * instead of opening an empty temporary database.
 */
export function sqliteFile(): string {
  const env = getEnv();
  if (env.databaseEngine !== "sqlite") {
    throw new Error(
      "A SQLite connection was asked for, but DATABASE_URL names PostgreSQL: this code path has no PostgreSQL body yet",
    );
  }
  return env.databaseFile;
}
