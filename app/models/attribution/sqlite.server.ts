// Revenue per campaign on SQLite (the contract and its rules: ./contract.ts), on the read
// connection.
//
// Each query reads the campaign's clicked (or opened) delivery rows from
// "Delivery_attribution_clicked_idx" / "_opened_idx" (campaignId, clickedAt|openedAt, customerId;
// migration 20261126073000_attribution) into a CTE sorted by customer, looks each recipient's
// orders in (at, at + window] up on "Order_attribution_idx" (customerId, createdAt, userId,
// cancelled, total; migration 20261126074500_attribution_orders), and checks last touch against
// the tenant's other touches in the same span (a second CTE, indexed by SQLite on the fly). No
// table is read, only those indexes. Dates are stored as unixepoch milliseconds (Prisma's
// "unixepoch-ms" format, app/db/prisma.server.ts), as the delivery row's times are, so they compare
// directly.
import { readStatement } from "~/db/reader.server";
import { CAMPAIGN_COLUMNS } from "~/models/campaigns/rows";
import type { AttributionStore } from "./contract";
import {
  type AttributionRow,
  type AttributionTouch,
  type CampaignAttributionRow,
  type CampaignRevenueRow,
  TOUCH_COLUMN,
} from "./rows";

const TOUCH_INDEX: Record<AttributionTouch, string> = {
  clicked: `"Delivery_attribution_clicked_idx"`,
  opened: `"Delivery_attribution_opened_idx"`,
};

/**
 * The first touches (clicks or opens) of the tenant's campaigns `c` that `campaignWhere` selects,
 * one row each: campaignId, customerId, at, seq. One seek per campaign into its part of the index,
 * which holds those columns (never the table); `touchWhere` narrows the times (a period).
 */
function touchesSql(touch: AttributionTouch, campaignWhere: string, touchWhere = "", from = `"Campaign" c`): string {
  const at = TOUCH_COLUMN[touch];
  return `SELECT c."id" AS campaignId, t."customerId" AS customerId, t.${at} AS at, t."seq" AS seq
    FROM ${from} JOIN "Delivery" t INDEXED BY ${TOUCH_INDEX[touch]} ON t."campaignId" = c."id" AND t.${at} IS NOT NULL ${touchWhere}
    WHERE c."userId" = @userId AND ${campaignWhere}`;
}

/**
 * The FROM and WHERE of the attributed (touch, order) pairs: the touches `d` (a CTE, sorted by
 * customer so the order lookups walk the index in order), each customer's orders in (at, at + window]
 * on "Order_attribution_idx" (which holds the tenant, whether the order is cancelled and its total:
 * no table read), and last touch: no touch of the same customer in `others` (CTEs that together
 * hold every touch of the tenant that could be later) after this one and before the order.
 */
function pairsSql(...others: string[]): string {
  const later = others.map(
    (other) => `AND NOT EXISTS (SELECT 1 FROM ${other} l
        WHERE l.customerId = d.customerId AND l.at < o."createdAt" AND (l.at, l.seq) > (d.at, d.seq))`,
  );
  return `FROM d JOIN "Order" o INDEXED BY "Order_attribution_idx"
      ON o."customerId" = d.customerId AND o."createdAt" > d.at AND o."createdAt" <= d.at + @windowMs
    WHERE o."userId" = @userId AND (lower(o."status") = 'cancelled') = 0
      ${later.join("\n      ")}`;
}

const SUMS = `count(*) AS orders, coalesce(sum(o."amountPaise" + o."taxPaise"), 0) AS revenuePaise`;

/**
 * The touches of the tenant's other campaigns that could take an order from `d` (between its first
 * touch and its last touch plus the window): `span` and `other`, after `d`.
 */
function othersSql(touch: AttributionTouch, campaignWhere: string): string {
  const at = TOUCH_COLUMN[touch];
  return `span AS MATERIALIZED (SELECT min(at) AS lo, max(at) + @windowMs AS hi FROM d),
    other AS MATERIALIZED (${touchesSql(touch, campaignWhere, `AND t.${at} >= span.lo AND t.${at} < span.hi`, `span, "Campaign" c`)})`;
}

/** The SQL of one campaign's figures (exported for the bench's query plan). */
export function campaignAttributionSql(touch: AttributionTouch): string {
  return `WITH d AS MATERIALIZED (${touchesSql(touch, `c."id" = @campaignId`)} ORDER BY customerId),
    ${othersSql(touch, `c."id" <> @campaignId`)}
    SELECT ${SUMS} ${pairsSql("other")}`;
}

/** The SQL of the list sorted by revenue (exported for the bench's query plan). */
export function campaignsByRevenueSql(after: boolean): string {
  return `WITH d AS MATERIALIZED (${touchesSql("clicked", "1")} ORDER BY customerId),
    r AS (SELECT d.campaignId AS campaignId, ${SUMS} ${pairsSql("d")} GROUP BY d.campaignId),
    ranked AS (
      SELECT ${CAMPAIGN_COLUMNS}, coalesce(r.orders, 0) AS attributedOrders,
        coalesce(r.revenuePaise, 0) AS attributedRevenuePaise
      FROM "Campaign" LEFT JOIN r ON r.campaignId = "Campaign"."id" WHERE "Campaign"."flowId" IS NULL AND "Campaign"."userId" = @userId)
    SELECT * FROM ranked ${after ? `WHERE (attributedRevenuePaise, "id") < (@afterRevenuePaise, @afterId)` : ""}
    ORDER BY attributedRevenuePaise DESC, "id" DESC LIMIT @limit`;
}

/** The SQL of the tenant's campaign revenue in a period (exported for the bench's query plan). */
export function revenueInPeriodSql(): string {
  return `WITH d AS MATERIALIZED (${touchesSql(
    "clicked",
    "1",
    `AND t."clickedAt" > @from - @windowMs AND t."clickedAt" < @to`,
  )} ORDER BY customerId)
    SELECT ${SUMS} ${pairsSql("d")} AND o."createdAt" >= @from AND o."createdAt" < @to`;
}

/** The query plan of one of these statements, for the bench's report. */
export async function attributionPlan(sql: string, params: Record<string, unknown>): Promise<string[]> {
  return readStatement<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
    .all(params)
    .map((r) => r.detail);
}

export const sqliteAttribution: AttributionStore = {
  async campaignAttribution(userId, campaignId, touch, windowMs) {
    const row = readStatement<AttributionRow>(campaignAttributionSql(touch)).get({ userId, campaignId, windowMs });
    return row ?? { orders: 0, revenuePaise: 0 };
  },

  async campaignsAttribution(userId, campaignIds, windowMs) {
    if (!campaignIds.length) return [];
    return readStatement<CampaignAttributionRow>(
      `WITH d AS MATERIALIZED (${touchesSql("clicked", `c."id" IN (SELECT value FROM json_each(@ids))`)} ORDER BY customerId),
        ${othersSql("clicked", `c."id" NOT IN (SELECT value FROM json_each(@ids))`)}
       SELECT d.campaignId AS campaignId, ${SUMS} ${pairsSql("d", "other")} GROUP BY d.campaignId`,
    ).all({ userId, windowMs, ids: JSON.stringify(campaignIds) });
  },

  async campaignRowsByRevenue(userId, limit, after, windowMs) {
    const params = { userId, windowMs, limit };
    return after
      ? readStatement<CampaignRevenueRow>(campaignsByRevenueSql(true)).all({
          ...params,
          afterRevenuePaise: after.revenuePaise,
          afterId: after.id,
        })
      : readStatement<CampaignRevenueRow>(campaignsByRevenueSql(false)).all(params);
  },

  async revenueInPeriod(userId, period, windowMs) {
    const row = readStatement<AttributionRow>(revenueInPeriodSql()).get({ userId, windowMs, ...period });
    return row ?? { orders: 0, revenuePaise: 0 };
  },
};
