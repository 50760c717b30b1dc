// Reading a campaign's delivery log a page at a time, on the request thread's read connection
// (on PostgreSQL, the process's pool: ./log.postgres.server.ts, decision 0033).
import { databaseEngine } from "~/db/connection.server";
import { postgres } from "~/db/postgres.server";
import { readStatement } from "~/db/reader.server";
import type { DeliveryStatus } from "~/lib/campaigns";
import {
  countDeferredPg,
  logRowsAfterSeqPg,
  logRowsDeferredPg,
  logRowsOfStatusPg,
} from "~/models/deliveries/log.postgres.server";

const onPostgres = () => databaseEngine() === "postgres";

/** One row of the log as the page shows it. */
export type LogRow = {
  seq: number;
  customerId: string;
  name: string;
  email: string;
  phone: string;
  status: DeliveryStatus;
  details: string;
  updatedAt: number;
  nextAttemptAt: number;
  openedAt: number | null;
  clickedAt: number | null;
};

const LOG_COLUMNS = `"seq", "customerId", "name", "email", "phone", "status", "details", "updatedAt", "nextAttemptAt", "openedAt", "clickedAt"`;

/**
 * Up to `limit` rows of a campaign's log in send order, after seq `after`: a range of the primary
 * key (a campaign's rows are one seq range, up to `lastSeq`).
 */
export async function logRowsAfterSeq(after: number, lastSeq: number, limit: number): Promise<LogRow[]> {
  if (onPostgres()) return logRowsAfterSeqPg(postgres(), after, lastSeq, limit);
  return readStatement<LogRow>(
    `SELECT ${LOG_COLUMNS} FROM "Delivery" WHERE "seq" > ? AND "seq" <= ? ORDER BY "seq" LIMIT ${limit}`,
  ).all(after, lastSeq);
}

/**
 * Up to `limit` rows of one status of a campaign's log, after (nextAttemptAt, seq) `after`: the
 * (campaign, status, next attempt) index, whose order for a status is (nextAttemptAt, seq).
 */
export async function logRowsOfStatus(
  campaignId: string,
  status: DeliveryStatus,
  after: [number, number],
  limit: number,
): Promise<LogRow[]> {
  if (onPostgres()) return logRowsOfStatusPg(postgres(), campaignId, status, after, limit);
  return readStatement<LogRow>(
    `SELECT ${LOG_COLUMNS} FROM "Delivery" WHERE "campaignId" = ? AND "status" = ? AND ("nextAttemptAt", "seq") > (?, ?)
     ORDER BY "nextAttemptAt", "seq" LIMIT ${limit}`,
  ).all(campaignId, status, after[0], after[1]);
}

/**
 * Up to `limit` of a campaign's deferred rows (pending, with details: an earlier attempt got a
 * temporary answer and the row waits for its retry), after (nextAttemptAt, seq) `after`: the
 * pending rows' range of the (campaign, status, next attempt) index, those without details skipped.
 */
export async function logRowsDeferred(campaignId: string, after: [number, number], limit: number): Promise<LogRow[]> {
  if (onPostgres()) return logRowsDeferredPg(postgres(), campaignId, after, limit);
  return readStatement<LogRow>(
    `SELECT ${LOG_COLUMNS} FROM "Delivery" WHERE "campaignId" = ? AND "status" = 'pending' AND "details" <> ''
       AND ("nextAttemptAt", "seq") > (?, ?)
     ORDER BY "nextAttemptAt", "seq" LIMIT ${limit}`,
  ).all(campaignId, after[0], after[1]);
}

/** How many of a campaign's pending rows are deferred (no counter keeps it: it is derived). */
export async function countDeferred(campaignId: string): Promise<number> {
  if (onPostgres()) return countDeferredPg(postgres(), campaignId);
  return Number(
    readStatement<number>(
      `SELECT count(*) FROM "Delivery" WHERE "campaignId" = ? AND "status" = 'pending' AND "details" <> ''`,
    )
      .pluck()
      .get(campaignId),
  );
}
