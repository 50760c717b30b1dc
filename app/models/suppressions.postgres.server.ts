// The suppression list on PostgreSQL: the twins of ./suppressions.server.ts, with the same names,
// parameters and answers, each taking the pool (or, inside a transaction, its client) first.
//
// A batch of addresses is one statement (unnest of arrays), not a statement per address. Addresses
// are ordered as SQLite orders them (binary: COLLATE "C").
import type pg from "pg";
import { type Postgres, type Queryable, query, transaction } from "~/db/postgres.server";
import { newId } from "~/lib/id";
import { waitForSenders } from "~/models/deliveries/send-checks.postgres.server";
import type {
  NewSuppression,
  SuppressionCursor,
  SuppressionEventRow,
  SuppressionRow,
} from "~/models/suppressions.server";

type StoredSuppression = Omit<SuppressionRow, "createdAt"> & { createdAt: number };
type StoredEvent = Omit<SuppressionEventRow, "createdAt"> & { createdAt: number };

const SUPPRESSION_COLUMNS = `"email", "reason", "campaignId", "campaignName", "details", "createdAt"`;
const toRow = (r: StoredSuppression): SuppressionRow => ({ ...r, createdAt: new Date(Number(r.createdAt)) });

/**
 * Puts addresses on the tenant's list inside the caller's transaction, each with its event; an
 * address on the list already (or twice in `entries`: the first counts) is left as it was. Returns
 * the addresses added, in the order given.
 */
export async function suppressInTransactionPg(
  client: pg.PoolClient,
  userId: string,
  entries: readonly NewSuppression[],
  now: number,
): Promise<string[]> {
  // An address given twice counts once, as first given.
  const unique = new Map<string, NewSuppression>();
  for (const e of entries) {
    const email = e.email.trim().toLowerCase();
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
async function sending(pg: Queryable | Postgres, userId: string): Promise<boolean> {
  const rows = await query(pg, `SELECT 1 FROM "Campaign" WHERE "userId" = $1 AND "status" = 'Active' LIMIT 1`, [
    userId,
  ]);
  return rows.length > 0;
}

export async function addSuppressionsPg(
  pg: Postgres,
  userId: string,
  entries: readonly NewSuppression[],
  now: number,
  perTransaction: number,
): Promise<string[]> {
  const added: string[] = [];
  for (let i = 0; i < entries.length; i += perTransaction) {
    const slice = entries.slice(i, i + perTransaction);
    added.push(...(await transaction(pg, (client) => suppressInTransactionPg(client, userId, slice, now))));
  }
  // Someone who unsubscribes while a campaign sends gets nothing more once answered: the engines
  // check a message's address at most SEND_CHECK_MAX_AGE_MS before it goes.
  if (added.length > 0 && (await sending(pg, userId))) await waitForSenders();
  return added;
}

export async function removeSuppressionPg(pg: Postgres, userId: string, email: string, now: number): Promise<boolean> {
  const address = email.trim().toLowerCase();
  return transaction(pg, async (client) => {
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
}

export async function findSuppressionPg(pg: Postgres, userId: string, email: string): Promise<SuppressionRow | null> {
  const [row] = await query<StoredSuppression>(
    pg,
    `SELECT ${SUPPRESSION_COLUMNS} FROM "Suppression" WHERE "userId" = $1 AND "email" = $2`,
    [userId, email.trim().toLowerCase()],
  );
  return row ? toRow(row) : null;
}

export async function listSuppressionsPg(
  pg: Postgres,
  userId: string,
  options: { search?: string; offset: number; limit: number },
): Promise<{ rows: SuppressionRow[]; total: number }> {
  const search = options.search?.trim().toLowerCase() ?? "";
  const params: unknown[] = search ? [userId, search] : [userId];
  const filter = search ? ` AND strpos("email", $2) > 0` : "";
  const rows = await query<StoredSuppression>(
    pg,
    `SELECT ${SUPPRESSION_COLUMNS} FROM "Suppression" WHERE "userId" = $1${filter}
     ORDER BY "createdAt" DESC, "email" COLLATE "C" LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, options.limit, options.offset],
  );
  return { rows: rows.map(toRow), total: await countSuppressionsMatchingPg(pg, userId, search) };
}

export async function listSuppressionsAfterPg(
  pg: Postgres,
  userId: string,
  options: { search?: string; after: SuppressionCursor | null; limit: number },
): Promise<SuppressionRow[]> {
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
    pg,
    `SELECT ${SUPPRESSION_COLUMNS} FROM "Suppression" WHERE "userId" = $1${where}
     ORDER BY "createdAt" DESC, "email" COLLATE "C" LIMIT $${params.length}`,
    params,
  );
  return rows.map(toRow);
}

export async function countSuppressionsMatchingPg(pg: Queryable | Postgres, userId: string, search?: string) {
  const term = search?.trim().toLowerCase() ?? "";
  const [row] = term
    ? await query<{ n: number }>(
        pg,
        `SELECT count(*)::int AS "n" FROM "Suppression" WHERE "userId" = $1 AND strpos("email", $2) > 0`,
        [userId, term],
      )
    : await query<{ n: number }>(pg, `SELECT count(*)::int AS "n" FROM "Suppression" WHERE "userId" = $1`, [userId]);
  return Number(row?.n ?? 0);
}

export async function suppressionsAfterPg(
  pg: Postgres,
  userId: string,
  afterEmail: string,
  limit: number,
): Promise<SuppressionRow[]> {
  const rows = await query<StoredSuppression>(
    pg,
    `SELECT ${SUPPRESSION_COLUMNS} FROM "Suppression" WHERE "userId" = $1 AND "email" COLLATE "C" > $2
     ORDER BY "email" COLLATE "C" LIMIT $3`,
    [userId, afterEmail, limit],
  );
  return rows.map(toRow);
}

export async function suppressionEventsOfPg(
  pg: Postgres,
  userId: string,
  email: string,
  limit: number,
): Promise<SuppressionEventRow[]> {
  const rows = await query<StoredEvent>(
    pg,
    `SELECT "id", "email", "action", "reason", "campaignId", "campaignName", "createdAt" FROM "SuppressionEvent"
     WHERE "userId" = $1 AND "email" = $2 ORDER BY "createdAt" DESC, "id" COLLATE "C" DESC LIMIT $3`,
    [userId, email.trim().toLowerCase(), limit],
  );
  return rows.map((r) => ({ ...r, createdAt: new Date(Number(r.createdAt)) }));
}
