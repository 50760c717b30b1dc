// A segment's condition tree as SQL: one parameterised boolean expression over "Customer" (values
// are always bound, never written into the SQL), in either engine's dialect, and the customers a
// tree does not match written so indexes can serve them. Pure functions of the tree: they build
// SQL text and run nothing.
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
//
// Conditions on the customer's fields and tags are tests of its id against their own tables
// (./values.ts); they need the tenant, given as `userId`.
import {
  activityConditionSql,
  activityCustomerList,
  figureConditionsSql,
  isFigureCondition,
} from "~/models/segments/audience/activity";
import { type LeafNode, type Operator, type SegmentNode, type SegmentRefNode } from "~/lib/segments";
import { type ColumnComparison, resolveRelativeDates, toComparison } from "~/lib/segment-dates";
import type { ActivityConditionNode } from "~/lib/segment-activity";
import type { CompiledWhere, Dialect, SqlParam } from "~/models/segments/audience/rows";
import {
  type Bind,
  type CustomerList,
  fieldConditionSql,
  fieldList,
  tagsConditionSql,
  tagsList,
} from "~/models/segments/audience/values";

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

/** A binder pushing onto `params`: `?`, or `$n` numbered from `firstParam` (with its cast, if any). */
function binder(params: SqlParam[], dialect: Dialect, firstParam: number): Bind {
  return (value, cast) => {
    params.push(value);
    if (dialect !== "postgres") return "?";
    const n = `$${firstParam + params.length - 1}`;
    return cast ? `${n}::${cast}` : n;
  };
}

/**
 * The tree of a membership condition's segment, or null when that segment no longer exists. Its
 * references are set by the segments service before anything is compiled; one left unset is a
 * fault of the caller, not of the user's tree.
 */
function referencedTree(node: SegmentRefNode): SegmentNode | null {
  if (node.target === undefined) {
    throw new Error(`The segment ${node.segmentId} a tree refers to is read before the tree is compiled`);
  }
  return node.target === null ? null : node.target.tree;
}

/**
 * A membership condition from the tree of its segment compiled in the same place (`inner`): in the
 * segment is that tree; not in it is `(tree) IS NOT TRUE` (a customer whose figure is NULL, and so
 * matches no condition on it, is not in the segment). A segment no longer there holds nobody.
 */
function membershipSql(node: SegmentRefNode, inner: (tree: SegmentNode) => string, negate: boolean): string {
  const tree = referencedTree(node);
  const member = node.op === "$eq" ? !negate : negate;
  if (tree === null) return member ? "(1 = 0)" : "(1 = 1)";
  const sql = inner(tree);
  return member ? `(${sql} IS TRUE)` : `(${sql} IS NOT TRUE)`;
}

/** A condition on the customer's fields or tags (its tenant given), in either form. */
function valueCondition(
  node: Exclude<LeafNode, { kind: "condition" } | { kind: "segment" }>,
  userId: string | undefined,
  dialect: Dialect,
  bind: Bind,
  options: { complement?: boolean; filterOnly?: boolean },
): string {
  if (userId === undefined) throw new Error("A condition on a customer's fields or tags is compiled with its tenant");
  if (node.kind === "activity") return activityConditionSql(node, userId, dialect, bind, options);
  return node.kind === "field"
    ? fieldConditionSql(node, userId, dialect, bind, options)
    : tagsConditionSql(node, userId, dialect, bind, options);
}

/**
 * Compiles a validated tree to a boolean SQL expression over "Customer" columns. Placeholders are
 * `?` for SQLite and `$n` for PostgreSQL (numbered from `firstParam`). A tree with conditions on
 * the customer's fields or tags needs its tenant, `userId`.
 */
export function compileTree(
  tree: SegmentNode,
  dialect: Dialect = "sqlite",
  firstParam = 1,
  filterOnly = false,
  userId?: string,
): CompiledWhere {
  const params: SqlParam[] = [];
  const placeholder = () => (dialect === "postgres" ? `$${firstParam + params.length - 1}` : "?");
  const bind = binder(params, dialect, firstParam);
  // `filterOnly`: inside an OR that is itself part of an AND, columns are written `+"col"`, which
  // SQLite cannot drive an index with, so the AND's own ranges choose the index and the OR
  // filters what they yield. Measured at a million customers (segments bench, nested case): with
  // planner statistics SQLite otherwise runs the OR's branches as a MULTI-INDEX OR, 2.8x slower
  // than the range scan; a top-level OR is handled by the disjoint count (./count-shapes.ts) instead.
  const walk = (node: SegmentNode, parent: "AND" | "OR" | null, filterOnly: boolean): string => {
    if (node.kind === "field" || node.kind === "tags" || node.kind === "activity")
      return valueCondition(node, userId, dialect, bind, { filterOnly });
    // In a segment: its tree in this place. Not in it: the same tree under IS NOT TRUE.
    if (node.kind === "segment")
      return node.op === "$eq" && node.target
        ? walk(node.target.tree, parent, filterOnly)
        : membershipSql(node, (tree) => walk(tree, null, filterOnly), false);
    if (node.kind === "condition") {
      const c = toComparison(node);
      if (dialect === "postgres") return postgresCondition(c, params, placeholder);
      params.push(c.value);
      const column = filterOnly ? `+"${c.column}"` : `"${c.column}"`;
      return `${column} ${SQL_OPERATORS[c.op]} ${placeholder()}`;
    }
    if (node.children.length === 1) return walk(node.children[0], parent, filterOnly);
    const inner = filterOnly || (node.logic === "OR" && parent === "AND");
    if (node.logic === "AND") {
      // Conditions of an AND on one figure of the customer's activity are one range of its index.
      const parts = sameFigureRuns(node.children).map((part) =>
        Array.isArray(part)
          ? figureConditionsSql(part, requireTenant(userId), dialect, bind, { filterOnly: inner })
          : walk(part, "AND", inner),
      );
      return parts.length === 1 ? parts[0] : `(${parts.join(" AND ")})`;
    }
    return `(${node.children.map((child) => walk(child, node.logic, inner)).join(" OR ")})`;
  };
  const sql = walk(tree, null, filterOnly);
  return { sql, params };
}

/**
 * A tree compiled by compileTree() in the middle of another compilation whose values are `params`
 * (numbered from `firstParam`): its values are appended and its placeholders numbered after them.
 */
function plainInPlace(
  tree: SegmentNode,
  params: SqlParam[],
  dialect: Dialect,
  firstParam: number,
  userId: string | undefined,
): string {
  const inner = compileTree(tree, dialect, firstParam + params.length, false, userId);
  params.push(...inner.params);
  return inner.sql;
}

function requireTenant(userId: string | undefined): string {
  if (userId === undefined) throw new Error("A condition on a customer's activity is compiled with its tenant");
  return userId;
}

/**
 * The children of an AND with the conditions on each figure of the customer's activity gathered
 * into one list (in the place of the first of them) when there are several; the rest as they are.
 */
function sameFigureRuns(children: readonly SegmentNode[]): (SegmentNode | ActivityConditionNode[])[] {
  const byKey = new Map<string, ActivityConditionNode[]>();
  for (const c of children) {
    if (c.kind === "activity" && isFigureCondition(c)) byKey.set(c.key, [...(byKey.get(c.key) ?? []), c]);
  }
  const out: (SegmentNode | ActivityConditionNode[])[] = [];
  const placed = new Set<string>();
  for (const c of children) {
    const run = c.kind === "activity" ? byKey.get(c.key) : undefined;
    if (c.kind !== "activity" || !run || run.length < 2) out.push(c);
    else if (!placed.has(c.key)) {
      placed.add(c.key);
      out.push(run);
    }
  }
  return out;
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
  const inner = compileTree(resolveRelativeDates(tree, now), dialect, 2, false, userId);
  return {
    sql: `"userId" = ${dialect === "postgres" ? "$1" : "?"} AND ${inner.sql}`,
    params: [userId, ...inner.params],
  };
}

/**
 * The count of a tree that is one condition on the customer's fields, tags or activity (or an AND
 * of conditions on one activity figure), holding for the customers IN a list, counted from the
 * list itself: one range of its index, instead of testing every customer of the tenant against it
 * (measured at 30,000 customers on SQLite: a choice field's $in of 10,503 customers 17.6 ms
 * probing, 1.4 ms counting; at 100,000 on PostgreSQL a tag's 13,219 customers 146 ms by EXISTS
 * over the tenant, 10 ms). Exact because every such list holds only existing customers of the
 * tenant (values, tags, figures and orders go with their customer); a list that can name a
 * customer twice is made DISTINCT. Null for any other tree.
 */
export function leafListCountSql(
  userId: string,
  tree: SegmentNode,
  dialect: Dialect = "sqlite",
  now: number = Date.now(),
): CompiledWhere | null {
  const params: SqlParam[] = [];
  const list = leafList(userId, tree, dialect, binder(params, dialect, 1), now);
  if (!list || list.outside) return null;
  const rows = list.repeats ? `SELECT DISTINCT * FROM (${list.select}) a` : list.select;
  return { sql: `SELECT count(*) AS "count" FROM (${rows}) b`, params };
}

/** The list of customers a tree of one such condition holds for (see leafListCountSql), or null. */
function leafList(userId: string, tree: SegmentNode, dialect: Dialect, bind: Bind, now: number): CustomerList | null {
  switch (tree.kind) {
    case "field":
      return fieldList(tree, userId, dialect, bind, now);
    case "tags":
      return tagsList(tree, userId, bind);
    case "activity":
      return activityCustomerList([tree], userId, dialect, bind, now);
    case "group": {
      const runs = tree.logic === "AND" ? sameFigureRuns(tree.children) : [];
      return runs.length === 1 && Array.isArray(runs[0])
        ? activityCustomerList(runs[0], userId, dialect, bind, now)
        : null;
    }
    default:
      return null;
  }
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
export function compileComplement(tree: SegmentNode, userId?: string): CompiledWhere {
  const params: SqlParam[] = [];
  const bind = binder(params, "sqlite", 1);
  const walk = (node: SegmentNode): string => {
    if (node.kind === "field" || node.kind === "tags" || node.kind === "activity") {
      return valueCondition(node, userId, "sqlite", bind, { complement: true });
    }
    if (node.kind === "segment")
      return membershipSql(node, (tree) => plainInPlace(tree, params, "sqlite", 1, userId), true);
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
 * Whether a tree tests only the customer's three figures. The count shapes built on their
 * covering indexes (SQLite's disjoint, complement and anchored counts, PostgreSQL's ranges) take
 * only such trees; a tree that also tests fields or tags is counted by the plain shape (and on
 * PostgreSQL its exact complement).
 */
export function onlyCustomerColumns(tree: SegmentNode): boolean {
  return tree.kind === "group" ? tree.children.every(onlyCustomerColumns) : tree.kind === "condition";
}

/**
 * compileComplement() in PostgreSQL's dialect: `(tree) IS NOT TRUE` written so its index ranges can
 * be used, placeholders numbered from `firstParam`. Each condition is turned round on the integer
 * bound postgresCondition() binds (the same customers), a fraction `=` (false for every row of a
 * NOT NULL column) becomes TRUE, and `lastActive` also matches when NULL. With `nullsApart`, a
 * tree that is one condition on `lastActive` leaves its NULLs out: the caller counts them apart
 * (`IS NULL` is a range of the index; PostgreSQL reads the table for `< x OR IS NULL`).
 */
export function compilePostgresComplement(
  tree: SegmentNode,
  firstParam = 1,
  nullsApart = false,
  userId?: string,
): CompiledWhere {
  const params: SqlParam[] = [];
  const placeholder = () => `$${firstParam + params.length - 1}`;
  const bind = binder(params, "postgres", firstParam);
  const walk = (node: SegmentNode): string => {
    if (node.kind === "field" || node.kind === "tags" || node.kind === "activity") {
      return valueCondition(node, userId, "postgres", bind, { complement: true });
    }
    if (node.kind === "segment") {
      return membershipSql(node, (tree) => plainInPlace(tree, params, "postgres", firstParam, userId), true);
    }
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
