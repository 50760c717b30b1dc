// The process's read-write better-sqlite3 connection for the writes Prisma is not used for on the
// thread that answers requests: campaign drafts and the campaign controls (app/models/campaigns/).
// They are single statements or short transactions on the campaign and delivery tables, where a
// prepared statement costs microseconds. Every write goes through `withWriter()`, which queues it
// behind this thread's other writes and takes SQLite's write lock without stopping the event loop
// (app/db/write-gate.server.ts).
import type { Sqlite } from "~/db/sqlite.server";
import { openSqlite, sqliteFile } from "~/db/sqlite.server";
import { writeTransaction } from "~/db/write-gate.server";
import { singleton } from "~/lib/singleton.server";

// Kept across a development reload of this module, which would otherwise open a second connection.
const holder = singleton("write-connection", () => ({ sqlite: undefined as Sqlite | undefined, file: "" }));

/** The connection for the configured database (reopened when the configured file changes). */
export function writeConnection(): Sqlite {
  const file = sqliteFile();
  if (holder.sqlite?.open && holder.file === file) return holder.sqlite;
  if (holder.sqlite?.open) holder.sqlite.close();
  holder.sqlite = openSqlite(file, { busyTimeoutMs: 0, cacheMiB: 8 });
  holder.file = file;
  return holder.sqlite;
}

/** Runs `work` in one write transaction on the writer, behind this thread's write gate. */
export function withWriter<T>(work: (sqlite: Sqlite) => T): Promise<T> {
  const sqlite = writeConnection();
  return writeTransaction(sqlite, () => work(sqlite));
}

export function closeWriter() {
  if (holder.sqlite?.open) holder.sqlite.close();
  holder.sqlite = undefined;
}
