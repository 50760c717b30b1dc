// A segment's tree as disjoint ranges: what PostgreSQL's "ranges" and "rangeComplement" count
// shapes are built on (./postgres.server.ts). Pure functions of the tree.
//
// Every segment column holds integers: paise, visits, and on both engines `lastActive` in whole
// milliseconds (SQLite's integer, PostgreSQL's timestamptz(3)). So every condition is a closed
// range of integers (`> 2.5` is `>= 3`), and a tree over the three columns is a union of boxes,
// each a range per column. Written as disjoint boxes, the tree's count is the sum of the boxes'
// counts, and each box is a conjunction of index conditions: PostgreSQL drives the narrowest
// column's covering index and checks the others inside the index (no filter in the executor, no
// OR, no `IS NOT TRUE`). A nested OR under an AND (`spend in a range AND (visits > x OR active
// after y)`) thus becomes two narrow ranges instead of half the tenant's spend range filtered by
// the OR, and the complement of any tree is boxes too.
import { type SegmentNode } from "~/lib/segments";
import { type ColumnComparison, toComparison } from "~/lib/segment-dates";
import type { SqlParam } from "~/models/segments/audience/rows";

/** A closed range of integers; a null end is open-ended. */
export type IntRange = { lo: number | null; hi: number | null };
/**
 * Customers whose columns lie in the given ranges. A column left out is free (for `lastActive`,
 * NULL included); `lastActive` as a range is never NULL, and "null" is only NULL.
 */
export type RangeBox = { totalSpendPaise?: IntRange; visits?: IntRange; lastActive?: IntRange | "null" };
type BoxColumn = keyof RangeBox;
const BOX_COLUMNS: readonly BoxColumn[] = ["totalSpendPaise", "visits", "lastActive"];
/** Beyond this many boxes a tree is left to the other shapes (each box is one index range scan). */
export const MAX_RANGE_BOXES = 12;

const FULL: IntRange = { lo: null, hi: null };
const isEmptyRange = (r: IntRange) => r.lo !== null && r.hi !== null && r.lo > r.hi;
function meet(a: IntRange, b: IntRange): IntRange | null {
  const lo = a.lo === null ? b.lo : b.lo === null ? a.lo : Math.max(a.lo, b.lo);
  const hi = a.hi === null ? b.hi : b.hi === null ? a.hi : Math.min(a.hi, b.hi);
  const r = { lo, hi };
  return isEmptyRange(r) ? null : r;
}
/** The parts of `r` outside `cut`: below it and above it, each present when not empty. */
function outside(r: IntRange, cut: IntRange): IntRange[] {
  const parts: IntRange[] = [];
  if (cut.lo !== null) {
    const below = meet(r, { lo: null, hi: cut.lo - 1 });
    if (below) parts.push(below);
  }
  if (cut.hi !== null) {
    const above = meet(r, { lo: cut.hi + 1, hi: null });
    if (above) parts.push(above);
  }
  return parts;
}

/** A condition as one box (null when it holds for no row), or undefined for a bound not exactly an integer. */
function conditionBox(c: ColumnComparison): RangeBox | null | undefined {
  const v = c.value;
  if (!Number.isFinite(v)) return undefined;
  let r: IntRange;
  switch (c.op) {
    case "$gt":
      r = { lo: Math.floor(v) + 1, hi: null };
      break;
    case "$gte":
      r = { lo: Math.ceil(v), hi: null };
      break;
    case "$lt":
      r = { lo: null, hi: Math.ceil(v) - 1 };
      break;
    case "$lte":
      r = { lo: null, hi: Math.floor(v) };
      break;
    default:
      if (!Number.isInteger(v)) return null;
      r = { lo: v, hi: v };
  }
  // ±1 must stay exact: segment values are far inside 2^53 (MAX_NUMBER rupees, dates in ms).
  if ([r.lo, r.hi].some((n) => n !== null && !Number.isSafeInteger(n))) return undefined;
  return { [c.column]: r };
}

/** `box` with one column's constraint replaced (undefined: free). */
function withColumn(box: RangeBox, col: BoxColumn, value: IntRange | "null" | undefined): RangeBox {
  const out: RangeBox = { ...box, [col]: value };
  if (value === undefined) delete out[col];
  return out;
}

/** Both boxes at once, or null when they share no customer. */
function intersectBoxes(a: RangeBox, b: RangeBox): RangeBox | null {
  let out: RangeBox = a;
  for (const col of BOX_COLUMNS) {
    const x = a[col];
    const y = b[col];
    if (y === undefined) continue;
    if (x === undefined) {
      out = withColumn(out, col, y);
      continue;
    }
    if (x === "null" || y === "null") {
      if (x !== y) return null;
      continue;
    }
    const m = meet(x, y);
    if (!m) return null;
    out = withColumn(out, col, m);
  }
  return out;
}

/**
 * `a` without `b`, as disjoint boxes: for each column `b` constrains in turn, the part of what is
 * left of `a` outside `b`'s range on that column (inside it on the columns before).
 */
function subtractBox(a: RangeBox, b: RangeBox): RangeBox[] {
  if (!intersectBoxes(a, b)) return [a];
  const parts: RangeBox[] = [];
  let rest: RangeBox = { ...a };
  for (const col of BOX_COLUMNS) {
    const cut = b[col];
    if (cut === undefined) continue;
    const have = rest[col];
    const set = (value: IntRange | "null") => withColumn(rest, col, value);
    if (cut === "null") {
      // Outside NULL: any date (a free column), the range itself; NULL has nothing outside.
      if (have === undefined) parts.push(set(FULL));
      else if (have !== "null") parts.push(set(have));
      if (have !== undefined && have !== "null") return parts;
      rest = set("null");
      continue;
    }
    if (have === "null") return [...parts, set("null")];
    for (const piece of outside(have ?? FULL, cut)) parts.push(set(piece));
    // A free lastActive may also be NULL, which no date range holds.
    if (have === undefined && col === "lastActive") parts.push(set("null"));
    const inside = meet(have ?? FULL, cut);
    if (!inside) return parts;
    rest = set(inside);
  }
  return parts;
}

/** Two boxes that differ only in one column's adjacent ranges, as one box (fewer scans). */
function mergeBoxes(boxes: RangeBox[]): RangeBox[] {
  const out = [...boxes];
  for (let merged = true; merged;) {
    merged = false;
    search: for (let i = 0; i < out.length; i++) {
      for (let j = i + 1; j < out.length; j++) {
        const joined = joinBoxes(out[i], out[j]);
        if (joined) {
          out.splice(j, 1);
          out[i] = joined;
          merged = true;
          break search;
        }
      }
    }
  }
  return out;
}

function joinBoxes(a: RangeBox, b: RangeBox): RangeBox | null {
  let differs: BoxColumn | null = null;
  for (const col of BOX_COLUMNS) {
    if (JSON.stringify(a[col] ?? null) === JSON.stringify(b[col] ?? null)) continue;
    if (differs) return null;
    differs = col;
  }
  if (!differs) return a;
  const x = a[differs];
  const y = b[differs];
  // Every date and no date: any lastActive at all.
  const full = (r: IntRange | "null" | undefined) => r !== undefined && r !== "null" && r.lo === null && r.hi === null;
  if ((x === "null" && full(y)) || (y === "null" && full(x))) return withColumn(a, differs, undefined);
  if (!x || !y || x === "null" || y === "null") return null;
  const [first, second] = x.lo !== null && (y.lo === null || y.lo < x.lo) ? [y, x] : [x, y];
  if (first.hi === null || second.lo === null || first.hi + 1 !== second.lo) return null;
  return { ...a, [differs]: { lo: first.lo, hi: second.hi } };
}

/**
 * The customers a tree matches as at most MAX_RANGE_BOXES disjoint boxes, or null when it takes
 * more (or has a bound that is not an exact integer, or tests the customer's fields or tags). An AND is the boxes its children share; an
 * OR each child's boxes without those of the children before it.
 */
export function treeRangeBoxes(tree: SegmentNode): RangeBox[] | null {
  const walk = (node: SegmentNode): RangeBox[] | null => {
    if (node.kind === "condition") {
      const box = conditionBox(toComparison(node));
      return box === undefined ? null : box ? [box] : [];
    }
    // A condition on the customer's fields or tags is no range of the three columns.
    if (node.kind !== "group") return null;
    let acc: RangeBox[] = node.logic === "AND" ? [{}] : [];
    for (const child of node.children) {
      const boxes = walk(child);
      if (!boxes) return null;
      if (node.logic === "AND") {
        acc = acc.flatMap((a) => boxes.map((b) => intersectBoxes(a, b)).filter((x): x is RangeBox => x !== null));
      } else {
        const before = acc;
        for (const b of boxes) {
          const pieces = before.reduce((left, a) => left.flatMap((p) => subtractBox(p, a)), [b]);
          acc = [...acc, ...pieces];
          if (acc.length > MAX_RANGE_BOXES * 2) return null;
        }
      }
      acc = mergeBoxes(acc);
      if (acc.length > MAX_RANGE_BOXES) return null;
    }
    return acc;
  };
  return walk(tree);
}

/** The customers none of the (disjoint) boxes holds, as disjoint boxes, or null past MAX_RANGE_BOXES. */
export function complementRangeBoxes(boxes: RangeBox[]): RangeBox[] | null {
  let acc: RangeBox[] = [{}];
  for (const b of boxes) {
    acc = mergeBoxes(acc.flatMap((p) => subtractBox(p, b)));
    if (acc.length > MAX_RANGE_BOXES) return null;
  }
  return acc;
}

/**
 * One box as PostgreSQL conditions on "Customer" (the tenant left to the caller), values pushed
 * onto `params` and numbered from `$` + (params.length + 1): integers as bigint, dates as the
 * same milliseconds made timestamptz, as compileTree() binds them on PostgreSQL. A free box is TRUE.
 */
export function postgresBoxSql(box: RangeBox, params: SqlParam[]): string {
  const terms: string[] = [];
  const bind = (value: number, date: boolean) => {
    params.push(value);
    return date ? `to_timestamp($${params.length}::float8 / 1000)` : `$${params.length}::bigint`;
  };
  for (const col of BOX_COLUMNS) {
    const r = box[col];
    if (r === undefined) continue;
    const column = `"${col}"`;
    if (r === "null") {
      terms.push(`${column} IS NULL`);
      continue;
    }
    const date = col === "lastActive";
    if (r.lo !== null && r.lo === r.hi) terms.push(`${column} = ${bind(r.lo, date)}`);
    else {
      if (r.lo !== null) terms.push(`${column} >= ${bind(r.lo, date)}`);
      if (r.hi !== null) terms.push(`${column} <= ${bind(r.hi, date)}`);
      if (r.lo === null && r.hi === null && date) terms.push(`${column} IS NOT NULL`);
    }
  }
  return terms.length ? terms.join(" AND ") : "TRUE";
}
