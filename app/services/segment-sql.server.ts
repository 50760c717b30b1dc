// The segment compiler and the queries that use it: one condition tree becomes one parameterised
// SQL WHERE over "Customer" (values are always bound, never written into the SQL), evaluated in
// the database for the audience count, the preview, the paged audience and the campaign snapshot.
// Customers are never loaded into JavaScript to be filtered.
//
// This is the one module that knows the SQL dialect. Audience reads go through a dedicated
// better-sqlite3 connection with cached prepared statements: at a million customers the query is
// the cost, so nothing else is allowed to add to it (see bench/sections/segments.ts).
//
// Indexes (chosen from EXPLAIN QUERY PLAN, see the segment_covering_indexes migration): one
// covering index per segment field, each leading with the tenant, then the field, then the other
// two fields, so a count is a range scan of one index that never touches the table. A plain
// (userId, field) index makes the planner fetch every matching row from the table, which at low
// selectivity is several times slower than scanning.
import type Database from "better-sqlite3";
import {
  readConnection as reader,
  readStatement as statement,
  type ReadConnection as Reader,
} from "~/db/reader.server";
import { type Operator, type SegmentNode, resolveRelativeDates, toComparison } from "~/lib/segments";

export type SqlParam = number | string;
export type CompiledWhere = { sql: string; params: SqlParam[] };
export type Dialect = "sqlite" | "postgres";

const SQL_OPERATORS: Record<Operator, string> = { $gt: ">", $gte: ">=", $lt: "<", $lte: "<=", $eq: "=" };

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
      params.push(c.value);
      const column = filterOnly && dialect === "sqlite" ? `+"${c.column}"` : `"${c.column}"`;
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
export function compileComplement(tree: SegmentNode): CompiledWhere {
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

// ---------------------------------------------------------------------------------------------
// Execution (SQLite)

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

function tupleToRow(t: AudienceTuple): AudienceRow {
  return {
    id: t[0],
    firstName: t[1],
    lastName: t[2],
    email: t[3],
    phone: t[4],
    totalSpendPaise: t[5],
    visits: t[6],
    lastActive: t[7],
  };
}

export function countSql(where: CompiledWhere): CompiledWhere {
  return { sql: `SELECT count(*) FROM "Customer" WHERE ${where.sql}`, params: where.params };
}

/**
 * A sample of the audience: the first rows the chosen index yields, no sort to pay for. The limit
 * is the caller's small integer, not a user value, and is written into the SQL: SQLite (built with
 * STAT4) prepares a statement with a bound LIMIT again at every call, measured 29 µs against 5 µs
 * on a narrow read.
 */
export function sampleSql(where: CompiledWhere, limit: number): CompiledWhere {
  if (Number.isSafeInteger(limit))
    return {
      sql: `SELECT ${AUDIENCE_COLUMNS} FROM "Customer" WHERE ${where.sql} LIMIT ${limit}`,
      params: where.params,
    };
  return {
    sql: `SELECT ${AUDIENCE_COLUMNS} FROM "Customer" WHERE ${where.sql} LIMIT ?`,
    params: [...where.params, limit],
  };
}

/** A page of the audience in id (creation) order, after a cursor. The limit is written in like sampleSql's. */
export function pageSql(where: CompiledWhere, limit: number, cursor?: string): CompiledWhere {
  const after = cursor ? ` AND "id" > ?` : "";
  const params = [...where.params, ...(cursor ? [cursor] : [])];
  if (Number.isSafeInteger(limit))
    return {
      sql: `SELECT ${AUDIENCE_COLUMNS} FROM "Customer" WHERE ${where.sql}${after} ORDER BY "id" LIMIT ${limit}`,
      params,
    };
  return {
    sql: `SELECT ${AUDIENCE_COLUMNS} FROM "Customer" WHERE ${where.sql}${after} ORDER BY "id" LIMIT ?`,
    params: [...params, limit],
  };
}

export function runCount(q: CompiledWhere): number {
  return Number(
    statement(q.sql)
      .pluck()
      .get(...q.params) ?? 0,
  );
}

export function runRows(q: CompiledWhere): AudienceRow[] {
  return statement(q.sql).all(...q.params) as AudienceRow[];
}

/** How the count's shape is chosen (tests lower the sample to reach the disjoint form on small data). */
export const segmentSqlTuning = {
  /** Customers sampled (oldest first) to estimate how much of the tenant an OR's parts cover. */
  sampleSize: 2000,
  /** Below this estimated share the OR is counted as disjoint parts. */
  narrowOr: 0.35,
  /** From this estimated share on, a top-level AND is costed for a complement count (chooseAndShape). */
  broadAnd: 0.2,
  /** Tests force a top-level AND's shape: "complement" of the tenant, or "anchored" on its narrowest condition. */
  forceAnd: null as null | "plain" | "complement" | "anchored",
};

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

// ---------------------------------------------------------------------------------------------
// Audience plans: a tenant's tree compiled once

/**
 * What the count and the preview of one tenant's tree need, built once and kept in a small LRU:
 * the compiled WHERE, the prepared count and sample statements with their bound values, and for a
 * top-level OR (or AND) the estimate's and the disjoint (or complement) count's statements plus
 * the last shape chosen. At a
 * narrow audience the queries take tens of microseconds, so compiling the tree, building the SQL
 * text and looking statements up on every call would be a large share of the time.
 * A plan is a pure function of the tenant and the tree (values are converted without reference
 * to the clock or the data), so reusing one never changes an answer. Rolling dates are resolved to
 * their calendar day before a plan is looked up, so a plan never holds one: the day changes the
 * key, and yesterday's plan is never used today.
 */
type AudiencePlan = {
  reader: Reader;
  where: CompiledWhere;
  count: Database.Statement;
  countParams: SqlParam[];
  /**
   * The sample for the last limit asked for (the preview always asks for the same one), in raw
   * mode: rows come back as arrays and are mapped once, straight to what the caller returns.
   * Prepared for this plan alone, so no other caller sees its mode.
   */
  sample: { limit: number; statement: Database.Statement; params: SqlParam[] } | null;
  /** Only for a top-level OR of 2 to 8 parts: how its count's shape is chosen. */
  or: OrPlan | null;
  /** Only for a top-level AND of 2 to 8 parts: the same for counting by the complement. */
  and: AndPlan | null;
};

type AndPlan = {
  userId: string;
  tree: SegmentNode;
  /** The sample's count, the whole tree's matches (p0) and each child's (p1…). */
  estimate: Database.Statement;
  estimateParams: SqlParam[];
  simple: boolean[];
  /** The complement counts prepared so far, by anchor ("tenant" or the child's index). */
  counts: Map<string, { statement: Database.Statement; params: SqlParam[] }>;
  choice: { shape: AndShape; at: number; sampleSize: number; broadAnd: number; forceAnd: string | null } | null;
};

type OrPlan = {
  estimate: Database.Statement;
  estimateParams: SqlParam[];
  parts: number;
  disjoint: Database.Statement;
  disjointParams: SqlParam[];
  /** The last choice, kept for a few seconds and only for the tuning it was made under. */
  choice: { disjoint: boolean; at: number; sampleSize: number; narrowOr: number } | null;
};

const MAX_CACHED_PLANS = 256;
/** How long a top-level OR or AND keeps the shape a sample chose before sampling again. */
const SHAPE_CHOICE_TTL_MS = 5_000;
const cachedPlans = new Map<string, AudiencePlan>();

function plans(): Map<string, AudiencePlan> {
  return cachedPlans;
}

function orEstimateSql(parts: CompiledWhere[]): string {
  const sums = parts.map((c, i) => `coalesce(sum(${c.sql}), 0) AS "p${i}"`).join(", ");
  // The (userId, id) index walks the oldest customers first; left to itself the planner may sort
  // the whole tenant instead.
  return `SELECT count(*) AS "n", ${sums} FROM (SELECT "totalSpendPaise", "visits", "lastActive" FROM "Customer" INDEXED BY "Customer_userId_id_idx" WHERE "userId" = ? ORDER BY "id" LIMIT ?)`;
}

function buildOrPlan(userId: string, tree: SegmentNode): OrPlan | null {
  if (tree.kind !== "group" || tree.logic !== "OR" || tree.children.length < 2 || tree.children.length > 8) return null;
  const parts = tree.children.map((c) => compileTree(c));
  const disjoint = disjointOrSql(userId, tree);
  if (!disjoint) return null;
  let estimate: Database.Statement;
  try {
    estimate = statement(orEstimateSql(parts));
  } catch {
    // Without the (userId, id) index, no estimate: the plain scan answers.
    return null;
  }
  return {
    estimate,
    estimateParams: [...parts.flatMap((c) => c.params), userId],
    parts: parts.length,
    disjoint: statement(disjoint.sql).pluck(),
    disjointParams: disjoint.params,
    choice: null,
  };
}

function buildAndPlan(userId: string, tree: SegmentNode): AndPlan | null {
  if (tree.kind !== "group" || tree.logic !== "AND" || tree.children.length < 2 || tree.children.length > 8)
    return null;
  const parts = [compileTree(tree), ...tree.children.map((c) => compileTree(c))];
  let estimate: Database.Statement;
  try {
    estimate = statement(orEstimateSql(parts));
  } catch {
    // Without the (userId, id) index, no estimate: the plain scan answers.
    return null;
  }
  return {
    userId,
    tree,
    estimate,
    estimateParams: [...parts.flatMap((c) => c.params), userId],
    simple: tree.children.map((c) => c.kind === "condition"),
    counts: new Map(),
    choice: null,
  };
}

/** The prepared complement count of a top-level AND for an anchor, or null when it cannot be built. */
function andCount(and: AndPlan, anchor: number | null): { statement: Database.Statement; params: SqlParam[] } | null {
  const key = anchor === null ? "tenant" : String(anchor);
  const known = and.counts.get(key);
  if (known) return known;
  const sql = complementCountSql(and.userId, and.tree, anchor);
  if (!sql) return null;
  let prepared: Database.Statement;
  try {
    prepared = statement(sql.sql).pluck();
  } catch {
    return null; // without the (userId) index the tenant form cannot be prepared: the plain scan answers
  }
  const entry = { statement: prepared, params: sql.params };
  and.counts.set(key, entry);
  return entry;
}

function audiencePlan(userId: string, relativeTree: SegmentNode, now: number): AudiencePlan {
  const tree = resolveRelativeDates(relativeTree, now);
  const r = reader();
  const cache = plans();
  // JSON never holds a raw newline, so the key's last newline separates the tenant from the tree.
  const key = `${userId}\n${JSON.stringify(tree)}`;
  const cached = cache.get(key);
  if (cached && cached.reader === r) {
    // Most recently used last: the first key is the one to evict.
    cache.delete(key);
    cache.set(key, cached);
    return cached;
  }
  const where = compileSegmentWhere(userId, tree);
  const count = countSql(where);
  const plan: AudiencePlan = {
    reader: r,
    where,
    count: statement(count.sql).pluck(),
    countParams: count.params,
    sample: null,
    or: buildOrPlan(userId, tree),
    and: buildAndPlan(userId, tree),
  };
  if (cached) cache.delete(key);
  else if (cache.size >= MAX_CACHED_PLANS) cache.delete(cache.keys().next().value as string);
  cache.set(key, plan);
  return plan;
}

/**
 * Whether a top-level OR is counted as disjoint parts: a sample of the tenant (its oldest
 * customers) estimates the share each part matches, summed, roughly how much of the tenant the
 * disjoint parts would scan. A tenant smaller than the sample, where every shape answers in a few
 * milliseconds, gets the plain scan.
 */
function countsDisjoint(or: OrPlan): boolean {
  const { sampleSize, narrowOr } = segmentSqlTuning;
  const now = Date.now();
  const last = or.choice;
  if (last && now - last.at < SHAPE_CHOICE_TTL_MS && last.sampleSize === sampleSize && last.narrowOr === narrowOr)
    return last.disjoint;
  let row: Record<string, number>;
  try {
    row = or.estimate.get(...or.estimateParams, sampleSize) as Record<string, number>;
  } catch {
    return false; // no estimate: the plain scan answers (and the next call samples again)
  }
  let disjoint = false;
  if (row.n >= sampleSize) {
    let sum = 0;
    for (let i = 0; i < or.parts; i++) sum += row[`p${i}`];
    disjoint = sum / row.n <= narrowOr;
  }
  or.choice = { disjoint, at: now, sampleSize, narrowOr };
  return disjoint;
}

/**
 * How a top-level AND is counted now: a sample like the OR's estimates the share the whole tree
 * and each child match; a broad tree is costed by chooseAndShape, a narrow one scans.
 */
function andShape(and: AndPlan): AndShape {
  const { sampleSize, broadAnd, forceAnd } = segmentSqlTuning;
  const now = Date.now();
  const last = and.choice;
  if (
    last &&
    now - last.at < SHAPE_CHOICE_TTL_MS &&
    last.sampleSize === sampleSize &&
    last.broadAnd === broadAnd &&
    last.forceAnd === forceAnd
  ) {
    return last.shape;
  }
  let shape: AndShape = { shape: "plain" };
  if (forceAnd !== "plain") {
    let row: Record<string, number> | null;
    try {
      row = and.estimate.get(...and.estimateParams, sampleSize) as Record<string, number>;
    } catch {
      row = null;
    }
    if (row) {
      const n = row.n;
      const children = and.simple.map((simple, i) => ({ simple, share: n > 0 ? row[`p${i + 1}`] / n : 0 }));
      if (forceAnd === "complement") shape = { shape: "complement", anchor: null };
      else if (forceAnd === "anchored") {
        const simple = children.map((c, i) => ({ ...c, i })).filter((c) => c.simple);
        shape = {
          shape: "complement",
          anchor: simple.length ? simple.reduce((a, b) => (b.share < a.share ? b : a)).i : null,
        };
      } else if (n >= sampleSize && row.p0 / n >= broadAnd) shape = chooseAndShape(children);
    }
  }
  and.choice = { shape, at: now, sampleSize, broadAnd, forceAnd };
  return shape;
}

/** The count query a tenant's tree runs now, and its shape (for the bench report and tests). */
export function audienceCountQuery(
  userId: string,
  tree: SegmentNode,
  now: number = Date.now(),
): { shape: "plain" | "disjoint" | "complement" | "anchored"; query: CompiledWhere } {
  const plan = audiencePlan(userId, tree, now);
  if (plan.or && countsDisjoint(plan.or))
    return { shape: "disjoint", query: { sql: plan.or.disjoint.source, params: plan.or.disjointParams } };
  if (plan.and) {
    const shape = andShape(plan.and);
    const count = shape.shape === "complement" ? andCount(plan.and, shape.anchor) : null;
    if (shape.shape === "complement" && count) {
      return {
        shape: shape.anchor === null ? "complement" : "anchored",
        query: { sql: count.statement.source, params: count.params },
      };
    }
  }
  return { shape: "plain", query: { sql: plan.count.source, params: plan.countParams } };
}

/** Which shape counts a tenant's tree now (for the bench report and tests). */
export function audienceCountShape(
  userId: string,
  tree: SegmentNode,
): "plain" | "disjoint" | "complement" | "anchored" {
  return audienceCountQuery(userId, tree).shape;
}

function planCount(plan: AudiencePlan): number {
  if (plan.or && countsDisjoint(plan.or)) return Number(plan.or.disjoint.pluck().get(...plan.or.disjointParams) ?? 0);
  if (plan.and) {
    const shape = andShape(plan.and);
    const count = shape.shape === "complement" ? andCount(plan.and, shape.anchor) : null;
    if (count) return Number(count.statement.get(...count.params) ?? 0);
  }
  return Number(plan.count.pluck().get(...plan.countParams) ?? 0);
}

export function sqlAudienceCount(userId: string, tree: SegmentNode, now: number = Date.now()): number {
  return planCount(audiencePlan(userId, tree, now));
}

/** Count and sample from one plan; an empty audience skips the sample. */
export function sqlAudiencePreview(
  userId: string,
  tree: SegmentNode,
  limit: number,
  now: number = Date.now(),
): { count: number; rows: AudienceRow[] } {
  return sqlAudiencePreviewAs(userId, tree, limit, tupleToRow, now);
}

/** sqlAudiencePreview with each sample row mapped from its tuple by `map` (the preview's DTO). */
export function sqlAudiencePreviewAs<T>(
  userId: string,
  tree: SegmentNode,
  limit: number,
  map: (row: AudienceTuple) => T,
  now: number = Date.now(),
): { count: number; rows: T[] } {
  const plan = audiencePlan(userId, tree, now);
  const count = planCount(plan);
  if (count === 0) return { count, rows: [] };
  let sample = plan.sample;
  if (!sample || sample.limit !== limit) {
    const q = sampleSql(plan.where, limit);
    sample = plan.sample = { limit, statement: plan.reader.db.prepare(q.sql).raw(), params: q.params };
  }
  const tuples = sample.statement.all(...sample.params) as AudienceTuple[];
  const rows = new Array<T>(tuples.length);
  for (let i = 0; i < tuples.length; i++) rows[i] = map(tuples[i]);
  return { count, rows };
}

export function sqlAudiencePage(
  userId: string,
  tree: SegmentNode,
  limit: number,
  cursor?: string,
  now: number = Date.now(),
): AudienceRow[] {
  return runRows(pageSql(audiencePlan(userId, tree, now).where, limit, cursor));
}

/** Which of the trees match one customer, in one query: `[true, false, …]` in the trees' order. */
export function sqlMatchesForCustomer(
  userId: string,
  customerId: string,
  trees: SegmentNode[],
  now: number = Date.now(),
): boolean[] {
  if (trees.length === 0) return [];
  const params: SqlParam[] = [];
  const columns = trees.map((tree, i) => {
    const c = compileTree(resolveRelativeDates(tree, now));
    params.push(...c.params);
    return `coalesce(${c.sql}, 0) AS "m${i}"`;
  });
  const row = statement(`SELECT ${columns.join(", ")} FROM "Customer" WHERE "userId" = ? AND "id" = ?`).get(
    ...params,
    userId,
    customerId,
  ) as Record<string, number> | undefined;
  return trees.map((_, i) => Boolean(row && row[`m${i}`]));
}

/** EXPLAIN QUERY PLAN of a compiled query, one line a step (for the bench report and tuning). */
export function explainPlan(q: CompiledWhere): string[] {
  const rows = reader()
    .db.prepare(`EXPLAIN QUERY PLAN ${q.sql}`)
    .all(...q.params) as { detail: string }[];
  return rows.map((r) => r.detail);
}
