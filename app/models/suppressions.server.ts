// The tables Suppression and SuppressionEvent: a tenant's suppression list (addresses that get no
// campaign e-mail) and what happened to each address on it. Addresses are stored in lower case, as
// customers' are, so "is this customer suppressed" is one primary-key probe.
//
// Writes asked for by a request run on this thread's writer (withWriter); the delivery job, the
// CLI and the worker threads pass the connection they opened. Adding an address that is already
// on the list keeps the first entry (its reason and date) and writes no event: an unsubscribe
// clicked twice, or a bounce of an address already unsubscribed, is one suppression.
//
// On PostgreSQL each function runs its twin in ./suppressions.postgres.server.ts (decision 0033).
import { type AnyConnection, databaseEngine, isPostgres } from "~/db/connection.server";
import { type Postgres, postgres } from "~/db/postgres.server";
import { readStatement } from "~/db/reader.server";
import type { Sqlite } from "~/db/sqlite.server";
import { withWriter } from "~/db/writer.server";
import { newId } from "~/lib/id";
import {
  addSuppressionsPg,
  countSuppressionsMatchingPg,
  findSuppressionPg,
  listSuppressionsAfterPg,
  listSuppressionsPg,
  removeSuppressionPg,
  suppressionEventsOfPg,
  suppressionsAfterPg,
} from "~/models/suppressions.postgres.server";

/** The PostgreSQL handle to run on (the connection given, else the process's pool), or null on SQLite. */
function onPostgres(connection?: AnyConnection): Postgres | null {
  if (connection) return isPostgres(connection) ? connection : null;
  return databaseEngine() === "postgres" ? postgres() : null;
}

export const SUPPRESSION_REASONS = ["unsubscribed", "hard-bounced", "soft-bounced", "complained", "manual"] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

export type SuppressionRow = {
  email: string;
  reason: SuppressionReason;
  campaignId: string | null;
  campaignName: string;
  details: string;
  createdAt: Date;
};

export type NewSuppression = {
  email: string;
  reason: SuppressionReason;
  campaignId?: string | null;
  campaignName?: string;
  details?: string;
};

export type SuppressionEventRow = {
  id: string;
  email: string;
  action: "suppressed" | "resubscribed";
  reason: string;
  campaignId: string | null;
  campaignName: string;
  createdAt: Date;
};

type StoredSuppression = Omit<SuppressionRow, "createdAt"> & { createdAt: number };
type StoredEvent = Omit<SuppressionEventRow, "createdAt"> & { createdAt: number };

const SUPPRESSION_COLUMNS = `"email", "reason", "campaignId", "campaignName", "details", "createdAt"`;
const toRow = (r: StoredSuppression): SuppressionRow => ({ ...r, createdAt: new Date(Number(r.createdAt)) });

/** Rows added a transaction by addSuppressions: a few milliseconds of the write lock at a time. */
const SUPPRESSIONS_PER_TRANSACTION = 1_000;

function insertSuppressions(sqlite: Sqlite, userId: string, entries: readonly NewSuppression[], now: number): string[] {
  const insert = sqlite.prepare(
    `INSERT INTO "Suppression" ("userId", "email", "reason", "campaignId", "campaignName", "details", "createdAt")
     VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT ("userId", "email") DO NOTHING`,
  );
  const event = sqlite.prepare(
    `INSERT INTO "SuppressionEvent" ("id", "userId", "email", "action", "reason", "campaignId", "campaignName", "createdAt")
     VALUES (?, ?, ?, 'suppressed', ?, ?, ?, ?)`,
  );
  const added: string[] = [];
  for (const e of entries) {
    const email = e.email.trim().toLowerCase();
    const campaignId = e.campaignId ?? null;
    const campaignName = e.campaignName ?? "";
    if (!insert.run(userId, email, e.reason, campaignId, campaignName, e.details ?? "", now).changes) continue;
    event.run(newId(new Date(now)), userId, email, e.reason, campaignId, campaignName, now);
    added.push(email);
  }
  return added;
}

/**
 * Puts addresses on the tenant's suppression list (those already on it stay as they were), in
 * transactions of SUPPRESSIONS_PER_TRANSACTION. Returns the addresses that were added.
 */
export async function addSuppressions(
  userId: string,
  entries: readonly NewSuppression[],
  options: { connection?: AnyConnection; now?: number } = {},
): Promise<string[]> {
  const now = options.now ?? Date.now();
  const pg = onPostgres(options.connection);
  if (pg) return addSuppressionsPg(pg, userId, entries, now, SUPPRESSIONS_PER_TRANSACTION);
  const added: string[] = [];
  for (let i = 0; i < entries.length; i += SUPPRESSIONS_PER_TRANSACTION) {
    const slice = entries.slice(i, i + SUPPRESSIONS_PER_TRANSACTION);
    const work = (sqlite: Sqlite) => insertSuppressions(sqlite, userId, slice, now);
    const connection = options.connection as Sqlite | undefined;
    added.push(...(connection ? connection.transaction(work).immediate(connection) : await withWriter(work)));
  }
  return added;
}

/**
 * Suppresses the addresses of bounced (or complained) delivery rows, inside the caller's
 * transaction on the delivery job's connection (app/models/deliveries/outcomes.server.ts).
 */
export function suppressInTransaction(
  sqlite: Sqlite,
  userId: string,
  entries: readonly NewSuppression[],
  now: number,
): string[] {
  return insertSuppressions(sqlite, userId, entries, now);
}

/** Takes an address off the list and records the resubscription; false when it was not on it. */
export async function removeSuppression(
  userId: string,
  email: string,
  options: { connection?: AnyConnection; now?: number } = {},
): Promise<boolean> {
  const now = options.now ?? Date.now();
  const pg = onPostgres(options.connection);
  if (pg) return removeSuppressionPg(pg, userId, email, now);
  const address = email.trim().toLowerCase();
  const work = (sqlite: Sqlite) => {
    const gone = sqlite.prepare(`DELETE FROM "Suppression" WHERE "userId" = ? AND "email" = ?`).run(userId, address);
    if (!gone.changes) return false;
    sqlite
      .prepare(
        `INSERT INTO "SuppressionEvent" ("id", "userId", "email", "action", "reason", "campaignId", "campaignName", "createdAt")
         VALUES (?, ?, ?, 'resubscribed', '', NULL, '', ?)`,
      )
      .run(newId(new Date(now)), userId, address, now);
    return true;
  };
  const connection = options.connection as Sqlite | undefined;
  return connection ? connection.transaction(work).immediate(connection) : withWriter(work);
}

/** The entry of one address, or null when it is not suppressed. */
export async function findSuppression(userId: string, email: string): Promise<SuppressionRow | null> {
  const pg = onPostgres();
  if (pg) return findSuppressionPg(pg, userId, email);
  const row = readStatement<StoredSuppression>(
    `SELECT ${SUPPRESSION_COLUMNS} FROM "Suppression" WHERE "userId" = ? AND "email" = ?`,
  ).get(userId, email.trim().toLowerCase());
  return row ? toRow(row) : null;
}

/**
 * A page of the tenant's list, newest first, optionally only addresses containing `search`
 * (case-insensitive), with the total that matches.
 */
export async function listSuppressions(
  userId: string,
  options: { search?: string; offset: number; limit: number },
): Promise<{ rows: SuppressionRow[]; total: number }> {
  const pg = onPostgres();
  if (pg) return listSuppressionsPg(pg, userId, options);
  const search = options.search?.trim().toLowerCase() ?? "";
  const filter = search ? ` AND instr("email", ?) > 0` : "";
  const params: unknown[] = search ? [userId, search] : [userId];
  const rows = readStatement<StoredSuppression>(
    `SELECT ${SUPPRESSION_COLUMNS} FROM "Suppression" WHERE "userId" = ?${filter}
     ORDER BY "createdAt" DESC, "email" LIMIT ? OFFSET ?`,
  ).all(...params, options.limit, options.offset);
  return { rows: rows.map(toRow), total: await countSuppressionsMatching(userId, search) };
}

/** Where a page of listSuppressionsAfter starts: after this entry, in the list's order. */
export type SuppressionCursor = { createdAt: number; email: string };

/**
 * A page of the tenant's list, newest first (then by address), after the entry `after` (from the
 * start when null), optionally only addresses containing `search`: the /api list's keyset pages,
 * which neither skip nor repeat an entry when others are added meanwhile.
 */
export async function listSuppressionsAfter(
  userId: string,
  options: { search?: string; after: SuppressionCursor | null; limit: number },
): Promise<SuppressionRow[]> {
  const pg = onPostgres();
  if (pg) return listSuppressionsAfterPg(pg, userId, options);
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
    .map(toRow);
}

/** How many of the tenant's entries contain `search` (all of them without one). */
export async function countSuppressionsMatching(userId: string, search?: string): Promise<number> {
  const pg = onPostgres();
  if (pg) return countSuppressionsMatchingPg(pg, userId, search);
  const term = search?.trim().toLowerCase() ?? "";
  const sql = term
    ? `SELECT count(*) FROM "Suppression" WHERE "userId" = ? AND instr("email", ?) > 0`
    : `SELECT count(*) FROM "Suppression" WHERE "userId" = ?`;
  const statement = readStatement<number>(sql).pluck();
  return Number(term ? statement.get(userId, term) : statement.get(userId));
}

/** Every entry of the tenant's list in slices of `limit` after `afterEmail` (the export), by address. */
export async function suppressionsAfter(
  userId: string,
  afterEmail: string,
  limit: number,
  connection?: AnyConnection,
): Promise<SuppressionRow[]> {
  const pg = onPostgres(connection);
  if (pg) return suppressionsAfterPg(pg, userId, afterEmail, limit);
  const sql = `SELECT ${SUPPRESSION_COLUMNS} FROM "Suppression" WHERE "userId" = ? AND "email" > ? ORDER BY "email" LIMIT ?`;
  const statement = connection
    ? (connection as Sqlite).prepare<unknown[], StoredSuppression>(sql)
    : readStatement<StoredSuppression>(sql);
  return statement.all(userId, afterEmail, limit).map(toRow);
}

/** How many addresses are on the tenant's list (a launch skips the suppression check when none). */
export async function countSuppressions(userId: string, connection?: AnyConnection): Promise<number> {
  const pg = onPostgres(connection);
  if (pg) return countSuppressionsMatchingPg(pg, userId);
  const sql = `SELECT count(*) FROM "Suppression" WHERE "userId" = ?`;
  const statement = connection ? (connection as Sqlite).prepare<unknown[], number>(sql) : readStatement<number>(sql);
  return Number(statement.pluck().get(userId));
}

/** What happened to one address on the tenant's list, newest first. */
export async function suppressionEventsOf(userId: string, email: string, limit = 50): Promise<SuppressionEventRow[]> {
  const pg = onPostgres();
  if (pg) return suppressionEventsOfPg(pg, userId, email, limit);
  return readStatement<StoredEvent>(
    `SELECT "id", "email", "action", "reason", "campaignId", "campaignName", "createdAt" FROM "SuppressionEvent"
     WHERE "userId" = ? AND "email" = ? ORDER BY "createdAt" DESC, "id" DESC LIMIT ?`,
  )
    .all(userId, email.trim().toLowerCase(), limit)
    .map((r) => ({ ...r, createdAt: new Date(Number(r.createdAt)) }));
}
