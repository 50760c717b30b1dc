// A tree as disjoint ranges (treeRangeBoxes, complementRangeBoxes in ./ranges.ts), checked
// point by point against the tree itself on generated trees: a customer the tree matches lies in
// exactly one of its boxes and in none of its complement's, one it does not match the other way
// round. PostgreSQL counts a segment as the sum of its boxes' counts (or the tally minus its
// complement's), so a box too many, an overlap or a gap would be a wrong count; the counts
// themselves are compared with SQLite's in ./dialects.property.test.ts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type SegmentNode } from "~/lib/segments";
import { parseConditions } from "~/lib/segment-parse";
import { type ColumnComparison, toComparison } from "~/lib/segment-dates";
import {
  type RangeBox,
  MAX_RANGE_BOXES,
  complementRangeBoxes,
  treeRangeBoxes,
} from "~/models/segments/audience/ranges";
import { segmentTreeArb } from "../../../../tests/helpers/segment-trees";

type Point = { totalSpendPaise: number; visits: number; lastActive: number | null };

const BASE = Date.UTC(2026, 0, 1);

function compare(a: number, c: ColumnComparison): boolean {
  switch (c.op) {
    case "$gt":
      return a > c.value;
    case "$gte":
      return a >= c.value;
    case "$lt":
      return a < c.value;
    case "$lte":
      return a <= c.value;
    default:
      return a === c.value;
  }
}

/** What both engines answer for one customer: a comparison with a NULL date is not true. */
function matches(node: SegmentNode, p: Point): boolean {
  if (node.kind === "group") {
    return node.logic === "AND" ? node.children.every((n) => matches(n, p)) : node.children.some((n) => matches(n, p));
  }
  if (node.kind !== "condition") throw new Error("These trees test the three figures only");
  const c = toComparison(node);
  const value = p[c.column];
  return value !== null && compare(value, c);
}

function inBox(box: RangeBox, p: Point): boolean {
  for (const col of ["totalSpendPaise", "visits", "lastActive"] as const) {
    const r = box[col];
    if (r === undefined) continue;
    const v = p[col];
    if (r === "null") {
      if (v !== null) return false;
      continue;
    }
    if (v === null || (r.lo !== null && v < r.lo) || (r.hi !== null && v > r.hi)) return false;
  }
  return true;
}

// Values on a small grid, fractions included, so that bounds meet and touch often.
const numberOp = fc.constantFrom("$gt", "$gte", "$lt", "$lte", "$eq");
const dateOp = fc.constantFrom("$gt", "$gte", "$lt", "$lte");
const conditionArb: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc
    .record({ op: numberOp, v: fc.integer({ min: 0, max: 8 }), f: fc.constantFrom(0, 0.005, 0.5) })
    .map(({ op, v, f }) => ({ totalSpend: { [op]: v / 100 + f } })),
  fc
    .record({ op: numberOp, v: fc.integer({ min: -1, max: 8 }), f: fc.constantFrom(0, 0, 0.5) })
    .map(({ op, v, f }) => ({ visits: { [op]: v + f } })),
  fc
    .record({ op: dateOp, d: fc.integer({ min: 0, max: 8 }) })
    .map(({ op, d }) => ({ lastActiveDate: { [op]: new Date(BASE + d).toISOString() } })),
  fc.record({ op: dateOp, d: fc.integer({ min: -1, max: 1 }) }).map(({ op, d }) => ({
    lastActiveDate: { [op]: new Date(BASE + d * 86_400_000).toISOString().slice(0, 10) },
  })),
);
const treeArb = segmentTreeArb(conditionArb);
const pointArb: fc.Arbitrary<Point> = fc.record({
  totalSpendPaise: fc.integer({ min: -1, max: 10 }),
  visits: fc.integer({ min: -2, max: 10 }),
  lastActive: fc.option(
    fc.oneof(
      fc.integer({ min: -2, max: 10 }).map((d) => BASE + d),
      // IST midnights ± 1 ms, where a calendar day's bounds fall.
      fc
        .record({ d: fc.integer({ min: -2, max: 2 }), e: fc.constantFrom(-1, 0, 1) })
        .map(({ d, e }) => BASE + d * 86_400_000 - 330 * 60_000 + e),
    ),
    { nil: null, freq: 4 },
  ),
});

function parsed(conditions: unknown): SegmentNode {
  const r = parseConditions(conditions);
  if (!r.ok) throw new Error(r.message);
  return r.tree;
}

describe("a tree as disjoint ranges", () => {
  it("holds each customer in exactly one box of the tree or of its complement", () => {
    let ranged = 0;
    fc.assert(
      fc.property(treeArb, fc.array(pointArb, { minLength: 40, maxLength: 40 }), (conditions, points) => {
        const valid = parseConditions(conditions);
        if (!valid.ok) return; // deeper or larger than the editor allows
        const tree = valid.tree;
        const boxes = treeRangeBoxes(tree);
        if (!boxes) return;
        ranged++;
        expect(boxes.length).toBeLessThanOrEqual(MAX_RANGE_BOXES);
        const outside = complementRangeBoxes(boxes);
        for (const p of points) {
          const m = matches(tree, p);
          expect(boxes.filter((b) => inBox(b, p)).length).toBe(m ? 1 : 0);
          if (outside) expect(outside.filter((b) => inBox(b, p)).length).toBe(m ? 0 : 1);
        }
      }),
      { numRuns: 600, seed: 26 },
    );
    // Most generated trees fit in the boxes allowed (the rest are counted in the other shapes).
    expect(ranged).toBeGreaterThan(400);
  });

  it("writes a nested OR under an AND as two ranges, and a date turned round as before it and NULL", () => {
    const nested = treeRangeBoxes(
      parsed({
        $and: [
          { totalSpend: { $gt: 100 } },
          { totalSpend: { $lt: 200 } },
          { $or: [{ visits: { $gt: 6 } }, { lastActiveDate: { $gt: "2026-01-01T00:00:00.000Z" } }] },
        ],
      }),
    );
    expect(nested).toEqual([
      { totalSpendPaise: { lo: 10001, hi: 19999 }, visits: { lo: 7, hi: null } },
      {
        totalSpendPaise: { lo: 10001, hi: 19999 },
        visits: { lo: null, hi: 6 },
        lastActive: { lo: BASE + 1, hi: null },
      },
    ]);
    const lately = treeRangeBoxes(parsed({ lastActiveDate: { $gte: "2026-01-01T00:00:00.000Z" } }));
    expect(complementRangeBoxes(lately ?? [])).toEqual([
      { lastActive: { lo: null, hi: BASE - 1 } },
      { lastActive: "null" },
    ]);
    // A date or any visits: the date's range, then the others before that date or with none.
    expect(
      treeRangeBoxes(
        parsed({ $or: [{ lastActiveDate: { $gte: "2026-01-01T00:00:00.000Z" } }, { visits: { $gte: 0 } }] }),
      ),
    ).toEqual([
      { lastActive: { lo: BASE, hi: null } },
      { visits: { lo: 0, hi: null }, lastActive: { lo: null, hi: BASE - 1 } },
      { visits: { lo: 0, hi: null }, lastActive: "null" },
    ]);
    // Every date and none at all is anyone: one free box.
    expect(complementRangeBoxes([{ lastActive: { lo: null, hi: null } }])).toEqual([{ lastActive: "null" }]);
    expect(complementRangeBoxes([{ lastActive: "null" }])).toEqual([{ lastActive: { lo: null, hi: null } }]);
    expect(complementRangeBoxes([])).toEqual([{}]);
    // A fraction equal to an integer column holds for no one.
    expect(treeRangeBoxes(parsed({ visits: { $eq: 2.5 } }))).toEqual([]);
  });
});
