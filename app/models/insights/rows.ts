// What the dashboard's AI insights (app/services/dashboard/insights.server.ts) and the AI message
// suggestions (app/services/ai.server.ts) are written from: the rows both engines give, and the
// statements that differ between the engines only in how they name their parameters, written once
// as functions of that spelling (`?` on SQLite, `$n` on PostgreSQL).
import type { CampaignCounters } from "~/lib/campaigns";
import type { CampaignRow } from "~/models/campaigns/rows";
import { idFloor, type Param } from "~/models/dashboard/rows";

/** What moves when the customers' figures may: the kept tally, the newest customer and order ids. */
export type CustomerMarks = { customers: number | null; newestCustomer: string | null; newestOrder: string | null };
/** What moves when the rest of the answer may: segments and campaigns written, delivery counters. */
export type WritingMarks = { segments: string; campaigns: string };
export type InsightCounts = { campaigns: number; segments: number; firstCustomerId: string | null };
export type LaunchedCampaignRow = Pick<CampaignRow, "id" | "name"> & CampaignCounters;
export type UnsentSegmentRow = { id: string; name: string; conditions: string };

/** Spend in paise; inactive: customers not active since the given time (or never). */
export type AudienceFiguresRow = {
  n: number;
  minSpend: number;
  maxSpend: number;
  avgSpend: number;
  minVisits: number;
  maxVisits: number;
  avgVisits: number;
  inactive: number;
};
export const NO_AUDIENCE_FIGURES: AudienceFiguresRow = {
  n: 0,
  minSpend: 0,
  maxSpend: 0,
  avgSpend: 0,
  minVisits: 0,
  maxVisits: 0,
  avgVisits: 0,
  inactive: 0,
};

/** A window of customers by the creation time their id carries: [from, to) as id floors. */
const customersBetweenIdsSql = (p: Param) =>
  `SELECT count(*) AS n FROM "Customer" WHERE "userId" = ${p(1)} AND "id" >= ${p(2)} AND "id" < ${p(3)}`;
/** The customers from an id floor on. */
const customersFromIdSql = (p: Param) =>
  `SELECT count(*) AS n FROM "Customer" WHERE "userId" = ${p(1)} AND "id" >= ${p(2)}`;

/** The tenant's campaigns other than drafts, with their kept counters, newest first. */
const launchedCampaignCountersSql = (p: Param) =>
  `SELECT "id", "name", "audienceSize", "pendingCount", "sentCount", "deliveredCount", "failedCount", "bouncedCount",
          "complainedCount", "cancelledCount", "suppressedCount", "openedCount", "clickedCount"
   FROM "Campaign" WHERE "flowId" IS NULL AND "userId" = ${p(1)} AND "status" <> 'Draft' ORDER BY "createdAt" DESC, "id" DESC`;

/** The tenant's segments no campaign has been sent to (a draft is not a send), newest first. */
const segmentsNeverSentSql = (p: Param) =>
  `SELECT s."id", s."name", s."conditions" FROM "Segment" s
   WHERE s."userId" = ${p(1)} AND NOT EXISTS (SELECT 1 FROM "Campaign" c WHERE c."segmentId" = s."id" AND c."status" <> 'Draft')
   ORDER BY s."createdAt" DESC, s."id" DESC`;

/**
 * Which windows are counted as the rest subtracted from the tenant's total: a window that is most of
 * the tenant's life (roughly most of its customers) would scan more than the two ends outside it.
 * `firstMs` is the tenant's oldest customer's creation time, `at` now.
 */
function countsAsRest(window: { from: number; to: number }, firstMs: number, at: number): boolean {
  const span = Math.max(1, at - firstMs);
  return (window.to - Math.max(window.from, firstMs)) / span > 0.5;
}

/** The creation time (ms) an id carries: its first 8 hex digits are the second. */
const idTimeMs = (id: string) => Number.parseInt(id.slice(0, 8), 16) * 1000;

/** The statements both engines run, in the engine's spelling of parameters (made once per engine file). */
export const insightStatements = (p: Param) => ({
  customersBetweenIds: customersBetweenIdsSql(p),
  customersFromId: customersFromIdSql(p),
  launchedCampaignCounters: launchedCampaignCountersSql(p),
  segmentsNeverSent: segmentsNeverSentSql(p),
});

export type InsightStatements = ReturnType<typeof insightStatements>;

/** The `n` of a one-row count (0 without a row), as an engine runs it (at once on SQLite, a promise on PostgreSQL). */
export type CountRows = (sql: string, params: unknown[]) => number | Promise<number>;

/** countCustomersAdded() on either engine (./contract.ts): each window counted directly, or as the rest. */
export async function countCustomersAddedWith(
  count: CountRows,
  sql: InsightStatements,
  userId: string,
  { total, firstId, at }: { total: number; firstId: string | null; at: number },
  windows: { from: number; to: number }[],
): Promise<number[]> {
  if (!firstId) return windows.map(() => 0);
  const firstMs = idTimeMs(firstId);
  return Promise.all(
    windows.map(async (window) => {
      if (!countsAsRest(window, firstMs, at))
        return count(sql.customersBetweenIds, [userId, idFloor(window.from), idFloor(window.to)]);
      const [before, after] = await Promise.all([
        count(sql.customersBetweenIds, [userId, "", idFloor(window.from)]),
        count(sql.customersFromId, [userId, idFloor(window.to)]),
      ]);
      return Math.max(0, total - before - after);
    }),
  );
}
