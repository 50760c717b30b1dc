// The queries behind the dashboard's AI insights (app/services/dashboard/insights.server.ts), on
// the read connection and scoped to the tenant. The counts over a tenant's customers are ranges of
// an index: by id (creation time), by lastActive, by totalSpendPaise. On PostgreSQL the twins in
// ./insights.postgres.server.ts answer.
import { databaseEngine } from "~/db/connection.server";
import { postgres } from "~/db/postgres.server";
import { readStatement } from "~/db/reader.server";
import type { CampaignCounters } from "~/lib/campaigns";
import type { CampaignRow } from "~/models/campaigns/rows";
import { idFloor } from "~/models/dashboard/rows";
import { countOf } from "~/models/dashboard/sqlite.server";
import {
  countActiveBetweenPg,
  countCustomersAddedPg,
  customerMarksPg,
  insightCountsPg,
  launchedCampaignCountersPg,
  segmentsNeverSentPg,
  spendOfTopCustomersPg,
  writingMarksPg,
} from "~/models/insights.postgres.server";

const onPostgres = () => databaseEngine() === "postgres";

const CUSTOMERS_FROM_ID = `SELECT count(*) AS n FROM "Customer" WHERE "userId" = ? AND "id" >= ? AND "id" < ?`;
const CUSTOMERS_FROM_ID_ON = `SELECT count(*) AS n FROM "Customer" WHERE "userId" = ? AND "id" >= ?`;

/**
 * Customers added in each window [from, to) by the creation time their id carries (as the
 * dashboard's snapshots count them), through the (userId, id) index. A window that is most of the
 * tenant is counted as the tenant's `total` minus the rest, so neither side scans more than it
 * must; `firstId` is the tenant's oldest customer id (null: none), `at` is now.
 */
export async function countCustomersAdded(
  userId: string,
  tenant: { total: number; firstId: string | null; at: number },
  windows: { from: number; to: number }[],
): Promise<number[]> {
  if (onPostgres()) return countCustomersAddedPg(postgres().pool, userId, tenant, windows);
  const { total, firstId, at } = tenant;
  if (!firstId) return windows.map(() => 0);
  const firstMs = Number.parseInt(firstId.slice(0, 8), 16) * 1000;
  const span = Math.max(1, at - firstMs);
  return windows.map(({ from, to }) => {
    // The share of the tenant's life the window covers: roughly the share of its customers in it.
    if ((to - Math.max(from, firstMs)) / span <= 0.5)
      return countOf(readStatement, CUSTOMERS_FROM_ID, userId, idFloor(from), idFloor(to)) ?? 0;
    const before = countOf(readStatement, CUSTOMERS_FROM_ID, userId, "", idFloor(from)) ?? 0;
    const after = countOf(readStatement, CUSTOMERS_FROM_ID_ON, userId, idFloor(to)) ?? 0;
    return Math.max(0, total - before - after);
  });
}

/** What moves when the customers' figures may: the kept tally, the newest customer and order ids. */
export type CustomerMarks = { customers: number | null; newestCustomer: string | null; newestOrder: string | null };

export async function customerMarks(userId: string): Promise<CustomerMarks> {
  if (onPostgres()) return customerMarksPg(postgres().pool, userId);
  const row = readStatement<CustomerMarks>(
    `SELECT (SELECT "customers" FROM "CustomerTally" WHERE "userId" = @u) AS customers,
            (SELECT max("id") FROM "Customer" WHERE "userId" = @u) AS newestCustomer,
            (SELECT max("id") FROM "Order" WHERE "userId" = @u) AS newestOrder`,
  ).get({ u: userId });
  return row ?? { customers: null, newestCustomer: null, newestOrder: null };
}

/** What moves when the rest of the answer may: segments and campaigns written, delivery counters. */
export type WritingMarks = { segments: string; campaigns: string };

export async function writingMarks(userId: string): Promise<WritingMarks> {
  if (onPostgres()) return writingMarksPg(postgres().pool, userId);
  const row = readStatement<WritingMarks>(
    `SELECT (SELECT count(*) || ':' || coalesce(max("updatedAt"), 0) FROM "Segment" WHERE "userId" = @u) AS segments,
            (SELECT count(*) || ':' || coalesce(max("updatedAt"), 0) || ':' ||
                    coalesce(sum("sentCount" + "deliveredCount" + "failedCount" + "bouncedCount" + "openedCount" + "clickedCount"), 0)
               FROM "Campaign" WHERE "userId" = @u) AS campaigns`,
  ).get({ u: userId });
  return row ?? { segments: "", campaigns: "" };
}

export type InsightCounts = { campaigns: number; segments: number; firstCustomerId: string | null };

/** The tenant's campaigns and segments, and its oldest customer's id. */
export async function insightCounts(userId: string): Promise<InsightCounts> {
  if (onPostgres()) return insightCountsPg(postgres().pool, userId);
  const row = readStatement<InsightCounts>(
    `SELECT (SELECT count(*) FROM "Campaign" WHERE "userId" = @u) AS campaigns,
            (SELECT count(*) FROM "Segment" WHERE "userId" = @u) AS segments,
            (SELECT min("id") FROM "Customer" WHERE "userId" = @u) AS firstCustomerId`,
  ).get({ u: userId });
  return row ?? { campaigns: 0, segments: 0, firstCustomerId: null };
}

/**
 * Customers last active in each range [from, to) (ms), each a range of the lastActive index:
 * count(*) of a range reads no column, where a sum over it would decode each entry.
 */
export async function countActiveBetween(userId: string, ranges: { from: number; to: number }[]): Promise<number[]> {
  if (onPostgres()) return countActiveBetweenPg(postgres().pool, userId, ranges);
  return ranges.map(
    ({ from, to }) =>
      countOf(
        readStatement,
        `SELECT count(*) AS n FROM "Customer" WHERE "userId" = ? AND "lastActive" >= ? AND "lastActive" < ?`,
        userId,
        from,
        to,
      ) ?? 0,
  );
}

/** The spend (paise) of the tenant's `top` biggest spenders, the head of the spend index, and of all. */
export async function spendOfTopCustomers(userId: string, top: number): Promise<{ top: number; total: number }> {
  if (onPostgres()) return spendOfTopCustomersPg(postgres().pool, userId, top);
  const row = readStatement<{ top: number; total: number }>(
    `SELECT (SELECT coalesce(sum("s"), 0) FROM (SELECT "totalSpendPaise" AS "s" FROM "Customer" WHERE "userId" = @u
               ORDER BY "totalSpendPaise" DESC LIMIT @n)) AS top,
            (SELECT coalesce(sum("totalSpendPaise"), 0) FROM "Customer" WHERE "userId" = @u) AS total`,
  ).get({ u: userId, n: top });
  return row ?? { top: 0, total: 0 };
}

export type LaunchedCampaignRow = Pick<CampaignRow, "id" | "name"> & CampaignCounters;

/** The tenant's campaigns other than drafts, with their kept counters, newest first. */
export async function launchedCampaignCounters(userId: string): Promise<LaunchedCampaignRow[]> {
  if (onPostgres()) return launchedCampaignCountersPg(postgres().pool, userId);
  return readStatement<LaunchedCampaignRow>(
    `SELECT "id", "name", "audienceSize", "pendingCount", "sentCount", "deliveredCount", "failedCount", "bouncedCount",
            "complainedCount", "cancelledCount", "suppressedCount", "openedCount", "clickedCount"
     FROM "Campaign" WHERE "userId" = ? AND "status" <> 'Draft' ORDER BY "createdAt" DESC, "id" DESC`,
  ).all(userId);
}

export type UnsentSegmentRow = { id: string; name: string; conditions: string };

/** The tenant's segments no campaign has been sent to (a draft is not a send), newest first. */
export async function segmentsNeverSent(userId: string): Promise<UnsentSegmentRow[]> {
  if (onPostgres()) return segmentsNeverSentPg(postgres().pool, userId);
  return readStatement<UnsentSegmentRow>(
    `SELECT s."id", s."name", s."conditions" FROM "Segment" s
     WHERE s."userId" = ? AND NOT EXISTS (SELECT 1 FROM "Campaign" c WHERE c."segmentId" = s."id" AND c."status" <> 'Draft')
     ORDER BY s."createdAt" DESC, s."id" DESC`,
  ).all(userId);
}
