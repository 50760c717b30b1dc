// A campaign's delivery log on PostgreSQL: the twins of ./log.server.ts, on the process's pool.
import { type Postgres, query } from "~/db/postgres.server";
import type { DeliveryStatus } from "~/lib/campaigns";
import type { LogRow } from "~/models/deliveries/log.server";

const LOG_COLUMNS = `"seq", "customerId", "name", "email", "phone", "status", "details", "updatedAt", "nextAttemptAt", "openedAt", "clickedAt"`;

export async function logRowsAfterSeqPg(
  pg: Postgres,
  after: number,
  lastSeq: number,
  limit: number,
): Promise<LogRow[]> {
  return query<LogRow>(
    pg,
    `SELECT ${LOG_COLUMNS} FROM "Delivery" WHERE "seq" > $1 AND "seq" <= $2 ORDER BY "seq" LIMIT $3`,
    [after, lastSeq, limit],
  );
}

export async function logRowsOfStatusPg(
  pg: Postgres,
  campaignId: string,
  status: DeliveryStatus,
  after: [number, number],
  limit: number,
): Promise<LogRow[]> {
  return query<LogRow>(
    pg,
    `SELECT ${LOG_COLUMNS} FROM "Delivery" WHERE "campaignId" = $1 AND "status" = $2 AND ("nextAttemptAt", "seq") > ($3, $4)
     ORDER BY "nextAttemptAt", "seq" LIMIT $5`,
    [campaignId, status, after[0], after[1], limit],
  );
}

export async function logRowsDeferredPg(
  pg: Postgres,
  campaignId: string,
  after: [number, number],
  limit: number,
): Promise<LogRow[]> {
  return query<LogRow>(
    pg,
    `SELECT ${LOG_COLUMNS} FROM "Delivery" WHERE "campaignId" = $1 AND "status" = 'pending' AND "details" <> ''
       AND ("nextAttemptAt", "seq") > ($2, $3)
     ORDER BY "nextAttemptAt", "seq" LIMIT $4`,
    [campaignId, after[0], after[1], limit],
  );
}

export async function countDeferredPg(pg: Postgres, campaignId: string): Promise<number> {
  const [row] = await query<{ n: number }>(
    pg,
    `SELECT count(*)::int AS "n" FROM "Delivery" WHERE "campaignId" = $1 AND "status" = 'pending' AND "details" <> ''`,
    [campaignId],
  );
  return Number(row?.n ?? 0);
}
