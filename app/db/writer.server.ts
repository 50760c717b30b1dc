// The process's read-write better-sqlite3 connection for the writes Prisma is not used for: the
// campaign launch snapshot, the campaign controls and the receipts endpoint (app/services/delivery).
// They are single statements or short transactions on the delivery table, where a prepared
// statement costs microseconds and a million-row INSERT … SELECT has to stay inside SQLite.
import type { Sqlite } from "~/db/sqlite.server";
import { openSqlite } from "~/db/sqlite.server";
import { getEnv } from "~/env.server";
import { singleton } from "~/lib/singleton.server";

// Kept across a development reload of this module, which would otherwise open a second connection.
const holder = singleton("write-connection", () => ({ sqlite: undefined as Sqlite | undefined, file: "" }));

/** The connection for the configured database (reopened when the configured file changes). */
export function writeConnection(): Sqlite {
  const file = getEnv().databaseFile;
  if (holder.sqlite?.open && holder.file === file) return holder.sqlite;
  if (holder.sqlite?.open) holder.sqlite.close();
  holder.sqlite = openSqlite(file);
  holder.file = file;
  return holder.sqlite;
}

export function closeWriter() {
  if (holder.sqlite?.open) holder.sqlite.close();
  holder.sqlite = undefined;
}
