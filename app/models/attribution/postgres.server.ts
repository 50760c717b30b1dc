// Revenue per campaign on PostgreSQL (decision 0027; the contract and its rules: ./contract.ts):
// the same rules in the same shape of SQL as SQLite's (./sqlite.server.ts), on the process's pool.
//
// What differs from SQLite:
// - the touches come from the partial indexes "Delivery_attribution_clicked_idx" /
//   "_opened_idx" (WHERE "clickedAt" / "openedAt" IS NOT NULL, baseline migration), which the
//   planner picks for the same IS NOT NULL the queries say; there is no INDEXED BY;
// - a touch's time is epoch ms (a bigint column, as the delivery job writes it) and an order's
//   is timestamptz: a touch is turned into a timestamptz, exactly (`ms * interval '1 millisecond'`
//   is integer arithmetic in microseconds), before it meets "Order_attribution_idx";
// - the page's campaign ids are a text[] parameter instead of json_each().
import { postgres, query } from "~/db/postgres.server";
import { CAMPAIGN_COLUMNS_PG } from "~/models/campaigns/rows";
import type { AttributionStore } from "./contract";
import {
  type AttributionRow,
  type AttributionTouch,
  type CampaignAttributionRow,
  type CampaignRevenueRow,
  TOUCH_COLUMN,
} from "./rows";

/** A touch's epoch ms as a timestamptz, to compare with an order's "createdAt". */
const instant = (ms: string) => `('epoch'::timestamptz + (${ms}) * interval '1 millisecond')`;

/** Named parameters, numbered in the order they are first used. */
class Params {
  readonly values: unknown[] = [];
  private readonly names = new Map<string, string>();
  constructor(private readonly given: Record<string, unknown>) {}
  ref(name: string): string {
    let placeholder = this.names.get(name);
    if (!placeholder) {
      if (!(name in this.given)) throw new Error(`attribution: no value for ${name}`);
      this.values.push(this.given[name]);
      placeholder = `$${this.values.length}`;
      this.names.set(name, placeholder);
    }
    return placeholder;
  }
}

function touchesSql(
  p: Params,
  touch: AttributionTouch,
  campaignWhere: string,
  touchWhere = "",
  from = `"Campaign" c`,
): string {
  const at = TOUCH_COLUMN[touch];
  return `SELECT c."id" AS "campaignId", t."customerId" AS "customerId", t.${at} AS "at", t."seq" AS "seq"
    FROM ${from} JOIN "Delivery" t ON t."campaignId" = c."id" AND t.${at} IS NOT NULL ${touchWhere}
    WHERE c."userId" = ${p.ref("userId")} AND ${campaignWhere}`;
}

function pairsSql(p: Params, ...others: string[]): string {
  const later = others.map(
    (other) => `AND NOT EXISTS (SELECT 1 FROM ${other} l
        WHERE l."customerId" = d."customerId" AND ${instant(`l."at"`)} < o."createdAt" AND (l."at", l."seq") > (d."at", d."seq"))`,
  );
  return `FROM d JOIN "Order" o
      ON o."customerId" = d."customerId" AND o."createdAt" > ${instant(`d."at"`)}
      AND o."createdAt" <= ${instant(`d."at" + ${p.ref("windowMs")}::bigint`)}
    WHERE o."userId" = ${p.ref("userId")} AND (lower(o."status") = 'cancelled') = false
      ${later.join("\n      ")}`;
}

const SUMS = `count(*) AS "orders", coalesce(sum(o."amountPaise" + o."taxPaise"), 0) AS "revenuePaise"`;

function othersSql(p: Params, touch: AttributionTouch, campaignWhere: string): string {
  const at = TOUCH_COLUMN[touch];
  return `span AS MATERIALIZED (SELECT min("at") AS lo, max("at") + ${p.ref("windowMs")}::bigint AS hi FROM d),
    other AS MATERIALIZED (${touchesSql(p, touch, campaignWhere, `AND t.${at} >= span.lo AND t.${at} < span.hi`, `span CROSS JOIN "Campaign" c`)})`;
}

function campaignAttributionSql(p: Params, touch: AttributionTouch): string {
  return `WITH d AS MATERIALIZED (${touchesSql(p, touch, `c."id" = ${p.ref("campaignId")}`)} ORDER BY "customerId"),
    ${othersSql(p, touch, `c."id" <> ${p.ref("campaignId")}`)}
    SELECT ${SUMS} ${pairsSql(p, "other")}`;
}

/** The campaign columns as CampaignRow has them: the tracking switch as SQLite's 0/1. */

export const postgresAttribution: AttributionStore = {
  async campaignAttribution(userId, campaignId, touch, windowMs) {
    const p = new Params({ userId, campaignId, windowMs });
    const [row] = await query<AttributionRow>(postgres(), campaignAttributionSql(p, touch), p.values);
    return row ?? { orders: 0, revenuePaise: 0 };
  },

  async campaignsAttribution(userId, campaignIds, windowMs) {
    if (!campaignIds.length) return [];
    const p = new Params({ userId, windowMs, ids: campaignIds });
    return query<CampaignAttributionRow>(
      postgres(),
      `WITH d AS MATERIALIZED (${touchesSql(p, "clicked", `c."id" = ANY(${p.ref("ids")}::text[])`)} ORDER BY "customerId"),
        ${othersSql(p, "clicked", `c."id" <> ALL(${p.ref("ids")}::text[])`)}
       SELECT d."campaignId" AS "campaignId", ${SUMS} ${pairsSql(p, "d", "other")} GROUP BY d."campaignId"`,
      p.values,
    );
  },

  async campaignRowsByRevenue(userId, limit, after, windowMs) {
    const p = new Params({
      userId,
      windowMs,
      limit,
      ...(after ? { afterRevenuePaise: after.revenuePaise, afterId: after.id } : {}),
    });
    // The ranking's id order is binary, as SQLite's: COLLATE "C" whatever the database's collation.
    const sql = `WITH d AS MATERIALIZED (${touchesSql(p, "clicked", "true")} ORDER BY "customerId"),
      r AS (SELECT d."campaignId" AS "campaignId", ${SUMS} ${pairsSql(p, "d")} GROUP BY d."campaignId"),
      ranked AS (
        SELECT ${CAMPAIGN_COLUMNS_PG}, coalesce(r."orders", 0) AS "attributedOrders",
          coalesce(r."revenuePaise", 0) AS "attributedRevenuePaise"
        FROM "Campaign" LEFT JOIN r ON r."campaignId" = "Campaign"."id" WHERE "Campaign"."flowId" IS NULL AND "Campaign"."userId" = ${p.ref("userId")})
      SELECT * FROM ranked ${
        after
          ? `WHERE ("attributedRevenuePaise", "id" COLLATE "C") < (${p.ref("afterRevenuePaise")}::bigint, ${p.ref("afterId")}::text COLLATE "C")`
          : ""
      }
      ORDER BY "attributedRevenuePaise" DESC, "id" COLLATE "C" DESC LIMIT ${p.ref("limit")}`;
    return query<CampaignRevenueRow>(postgres(), sql, p.values);
  },

  async revenueInPeriod(userId, period, windowMs) {
    const p = new Params({ userId, windowMs, ...period, fromAt: new Date(period.from), toAt: new Date(period.to) });
    const sql = `WITH d AS MATERIALIZED (${touchesSql(
      p,
      "clicked",
      "true",
      `AND t."clickedAt" > ${p.ref("from")}::bigint - ${p.ref("windowMs")}::bigint AND t."clickedAt" < ${p.ref("to")}::bigint`,
    )} ORDER BY "customerId")
      SELECT ${SUMS} ${pairsSql(p, "d")} AND o."createdAt" >= ${p.ref("fromAt")} AND o."createdAt" < ${p.ref("toAt")}`;
    const [row] = await query<AttributionRow>(postgres(), sql, p.values);
    return row ?? { orders: 0, revenuePaise: 0 };
  },
};
