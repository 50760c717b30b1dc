// A direct better-sqlite3 connection to the configured database, for the bulk paths (CSV import,
// export, seeding) where one prepared statement run in a big transaction is many times faster than
// a query per row. Same pragmas as the Prisma connection: WAL, busy timeout, foreign keys.
import Database from "better-sqlite3";
import { getEnv } from "~/env.server";

export type Sqlite = Database.Database;

export function openSqlite(file: string = getEnv().databaseFile, options: { readonly?: boolean } = {}): Sqlite {
  const sqlite = new Database(file, { readonly: options.readonly ?? false, fileMustExist: true });
  sqlite.pragma("busy_timeout = 10000");
  if (!options.readonly) {
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("synchronous = NORMAL");
  }
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("cache_size = -65536");
  return sqlite;
}
