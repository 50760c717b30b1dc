// The insights' figures on PostgreSQL, on the process's pool. Times given to the timestamptz
// columns are Dates; counts and sums come back as numbers (the pool's type parsers).
import { postgres, query } from "~/db/postgres.server";
import type { InsightsStore } from "~/models/insights/contract";
import {
  type AudienceFiguresRow,
  countCustomersAddedWith,
  type CustomerMarks,
  type InsightCounts,
  insightStatements,
  type LaunchedCampaignRow,
  NO_AUDIENCE_FIGURES,
  type UnsentSegmentRow,
  type WritingMarks,
} from "~/models/insights/rows";

const SQL = insightStatements((n) => `$${n}`);

/** The `n` of a one-row count (0 without a row). */
async function count(sql: string, params: unknown[]): Promise<number> {
  const [row] = await query<{ n: number | null }>(postgres(), sql, params);
  return Number(row?.n ?? 0);
}

// The update times as epoch ms, so the marks read as SQLite's do ("3:1764150000123").
const MAX_UPDATED_MS = `coalesce((extract(epoch FROM max("updatedAt")) * 1000)::bigint, 0)`;

export const postgresInsights: InsightsStore = {
  async countCustomersAdded(userId, tenant, windows) {
    return countCustomersAddedWith(count, SQL, userId, tenant, windows);
  },

  async customerMarks(userId) {
    const [row] = await query<CustomerMarks>(
      postgres(),
      `SELECT (SELECT "customers" FROM "CustomerTally" WHERE "userId" = $1) AS "customers",
              (SELECT max("id") FROM "Customer" WHERE "userId" = $1) AS "newestCustomer",
              (SELECT max("id") FROM "Order" WHERE "userId" = $1) AS "newestOrder"`,
      [userId],
    );
    return row ?? { customers: null, newestCustomer: null, newestOrder: null };
  },

  async writingMarks(userId) {
    const [row] = await query<WritingMarks>(
      postgres(),
      `SELECT (SELECT count(*) || ':' || ${MAX_UPDATED_MS} FROM "Segment" WHERE "userId" = $1) AS "segments",
              (SELECT count(*) || ':' || ${MAX_UPDATED_MS} || ':' ||
                      coalesce(sum("sentCount" + "deliveredCount" + "failedCount" + "bouncedCount" + "openedCount" + "clickedCount"), 0)
                 FROM "Campaign" WHERE "flowId" IS NULL AND "userId" = $1) AS "campaigns"`,
      [userId],
    );
    return row ?? { segments: "", campaigns: "" };
  },

  async insightCounts(userId) {
    const [row] = await query<InsightCounts>(
      postgres(),
      `SELECT (SELECT count(*) FROM "Campaign" WHERE "flowId" IS NULL AND "userId" = $1) AS "campaigns",
              (SELECT count(*) FROM "Segment" WHERE "userId" = $1) AS "segments",
              (SELECT min("id") FROM "Customer" WHERE "userId" = $1) AS "firstCustomerId"`,
      [userId],
    );
    return row ?? { campaigns: 0, segments: 0, firstCustomerId: null };
  },

  async countActiveBetween(userId, ranges) {
    return Promise.all(
      ranges.map(({ from, to }) => {
        // An open end (Number.MAX_SAFE_INTEGER: "from now on") is past what a Date holds, and what a
        // timestamptz holds: it is left out rather than sent as an invalid date.
        const open = Number.isNaN(new Date(to).getTime());
        return count(
          `SELECT count(*) AS n FROM "Customer" WHERE "userId" = $1 AND "lastActive" >= $2${open ? "" : ` AND "lastActive" < $3`}`,
          open ? [userId, new Date(from)] : [userId, new Date(from), new Date(to)],
        );
      }),
    );
  },

  async spendOfTopCustomers(userId, top) {
    const [row] = await query<{ top: number; total: number }>(
      postgres(),
      `SELECT (SELECT coalesce(sum("s"), 0) FROM (SELECT "totalSpendPaise" AS "s" FROM "Customer" WHERE "userId" = $1
                 ORDER BY "totalSpendPaise" DESC LIMIT $2) AS head) AS "top",
              (SELECT coalesce(sum("totalSpendPaise"), 0) FROM "Customer" WHERE "userId" = $1) AS "total"`,
      [userId, top],
    );
    return row ?? { top: 0, total: 0 };
  },

  async launchedCampaignCounters(userId) {
    return query<LaunchedCampaignRow>(postgres(), SQL.launchedCampaignCounters, [userId]);
  },

  async segmentsNeverSent(userId) {
    return query<UnsentSegmentRow>(postgres(), SQL.segmentsNeverSent, [userId]);
  },

  /** `where` is in PostgreSQL's dialect ($1…$n): the inactivity bound takes the next placeholder. */
  async audienceFigures(where, inactiveBefore) {
    const bound = `$${where.params.length + 1}`;
    // avg() is numeric, read as a number by the pool, as SQLite's avg() gives a REAL.
    const [row] = await query<AudienceFiguresRow>(
      postgres(),
      `SELECT count(*) AS "n", coalesce(min("totalSpendPaise"), 0) AS "minSpend", coalesce(max("totalSpendPaise"), 0) AS "maxSpend",
         coalesce(avg("totalSpendPaise"), 0) AS "avgSpend", coalesce(min("visits"), 0) AS "minVisits",
         coalesce(max("visits"), 0) AS "maxVisits", coalesce(avg("visits"), 0) AS "avgVisits",
         count(*) FILTER (WHERE "lastActive" IS NULL OR "lastActive" < ${bound}) AS "inactive"
       FROM "Customer" WHERE ${where.sql}`,
      [...where.params, new Date(inactiveBefore)],
    );
    return row ?? NO_AUDIENCE_FIGURES;
  },
};
