// The suppression list on SQLite. Reads run on the read connection with cached prepared
// statements; writes asked for by a request run on this thread's writer (withWriter), those of the
// delivery job, the CLI and the worker threads on the connection they pass.
import type { AnyConnection } from "~/db/connection.server";
import { sqliteOf } from "~/db/engine.server";
import { readStatement } from "~/db/reader.server";
import type { Sqlite } from "~/db/sqlite.server";
import { withWriter } from "~/db/writer.server";
import { newId } from "~/lib/id";
import type { SuppressionsStore } from "~/models/suppressions/contract";
import {
  EVENT_COLUMNS,
  type NewSuppression,
  type StoredEvent,
  type StoredSuppression,
  SUPPRESSION_COLUMNS,
  suppressInSlices,
  listedAddress,
  toEventRow,
  toSuppressionRow,
} from "~/models/suppressions/rows";

/**
 * Suppresses addresses inside the caller's transaction on its own connection (the delivery job's
 * bounces: app/models/deliveries/receipts/). Returns the addresses that were added.
 */
export function suppressInSqliteTransaction(
  connection: Sqlite,
  userId: string,
  entries: readonly NewSuppression[],
  now: number,
): string[] {
  const insert = connection.prepare(
    `INSERT INTO "Suppression" ("userId", "email", "reason", "campaignId", "campaignName", "details", "createdAt")
     VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT ("userId", "email") DO NOTHING`,
  );
  const event = connection.prepare(
    `INSERT INTO "SuppressionEvent" ("id", "userId", "email", "action", "reason", "campaignId", "campaignName", "createdAt")
     VALUES (?, ?, ?, 'suppressed', ?, ?, ?, ?)`,
  );
  const added: string[] = [];
  for (const e of entries) {
    const email = listedAddress(e.email);
    const campaignId = e.campaignId ?? null;
    const campaignName = e.campaignName ?? "";
    if (!insert.run(userId, email, e.reason, campaignId, campaignName, e.details ?? "", now).changes) continue;
    event.run(newId(new Date(now)), userId, email, e.reason, campaignId, campaignName, now);
    added.push(email);
  }
  return added;
}

/** `work` in one immediate transaction on the connection given, else on this thread's writer. */
function write<T>(connection: AnyConnection | undefined, work: (connection: Sqlite) => T): Promise<T> | T {
  if (!connection) return withWriter(work);
  const own = sqliteOf(connection);
  return own.transaction(work).immediate(own);
}

async function countSuppressionsMatching(userId: string, search?: string): Promise<number> {
  const term = search?.trim().toLowerCase() ?? "";
  const sql = term
    ? `SELECT count(*) FROM "Suppression" WHERE "userId" = ? AND instr("email", ?) > 0`
    : `SELECT count(*) FROM "Suppression" WHERE "userId" = ?`;
  const statement = readStatement<number>(sql).pluck();
  return Number(term ? statement.get(userId, term) : statement.get(userId));
}

export const sqliteSuppressions: SuppressionsStore = {
  async addSuppressions(userId, entries, options = {}) {
    const now = options.now ?? Date.now();
    return suppressInSlices(entries, (slice) =>
      write(options.connection, (connection) => suppressInSqliteTransaction(connection, userId, slice, now)),
    );
  },

  async removeSuppression(userId, email, options = {}) {
    const now = options.now ?? Date.now();
    const address = listedAddress(email);
    return write(options.connection, (connection) => {
      const gone = connection
        .prepare(`DELETE FROM "Suppression" WHERE "userId" = ? AND "email" = ?`)
        .run(userId, address);
      if (!gone.changes) return false;
      connection
        .prepare(
          `INSERT INTO "SuppressionEvent" ("id", "userId", "email", "action", "reason", "campaignId", "campaignName", "createdAt")
           VALUES (?, ?, ?, 'resubscribed', '', NULL, '', ?)`,
        )
        .run(newId(new Date(now)), userId, address, now);
      return true;
    });
  },

  async findSuppression(userId, email) {
    const row = readStatement<StoredSuppression>(
      `SELECT ${SUPPRESSION_COLUMNS} FROM "Suppression" WHERE "userId" = ? AND "email" = ?`,
    ).get(userId, listedAddress(email));
    return row ? toSuppressionRow(row) : null;
  },

  async findSuppressionsOf(userId, emails) {
    if (emails.length === 0) return [];
    return readStatement<StoredSuppression>(
      `SELECT ${SUPPRESSION_COLUMNS} FROM "Suppression"
       WHERE "userId" = ? AND "email" IN (SELECT value FROM json_each(?))`,
    )
      .all(userId, JSON.stringify(emails.map(listedAddress)))
      .map(toSuppressionRow);
  },

  async listSuppressions(userId, options) {
    const search = options.search?.trim().toLowerCase() ?? "";
    const filter = search ? ` AND instr("email", ?) > 0` : "";
    const params: unknown[] = search ? [userId, search] : [userId];
    const rows = readStatement<StoredSuppression>(
      `SELECT ${SUPPRESSION_COLUMNS} FROM "Suppression" WHERE "userId" = ?${filter}
       ORDER BY "createdAt" DESC, "email" LIMIT ? OFFSET ?`,
    ).all(...params, options.limit, options.offset);
    return { rows: rows.map(toSuppressionRow), total: await countSuppressionsMatching(userId, search) };
  },

  async listSuppressionsAfter(userId, options) {
    const search = options.search?.trim().toLowerCase() ?? "";
    const filter = search ? ` AND instr("email", ?) > 0` : "";
    const params: unknown[] = search ? [userId, search] : [userId];
    const after = options.after;
    const keyset = after ? ` AND ("createdAt" < ? OR ("createdAt" = ? AND "email" > ?))` : "";
    if (after) params.push(after.createdAt, after.createdAt, after.email);
    return readStatement<StoredSuppression>(
      `SELECT ${SUPPRESSION_COLUMNS} FROM "Suppression" WHERE "userId" = ?${filter}${keyset}
       ORDER BY "createdAt" DESC, "email" LIMIT ?`,
    )
      .all(...params, options.limit)
      .map(toSuppressionRow);
  },

  countSuppressionsMatching,

  async suppressionsAfter(userId, afterEmail, limit, connection) {
    const sql = `SELECT ${SUPPRESSION_COLUMNS} FROM "Suppression" WHERE "userId" = ? AND "email" > ? ORDER BY "email" LIMIT ?`;
    const statement = connection
      ? sqliteOf(connection).prepare<unknown[], StoredSuppression>(sql)
      : readStatement<StoredSuppression>(sql);
    return statement.all(userId, afterEmail, limit).map(toSuppressionRow);
  },

  async countSuppressions(userId, connection) {
    const sql = `SELECT count(*) FROM "Suppression" WHERE "userId" = ?`;
    const statement = connection ? sqliteOf(connection).prepare<unknown[], number>(sql) : readStatement<number>(sql);
    return Number(statement.pluck().get(userId));
  },

  async suppressionEventsOf(userId, email, limit = 50) {
    return readStatement<StoredEvent>(
      `SELECT ${EVENT_COLUMNS} FROM "SuppressionEvent"
       WHERE "userId" = ? AND "email" = ? ORDER BY "createdAt" DESC, "id" DESC LIMIT ?`,
    )
      .all(userId, listedAddress(email), limit)
      .map(toEventRow);
  },
};
