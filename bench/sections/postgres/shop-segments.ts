// Segments on everything a shop knows, on PostgreSQL: the shop's own tenant, seeded into the
// PostgreSQL database by the product's own seed (COPY), its ten segments counted through the
// product's audience store and by hand-written SQL on the same pool (bench/helpers/shop-segments.ts).
import type { BenchSection, PostgresBenchContext } from "../../harness/types.ts";
import { handSql, measureShop, seedShop, shopCases } from "../../helpers/shop-segments.ts";

export default async function shopSegmentsOnPostgres(ctx: PostgresBenchContext): Promise<BenchSection> {
  const { parseConditions } = await import("../../../app/lib/segment-parse.ts");
  const { anniversaryRanges, istDateDaysAgo } = await import("../../../app/lib/segment-dates.ts");
  const { segmentAudience } = await import("../../../app/models/segments/audience/store.server.ts");
  const { postgres } = await import("../../../app/db/postgres.server.ts");
  const seeded = await seedShop(ctx.log);
  const userId = seeded.userId;
  const pool = postgres().pool;
  const commonest = async (sql: string) => String((await pool.query<{ v: string }>(sql, [userId])).rows[0]?.v ?? "");
  const city = await commonest(
    `SELECT min("value") AS v FROM "CustomerFieldValue" WHERE "userId" = $1 AND "name" = 'city' GROUP BY "textKey" ORDER BY count(*) DESC LIMIT 1`,
  );
  const product = await commonest(
    `SELECT min(i."name") AS v FROM "OrderItem" i JOIN "Order" o ON o."id" = i."orderId" WHERE o."userId" = $1 GROUP BY lower(i."name") ORDER BY count(*) DESC LIMIT 1`,
  );
  const now = Date.now();
  const cases = shopCases({ userId, city, product, now }, anniversaryRanges(istDateDaysAgo(0, now), 7));
  const tree = (conditions: Record<string, unknown>) => {
    const parsed = parseConditions(conditions);
    if (!parsed.ok) throw new Error(`A shop segment does not validate: ${parsed.message}`);
    return parsed.tree;
  };
  return measureShop({
    engine: "postgres",
    cases,
    count: (conditions) => segmentAudience.sqlAudienceCount(userId, tree(conditions), now),
    handCount: async (c) =>
      Number((await pool.query<{ count: string }>(handSql(c.hand, "postgres"), c.params)).rows[0].count),
    page: (conditions) => segmentAudience.sqlAudiencePage(userId, tree(conditions), 100, undefined, now),
    log: ctx.log,
    seeded,
  });
}
