// The rule trees of the dialects property test (./dialects.property.test.ts): every field and
// operator the editor allows with values at the edges, conditions on fields, tags and membership,
// the engines' count shapes to force, and what a tree means evaluated plainly over the rows.
import fc from "fast-check";
import { textKeyOf } from "~/lib/custom-fields";
import { MAX_DAYS_AGO, type Operator, type SegmentNode } from "~/lib/segments";
import { parseConditions } from "~/lib/segment-parse";
import { toComparison } from "~/lib/segment-dates";
import { tagKey } from "~/lib/tags";
import type { AudienceTuple } from "~/models/segments/audience/rows";
import { segmentTreeArb } from "../../../../tests/helpers/segment-trees";
import { type Customer, INT4_MAX, NOW, hexId, istDay, istMidnight, tagKeysOf, valuesOf } from "./dialect-data";

// ---------------------------------------------------------------------------------------------
// The trees: every field and operator the editor allows, values at the edges

const numberOp = fc.constantFrom("$gt", "$gte", "$lt", "$lte", "$eq");
const dateOp = fc.constantFrom("$gt", "$gte", "$lt", "$lte");
const rupeesArb = fc.oneof(
  fc
    .record({ v: fc.integer({ min: 0, max: 20 }), d: fc.constantFrom(0, 0.01, -0.01) })
    .map(({ v, d }) => Math.round((v * 500 + d) * 100) / 100),
  fc.constantFrom(0, -0.01, 0.005, 0.994, 12.345, 21_474_836.47, 21_474_836.48, 999_999_999_999.99, 1e12, -1e12),
  // The API also takes a number as its digits.
  fc.constantFrom("1000", " 0.5 ", "-0"),
);
const visitsValueArb = fc.oneof(
  fc.integer({ min: -1, max: 13 }),
  fc.constantFrom(2.5, -0.5, 0.999, INT4_MAX, INT4_MAX + 1, 1e12, "3"),
);
const dateValueArb = fc.oneof(
  fc.integer({ min: -2, max: 40 }).map((k) => istDay(istMidnight(k))),
  fc
    .record({ k: fc.integer({ min: -2, max: 40 }), d: fc.constantFrom(0, 1, -1) })
    .map(({ k, d }) => new Date(istMidnight(k) + d).toISOString()),
  fc.integer({ min: -2, max: 40 }).map((k) => `${istDay(istMidnight(k))}T00:00:00+05:30`),
  fc.constantFrom(0, 1, 7, 30, 365, MAX_DAYS_AGO).map((n) => ({ $daysAgo: n })),
  fc.constantFrom(
    "1970-01-01",
    "1926-01-01",
    "0100-01-01",
    "9999-12-31",
    "2100-01-01T00:00:00.000Z",
    "1970-01-01T05:30:00+05:30",
  ),
);
const conditionArb: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ op: numberOp, v: rupeesArb }).map(({ op, v }) => ({ totalSpend: { [op]: v } })),
  fc.record({ op: numberOp, v: visitsValueArb }).map(({ op, v }) => ({ visits: { [op]: v } })),
  fc.record({ op: dateOp, v: dateValueArb }).map(({ op, v }) => ({ lastActiveDate: { [op]: v } })),
);
const treeArb = segmentTreeArb(conditionArb, { depthSize: "small", maxDepth: 4 });

export const parsedTreeArb = treeArb
  .map((conditions) => parseConditions(conditions))
  .filter((p) => p.ok)
  .map((p) => (p.ok ? p.tree : (undefined as never)));

/** Conditions on the customer's fields and tags, with the values the segments service leaves them (its type's). */
const cityText = fc.constantFrom("Pune", " pune ", "PUNE", "mumbai", "Navi Mumbai", "ZOË", "अनीता नगर", "nowhere");
const cityPiece = fc.constantFrom("pu", "UM", "%", "_", "a_", "\\", "back\\", "ö", "zoë", "100%", "अ", "navi", "x");
const scoreValue = fc.constantFrom(-1, 0, 0.5, 1, 2.4999, 2.5, 3, 7, 10, 1e15, -1e15);
const dayValue = fc.oneof(
  fc.integer({ min: -40, max: 40 }).map((k) => istDay(istMidnight(k))),
  fc.constantFrom("2000-02-29", "1990-01-01", "2030-12-31"),
  fc.constantFrom(0, 1, 7, 30, 365).map((n) => ({ $daysAgo: n })),
  fc.constantFrom(0, 1, 7, 30, 365).map((n) => ({ $daysAhead: n })),
);
const rangeOp = fc.constantFrom("$gt", "$gte", "$lt", "$lte");
const anniversaryDays = fc.constantFrom(0, 1, 5, 34, 35, 36, 37, 40, 93, 94, 95, 100, 364, 365, 366);
const valueConditionArb: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ op: fc.constantFrom("$eq", "$ne"), v: cityText }).map(({ op, v }) => ({ "field:city": { [op]: v } })),
  fc
    .record({ op: fc.constantFrom("$contains", "$startsWith"), v: cityPiece })
    .map(({ op, v }) => ({ "field:city": { [op]: v } })),
  fc
    .record({ name: fc.constantFrom("city", "tier", "score", "vip", "birthday", "gone"), v: fc.boolean() })
    .map(({ name, v }) => ({ [`field:${name}`]: { $exists: v } })),
  fc.subarray(["Gold", "silver", "BRONZE"], { minLength: 1 }).map((v) => ({ "field:tier": { $in: v } })),
  fc
    .record({ op: fc.constantFrom("$eq", "$ne"), v: fc.constantFrom("Gold", "Silver", "Bronze") })
    .map(({ op, v }) => ({ "field:tier": { [op]: v } })),
  fc
    .record({ op: fc.constantFrom("$gt", "$gte", "$lt", "$lte", "$eq", "$ne"), v: scoreValue })
    .map(({ op, v }) => ({ "field:score": { [op]: v } })),
  fc.boolean().map((v) => ({ "field:vip": { $eq: v } })),
  fc
    .record({ name: fc.constantFrom("birthday", "renewal"), op: rangeOp, v: dayValue })
    .map(({ name, op, v }) => ({ [`field:${name}`]: { [op]: v } })),
  fc
    .record({ name: fc.constantFrom("birthday", "renewal"), n: anniversaryDays })
    .map(({ name, n }) => ({ [`field:${name}`]: { $anniversaryWithinDays: n } })),
  // A field deleted since: its conditions meet no value.
  fc.constantFrom({ "field:gone": { $eq: "x" } }, { "field:gone": { $ne: "x" } }, { "field:gone": { $gt: 3 } }),
  fc
    .record({
      op: fc.constantFrom("$in", "$all", "$nin"),
      v: fc.subarray(["vip", "VIP", "trade fair", "Wholesale", "diwali 2026", "ÜNÏCODE", "none such"], {
        minLength: 1,
        maxLength: 3,
      }),
    })
    .map(({ op, v }) => ({ tags: { [op]: v } })),
);
export const valueTreeArb = segmentTreeArb(fc.oneof({ weight: 3, arbitrary: valueConditionArb }, conditionArb), {
  depthSize: "small",
  maxDepth: 3,
})
  .map((conditions) => parseConditions(conditions))
  .filter((p) => p.ok)
  .map((p) => (p.ok ? p.tree : (undefined as never)));

/** The customer columns a comparison of the three figures reads. */
const compare = (a: number, op: Operator, b: number) =>
  op === "$gt" ? a > b : op === "$gte" ? a >= b : op === "$lt" ? a < b : op === "$lte" ? a <= b : a === b;
const compareText = (a: string, op: string, b: string) =>
  op === "$gt" ? a > b : op === "$gte" ? a >= b : op === "$lt" ? a < b : a <= b;
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** The month-days whose anniversary falls on a day from today to N days later (29 February on 28 February of other years). */
function anniversaryDaysOf(n: number): Set<number> {
  const days = new Set<number>();
  for (let k = 0; k <= n; k++) {
    const day = istDay(istMidnight(-k));
    const md = Number(day.slice(5, 7)) * 100 + Number(day.slice(8, 10));
    days.add(md);
    if (md === 228 && !isLeap(Number(day.slice(0, 4)))) days.add(229);
  }
  return days;
}

/** What a tree means, evaluated plainly over the rows written above. */
export function plainMatch(node: SegmentNode, c: Customer): boolean {
  switch (node.kind) {
    case "group":
      return node.logic === "AND"
        ? node.children.every((n) => plainMatch(n, c))
        : node.children.some((n) => plainMatch(n, c));
    case "condition": {
      const cmp = toComparison(node, NOW);
      const value = c[cmp.column];
      return value !== null && compare(value, cmp.op, cmp.value);
    }
    case "tags": {
      const has = tagKeysOf.get(c.id) ?? new Set<string>();
      const keys = node.value.map(tagKey);
      if (node.op === "$all") return keys.every((k) => has.has(k));
      const any = keys.some((k) => has.has(k));
      return node.op === "$in" ? any : !any;
    }
    case "field": {
      const stored = valuesOf.get(c.id)?.get(node.name);
      const v = node.value;
      const key = stored?.textKey ?? null;
      const number = stored?.numberValue ?? null;
      switch (node.op) {
        case "$exists":
          return (stored !== undefined) === v;
        case "$eq":
        case "$ne": {
          const equal =
            typeof v === "number" ? number === v : key === (typeof v === "boolean" ? String(v) : textKeyOf(String(v)));
          return node.op === "$eq" ? equal : !equal;
        }
        case "$contains":
          return key !== null && key.includes(textKeyOf(String(v)));
        case "$startsWith":
          return key !== null && key.startsWith(textKeyOf(String(v)));
        case "$in":
          return key !== null && (v as string[]).map(textKeyOf).includes(key);
        case "$anniversaryWithinDays":
          return number !== null && anniversaryDaysOf(Number(v)).has(number);
        default: {
          if (typeof v === "number") return number !== null && compare(number, node.op as Operator, v);
          const day =
            typeof v === "object" && v !== null && "$daysAgo" in v
              ? istDay(istMidnight(v.$daysAgo))
              : typeof v === "object" && v !== null && "$daysAhead" in v
                ? istDay(istMidnight(-v.$daysAhead))
                : String(v);
          return key !== null && compareText(key, node.op, day);
        }
      }
    }
    case "segment": {
      // In a segment: its tree holds; not in it: it does not. A segment no longer there holds nobody.
      const inIt = node.target ? plainMatch(node.target.tree, c) : false;
      return node.op === "$eq" ? inIt : !inIt;
    }
    default:
      throw new Error(`No plain evaluation of a ${node.kind} condition here`);
  }
}

/**
 * Trees that include other segments: a membership condition (is in, is not in, of a segment whose
 * tree is generated, or of one deleted since), alone or in a group beside another tree, nested in
 * turn. The service sets each target before anything is compiled (segment-references.server.ts).
 */
export const membershipArb: fc.Arbitrary<SegmentNode> = fc.letrec<{ node: SegmentNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", maxDepth: 2 },
    fc
      .record({
        op: fc.constantFrom("$eq" as const, "$ne" as const),
        target: fc.option(fc.record({ name: fc.constant("Included"), tree: fc.oneof(valueTreeArb, tie("node")) }), {
          nil: null,
          freq: 6,
        }),
      })
      .map(({ op, target }): SegmentNode => ({ kind: "segment", op, segmentId: hexId("included"), target })),
    fc
      .record({ logic: fc.constantFrom("AND" as const, "OR" as const), a: tie("node"), b: valueTreeArb })
      .map(({ logic, a, b }): SegmentNode => ({ kind: "group", logic, children: [a, b] })),
  ),
})).node;

/** The SQLite count's shapes (decision 0004), each forced in turn: all must agree with PostgreSQL's. */
const sqliteTuningArb = fc.constantFrom(
  { sampleSize: 2000, narrowOr: 0.35, broadAnd: 0.2, forceAnd: null },
  { sampleSize: 1e9, narrowOr: 0.35, broadAnd: 0.2, forceAnd: "plain" as const },
  { sampleSize: 1, narrowOr: Infinity, broadAnd: Infinity, forceAnd: null },
  { sampleSize: 1, narrowOr: 0, broadAnd: 0, forceAnd: "complement" as const },
  { sampleSize: 1, narrowOr: 0, broadAnd: 0, forceAnd: "anchored" as const },
);
/** PostgreSQL's shapes (decision 0032): forced, or chosen from the planner's estimates. */
export const postgresTuningArb = fc.constantFrom(
  { minTenant: 20_000, broad: 0.4, narrowOr: 0.35, force: null },
  { minTenant: 0, broad: 0.4, narrowOr: 0.35, force: null },
  { minTenant: 0, broad: 0.9, narrowOr: 1, force: null },
  { minTenant: 0, broad: 0.4, narrowOr: 0.35, force: "plain" as const },
  { minTenant: 0, broad: 0.4, narrowOr: 0.35, force: "complement" as const },
  { minTenant: 0, broad: 0.4, narrowOr: 0.35, force: "disjoint" as const },
  { minTenant: 0, broad: 0.4, narrowOr: 0.35, force: "ranges" as const },
  { minTenant: 0, broad: 0.4, narrowOr: 0.35, force: "rangeComplement" as const },
);
export const tuningArb = fc.tuple(sqliteTuningArb, postgresTuningArb).map(([sqliteTuning, postgresTuning]) => ({
  sqliteTuning,
  postgresTuning,
}));

export const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
export const tupleIds = (t: AudienceTuple) => t[0];
