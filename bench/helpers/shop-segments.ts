// Segments on everything a shop knows, on either engine (bench/sections/sqlite/shop-segments.ts,
// bench/sections/postgres/shop-segments.ts): a tenant of its own, "the shop", seeded by the product's
// own seed with BENCH_SHOP_CUSTOMERS customers (default 1,000,000), three orders a customer, the 10
// seed fields with the built-in ones, the 20 seed tags and a history of BENCH_SHOP_CAMPAIGNS
// campaigns (default 10) with opens and clicks; then ten segments, one per new kind of condition and
// two nested mixes, each counted through the product's own audience store and by hand-written SQL
// on the same database, timed in turn. Goals (docs/decisions/0041-custom-fields-and-tags.md): p95 ≤
// 100 ms, and ≤ 1.5× the hand-written SQL's p95 where that takes 5 ms or more; both give the same
// count; a page of 100 of the headline segment's customers at p99 ≤ 50 ms.
import type { BenchGoal, BenchSection } from "../harness/types.ts";
import { stats } from "./latency-stats.ts";

export const SHOP_CUSTOMERS = Number(process.env.BENCH_SHOP_CUSTOMERS ?? 1_000_000);
export const SHOP_CAMPAIGNS = Number(process.env.BENCH_SHOP_CAMPAIGNS ?? 10);
export const SHOP_EMAIL = "bench-shop@example.com";

const WARMUP = 2;
const MIN_RUNS = 10;
const MAX_RUNS = 200;
const TIME_PER_CASE_MS = 2500;
const DAY = 86_400_000;
const IST = 330 * 60_000;

export type Dialect = "sqlite" | "postgres";
type Param = string | number;

/** A segment: its mapping, and the hand-written count of the same customers (SQLite's `?`). */
export type ShopCase = {
  name: string;
  kind: string;
  conditions: Record<string, unknown>;
  hand: string;
  params: Param[];
};

/** What the cases are built on: the shop's commonest city and product, read from the database. */
export type ShopFacts = { userId: string; city: string; product: string; now: number };

/** Midnight IST that starts the day `k` days before `now`'s. */
const istMidnight = (now: number, k: number) => Math.floor((now + IST) / DAY) * DAY - IST - k * DAY;

/** The shop's tenant: made and seeded (timed) unless it is there already. */
export async function seedShop(log: (message: string) => void): Promise<{ userId: string; seconds: number | null }> {
  const { upsertLocalUser } = await import("../../app/services/users.server.ts");
  const { seedTenant } = await import("../../app/services/seed.server.ts");
  const { seedCampaignHistory } = await import("../../app/services/sending/history.server.ts");
  const { openConnection, closeConnection } = await import("../../app/db/connection.server.ts");
  const { db } = await import("../../app/db/prisma.server.ts");
  const user = await upsertLocalUser({ email: SHOP_EMAIL, name: "Bench Shop" });
  if ((await db().customer.count({ where: { userId: user.id } })) > 0) return { userId: user.id, seconds: null };
  const started = Date.now();
  log(
    `shop: seeding ${SHOP_CUSTOMERS.toLocaleString("en-IN")} customers, ${(3 * SHOP_CUSTOMERS).toLocaleString("en-IN")} orders, 10 fields, 20 tags`,
  );
  await seedTenant(user.id, { customers: SHOP_CUSTOMERS, orders: 3 * SHOP_CUSTOMERS, fields: 10, tags: 20, seed: 3 });
  log(`shop: ${SHOP_CAMPAIGNS} campaigns with opens and clicks`);
  const connection = openConnection({ applicationName: "bench shop" });
  try {
    await seedCampaignHistory(connection, user.id, SHOP_CAMPAIGNS);
  } finally {
    await closeConnection(connection);
  }
  const seconds = (Date.now() - started) / 1000;
  // The planner's statistics of the new rows, as a live database has them after its next ANALYZE
  // (PostgreSQL's autovacuum, SQLite's optimize): both the product and the hand-written SQL use them.
  // On PostgreSQL a VACUUM too, which autovacuum also runs on a live database: without it the
  // visibility map is empty and no count is an index-only scan (at a million customers the counts of
  // large lists read the table, product and hand-written SQL alike).
  const postgres = (process.env.DATABASE_URL ?? "").startsWith("postgres");
  log(postgres ? "shop: VACUUM ANALYZE" : "shop: ANALYZE");
  await db().$executeRawUnsafe(postgres ? "VACUUM ANALYZE" : "ANALYZE");
  return { userId: user.id, seconds };
}

/** The ten segments and their hand-written counts. */
export function shopCases(f: ShopFacts, anniversary: [number, number][]): ShopCase[] {
  const days = (k: number) => istMidnight(f.now, k);
  const within = (k: number) => new Date(days(k) + IST).toISOString().slice(0, 10);
  const anniversarySql = anniversary.map(() => `("numberValue" >= ? AND "numberValue" <= ?)`).join(" OR ");
  const anniversaryParams = anniversary.flat();
  const cityIds = `SELECT "customerId" FROM "CustomerFieldValue" WHERE "userId" = ? AND "name" = 'city' AND "textKey" = ?`;
  const productIds = `SELECT o."customerId" FROM "OrderItem" i CROSS JOIN "Order" o
    WHERE lower(i."name") = lower(?) AND o."id" = i."orderId" AND o."userId" = ? AND o."status" <> 'Cancelled'`;
  const birthdayIds = `SELECT "customerId" FROM "CustomerFieldValue" WHERE "userId" = ? AND "name" = 'birthday' AND (${anniversarySql})`;
  return [
    {
      name: "city is the commonest city",
      kind: "text field",
      conditions: { "field:city": { $eq: f.city } },
      hand: `SELECT count(*) FROM "CustomerFieldValue" WHERE "userId" = ? AND "name" = 'city' AND "textKey" = ?`,
      params: [f.userId, f.city.toLowerCase()],
    },
    {
      name: "tier is Gold or Platinum",
      kind: "choice field",
      conditions: { "field:tier": { $in: ["Gold", "Platinum"] } },
      hand: `SELECT count(*) FROM "CustomerFieldValue" WHERE "userId" = ? AND "name" = 'tier' AND "textKey" IN ('gold', 'platinum')`,
      params: [f.userId],
    },
    {
      name: "birthday within 7 days",
      kind: "date anniversary",
      conditions: { "field:birthday": { $anniversaryWithinDays: 7 } },
      hand: `SELECT count(*) FROM "CustomerFieldValue" WHERE "userId" = ? AND "name" = 'birthday' AND (${anniversarySql})`,
      params: [f.userId, ...anniversaryParams],
    },
    {
      name: "tagged VIP",
      kind: "tags",
      conditions: { tags: { $in: ["VIP"] } },
      hand: `SELECT count(*) FROM "CustomerTag" ct JOIN "Tag" t ON t."id" = ct."tagId" WHERE t."userId" = ? AND t."key" = 'vip'`,
      params: [f.userId],
    },
    {
      name: "5 orders or more",
      kind: "order count",
      conditions: { orderCount: { $gte: 5 } },
      hand: `SELECT count(*) FROM "CustomerActivity" WHERE "userId" = ? AND "orderCount" >= 5`,
      params: [f.userId],
    },
    {
      name: "bought the commonest product",
      kind: "product",
      conditions: { boughtProduct: { $eq: f.product } },
      hand: `SELECT count(*) FROM (SELECT DISTINCT o."customerId" FROM "OrderItem" i CROSS JOIN "Order" o
        WHERE lower(i."name") = lower(?) AND o."id" = i."orderId" AND o."userId" = ? AND o."status" <> 'Cancelled') x`,
      params: [f.product, f.userId],
    },
    {
      name: "opened something in 90 days",
      kind: "engagement",
      conditions: { lastOpenDate: { $gte: { $daysAgo: 90 } } },
      hand: `SELECT count(*) FROM "CustomerActivity" WHERE "userId" = ? AND "lastOpenAt" >= ?`,
      params: [f.userId, days(90)],
    },
    {
      name: "last order 60 to 90 days ago",
      kind: "order dates",
      conditions: { lastOrderDate: { $gte: { $daysAgo: 90 }, $lt: { $daysAgo: 60 } } },
      hand: `SELECT count(*) FROM "CustomerActivity" WHERE "userId" = ? AND "lastOrderAt" >= ?ts AND "lastOrderAt" < ?ts`,
      params: [f.userId, days(90), days(60)],
    },
    {
      name: "birthday this week in the commonest city, bought the commonest product, opened in 90 days",
      kind: "nested mix",
      conditions: {
        "field:birthday": { $anniversaryWithinDays: 7 },
        "field:city": { $eq: f.city },
        boughtProduct: { $eq: f.product },
        lastOpenDate: { $gte: { $daysAgo: 90 } },
      },
      hand: `SELECT count(*) FROM "CustomerActivity" a WHERE a."userId" = ? AND a."lastOpenAt" >= ?
        AND a."customerId" IN (${cityIds}) AND a."customerId" IN (${birthdayIds}) AND a."customerId" IN (${productIds})`,
      params: [f.userId, days(90), f.userId, f.city.toLowerCase(), f.userId, ...anniversaryParams, f.product, f.userId],
    },
    {
      name: "(VIP and Diwali 2025, average over ₹2,000) or (1,000 points or more, 2 orders in a year)",
      kind: "nested mix",
      conditions: {
        $or: [
          { tags: { $all: ["VIP", "Diwali 2025"] }, averageOrderValue: { $gt: 2000 } },
          { "field:points": { $gte: 1000 }, orderCount: { $gte: 2, withinDays: 365 } },
        ],
      },
      hand: `SELECT count(*) FROM (
        SELECT a."customerId" FROM "CustomerActivity" a WHERE a."userId" = ? AND a."averageOrderPaise" > 200000
          AND a."customerId" IN (SELECT ct."customerId" FROM "CustomerTag" ct JOIN "Tag" t ON t."id" = ct."tagId"
            WHERE t."userId" = ? AND t."key" IN ('vip', 'diwali 2025') GROUP BY ct."customerId" HAVING count(*) = 2)
        UNION
        SELECT v."customerId" FROM "CustomerFieldValue" v WHERE v."userId" = ? AND v."name" = 'points' AND v."numberValue" >= 1000
          AND v."customerId" IN (SELECT o."customerId" FROM "Order" o WHERE o."userId" = ? AND o."createdAt" >= ?ts
            AND o."status" <> 'Cancelled' GROUP BY o."customerId" HAVING count(*) >= 2)) x`,
      params: [f.userId, f.userId, f.userId, f.userId, Date.parse(`${within(365)}T00:00:00+05:30`)],
    },
  ];
}

/** A hand-written statement in an engine's words: `?ts` is a time (ms), `?` a plain value. */
export function handSql(sql: string, dialect: Dialect): string {
  if (dialect === "sqlite") return sql.replaceAll("?ts", "?");
  let n = 0;
  return sql.replace(/\?(ts)?/g, (_, ts: string | undefined) => {
    n += 1;
    return ts ? `to_timestamp($${n}::float8 / 1000)` : `$${n}`;
  });
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Runs `run` in turn with `other` until the time or run budget is spent; their p95s (ms). */
async function timeInTurn(run: () => Promise<unknown>, other: () => Promise<unknown>) {
  for (let i = 0; i < WARMUP; i++) {
    await run();
    await other();
  }
  const a: number[] = [];
  const b: number[] = [];
  const started = performance.now();
  while (a.length < MAX_RUNS && (a.length < MIN_RUNS || performance.now() - started < TIME_PER_CASE_MS)) {
    let t = performance.now();
    await run();
    a.push(performance.now() - t);
    t = performance.now();
    await other();
    b.push(performance.now() - t);
  }
  return { product: stats(a), hand: stats(b) };
}

/**
 * Measures the cases on one engine: `count` (the product's), `handCount` (the hand-written SQL)
 * and `page` (a page of 100 of a tree's customers).
 */
export async function measureShop(options: {
  engine: Dialect;
  cases: ShopCase[];
  count: (conditions: Record<string, unknown>) => Promise<number>;
  handCount: (c: ShopCase) => Promise<number>;
  page: (conditions: Record<string, unknown>) => Promise<unknown>;
  log: (message: string) => void;
  seeded: { seconds: number | null };
}): Promise<BenchSection> {
  const figures: Record<string, unknown>[] = [];
  const goals: BenchGoal[] = [];
  for (const c of options.cases) {
    options.log(`shop segments (${options.engine}): ${c.name}`);
    let mine: number;
    let theirs: number;
    let t: Awaited<ReturnType<typeof timeInTurn>>;
    try {
      [mine, theirs] = [await options.count(c.conditions), await options.handCount(c)];
      t = await timeInTurn(
        () => options.count(c.conditions),
        () => options.handCount(c),
      );
    } catch (error) {
      // A statement cut by its timeout (30 s) is a goal missed, not a lost report.
      const message = error instanceof Error ? error.message : String(error);
      figures.push({ name: c.name, kind: c.kind, error: message });
      goals.push({ goal: `${c.kind}: ${c.name}: p95`, value: 30_000, limit: 100, unit: "ms", met: false });
      continue;
    }
    const ratio = round(t.product.p95 / Math.max(t.hand.p95, 0.001));
    figures.push({ name: c.name, kind: c.kind, count: mine, handCount: theirs, ...t, ratio });
    goals.push({
      goal: `${c.kind}: ${c.name}: p95`,
      value: t.product.p95,
      limit: 100,
      unit: "ms",
      met: t.product.p95 <= 100,
    });
    goals.push({
      goal: `${c.kind}: ${c.name}: the hand-written SQL's count`,
      value: mine,
      limit: theirs,
      unit: "customers",
      met: mine === theirs,
    });
    if (t.hand.p95 >= 5) {
      goals.push({
        goal: `${c.kind}: ${c.name}: p95 against the hand-written SQL's`,
        value: ratio,
        limit: 1.5,
        unit: "×",
        met: ratio <= 1.5,
      });
    }
  }
  const headline = options.cases.find((c) => c.kind === "nested mix");
  if (headline) {
    const pages: number[] = [];
    for (let i = 0; i < 100; i++) {
      const t = performance.now();
      await options.page(headline.conditions);
      pages.push(performance.now() - t);
    }
    const { p99, count: runs } = stats(pages);
    figures.push({ name: "a page of 100 of the headline segment's customers", p99, runs });
    goals.push({
      goal: "a customer list page filtered by a segment: p99",
      value: p99,
      limit: 50,
      unit: "ms",
      met: p99 <= 50,
    });
  }
  return {
    name: "shop-segments",
    figures: {
      customers: SHOP_CUSTOMERS,
      orders: 3 * SHOP_CUSTOMERS,
      campaigns: SHOP_CAMPAIGNS,
      seedSeconds: options.seeded.seconds,
      cases: figures,
    },
    goals,
  };
}
