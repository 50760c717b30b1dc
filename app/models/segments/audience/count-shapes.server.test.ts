// How a segment's audience is counted (./count-shapes.ts, through the door ./store.server.ts)
// against a real database (SQLite, or PostgreSQL with TEST_DATABASE_ENGINE=postgres): a property
// test that the SQL count equals a plain JavaScript filter of the same customers on random trees
// and data, with SQLite's own count shapes forced (on SQLite) and PostgreSQL's likewise, and how
// chooseAndShape picks a shape. PostgreSQL's shapes are compared with SQLite's in
// ./dialects.property.test.ts.
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { TEST_ENGINE, createTestUser, useTestDatabase as setUpTestDatabase } from "../../../../tests/helpers/db";
import { type ConditionNode, type Operator, type SegmentNode } from "~/lib/segments";
import { parseConditions } from "~/lib/segment-parse";
import { segmentAudience } from "~/models/segments/audience/store.server";
import { insertCustomers, type Row, tree } from "~/models/segments/audience/test-customers";
import { postgresCountTuning } from "~/models/segments/audience/postgres.server";
import { segmentSqlTuning } from "~/models/segments/audience/sqlite.server";
import { chooseAndShape, complementCountSql, disjointOrSql } from "~/models/segments/audience/count-shapes";
import { segmentTreeArb } from "../../../../tests/helpers/segment-trees";

setUpTestDatabase();

const HOUR = 3_600_000;

// ---------------------------------------------------------------------------------------------
// Property: SQL count = a straightforward JavaScript filter

const istDay = (ms: number) => new Date(ms + 330 * 60_000).toISOString().slice(0, 10);

function compare(a: number | string, op: Operator, b: number | string): boolean {
  switch (op) {
    case "$gt":
      return a > b;
    case "$gte":
      return a >= b;
    case "$lt":
      return a < b;
    case "$lte":
      return a <= b;
    case "$eq":
      return a === b;
  }
}

function matches(node: SegmentNode, c: Row): boolean {
  if (node.kind === "group") {
    return node.logic === "AND" ? node.children.every((n) => matches(n, c)) : node.children.some((n) => matches(n, c));
  }
  if (node.kind !== "condition") throw new Error("These trees test the three figures only");
  const cond: ConditionNode = node;
  if (cond.field === "totalSpend") return compare(c.totalSpendPaise, cond.op, Math.round(Number(cond.value) * 100));
  if (cond.field === "visits") return compare(c.visits, cond.op, Number(cond.value));
  if (c.lastActive === null) return false;
  const value = String(cond.value);
  return value.length === 10
    ? compare(istDay(c.lastActive), cond.op, value)
    : compare(c.lastActive, cond.op, Date.parse(value));
}

const BASE_DAY = Date.UTC(2025, 0, 1);
const dayString = (offset: number) => new Date(BASE_DAY + offset * 86_400_000).toISOString().slice(0, 10);

const numberOp = fc.constantFrom<Operator>("$gt", "$gte", "$lt", "$lte", "$eq");
const dateOp = fc.constantFrom<Operator>("$gt", "$gte", "$lt", "$lte");
// Values on a coarse grid so boundaries (equal values) come up often.
const conditionArb: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ op: numberOp, v: fc.integer({ min: 0, max: 20 }), d: fc.constantFrom(0, 1, -1) }).map(({ op, v, d }) => ({
    totalSpend: { [op]: (v * 500_00 + d) / 100 },
  })),
  fc.record({ op: numberOp, v: fc.integer({ min: 0, max: 10 }) }).map(({ op, v }) => ({ visits: { [op]: v } })),
  fc
    .record({ op: dateOp, d: fc.integer({ min: -2, max: 12 }) })
    .map(({ op, d }) => ({ lastActiveDate: { [op]: dayString(d) } })),
  fc
    .record({ op: dateOp, d: fc.integer({ min: -2, max: 12 }), h: fc.integer({ min: 0, max: 23 }) })
    .map(({ op, d, h }) => ({
      lastActiveDate: { [op]: new Date(BASE_DAY + d * 86_400_000 + h * HOUR).toISOString() },
    })),
);
const treeArb = segmentTreeArb(conditionArb);
const customerArb = fc.record({
  totalSpendPaise: fc
    .integer({ min: 0, max: 20 })
    .chain((v) => fc.constantFrom(v * 500_00, v * 500_00 + 1, Math.max(0, v * 500_00 - 1))),
  visits: fc.integer({ min: 0, max: 10 }),
  lastActive: fc.option(
    fc.integer({ min: -2 * 86_400_000, max: 12 * 86_400_000 }).map((ms) => BASE_DAY + ms),
    { nil: null, freq: 6 },
  ),
});

describe("property: the SQL count equals a JavaScript filter", () => {
  // PostgreSQL's nearest shape to each of SQLite's (it has no anchored complement), forced likewise.
  const pgDefaults = { ...postgresCountTuning };
  afterAll(() => {
    Object.assign(postgresCountTuning, pgDefaults);
  });
  it.each([
    [
      "the plain WHERE",
      { sampleSize: 1e9, narrowOr: 0.35, broadAnd: 0.2, forceAnd: "plain" as const },
      { force: "plain" as const },
    ],
    [
      "the disjoint OR count for every top-level OR",
      { sampleSize: 1, narrowOr: Infinity, broadAnd: Infinity, forceAnd: null },
      { force: "disjoint" as const },
    ],
    [
      "the tenant complement count for every top-level AND",
      { sampleSize: 1, narrowOr: 0, broadAnd: 0, forceAnd: "complement" as const },
      { force: "complement" as const },
    ],
    [
      "the complement anchored on a condition for every top-level AND",
      { sampleSize: 1, narrowOr: 0, broadAnd: 0, forceAnd: "anchored" as const },
      { force: "complement" as const },
    ],
    [
      "the cost model's choice for every top-level AND",
      { sampleSize: 1, narrowOr: 0, broadAnd: 0, forceAnd: null },
      { minTenant: 0, force: null },
    ],
  ])("on random trees over a fixed random set of customers, through %s", async (_, tuning, pgTuning) => {
    Object.assign(segmentSqlTuning, tuning);
    Object.assign(postgresCountTuning, pgDefaults, pgTuning);
    const userId = (await createTestUser("Property fixed")).id;
    const customers = await insertCustomers(userId, fc.sample(customerArb, { numRuns: 300, seed: 42 }));
    await fc.assert(
      fc.asyncProperty(treeArb, async (conditions) => {
        const parsed = parseConditions(conditions);
        if (!parsed.ok) return true; // deeper than allowed: refused, nothing to compare
        const expected = customers.filter((c) => matches(parsed.tree, c)).length;
        expect(await segmentAudience.sqlAudienceCount(userId, parsed.tree)).toBe(expected);
      }),
      { numRuns: 400 },
    );
  });

  it("on random data and random trees together", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(customerArb, { minLength: 0, maxLength: 40 }), treeArb, async (data, conditions) => {
        const parsed = parseConditions(conditions);
        if (!parsed.ok) return;
        const userId = (await createTestUser("Property random")).id;
        const customers = await insertCustomers(userId, data);
        const expected = customers.filter((c) => matches(parsed.tree, c)).length;
        for (const forceAnd of ["complement", "anchored", null] as const) {
          Object.assign(segmentSqlTuning, { sampleSize: 1, narrowOr: Infinity, broadAnd: 0, forceAnd });
          expect(await segmentAudience.sqlAudienceCount(userId, parsed.tree)).toBe(expected);
        }
      }),
      { numRuns: 60 },
    );
  });

  it("counts a narrow top-level OR as disjoint parts and a broad one in one scan, with the same answers", async () => {
    Object.assign(segmentSqlTuning, { sampleSize: 10, narrowOr: 0.35, broadAnd: 0.2, forceAnd: null });
    const userId = (await createTestUser("Disjoint")).id;
    await insertCustomers(
      userId,
      Array.from({ length: 50 }, (_, i) => ({ totalSpendPaise: i * 100, visits: i % 5, lastActive: null })),
    );
    const narrow = tree({
      $or: [{ totalSpend: { $gte: 48 } }, { visits: { $eq: 0 } }, { lastActiveDate: { $gt: "2020-01-01" } }],
    });
    expect(disjointOrSql(userId, narrow)?.sql).toBe(
      `SELECT (SELECT count(*) FROM "Customer" WHERE "userId" = ? AND "totalSpendPaise" >= ?)` +
        ` + (SELECT count(*) FROM "Customer" WHERE "userId" = ? AND "visits" = ? AND ("totalSpendPaise" >= ?) IS NOT TRUE)` +
        ` + (SELECT count(*) FROM "Customer" WHERE "userId" = ? AND "lastActive" >= ? AND ("totalSpendPaise" >= ?) IS NOT TRUE AND ("visits" = ?) IS NOT TRUE)`,
    );
    expect(await segmentAudience.sqlAudienceCount(userId, narrow)).toBe(12);
    expect(
      await segmentAudience.sqlAudienceCount(
        userId,
        tree({ $or: [{ totalSpend: { $gte: 0 } }, { visits: { $gt: 0 } }] }),
      ),
    ).toBe(50);
    Object.assign(segmentSqlTuning, { sampleSize: 2000, narrowOr: 0.35, broadAnd: 0.2, forceAnd: null });
  });

  it("counts a broad top-level AND by its complement and a narrow one in one scan, with the same answers", async () => {
    Object.assign(segmentSqlTuning, { sampleSize: 10, narrowOr: 0.35, broadAnd: 0.2, forceAnd: null });
    const userId = (await createTestUser("Complement")).id;
    // 50 customers: spend 0..49 rupees, visits 0..4, every fifth never active.
    await insertCustomers(
      userId,
      Array.from({ length: 50 }, (_, i) => ({
        totalSpendPaise: i * 100,
        visits: i % 5,
        lastActive: i % 5 === 0 ? null : BASE_DAY + i * HOUR,
      })),
    );
    const broad = tree({
      $and: [{ totalSpend: { $gte: 2 } }, { lastActiveDate: { $lt: "2030-01-01" } }, { visits: { $eq: 1 } }],
    });
    expect(complementCountSql(userId, broad)?.sql).toBe(
      `SELECT (SELECT count(*) FROM "Customer" INDEXED BY "Customer_userId_idx" WHERE "userId" = ?) - (SELECT` +
        ` (SELECT count(*) FROM "Customer" WHERE "userId" = ? AND "totalSpendPaise" < ?)` +
        ` + (SELECT count(*) FROM "Customer" WHERE "userId" = ? AND ("lastActive" >= ? OR "lastActive" IS NULL) AND ("totalSpendPaise" < ?) IS NOT TRUE)` +
        ` + (SELECT count(*) FROM "Customer" WHERE "userId" = ? AND ("visits" < ? OR "visits" > ?)` +
        ` AND ("totalSpendPaise" < ?) IS NOT TRUE AND (("lastActive" >= ? OR "lastActive" IS NULL)) IS NOT TRUE))`,
    );
    // Spend of 2 rupees or more (i >= 2), ever active and one visit (i % 5 === 1): i = 6, 11, … 46.
    expect(await segmentAudience.sqlAudienceCount(userId, broad)).toBe(9);
    // Anchored on the visits condition: its bare range, minus the customers in it the others miss.
    expect(complementCountSql(userId, broad, 2)?.sql).toBe(
      `SELECT (SELECT count(*) FROM "Customer" WHERE "userId" = ? AND "visits" = ?) - (SELECT` +
        ` (SELECT count(*) FROM "Customer" WHERE "userId" = ? AND "totalSpendPaise" < ? AND +"visits" = ?)` +
        ` + (SELECT count(*) FROM "Customer" WHERE "userId" = ? AND ("lastActive" >= ? OR "lastActive" IS NULL) AND +"visits" = ? AND ("totalSpendPaise" < ?) IS NOT TRUE))`,
    );
    expect(complementCountSql(userId, broad, 2)?.params).toEqual([
      userId,
      1,
      userId,
      200,
      1,
      userId,
      complementCountSql(userId, broad)?.params[4],
      1,
      200,
    ]);
    // A nested group has no range of its own to anchor on.
    expect(
      complementCountSql(
        userId,
        tree({ $and: [{ totalSpend: { $gte: 2 } }, { $or: [{ visits: { $gt: 1 } }, { visits: { $lt: 1 } }] }] }),
        1,
      ),
    ).toBeNull();
    // Four in five of the sampled oldest match, all spend at least 0: anchored on the visits range.
    // (SQLite's shapes: PostgreSQL chooses its own from the planner's estimates.)
    const most = tree({ $and: [{ totalSpend: { $gte: 0 } }, { visits: { $lte: 3 } }] });
    if (TEST_ENGINE === "sqlite") expect(await segmentAudience.audienceCountShape(userId, most)).toBe("anchored");
    expect(await segmentAudience.sqlAudienceCount(userId, most)).toBe(40);
    const few = tree({ $and: [{ totalSpend: { $gte: 45 } }, { visits: { $gte: 0 } }] });
    if (TEST_ENGINE === "sqlite") expect(await segmentAudience.audienceCountShape(userId, few)).toBe("plain");
    expect(await segmentAudience.sqlAudienceCount(userId, few)).toBe(5);
    expect(complementCountSql(userId, tree({ $or: [{ visits: { $gt: 1 } }, { visits: { $lt: 1 } }] }))).toBeNull();
    Object.assign(segmentSqlTuning, { sampleSize: 2000, narrowOr: 0.35, broadAnd: 0.2, forceAnd: null });
  });
});

describe("chooseAndShape", () => {
  const simple = (share: number) => ({ share, simple: true });
  it("scans once when the narrowest condition is narrow", () => {
    expect(chooseAndShape([simple(0.05), simple(0.5)])).toEqual({ shape: "plain" });
    expect(chooseAndShape([simple(0.5), simple(0.5)])).toEqual({ shape: "plain" });
  });
  it("anchors a broad AND on its narrowest condition when the others are broad too (bench: 3 conditions, 70%)", () => {
    expect(chooseAndShape([simple(0.9), simple(1), simple(0.7)])).toEqual({ shape: "complement", anchor: 2 });
    expect(chooseAndShape([simple(0.9), simple(1)])).toEqual({ shape: "complement", anchor: 0 });
  });
  it("counts by the tenant's complement when every condition is broad and none is narrower", () => {
    expect(chooseAndShape([simple(0.97), simple(0.97), simple(0.97)])).toEqual({ shape: "complement", anchor: null });
  });
  it("costs a nested group's complement as the whole tenant", () => {
    expect(chooseAndShape([simple(0.5), simple(0.99), { share: 0.4, simple: false }])).toEqual({ shape: "plain" });
  });
});
