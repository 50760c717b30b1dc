// The AI insights' queries on PostgreSQL: the twins of ./insights.server.ts, with the same names
// (Pg added), parameters and answers, each taking the pool to run on first. Times given to the
// timestamptz columns are Dates; counts and sums come back as numbers (the pool's type parsers).
import { type Queryable, query } from "~/db/postgres.server";
import { idFloor } from "~/models/dashboard/rows";
import type {
  CustomerMarks,
  InsightCounts,
  LaunchedCampaignRow,
  UnsentSegmentRow,
  WritingMarks,
} from "~/models/insights.server";

const CUSTOMERS_FROM_ID = `SELECT count(*) AS n FROM "Customer" WHERE "userId" = $1 AND "id" >= $2 AND "id" < $3`;
const CUSTOMERS_FROM_ID_ON = `SELECT count(*) AS n FROM "Customer" WHERE "userId" = $1 AND "id" >= $2`;

async function countOf(db: Queryable, sql: string, params: unknown[]): Promise<number> {
  const [row] = await query<{ n: number | null }>(db, sql, params);
  return Number(row?.n ?? 0);
}

export async function countCustomersAddedPg(
  db: Queryable,
  userId: string,
  tenant: { total: number; firstId: string | null; at: number },
  windows: { from: number; to: number }[],
): Promise<number[]> {
  const { total, firstId, at } = tenant;
  if (!firstId) return windows.map(() => 0);
  const firstMs = Number.parseInt(firstId.slice(0, 8), 16) * 1000;
  const span = Math.max(1, at - firstMs);
  return Promise.all(
    windows.map(async ({ from, to }) => {
      // As on SQLite: a window that is most of the tenant's life is counted as the rest subtracted.
      if ((to - Math.max(from, firstMs)) / span <= 0.5)
        return countOf(db, CUSTOMERS_FROM_ID, [userId, idFloor(from), idFloor(to)]);
      const [before, after] = await Promise.all([
        countOf(db, CUSTOMERS_FROM_ID, [userId, "", idFloor(from)]),
        countOf(db, CUSTOMERS_FROM_ID_ON, [userId, idFloor(to)]),
      ]);
      return Math.max(0, total - before - after);
    }),
  );
}

export async function customerMarksPg(db: Queryable, userId: string): Promise<CustomerMarks> {
  const [row] = await query<CustomerMarks>(
    db,
    `SELECT (SELECT "customers" FROM "CustomerTally" WHERE "userId" = $1) AS "customers",
            (SELECT max("id") FROM "Customer" WHERE "userId" = $1) AS "newestCustomer",
            (SELECT max("id") FROM "Order" WHERE "userId" = $1) AS "newestOrder"`,
    [userId],
  );
  return row ?? { customers: null, newestCustomer: null, newestOrder: null };
}

// The update times as epoch ms, so the marks read as SQLite's do ("3:1764150000123").
const MAX_UPDATED_MS = `coalesce((extract(epoch FROM max("updatedAt")) * 1000)::bigint, 0)`;

export async function writingMarksPg(db: Queryable, userId: string): Promise<WritingMarks> {
  const [row] = await query<WritingMarks>(
    db,
    `SELECT (SELECT count(*) || ':' || ${MAX_UPDATED_MS} FROM "Segment" WHERE "userId" = $1) AS "segments",
            (SELECT count(*) || ':' || ${MAX_UPDATED_MS} || ':' ||
                    coalesce(sum("sentCount" + "deliveredCount" + "failedCount" + "bouncedCount" + "openedCount" + "clickedCount"), 0)
               FROM "Campaign" WHERE "userId" = $1) AS "campaigns"`,
    [userId],
  );
  return row ?? { segments: "", campaigns: "" };
}

export async function insightCountsPg(db: Queryable, userId: string): Promise<InsightCounts> {
  const [row] = await query<InsightCounts>(
    db,
    `SELECT (SELECT count(*) FROM "Campaign" WHERE "userId" = $1) AS "campaigns",
            (SELECT count(*) FROM "Segment" WHERE "userId" = $1) AS "segments",
            (SELECT min("id") FROM "Customer" WHERE "userId" = $1) AS "firstCustomerId"`,
    [userId],
  );
  return row ?? { campaigns: 0, segments: 0, firstCustomerId: null };
}

export async function countActiveBetweenPg(
  db: Queryable,
  userId: string,
  ranges: { from: number; to: number }[],
): Promise<number[]> {
  return Promise.all(
    ranges.map(({ from, to }) => {
      // An open end (Number.MAX_SAFE_INTEGER: "from now on") is past what a Date holds, and what a
      // timestamptz holds: it is left out rather than sent as an invalid date.
      const open = Number.isNaN(new Date(to).getTime());
      return countOf(
        db,
        `SELECT count(*) AS n FROM "Customer" WHERE "userId" = $1 AND "lastActive" >= $2${open ? "" : ` AND "lastActive" < $3`}`,
        open ? [userId, new Date(from)] : [userId, new Date(from), new Date(to)],
      );
    }),
  );
}

export async function spendOfTopCustomersPg(
  db: Queryable,
  userId: string,
  top: number,
): Promise<{ top: number; total: number }> {
  const [row] = await query<{ top: number; total: number }>(
    db,
    `SELECT (SELECT coalesce(sum("s"), 0) FROM (SELECT "totalSpendPaise" AS "s" FROM "Customer" WHERE "userId" = $1
               ORDER BY "totalSpendPaise" DESC LIMIT $2) AS head) AS "top",
            (SELECT coalesce(sum("totalSpendPaise"), 0) FROM "Customer" WHERE "userId" = $1) AS "total"`,
    [userId, top],
  );
  return row ?? { top: 0, total: 0 };
}

export async function launchedCampaignCountersPg(db: Queryable, userId: string): Promise<LaunchedCampaignRow[]> {
  return query<LaunchedCampaignRow>(
    db,
    `SELECT "id", "name", "audienceSize", "pendingCount", "sentCount", "deliveredCount", "failedCount", "bouncedCount",
            "complainedCount", "cancelledCount", "suppressedCount", "openedCount", "clickedCount"
     FROM "Campaign" WHERE "userId" = $1 AND "status" <> 'Draft' ORDER BY "createdAt" DESC, "id" DESC`,
    [userId],
  );
}

export async function segmentsNeverSentPg(db: Queryable, userId: string): Promise<UnsentSegmentRow[]> {
  return query<UnsentSegmentRow>(
    db,
    `SELECT s."id", s."name", s."conditions" FROM "Segment" s
     WHERE s."userId" = $1 AND NOT EXISTS (SELECT 1 FROM "Campaign" c WHERE c."segmentId" = s."id" AND c."status" <> 'Draft')
     ORDER BY s."createdAt" DESC, s."id" DESC`,
    [userId],
  );
}
