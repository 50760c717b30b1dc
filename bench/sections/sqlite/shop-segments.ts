// Segments on everything a shop knows, on SQLite: the shop's own tenant (bench/helpers/shop-segments.ts
// seeds it into the bench's database), its ten segments counted through the product's audience
// store and by hand-written SQL on a read-only better-sqlite3 connection to the same file.
import Database from "better-sqlite3";
import type { BenchContext, BenchSection } from "../../harness/types.ts";
import { handSql, measureShop, seedShop, shopCases } from "../../helpers/shop-segments.ts";

export default async function shopSegments(ctx: BenchContext): Promise<BenchSection> {
  const { parseConditions } = await import("../../../app/lib/segment-parse.ts");
  const { anniversaryRanges, istDateDaysAgo } = await import("../../../app/lib/segment-dates.ts");
  const { segmentAudience } = await import("../../../app/models/segments/audience/store.server.ts");
  const seeded = await seedShop(ctx.log);
  const raw = new Database(ctx.dbFile, { readonly: true, fileMustExist: true });
  raw.pragma("mmap_size = 1073741824");
  raw.pragma("cache_size = -65536");
  try {
    const userId = seeded.userId;
    const commonest = (sql: string) => String(raw.prepare(sql).pluck().get(userId) ?? "");
    const city = commonest(
      `SELECT "value" FROM "CustomerFieldValue" WHERE "userId" = ? AND "name" = 'city' GROUP BY "textKey" ORDER BY count(*) DESC LIMIT 1`,
    );
    const product = commonest(
      `SELECT i."name" FROM "OrderItem" i JOIN "Order" o ON o."id" = i."orderId" WHERE o."userId" = ? GROUP BY lower(i."name") ORDER BY count(*) DESC LIMIT 1`,
    );
    const now = Date.now();
    const cases = shopCases({ userId, city, product, now }, anniversaryRanges(istDateDaysAgo(0, now), 7));
    const tree = (conditions: Record<string, unknown>) => {
      const parsed = parseConditions(conditions);
      if (!parsed.ok) throw new Error(`A shop segment does not validate: ${parsed.message}`);
      return parsed.tree;
    };
    return await measureShop({
      engine: "sqlite",
      cases,
      count: (conditions) => segmentAudience.sqlAudienceCount(userId, tree(conditions), now),
      handCount: async (c) =>
        Number(
          raw
            .prepare(handSql(c.hand, "sqlite"))
            .pluck()
            .get(...c.params),
        ),
      page: (conditions) => segmentAudience.sqlAudiencePage(userId, tree(conditions), 100, undefined, now),
      log: ctx.log,
      seeded,
    });
  } finally {
    raw.close();
  }
}
