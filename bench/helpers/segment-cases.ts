// The segments the bench measures on both engines (bench/sections/sqlite/segments.ts on SQLite,
// bench/sections/postgres/segments.ts on PostgreSQL): 1 to 4 conditions matching about 0.1% to 90% of the
// tenant. Their thresholds are the seeded data's quantiles, read from the seeded SQLite file, so
// the selectivities hold whatever distribution the seed used and PostgreSQL (a copy of that file)
// is asked exactly the same questions.
import type Database from "better-sqlite3";

type Col = "totalSpendPaise" | "visits" | "lastActive";

export type SegmentThresholds = {
  sp999: number;
  sp10: number;
  sp50: number;
  sp90: number;
  sp95: number;
  sp99: number;
  v10: number;
  v50: number;
  v80: number;
  v90: number;
  la001: number;
  la10: number;
  la80: number;
  la95: number;
};

export type SegmentCase = { name: string; target: string; conditions: Record<string, unknown> };

/** The value at each fraction of the tenant's customers ordered by a column (NULLs left out). */
export function segmentThresholds(raw: Database.Database, userId: string): SegmentThresholds {
  const nonNull = (col: Col) =>
    Number(
      raw.prepare(`SELECT count(*) FROM "Customer" WHERE "userId" = ? AND "${col}" IS NOT NULL`).pluck().get(userId),
    );
  const totals: Record<Col, number> = {
    totalSpendPaise: nonNull("totalSpendPaise"),
    visits: nonNull("visits"),
    lastActive: nonNull("lastActive"),
  };
  const q = (col: Col, fraction: number): number =>
    Number(
      raw
        .prepare(
          `SELECT "${col}" FROM "Customer" WHERE "userId" = ? AND "${col}" IS NOT NULL ORDER BY "${col}" LIMIT 1 OFFSET ?`,
        )
        .pluck()
        .get(userId, Math.min(totals[col] - 1, Math.floor(totals[col] * fraction))),
    );
  return {
    sp999: q("totalSpendPaise", 0.999),
    sp10: q("totalSpendPaise", 0.1),
    sp50: q("totalSpendPaise", 0.5),
    sp90: q("totalSpendPaise", 0.9),
    sp95: q("totalSpendPaise", 0.95),
    sp99: q("totalSpendPaise", 0.99),
    v10: q("visits", 0.1),
    v50: q("visits", 0.5),
    v80: q("visits", 0.8),
    v90: q("visits", 0.9),
    la001: q("lastActive", 0.001),
    la10: q("lastActive", 0.1),
    la80: q("lastActive", 0.8),
    la95: q("lastActive", 0.95),
  };
}

/** The segments, in the order the report lists them. */
export function segmentCases(t: SegmentThresholds): SegmentCase[] {
  const rupees = (paise: number) => paise / 100;
  const iso = (ms: number) => new Date(ms).toISOString();
  return [
    { name: "1 condition: top spenders", target: "0.1%", conditions: { totalSpend: { $gt: rupees(t.sp999) } } },
    { name: "1 condition: long inactive", target: "0.1%", conditions: { lastActiveDate: { $lt: iso(t.la001) } } },
    { name: "1 condition: regular visitors", target: "50%", conditions: { visits: { $gte: t.v50 } } },
    { name: "1 condition: active lately", target: "90%", conditions: { lastActiveDate: { $gte: iso(t.la10) } } },
    {
      name: "2 conditions AND: high spend, many visits",
      target: "1%",
      conditions: { $and: [{ totalSpend: { $gt: rupees(t.sp90) } }, { visits: { $gt: t.v90 } }] },
    },
    {
      name: "2 conditions OR: high spend or very recent",
      target: "10%",
      conditions: { $or: [{ totalSpend: { $gt: rupees(t.sp95) } }, { lastActiveDate: { $gt: iso(t.la95) } }] },
    },
    {
      name: "2 conditions AND: almost everyone",
      target: "90%",
      conditions: { $and: [{ totalSpend: { $gte: rupees(t.sp10) } }, { visits: { $gte: t.v10 } }] },
    },
    {
      name: "3 conditions AND: spend, visits, activity",
      target: "70%",
      conditions: {
        $and: [
          { totalSpend: { $gte: rupees(t.sp10) } },
          { visits: { $gte: t.v10 } },
          { lastActiveDate: { $gte: iso(t.la10) } },
        ],
      },
    },
    {
      name: "4 conditions nested: mid spenders, engaged",
      target: "10%",
      conditions: {
        $and: [
          { totalSpend: { $gt: rupees(t.sp50) } },
          { totalSpend: { $lt: rupees(t.sp99) } },
          { $or: [{ visits: { $gt: t.v80 } }, { lastActiveDate: { $gt: iso(t.la80) } }] },
        ],
      },
    },
  ];
}

/** The goal's text for a segment, the same on both engines (the report pairs them by it). */
export const segmentGoal = (c: SegmentCase) => `${c.name} (${c.target}): count + 10-row preview p95`;
