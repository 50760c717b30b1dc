// A segment's audience (the door, ./store.server.ts) against a real database (SQLite, or PostgreSQL with TEST_DATABASE_ENGINE=
// postgres): every field and operator, nesting, tenant scoping, bound parameters, and SQLite's
// query plan (on SQLite only). That the count equals a plain JavaScript filter on random trees and
// data, whatever shape counts it: ./count-shapes.server.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { TEST_ENGINE, createTestUser, useTestDatabase as setUpTestDatabase } from "../../../../tests/helpers/db";
import type { Operator } from "~/lib/segments";
import { segmentAudience } from "~/models/segments/audience/store.server";
import { insertCustomers, type Row, tree } from "~/models/segments/audience/test-customers";
import { countSql } from "~/models/segments/audience/rows";
import { compileSegmentWhere, compileTree } from "~/models/segments/audience/where";

setUpTestDatabase();

// IST midnight of 2025-03-10 is 2025-03-09T18:30:00Z.
const MAR10_IST = Date.UTC(2025, 2, 9, 18, 30);
const HOUR = 3_600_000;

describe("compileTree", () => {
  it("binds every value as a parameter and never writes it into the SQL", () => {
    const c = compileTree(
      tree({
        $and: [{ totalSpend: { $gt: 1000.5 } }, { visits: { $lte: 3 } }, { lastActiveDate: { $gte: "2025-03-10" } }],
      }),
    );
    expect(c.sql).toBe(`("totalSpendPaise" > ? AND "visits" <= ? AND "lastActive" >= ?)`);
    expect(c.params).toEqual([100050, 3, MAR10_IST]);
  });

  it("maps each number operator", () => {
    const ops: [Operator, string][] = [
      ["$gt", ">"],
      ["$gte", ">="],
      ["$lt", "<"],
      ["$lte", "<="],
      ["$eq", "="],
    ];
    for (const [op, sql] of ops) {
      expect(compileTree(tree({ visits: { [op]: 4 } })).sql).toBe(`"visits" ${sql} ?`);
      expect(compileTree(tree({ totalSpend: { [op]: 12.34 } }))).toEqual({
        sql: `"totalSpendPaise" ${sql} ?`,
        params: [1234],
      });
    }
  });

  it("treats a calendar date as the whole day in India Standard Time", () => {
    const day = 86_400_000;
    expect(compileTree(tree({ lastActiveDate: { $gt: "2025-03-10" } }))).toEqual({
      sql: `"lastActive" >= ?`,
      params: [MAR10_IST + day],
    });
    expect(compileTree(tree({ lastActiveDate: { $gte: "2025-03-10" } }))).toEqual({
      sql: `"lastActive" >= ?`,
      params: [MAR10_IST],
    });
    expect(compileTree(tree({ lastActiveDate: { $lt: "2025-03-10" } }))).toEqual({
      sql: `"lastActive" < ?`,
      params: [MAR10_IST],
    });
    expect(compileTree(tree({ lastActiveDate: { $lte: "2025-03-10" } }))).toEqual({
      sql: `"lastActive" < ?`,
      params: [MAR10_IST + day],
    });
    expect(compileTree(tree({ lastActiveDate: { $gt: "2025-03-10T12:00:00Z" } })).params).toEqual([
      Date.UTC(2025, 2, 10, 12),
    ]);
  });

  it("nests groups with their own AND/OR in parentheses", () => {
    const c = compileTree(
      tree({
        $or: [
          { totalSpend: { $gt: 10 } },
          {
            $and: [
              { visits: { $gte: 2 } },
              { $or: [{ visits: { $eq: 9 } }, { lastActiveDate: { $lt: "2025-01-01" } }] },
            ],
          },
        ],
      }),
    );
    // The OR inside the AND filters only (`+"col"`): the AND's range on visits picks the index.
    expect(c.sql).toBe(`("totalSpendPaise" > ? OR ("visits" >= ? AND (+"visits" = ? OR +"lastActive" < ?)))`);
    expect(c.params).toHaveLength(4);
    expect(
      compileTree(
        tree({ $and: [{ visits: { $gte: 2 } }, { $or: [{ visits: { $eq: 9 } }, { totalSpend: { $lt: 5 } }] }] }),
        "postgres",
      ).sql,
    ).toBe(`("visits" >= $1::bigint AND ("visits" = $2::bigint OR "totalSpendPaise" < $3::bigint))`);
  });

  it("puts the tenant first, and numbers placeholders for PostgreSQL", () => {
    const t = tree({ $and: [{ totalSpend: { $gt: 1 } }, { visits: { $lt: 5 } }] });
    expect(compileSegmentWhere("u1", t)).toEqual({
      sql: `"userId" = ? AND ("totalSpendPaise" > ? AND "visits" < ?)`,
      params: ["u1", 100, 5],
    });
    expect(compileSegmentWhere("u1", t, "postgres")).toEqual({
      sql: `"userId" = $1 AND ("totalSpendPaise" > $2::bigint AND "visits" < $3::bigint)`,
      params: ["u1", 100, 5],
    });
  });

  it("compares dates as timestamptz and fractions of an integer column as integers on PostgreSQL", () => {
    expect(compileTree(tree({ lastActiveDate: { $gte: "2025-03-10" } }), "postgres")).toEqual({
      sql: `"lastActive" >= to_timestamp($1::float8 / 1000)`,
      params: [MAR10_IST],
    });
    const visits = (op: Operator, v: number) => compileTree(tree({ visits: { [op]: v } }), "postgres");
    expect(visits("$gt", 2.5)).toEqual({ sql: `"visits" > $1::bigint`, params: [2] });
    expect(visits("$gte", 2.5)).toEqual({ sql: `"visits" >= $1::bigint`, params: [3] });
    expect(visits("$lt", -2.5)).toEqual({ sql: `"visits" < $1::bigint`, params: [-2] });
    expect(visits("$lte", -2.5)).toEqual({ sql: `"visits" <= $1::bigint`, params: [-3] });
    expect(visits("$eq", 2.5)).toEqual({ sql: "FALSE", params: [] });
    // A value past PostgreSQL's 32-bit integer is bound as bigint, never refused.
    expect(compileTree(tree({ totalSpend: { $gt: 1e12 } }), "postgres").params).toEqual([1e14]);
  });
});

describe("audience queries", () => {
  let userId: string;
  let otherId: string;
  let rows: Row[];

  beforeAll(async () => {
    userId = (await createTestUser("Segments")).id;
    otherId = (await createTestUser("Other tenant")).id;
    rows = await insertCustomers(userId, [
      { totalSpendPaise: 50_000, visits: 1, lastActive: MAR10_IST - HOUR }, // 9 March IST
      { totalSpendPaise: 100_000, visits: 3, lastActive: MAR10_IST }, // 10 March, first instant
      { totalSpendPaise: 100_001, visits: 5, lastActive: MAR10_IST + 20 * HOUR }, // 10 March, evening
      { totalSpendPaise: 250_000, visits: 8, lastActive: null },
      { totalSpendPaise: 0, visits: 0, lastActive: MAR10_IST + 30 * HOUR }, // 11 March
    ]);
    // The other tenant's customers match everything; none may ever be counted.
    await insertCustomers(
      otherId,
      Array.from({ length: 20 }, () => ({ totalSpendPaise: 100_000, visits: 3, lastActive: MAR10_IST })),
    );
  });

  const count = (conditions: unknown) => segmentAudience.sqlAudienceCount(userId, tree(conditions));

  it("compares rupees with paise exactly", async () => {
    expect(await count({ totalSpend: { $gt: 1000 } })).toBe(2);
    expect(await count({ totalSpend: { $gte: 1000 } })).toBe(3);
    expect(await count({ totalSpend: { $eq: 1000.01 } })).toBe(1);
    expect(await count({ totalSpend: { $lt: 1000 } })).toBe(2);
    expect(await count({ totalSpend: { $lte: "1000" } })).toBe(3);
  });

  it("compares visits", async () => {
    expect(await count({ visits: { $gt: 3 } })).toBe(2);
    expect(await count({ visits: { $eq: 0 } })).toBe(1);
  });

  it("compares dates by IST calendar day, and never matches a customer never active", async () => {
    expect(await count({ lastActiveDate: { $gt: "2025-03-10" } })).toBe(1);
    expect(await count({ lastActiveDate: { $gte: "2025-03-10" } })).toBe(3);
    expect(await count({ lastActiveDate: { $lt: "2025-03-10" } })).toBe(1);
    expect(await count({ lastActiveDate: { $lte: "2025-03-10" } })).toBe(3);
    expect(
      await count({ $or: [{ lastActiveDate: { $lt: "2030-01-01" } }, { lastActiveDate: { $gte: "2030-01-01" } }] }),
    ).toBe(4);
  });

  it("combines with AND, OR and nested groups", async () => {
    expect(await count({ $and: [{ totalSpend: { $gte: 1000 } }, { visits: { $lt: 8 } }] })).toBe(2);
    expect(await count({ $or: [{ visits: { $eq: 0 } }, { totalSpend: { $gt: 2000 } }] })).toBe(2);
    expect(
      await count({
        $and: [
          { totalSpend: { $gt: 400 } },
          { $or: [{ visits: { $eq: 1 } }, { lastActiveDate: { $gt: "2025-03-09" } }] },
        ],
      }),
    ).toBe(3);
  });

  it("scopes every query to the tenant", async () => {
    expect(await segmentAudience.sqlAudienceCount(otherId, tree({ visits: { $eq: 3 } }))).toBe(20);
    expect(await count({ visits: { $eq: 3 } })).toBe(1);
    const { rows: sample } = await segmentAudience.sqlAudiencePreview(userId, tree({ totalSpend: { $gte: 0 } }), 10);
    expect(sample.map((r) => r.id).sort()).toEqual(rows.map((r) => r.id).sort());
  });

  it("previews the count and at most the sample size, skipping the sample when nobody matches", async () => {
    const some = await segmentAudience.sqlAudiencePreview(userId, tree({ totalSpend: { $gte: 0 } }), 2);
    expect(some.count).toBe(5);
    expect(some.rows).toHaveLength(2);
    expect(await segmentAudience.sqlAudiencePreview(userId, tree({ visits: { $gt: 1000 } }), 10)).toEqual({
      count: 0,
      rows: [],
    });
  });

  it("pages the audience in id order with a cursor", async () => {
    const t = tree({ totalSpend: { $gte: 0 } });
    const first = await segmentAudience.sqlAudiencePage(userId, t, 3);
    const second = await segmentAudience.sqlAudiencePage(userId, t, 3, first[2].id);
    expect([...first, ...second].map((r) => r.id)).toEqual(rows.map((r) => r.id).sort());
    expect(second).toHaveLength(2);
  });

  it("tells which segments contain one customer", async () => {
    const trees = [
      tree({ visits: { $gt: 4 } }),
      tree({ lastActiveDate: { $gte: "2025-03-10" } }),
      tree({ totalSpend: { $lt: 1 } }),
    ];
    expect(await segmentAudience.sqlMatchesForCustomer(userId, rows[2].id, trees)).toEqual([true, true, false]);
    expect(await segmentAudience.sqlMatchesForCustomer(userId, rows[3].id, trees)).toEqual([true, false, false]);
    expect(await segmentAudience.sqlMatchesForCustomer(otherId, rows[2].id, trees)).toEqual([false, false, false]);
  });

  it("evaluates a rolling date at the moment it counts: the count moves as days pass", async () => {
    const noonIst = (day: number) => Date.UTC(2025, 2, day, 6, 30); // 12:00 IST on `day` March
    const inLast10 = tree({ lastActiveDate: { $gte: { $daysAgo: 10 } } });
    const olderThan10 = tree({ lastActiveDate: { $lt: { $daysAgo: 10 } } });
    // On 20 March, the last 10 days start on 10 March: both 10 March customers and 11 March.
    expect(await segmentAudience.sqlAudienceCount(userId, inLast10, noonIst(20))).toBe(3);
    expect(await segmentAudience.sqlAudienceCount(userId, olderThan10, noonIst(20))).toBe(1);
    // The same trees a day later (their compiled plans are cached): 10 March has left the window.
    expect(await segmentAudience.sqlAudienceCount(userId, inLast10, noonIst(21))).toBe(1);
    expect(await segmentAudience.sqlAudienceCount(userId, olderThan10, noonIst(21))).toBe(3);
    expect(await segmentAudience.sqlAudienceCount(userId, inLast10, noonIst(22))).toBe(0);
    // Just after midnight IST on 21 March (still 20 March in UTC) the day has turned.
    expect(await segmentAudience.sqlAudienceCount(userId, inLast10, Date.UTC(2025, 2, 20, 18, 31))).toBe(1);
    // Together the two halves are every customer ever active, whatever the day.
    for (const day of [1, 15, 20, 25, 31]) {
      expect(
        (await segmentAudience.sqlAudienceCount(userId, inLast10, noonIst(day))) +
          (await segmentAudience.sqlAudienceCount(userId, olderThan10, noonIst(day))),
      ).toBe(4);
    }
    // In an OR counted as disjoint parts or an AND by its complement, with the same answers.
    const either = tree({ $or: [{ lastActiveDate: { $gte: { $daysAgo: 10 } } }, { visits: { $eq: 1 } }] });
    expect(await segmentAudience.sqlAudienceCount(userId, either, noonIst(20))).toBe(4);
    expect(await segmentAudience.sqlAudienceCount(userId, either, noonIst(21))).toBe(2);

    expect((await segmentAudience.sqlAudiencePreview(userId, inLast10, 10, noonIst(21))).rows.map((r) => r.id)).toEqual(
      [rows[4].id],
    );
    expect(
      (await segmentAudience.sqlAudiencePage(userId, inLast10, 10, undefined, noonIst(20))).map((r) => r.id),
    ).toEqual([rows[1].id, rows[2].id, rows[4].id].sort());
    expect(
      await segmentAudience.sqlMatchesForCustomer(userId, rows[1].id, [inLast10, olderThan10], noonIst(20)),
    ).toEqual([true, false]);
    expect(
      await segmentAudience.sqlMatchesForCustomer(userId, rows[1].id, [inLast10, olderThan10], noonIst(21)),
    ).toEqual([false, true]);
    // The campaign snapshot's WHERE binds the day it is compiled on.
    const where = compileSegmentWhere(userId, inLast10, "sqlite", noonIst(21));
    expect(where.params).toEqual([userId, Date.UTC(2025, 2, 10, 18, 30)]);
  });

  // SQLite's plan (PostgreSQL's planner scans a table this small sequentially; its plans are the bench's).
  it.skipIf(TEST_ENGINE === "postgres")("uses a covering index that leads with the tenant", async () => {
    const plan = await segmentAudience.explainPlan(
      countSql(compileSegmentWhere(userId, tree({ $and: [{ visits: { $gt: 4 } }, { totalSpend: { $gt: 10 } }] }))),
    );
    expect(plan.join(" ")).toMatch(/USING COVERING INDEX Customer_userId_/);
  });
});
