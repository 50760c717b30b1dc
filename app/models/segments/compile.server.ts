// The segment compiler: one condition tree becomes one parameterised SQL WHERE over "Customer"
// (values are always bound, never written into the SQL), and the count, sample and page queries
// built on it. Pure functions of the tree: they build SQL text and run nothing. The queries that run
// them are in ./audience.server.ts (SQLite) and ./audience.postgres.server.ts (PostgreSQL).
//
// One tree, two SQL texts (docs/decisions/0032-segments-on-postgresql.md): the dialect changes the
// placeholders and how a value meets its column, never which customers match. On PostgreSQL
// `lastActive` is timestamptz(3) where SQLite keeps integer unix milliseconds, so a date is bound as
// the same milliseconds and turned into a timestamptz by `to_timestamp()`; `visits` is a 32-bit
// `integer` there and `totalSpendPaise` a `bigint` (migration money_columns_bigint), so a value is
// bound as bigint (a segment may ask for more than 2^31) and a fractional one is rounded to the
// integer bound that keeps the same customers.
//
// Indexes (chosen from EXPLAIN QUERY PLAN, see the segment_covering_indexes migration): one
// covering index per segment field, each leading with the tenant, then the field, then the other
// two fields, so a count is a range scan of one index that never touches the table. A plain
// (userId, field) index makes the planner fetch every matching row from the table, which at low
// selectivity is several times slower than scanning.
import {
  type ColumnComparison,
  type Operator,
  type SegmentNode,
  resolveRelativeDates,
  toComparison,
} from "~/lib/segments";

export type SqlParam = number | string;
export type CompiledWhere = { sql: string; params: SqlParam[] };
export type Dialect = "sqlite" | "postgres";

const SQL_OPERATORS: Record<Operator, string> = { $gt: ">", $gte: ">=", $lt: "<", $lte: "<=", $eq: "=" };

/**
 * An integer column against a fractional value, as the same test against an integer: `x > 2.5` is
 * `x > 2`, `x >= 2.5` is `x >= 3`, `x < 2.5` is `x < 3`, `x <= 2.5` is `x <= 2`, and `x = 2.5` holds
 * for no integer (null). PostgreSQL cannot compare an integer column with a fractional value
 * through the column's index (int4 against numeric casts the column), so it gets the integer.
 */
function integerBound(op: Operator, value: number): number | null {
  if (Number.isInteger(value)) return value;
  if (op === "$eq") return null;
  return op === "$gt" || op === "$lte" ? Math.floor(value) : Math.ceil(value);
}

/**
 * One condition in PostgreSQL's words, its value pushed onto `params`. Integers are bound as bigint
 * (int4 against int8 stays inside the index's operator family); a date is the same unix
 * milliseconds SQLite compares, made a timestamptz by `to_timestamp()` (exact: the column holds
 * milliseconds, and a double carries them without loss).
 */
function postgresCondition(c: ColumnComparison, params: SqlParam[], placeholder: () => string): string {
  const column = `"${c.column}"`;
  if (c.column === "lastActive") {
    params.push(c.value);
    return `${column} ${SQL_OPERATORS[c.op]} to_timestamp(${placeholder()}::float8 / 1000)`;
  }
  const bound = integerBound(c.op, c.value);
  // A NOT NULL integer column equal to a fraction: false for every row, as SQLite answers it.
  if (bound === null) return "FALSE";
  params.push(bound);
  return `${column} ${SQL_OPERATORS[c.op]} ${placeholder()}::bigint`;
}

/**
 * Compiles a validated tree to a boolean SQL expression over "Customer" columns. Placeholders are
 * `?` for SQLite and `$n` for PostgreSQL (numbered from `firstParam`).
 */
export function compileTree(
  tree: SegmentNode,
  dialect: Dialect = "sqlite",
  firstParam = 1,
  filterOnly = false,
): CompiledWhere {
  const params: SqlParam[] = [];
  const placeholder = () => (dialect === "postgres" ? `$${firstParam + params.length - 1}` : "?");
  // `filterOnly`: inside an OR that is itself part of an AND, columns are written `+"col"`, which
  // SQLite cannot drive an index with, so the AND's own ranges choose the index and the OR
  // filters what they yield. Measured at a million customers (segments bench, nested case): with
  // planner statistics SQLite otherwise runs the OR's branches as a MULTI-INDEX OR, 2.8x slower
  // than the range scan; a top-level OR is handled by the disjoint count below instead.
  const walk = (node: SegmentNode, parent: "AND" | "OR" | null, filterOnly: boolean): string => {
    if (node.kind === "condition") {
      const c = toComparison(node);
      if (dialect === "postgres") return postgresCondition(c, params, placeholder);
      params.push(c.value);
      const column = filterOnly ? `+"${c.column}"` : `"${c.column}"`;
      return `${column} ${SQL_OPERATORS[c.op]} ${placeholder()}`;
    }
    if (node.children.length === 1) return walk(node.children[0], parent, filterOnly);
    const inner = filterOnly || (node.logic === "OR" && parent === "AND");
    return `(${node.children.map((child) => walk(child, node.logic, inner)).join(node.logic === "OR" ? " OR " : " AND ")})`;
  };
  const sql = walk(tree, null, filterOnly);
  return { sql, params };
}

/**
 * The full WHERE of a tenant's segment: the tenant first (it leads every index), then the tree.
 * Rolling dates (`{ $daysAgo: N }`) become the day they name at `now`: the campaign snapshot
 * compiles its WHERE when it launches, so its audience is the one of that moment.
 */
export function compileSegmentWhere(
  userId: string,
  tree: SegmentNode,
  dialect: Dialect = "sqlite",
  now: number = Date.now(),
): CompiledWhere {
  const inner = compileTree(resolveRelativeDates(tree, now), dialect, 2);
  return {
    sql: `"userId" = ${dialect === "postgres" ? "$1" : "?"} AND ${inner.sql}`,
    params: [userId, ...inner.params],
  };
}

/** Each operator turned round: `NOT (a > b)` is `a <= b` for values that are not NULL. */
const NEGATED_OPERATORS: Record<Exclude<Operator, "$eq">, string> = { $gt: "<=", $gte: "<", $lt: ">=", $lte: ">" };
/** Segment columns that may hold NULL (schema.prisma: `lastActive DateTime?`); NULL matches no condition. */
const NULLABLE_COLUMNS: ReadonlySet<string> = new Set(["lastActive"]);

/**
 * `(tree) IS NOT TRUE`: the customers a tree does not match, written so SQLite can drive its
 * indexes with it. De Morgan turns AND into OR and back, each condition's operator is turned round
 * (`=` becomes a range on either side), and a nullable column also matches when NULL, since a
 * NULL date matches no condition. SQLite dialect.
 */
function compileComplement(tree: SegmentNode): CompiledWhere {
  const params: SqlParam[] = [];
  const walk = (node: SegmentNode): string => {
    if (node.kind === "condition") {
      const c = toComparison(node);
      const column = `"${c.column}"`;
      let sql: string;
      if (c.op === "$eq") {
        params.push(c.value, c.value);
        sql = `${column} < ? OR ${column} > ?`;
      } else {
        params.push(c.value);
        sql = `${column} ${NEGATED_OPERATORS[c.op]} ?`;
      }
      return NULLABLE_COLUMNS.has(c.column) ? `(${sql} OR ${column} IS NULL)` : c.op === "$eq" ? `(${sql})` : sql;
    }
    if (node.children.length === 1) return walk(node.children[0]);
    return `(${node.children.map(walk).join(node.logic === "OR" ? " AND " : " OR ")})`;
  };
  return { sql: walk(tree), params };
}

/** Whether a tree is one condition on a column that may hold NULL (`lastActive`). */
export function isNullableCondition(tree: SegmentNode): boolean {
  return tree.kind === "condition" && NULLABLE_COLUMNS.has(toComparison(tree).column);
}

/**
 * The PostgreSQL twin of compileComplement(): `(tree) IS NOT TRUE` written so its index ranges can
 * be used, placeholders numbered from `firstParam`. Each condition is turned round on the integer
 * bound postgresCondition() binds (the same customers), a fraction `=` (false for every row of a
 * NOT NULL column) becomes TRUE, and `lastActive` also matches when NULL. With `nullsApart`, a
 * tree that is one condition on `lastActive` leaves its NULLs out: the caller counts them apart
 * (`IS NULL` is a range of the index; PostgreSQL reads the table for `< x OR IS NULL`).
 */
export function compilePostgresComplement(tree: SegmentNode, firstParam = 1, nullsApart = false): CompiledWhere {
  const params: SqlParam[] = [];
  const placeholder = () => `$${firstParam + params.length - 1}`;
  const walk = (node: SegmentNode): string => {
    if (node.kind === "condition") {
      const c = toComparison(node);
      const column = `"${c.column}"`;
      if (c.column === "lastActive") {
        params.push(c.value);
        const at = `to_timestamp(${placeholder()}::float8 / 1000)`;
        if (c.op === "$eq") {
          params.push(c.value);
          return `(${column} < ${at} OR ${column} > to_timestamp(${placeholder()}::float8 / 1000) OR ${column} IS NULL)`;
        }
        if (nullsApart && node === tree) return `${column} ${NEGATED_OPERATORS[c.op]} ${at}`;
        return `(${column} ${NEGATED_OPERATORS[c.op]} ${at} OR ${column} IS NULL)`;
      }
      const bound = integerBound(c.op, c.value);
      if (bound === null) return "TRUE";
      params.push(bound);
      if (c.op !== "$eq") return `${column} ${NEGATED_OPERATORS[c.op]} ${placeholder()}::bigint`;
      const below = `${column} < ${placeholder()}::bigint`;
      params.push(bound);
      return `(${below} OR ${column} > ${placeholder()}::bigint)`;
    }
    if (node.children.length === 1) return walk(node.children[0]);
    return `(${node.children.map(walk).join(node.logic === "OR" ? " AND " : " OR ")})`;
  };
  return { sql: walk(tree), params };
}

// ---------------------------------------------------------------------------------------------
// A tree as disjoint ranges (PostgreSQL's count)
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
 * more (or has a bound that is not an exact integer). An AND is the boxes its children share; an
 * OR each child's boxes without those of the children before it.
 */
export function treeRangeBoxes(tree: SegmentNode): RangeBox[] | null {
  const walk = (node: SegmentNode): RangeBox[] | null => {
    if (node.kind === "condition") {
      const box = conditionBox(toComparison(node));
      return box === undefined ? null : box ? [box] : [];
    }
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
 * same milliseconds made timestamptz, as postgresCondition() binds them. A free box is TRUE.
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

// ---------------------------------------------------------------------------------------------
// Audience queries

export type AudienceRow = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  totalSpendPaise: number;
  visits: number;
  lastActive: number | null;
};

const AUDIENCE_COLUMNS = `"id", "firstName", "lastName", "email", "phone", "totalSpendPaise", "visits", "lastActive"`;
/**
 * The same columns on PostgreSQL as the numbers SQLite gives: `lastActive` as unix milliseconds and
 * the bigint `totalSpendPaise`, both as doubles, which pg hands over as numbers whatever type
 * parsers the pool has (a bigint would be a string, a timestamptz a Date); exact below 2^53.
 */
const POSTGRES_AUDIENCE_COLUMNS = `"id", "firstName", "lastName", "email", "phone", "totalSpendPaise"::float8 AS "totalSpendPaise", "visits", (extract(epoch FROM "lastActive") * 1000)::float8 AS "lastActive"`;

const audienceColumns = (dialect: Dialect) => (dialect === "postgres" ? POSTGRES_AUDIENCE_COLUMNS : AUDIENCE_COLUMNS);

/** The next placeholder after `params`: `?`, or `$n` numbered on from them. */
const nextPlaceholder = (dialect: Dialect, params: readonly SqlParam[]) =>
  dialect === "postgres" ? `$${params.length + 1}` : "?";

/** An audience row as the preview's sample statement returns it (raw mode): the columns above, in order. */
export type AudienceTuple = [
  id: string,
  firstName: string,
  lastName: string,
  email: string,
  phone: string,
  totalSpendPaise: number,
  visits: number,
  lastActive: number | null,
];

/** The audience's size. On PostgreSQL the count is an int (pg gives a bigint as a string). */
export function countSql(where: CompiledWhere, dialect: Dialect = "sqlite"): CompiledWhere {
  const count = dialect === "postgres" ? "count(*)::int" : "count(*)";
  return { sql: `SELECT ${count} FROM "Customer" WHERE ${where.sql}`, params: where.params };
}

/**
 * A sample of the audience: the first rows the chosen index yields, no sort to pay for. The limit
 * is the caller's small integer, not a user value, and is written into the SQL: SQLite (built with
 * STAT4) prepares a statement with a bound LIMIT again at every call, measured 29 µs against 5 µs
 * on a narrow read. Which rows come first is the plan's choice, so the two engines may show
 * different customers of the same audience.
 */
export function sampleSql(where: CompiledWhere, limit: number, dialect: Dialect = "sqlite"): CompiledWhere {
  const select = `SELECT ${audienceColumns(dialect)} FROM "Customer" WHERE ${where.sql}`;
  if (Number.isSafeInteger(limit)) return { sql: `${select} LIMIT ${limit}`, params: where.params };
  return { sql: `${select} LIMIT ${nextPlaceholder(dialect, where.params)}`, params: [...where.params, limit] };
}

/**
 * A page of the audience in id (creation) order, after a cursor. The limit is written in like
 * sampleSql's. Ids are 24 lowercase hex digits (app/lib/id.ts, and the cursor is checked to be
 * one), which every PostgreSQL collation orders as SQLite's BINARY does, so `ORDER BY "id"` needs
 * no COLLATE "C" and keeps the (userId, id) index, which is in the database's collation.
 */
export function pageSql(
  where: CompiledWhere,
  limit: number,
  cursor?: string,
  dialect: Dialect = "sqlite",
): CompiledWhere {
  const params = [...where.params];
  let after = "";
  if (cursor) {
    after = ` AND "id" > ${nextPlaceholder(dialect, params)}`;
    params.push(cursor);
  }
  const select = `SELECT ${audienceColumns(dialect)} FROM "Customer" WHERE ${where.sql}${after} ORDER BY "id"`;
  if (Number.isSafeInteger(limit)) return { sql: `${select} LIMIT ${limit}`, params };
  return { sql: `${select} LIMIT ${nextPlaceholder(dialect, params)}`, params: [...params, limit] };
}

/**
 * A top-level OR as a sum of disjoint parts: count(C1) + count(C2 and C1 not true) + … Each part
 * is a range scan of its own condition's covering index, where SQLite plans the plain OR as a scan
 * of the whole tenant (EXPLAIN QUERY PLAN: `USING COVERING INDEX … (userId=?)`), many times
 * slower for a narrow OR. The parts scan about the sum of the conditions' sizes, so this shape is
 * only chosen when a sample says that sum is well under the tenant.
 */
export function disjointOrSql(userId: string, tree: SegmentNode): CompiledWhere | null {
  if (tree.kind !== "group" || tree.logic !== "OR" || tree.children.length < 2) return null;
  return disjointSumSql(
    userId,
    tree.children.map((c) => compileTree(c)),
  );
}

/**
 * The count of `userId AND (p1 OR p2 OR …)` as a sum of disjoint parts (see disjointOrSql), each
 * part also limited by `within` when given (written filter-only, so it never drives the index).
 */
function disjointSumSql(userId: string, parts: CompiledWhere[], within?: CompiledWhere): CompiledWhere {
  const params: SqlParam[] = [];
  const terms = parts.map((c, i) => {
    const earlier = parts.slice(0, i);
    params.push(userId, ...c.params, ...(within?.params ?? []), ...earlier.flatMap((e) => e.params));
    const keep = earlier.map((e) => ` AND (${e.sql}) IS NOT TRUE`).join("");
    return `(SELECT count(*) FROM "Customer" WHERE "userId" = ? AND ${c.sql}${within ? ` AND ${within.sql}` : ""}${keep})`;
  });
  return { sql: `SELECT ${terms.join(" + ")}`, params };
}

/**
 * A broad top-level AND counted by its complement: the tenant's customers (a scan of the narrow
 * (userId) index) minus those the tree does not match, counted as disjoint parts, one per
 * condition turned round. Measured at a million customers: a 2-condition AND matching 90% took
 * 86 ms as one covering-index scan (every entry's second column checked), where the tenant count
 * takes about 50 ms and the 10% complement a few more.
 */
export function complementCountSql(
  userId: string,
  tree: SegmentNode,
  anchor: number | null = null,
): CompiledWhere | null {
  if (tree.kind !== "group" || tree.logic !== "AND" || tree.children.length < 2) return null;
  if (anchor === null) {
    const rest = disjointSumSql(
      userId,
      tree.children.map((c) => compileComplement(c)),
    );
    return {
      sql: `SELECT (SELECT count(*) FROM "Customer" INDEXED BY "Customer_userId_idx" WHERE "userId" = ?) - (${rest.sql})`,
      params: [userId, ...rest.params],
    };
  }
  // Anchored on one condition A: count(A) minus the customers A matches that the others do not.
  // count(A) is a bare range of A's covering index (no column checked per entry); each part is a
  // range of one other condition turned round, A only filtering it. Measured at a million
  // customers: a 3-condition AND matching 70% took 197 ms as one scan of A's range checking the
  // two other columns on every entry, 69 ms anchored on A (56 ms of it the bare range).
  const a = tree.children[anchor];
  if (!a || a.kind !== "condition") return null;
  const anchorRange = compileTree(a);
  const rest = disjointSumSql(
    userId,
    tree.children.filter((_, i) => i !== anchor).map((c) => compileComplement(c)),
    compileTree(a, "sqlite", 1, true),
  );
  return {
    sql: `SELECT (SELECT count(*) FROM "Customer" WHERE "userId" = ? AND ${anchorRange.sql}) - (${rest.sql})`,
    params: [userId, ...anchorRange.params, ...rest.params],
  };
}

/** How a top-level AND is counted: one scan, or a complement (of the tenant when `anchor` is null). */
export type AndShape = { shape: "plain" } | { shape: "complement"; anchor: number | null };

/** Relative costs, in index entries stepped over (a bare range step is 1), measured on the bench. */
const AND_COSTS = {
  /** Reading and comparing one more column of an entry the range yields. */
  check: 1.25,
  /** A step of the narrow (userId) index, the tenant count. */
  tenantStep: 0.9,
};

/**
 * The cheapest way to count a top-level AND, from the share of a sample each child matches.
 * `simple` children are single conditions (an index range of their own); a nested group's
 * complement has no range of its own, so it is costed as a scan of the whole tenant.
 *
 * - plain: the planner drives the narrowest simple child's range and checks the rest per entry;
 * - complement of the tenant: the tenant count, minus a disjoint part per child turned round;
 * - anchored on child A: A's bare range, minus the other children turned round, A filtering.
 */
export function chooseAndShape(children: { share: number; simple: boolean }[]): AndShape {
  const { check, tenantStep } = AND_COSTS;
  const k = children.length;
  const range = (c: { share: number; simple: boolean }) => (c.simple ? 1 - c.share : 1);
  const simpleShares = children.filter((c) => c.simple).map((c) => c.share);
  const plain = (simpleShares.length ? Math.min(...simpleShares) : 1) * (1 + check * (k - 1));
  let best: { cost: number; shape: AndShape } = { cost: plain, shape: { shape: "plain" } };
  const tenant = tenantStep + children.reduce((sum, c, i) => sum + range(c) * (1 + check * i), 0);
  if (tenant < best.cost) best = { cost: tenant, shape: { shape: "complement", anchor: null } };
  children.forEach((anchor, a) => {
    if (!anchor.simple) return;
    const others = children.filter((_, i) => i !== a);
    const cost = anchor.share + others.reduce((sum, c, i) => sum + range(c) * (1 + check * (1 + i)), 0);
    if (cost < best.cost) best = { cost, shape: { shape: "complement", anchor: a } };
  });
  return best.shape;
}
