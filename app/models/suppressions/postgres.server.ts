// The suppression list on PostgreSQL: the pool (or the connection given), inside a transaction its
// client. A batch of addresses is one statement (unnest of arrays), not a statement per address.
// Addresses are ordered as SQLite orders them (binary: COLLATE "C").
import type pg from "pg";
import type { AnyConnection } from "~/db/connection.server";
import { postgresOf } from "~/db/engine.server";
import { type Postgres, type Queryable, postgres, query, transaction } from "~/db/postgres.server";
import { newId } from "~/lib/id";
import { waitForSenders } from "~/models/deliveries/send-checks.postgres.server";
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

/** The connection given, else the process's pool. */
const on = (connection?: AnyConnection): Postgres => (connection ? postgresOf(connection) : postgres());

/**
 * Puts addresses on the tenant's list inside the caller's transaction, each with its event; an
 * address on the list already (or twice in `entries`: the first counts) is left as it was. Returns
 * the addresses added, in the order given.
 */
export async function suppressInPostgresTransaction(
  client: pg.PoolClient,
  userId: string,
  entries: readonly NewSuppression[],
  now: number,
): Promise<string[]> {
  // An address given twice counts once, as first given.
  const unique = new Map<string, NewSuppression>();
  for (const e of entries) {
    const email = listedAddress(e.email);
    if (!unique.has(email)) unique.set(email, e);
  }
  if (unique.size === 0) return [];
  const list = [...unique];
  // One statement: the new entries, and an event for each (an id as newId makes them: the seconds,
  // then random hex), whatever was on the list already left as it was.
  const rows = await query<{ email: string }>(
    client,
    `WITH "added" AS (
       INSERT INTO "Suppression" ("userId", "email", "reason", "campaignId", "campaignName", "details", "createdAt")
       SELECT $1, "email", "reason", "campaignId", "campaignName", "details", $7
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
         AS "i"("email", "reason", "campaignId", "campaignName", "details")
       ON CONFLICT ("userId", "email") DO NOTHING
       RETURNING "email", "reason", "campaignId", "campaignName"
     ), "events" AS (
       INSERT INTO "SuppressionEvent" ("id", "userId", "email", "action", "reason", "campaignId", "campaignName", "createdAt")
       SELECT $8 || substr(md5(random()::text || "email"), 1, 16), $1, "email", 'suppressed', "reason", "campaignId",
         "campaignName", $7
       FROM "added"
     )
     SELECT "email" FROM "added"`,
    [
      userId,
      list.map(([email]) => email),
      list.map(([, e]) => e.reason),
      list.map(([, e]) => e.campaignId ?? null),
      list.map(([, e]) => e.campaignName ?? ""),
      list.map(([, e]) => e.details ?? ""),
      new Date(now),
      newId(new Date(now)).slice(0, 8),
    ],
  );
  const added = new Set(rows.map((r) => r.email));
  return list.map(([email]) => email).filter((email) => added.has(email));
}

/** Whether the tenant has a campaign sending now (a suppression then waits until the senders saw it). */
async function sending(connection: Queryable | Postgres, userId: string): Promise<boolean> {
  const rows = await query(connection, `SELECT 1 FROM "Campaign" WHERE "userId" = $1 AND "status" = 'Active' LIMIT 1`, [
    userId,
  ]);
  return rows.length > 0;
}

async function countMatching(connection: Queryable | Postgres, userId: string, search?: string): Promise<number> {
  const term = search?.trim().toLowerCase() ?? "";
  const [row] = term
    ? await query<{ n: number }>(
        connection,
        `SELECT count(*)::int AS "n" FROM "Suppression" WHERE "userId" = $1 AND strpos("email", $2) > 0`,
        [userId, term],
      )
    : await query<{ n: number }>(connection, `SELECT count(*)::int AS "n" FROM "Suppression" WHERE "userId" = $1`, [
        userId,
      ]);
  return Number(row?.n ?? 0);
}

export const postgresSuppressions: SuppressionsStore = {
  async addSuppressions(userId, entries, options = {}) {
    const now = options.now ?? Date.now();
    const connection = on(options.connection);
    const added = await suppressInSlices(entries, (slice) =>
      transaction(connection, (client) => suppressInPostgresTransaction(client, userId, slice, now)),
    );
    // Someone who unsubscribes while a campaign sends gets nothing more once answered: the engines
    // check a message's address at most SEND_CHECK_MAX_AGE_MS before it goes.
    if (added.length > 0 && (await sending(connection, userId))) await waitForSenders();
    return added;
  },

  async removeSuppression(userId, email, options = {}) {
    const now = options.now ?? Date.now();
    const address = listedAddress(email);
    return transaction(on(options.connection), async (client) => {
      const gone = await client.query(`DELETE FROM "Suppression" WHERE "userId" = $1 AND "email" = $2`, [
        userId,
        address,
      ]);
      if (!gone.rowCount) return false;
      await client.query(
        `INSERT INTO "SuppressionEvent" ("id", "userId", "email", "action", "reason", "campaignId", "campaignName", "createdAt")
         VALUES ($1, $2, $3, 'resubscribed', '', NULL, '', $4)`,
        [newId(new Date(now)), userId, address, new Date(now)],
      );
      return true;
    });
  },

  async findSuppression(userId, email) {
    const [row] = await query<StoredSuppression>(
      postgres(),
      `SELECT ${SUPPRESSION_COLUMNS} FROM "Suppression" WHERE "userId" = $1 AND "email" = $2`,
      [userId, listedAddress(email)],
    );
    return row ? toSuppressionRow(row) : null;
  },

  async findSuppressionsOf(userId, emails) {
    if (emails.length === 0) return [];
    const rows = await query<StoredSuppression>(
      postgres(),
      `SELECT ${SUPPRESSION_COLUMNS} FROM "Suppression" WHERE "userId" = $1 AND "email" = ANY($2::text[])`,
      [userId, emails.map(listedAddress)],
    );
    return rows.map(toSuppressionRow);
  },

  async listSuppressions(userId, options) {
    const search = options.search?.trim().toLowerCase() ?? "";
    const params: unknown[] = search ? [userId, search] : [userId];
    const filter = search ? ` AND strpos("email", $2) > 0` : "";
    const rows = await query<StoredSuppression>(
      postgres(),
      `SELECT ${SUPPRESSION_COLUMNS} FROM "Suppression" WHERE "userId" = $1${filter}
       ORDER BY "createdAt" DESC, "email" COLLATE "C" LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, options.limit, options.offset],
    );
    return { rows: rows.map(toSuppressionRow), total: await countMatching(postgres(), userId, search) };
  },

  async listSuppressionsAfter(userId, options) {
    const search = options.search?.trim().toLowerCase() ?? "";
    const params: unknown[] = [userId];
    let where = "";
    if (search) {
      params.push(search);
      where += ` AND strpos("email", $${params.length}) > 0`;
    }
    if (options.after) {
      params.push(new Date(options.after.createdAt), options.after.email);
      const at = `$${params.length - 1}`;
      where += ` AND ("createdAt" < ${at} OR ("createdAt" = ${at} AND "email" COLLATE "C" > $${params.length}))`;
    }
    params.push(options.limit);
    const rows = await query<StoredSuppression>(
      postgres(),
      `SELECT ${SUPPRESSION_COLUMNS} FROM "Suppression" WHERE "userId" = $1${where}
       ORDER BY "createdAt" DESC, "email" COLLATE "C" LIMIT $${params.length}`,
      params,
    );
    return rows.map(toSuppressionRow);
  },

  async countSuppressionsMatching(userId, search) {
    return countMatching(postgres(), userId, search);
  },

  async suppressionsAfter(userId, afterEmail, limit, connection) {
    const rows = await query<StoredSuppression>(
      on(connection),
      `SELECT ${SUPPRESSION_COLUMNS} FROM "Suppression" WHERE "userId" = $1 AND "email" COLLATE "C" > $2
       ORDER BY "email" COLLATE "C" LIMIT $3`,
      [userId, afterEmail, limit],
    );
    return rows.map(toSuppressionRow);
  },

  async countSuppressions(userId, connection) {
    return countMatching(on(connection), userId);
  },

  async suppressionEventsOf(userId, email, limit = 50) {
    const rows = await query<StoredEvent>(
      postgres(),
      `SELECT ${EVENT_COLUMNS} FROM "SuppressionEvent"
       WHERE "userId" = $1 AND "email" = $2 ORDER BY "createdAt" DESC, "id" COLLATE "C" DESC LIMIT $3`,
      [userId, listedAddress(email), limit],
    );
    return rows.map(toEventRow);
  },
};
