// The insights' figures on SQLite: prepared statements on the read connection.
import { readStatement } from "~/db/reader.server";
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

const SQL = insightStatements(() => "?");

/** The `n` of a one-row count (0 without a row). */
function count(sql: string, ...params: unknown[]): number {
  const row = readStatement<{ n: number | bigint | null }>(sql).get(...params);
  return row ? Number(row.n ?? 0) : 0;
}

export const sqliteInsights: InsightsStore = {
  async countCustomersAdded(userId, tenant, windows) {
    return countCustomersAddedWith((sql, params) => count(sql, ...params), SQL, userId, tenant, windows);
  },

  async customerMarks(userId) {
    const row = readStatement<CustomerMarks>(
      `SELECT (SELECT "customers" FROM "CustomerTally" WHERE "userId" = @u) AS customers,
              (SELECT max("id") FROM "Customer" WHERE "userId" = @u) AS newestCustomer,
              (SELECT max("id") FROM "Order" WHERE "userId" = @u) AS newestOrder`,
    ).get({ u: userId });
    return row ?? { customers: null, newestCustomer: null, newestOrder: null };
  },

  async writingMarks(userId) {
    const row = readStatement<WritingMarks>(
      `SELECT (SELECT count(*) || ':' || coalesce(max("updatedAt"), 0) FROM "Segment" WHERE "userId" = @u) AS segments,
              (SELECT count(*) || ':' || coalesce(max("updatedAt"), 0) || ':' ||
                      coalesce(sum("sentCount" + "deliveredCount" + "failedCount" + "bouncedCount" + "openedCount" + "clickedCount"), 0)
                 FROM "Campaign" WHERE "flowId" IS NULL AND "userId" = @u) AS campaigns`,
    ).get({ u: userId });
    return row ?? { segments: "", campaigns: "" };
  },

  async insightCounts(userId) {
    const row = readStatement<InsightCounts>(
      `SELECT (SELECT count(*) FROM "Campaign" WHERE "flowId" IS NULL AND "userId" = @u) AS campaigns,
              (SELECT count(*) FROM "Segment" WHERE "userId" = @u) AS segments,
              (SELECT min("id") FROM "Customer" WHERE "userId" = @u) AS firstCustomerId`,
    ).get({ u: userId });
    return row ?? { campaigns: 0, segments: 0, firstCustomerId: null };
  },

  async countActiveBetween(userId, ranges) {
    return ranges.map(({ from, to }) =>
      count(
        `SELECT count(*) AS n FROM "Customer" WHERE "userId" = ? AND "lastActive" >= ? AND "lastActive" < ?`,
        userId,
        from,
        to,
      ),
    );
  },

  async spendOfTopCustomers(userId, top) {
    const row = readStatement<{ top: number; total: number }>(
      `SELECT (SELECT coalesce(sum("s"), 0) FROM (SELECT "totalSpendPaise" AS "s" FROM "Customer" WHERE "userId" = @u
                 ORDER BY "totalSpendPaise" DESC LIMIT @n)) AS top,
              (SELECT coalesce(sum("totalSpendPaise"), 0) FROM "Customer" WHERE "userId" = @u) AS total`,
    ).get({ u: userId, n: top });
    return row ?? { top: 0, total: 0 };
  },

  async launchedCampaignCounters(userId) {
    return readStatement<LaunchedCampaignRow>(SQL.launchedCampaignCounters).all(userId);
  },

  async segmentsNeverSent(userId) {
    return readStatement<UnsentSegmentRow>(SQL.segmentsNeverSent).all(userId);
  },

  async audienceFigures(where, inactiveBefore) {
    const row = readStatement<AudienceFiguresRow>(
      `SELECT count(*) AS n, coalesce(min("totalSpendPaise"), 0) AS minSpend, coalesce(max("totalSpendPaise"), 0) AS maxSpend,
         coalesce(avg("totalSpendPaise"), 0) AS avgSpend, coalesce(min("visits"), 0) AS minVisits, coalesce(max("visits"), 0) AS maxVisits,
         coalesce(avg("visits"), 0) AS avgVisits, coalesce(sum("lastActive" IS NULL OR "lastActive" < ?), 0) AS inactive
       FROM "Customer" WHERE ${where.sql}`,
    ).get(inactiveBefore, ...where.params);
    return row ?? NO_AUDIENCE_FIGURES;
  },
};
