// A segment's audience on PostgreSQL, with the same answers as ./sqlite.server.ts. The SQL is
// ./where.ts's PostgreSQL text of the same tree (dialect "postgres"); how the two dialects are kept
// to the same answers, and what was measured, is in docs/decisions/0032-segments-on-postgresql.md.
//
// Every answer is built to be the same whatever type parsers the pool was given: counts are cast
// to int, `lastActive` comes back as unix milliseconds (a double), never as a Date or a string.
//
// The count's shape is chosen per tenant and tree as on SQLite (decision 0004), here from the
// planner, and PostgreSQL gets its own shapes. A tree of up to MAX_RANGE_BOXES disjoint ranges
// (./ranges.ts, treeRangeBoxes()) is counted as those ranges ("ranges": one index-only range
// scan each, every condition an index condition, no filter), or as the tenant's tally minus the
// ranges of its complement ("rangeComplement"), whichever the planner costs lower. A larger tree
// gets the shapes chosen from the planner's row estimates: a broad tree as the tally minus its
// complement ("complement"), a narrow top-level OR as disjoint parts ("disjoint": an index-only
// range each, where the plain OR reads the table through a BitmapOr), anything else as one plain
// count. Measured in decision 0032.
//
// The store runs on the process's pool (postgresAudience); postgresAudienceOn() runs the same on
// a pool or client of one's own (the dialects' property test and bench compare it with SQLite's).
import type { QueryResultRow } from "pg";
import { type Queryable, postgres, query } from "~/db/postgres.server";
import { type SegmentNode } from "~/lib/segments";
import { resolveRelativeDates } from "~/lib/segment-dates";
import type { AudienceStore } from "~/models/segments/audience/contract";
import { type RangeBox, complementRangeBoxes, postgresBoxSql, treeRangeBoxes } from "~/models/segments/audience/ranges";
import {
  type AudienceTuple,
  type CompiledWhere,
  type CountShape,
  type SqlParam,
  countSql,
  pageSql,
  sampleSql,
  tupleToRow,
} from "~/models/segments/audience/rows";
import {
  compilePostgresComplement,
  compileSegmentWhere,
  compileTree,
  isNullableCondition,
  leafListCountSql,
} from "~/models/segments/audience/where";

async function rows<Row extends QueryResultRow>(db: Queryable, q: CompiledWhere): Promise<Row[]> {
  return (await db.query<Row>(q.sql, q.params)).rows;
}

async function tuples(db: Queryable, q: CompiledWhere): Promise<AudienceTuple[]> {
  return (await db.query<AudienceTuple>({ text: q.sql, values: q.params, rowMode: "array" })).rows;
}

/** How the count's shape is chosen (tests force each shape; the figures are in decision 0032). */
export const postgresCountTuning = {
  /** A tenant the planner estimates below this many customers is counted plainly (milliseconds anyway). */
  minTenant: 20_000,
  /** From this estimated share on, the tree is counted as the tally minus its complement. */
  broad: 0.4,
  /** Below this estimated sum of its parts' shares, a top-level OR is counted as disjoint parts. */
  narrowOr: 0.35,
  /** Tests force a shape (a complement without a tally, or a disjoint count of no OR, counts plain). */
  force: null as null | PostgresShape,
};

type PostgresShape = "plain" | "complement" | "disjoint" | "ranges" | "rangeComplement";

/** The statements of one tenant's resolved tree: its numbering starts at $1, the tenant. */
function placeholdersFrom(params: SqlParam[]) {
  return params.length + 1;
}

function plainCount(userId: string, tree: SegmentNode): CompiledWhere {
  const inner = compileTree(tree, "postgres", 2, false, userId);
  return countSql({ sql: `"userId" = $1 AND ${inner.sql}`, params: [userId, ...inner.params] }, "postgres");
}

/**
 * The count of `"userId" = $1 AND (p1 OR p2 OR …)` as disjoint parts, count(p1) + count(p2 AND p1
 * IS NOT TRUE) + …: each part is an index-only range of its own condition, the earlier parts only
 * filtering it, where PostgreSQL plans the OR as a BitmapOr that reads the table's pages.
 */
function disjointSum(parts: ((params: SqlParam[]) => { own: string; earlier: string[] })[], params: SqlParam[]) {
  return parts
    .map((part) => {
      const { own, earlier } = part(params);
      return `(SELECT count(*) FROM "Customer" WHERE "userId" = $1 AND ${own}${earlier.map((e) => ` AND ${e}`).join("")})`;
    })
    .join(" + ");
}

/** The node's SQL numbered on from `params` (whose first is always the tenant, `$1`). */
function compiledWith(params: SqlParam[], node: SegmentNode): string {
  const c = compileTree(node, "postgres", placeholdersFrom(params), false, String(params[0]));
  params.push(...c.params);
  return c.sql;
}

function complementWith(params: SqlParam[], node: SegmentNode, nullsApart = false): string {
  const c = compilePostgresComplement(node, placeholdersFrom(params), nullsApart, String(params[0]));
  params.push(...c.params);
  return c.sql;
}

/**
 * The tally minus the customers the tree does not match: no row when the tenant has no tally (then
 * the plain count answers). CustomerTally is the count the customer list and the launch already
 * trust, kept in the same transaction as every customer insert and delete. A top-level AND's
 * complement is an OR of its children turned round, counted as disjoint parts (child i turned
 * round, the children before it matched): each a narrow range of one index.
 */
function complementCount(userId: string, tree: SegmentNode): CompiledWhere {
  const params: SqlParam[] = [userId];
  const children = tree.kind === "group" && tree.logic === "AND" && tree.children.length > 1 ? tree.children : [tree];
  // A condition on lastActive turned round is two disjoint ranges of its index: before the date,
  // and never active (NULL); PostgreSQL plans the two as one OR by reading the whole table.
  const pieces = children.flatMap((child, i) => {
    const earlier = (p: SqlParam[]) => children.slice(0, i).map((e) => compiledWith(p, e));
    const turned = (p: SqlParam[]) => ({ own: complementWith(p, child, true), earlier: earlier(p) });
    if (!isNullableCondition(child))
      return [(p: SqlParam[]) => ({ own: complementWith(p, child), earlier: earlier(p) })];
    return [turned, (p: SqlParam[]) => ({ own: `"lastActive" IS NULL`, earlier: earlier(p) })];
  });
  const notMatched = disjointSum(pieces, params);
  return {
    sql: `SELECT (t."customers" - (${notMatched}))::int AS "count" FROM "CustomerTally" t WHERE t."userId" = $1`,
    params,
  };
}

/**
 * The tree as disjoint ranges (treeRangeBoxes()), counted one index range scan each: every
 * condition of a box is an index condition of the covering index PostgreSQL drives (the box's
 * narrowest column), so no row reaches a filter.
 */
function rangesCount(userId: string, boxes: RangeBox[]): CompiledWhere {
  const params: SqlParam[] = [userId];
  return { sql: `SELECT (${boxSum(boxes, params)})::int AS "count"`, params };
}

/**
 * The tally minus the customers the tree does not match, those as disjoint ranges (see
 * rangesCount): no row when the tenant has no tally. Null when the complement takes too many boxes.
 */
function rangeComplementCount(userId: string, boxes: RangeBox[]): CompiledWhere | null {
  const outside = complementRangeBoxes(boxes);
  if (!outside) return null;
  const params: SqlParam[] = [userId];
  return {
    sql: `SELECT (t."customers" - (${boxSum(outside, params)}))::int AS "count" FROM "CustomerTally" t WHERE t."userId" = $1`,
    params,
  };
}

/** A sum of one count per box, the tenant `$1` (0 for no box). */
function boxSum(boxes: RangeBox[], params: SqlParam[]): string {
  // No box: a count the planner knows is 0 (and which still names the tenant, `$1`, as bound).
  if (boxes.length === 0) return `(SELECT count(*) FROM "Customer" WHERE "userId" = $1 AND FALSE)`;
  return boxes
    .map((box) => `(SELECT count(*) FROM "Customer" WHERE "userId" = $1 AND ${postgresBoxSql(box, params)})`)
    .join(" + ");
}

/** A top-level OR as disjoint parts (see disjointSum), or null for any other tree. */
function disjointCount(userId: string, tree: SegmentNode): CompiledWhere | null {
  if (tree.kind !== "group" || tree.logic !== "OR" || tree.children.length < 2) return null;
  const params: SqlParam[] = [userId];
  const children = tree.children;
  const sum = disjointSum(
    children.map((child, i) => (p) => ({
      own: compiledWith(p, child),
      earlier: children.slice(0, i).map((e) => `(${compiledWith(p, e)}) IS NOT TRUE`),
    })),
    params,
  );
  return { sql: `SELECT (${sum})::int AS "count"`, params };
}

/**
 * The planner's own estimates, in one EXPLAIN of a UNION ALL whose arms are the tenant, the tree
 * and (for a top-level OR) each part: the Append's children carry each arm's estimated rows, from
 * the column statistics ANALYZE keeps. Cheaper than sampling rows, and not biased towards the
 * oldest customers as a sample in id order is (their last activity is older than the tenant's).
 */
function estimateSql(userId: string, tree: SegmentNode): CompiledWhere {
  const params: SqlParam[] = [userId];
  const parts = [tree, ...(tree.kind === "group" && tree.logic === "OR" ? tree.children : [])];
  const arms = [
    `SELECT 1 FROM "Customer" WHERE "userId" = $1`,
    ...parts.map((part) => `SELECT 1 FROM "Customer" WHERE "userId" = $1 AND ${compiledWith(params, part)}`),
  ];
  return { sql: `EXPLAIN (FORMAT JSON) ${arms.join(" UNION ALL ")}`, params };
}

type PlanNode = { "Node Type"?: string; "Parallel Aware"?: boolean; "Plan Rows"?: number; Plans?: PlanNode[] };

/** The estimated rows of each arm, in order, or null when the plan is not the plain Append expected. */
function armEstimates(explained: unknown, arms: number): number[] | null {
  const json: unknown = typeof explained === "string" ? JSON.parse(explained) : explained;
  let node = (Array.isArray(json) ? (json[0] as { Plan?: PlanNode } | undefined)?.Plan : undefined) ?? null;
  while (node && node["Node Type"] !== "Append" && node.Plans?.length === 1) node = node.Plans[0];
  // A Parallel Append orders its children by cost, not as written: no estimate then.
  if (!node || node["Node Type"] !== "Append" || node["Parallel Aware"] || node.Plans?.length !== arms) return null;
  const estimates = node.Plans.map((p) => p["Plan Rows"]);
  return estimates.every((n): n is number => typeof n === "number") ? estimates : null;
}

/** How long a chosen shape is kept before the planner is asked again. */
const SHAPE_CHOICE_TTL_MS = 5_000;
const MAX_CACHED_CHOICES = 256;
type Choice = { shape: PostgresShape; at: number; tuning: string };
/** The last choices per pool (or client): a tenant's tree is estimated once every few seconds. */
const choices = new WeakMap<Queryable, Map<string, Choice>>();

async function chooseShape(db: Queryable, userId: string, tree: SegmentNode): Promise<PostgresShape> {
  const { minTenant, broad, narrowOr, force } = postgresCountTuning;
  if (force) return force;
  const tuning = `${minTenant} ${broad} ${narrowOr}`;
  let cache = choices.get(db);
  if (!cache) choices.set(db, (cache = new Map()));
  // JSON never holds a raw newline, so the key's last newline separates the tenant from the tree.
  const key = `${userId}\n${JSON.stringify(tree)}`;
  const known = cache.get(key);
  const now = Date.now();
  if (known && known.tuning === tuning && now - known.at < SHAPE_CHOICE_TTL_MS) return known.shape;
  const q = estimateSql(userId, tree);
  const [row] = await rows<{ "QUERY PLAN": unknown }>(db, q);
  const isOr = tree.kind === "group" && tree.logic === "OR" && tree.children.length > 1;
  const estimates = armEstimates(row?.["QUERY PLAN"], 2 + (isOr ? tree.children.length : 0));
  let shape: PostgresShape = "plain";
  if (!estimates || estimates[0] >= minTenant) shape = (await cheaperRanges(db, userId, tree)) ?? "plain";
  if (shape === "plain" && estimates && estimates[0] >= minTenant) {
    const [tenant, matched, ...parts] = estimates;
    if (matched / tenant >= broad) shape = "complement";
    else if (isOr && parts.reduce((a, b) => a + b, 0) / tenant <= narrowOr) shape = "disjoint";
  }
  cache.delete(key);
  if (cache.size >= MAX_CACHED_CHOICES) cache.delete(cache.keys().next().value as string);
  cache.set(key, { shape, at: now, tuning });
  return shape;
}

/** The planner's total cost of a statement (its own units: pages read and rows handled). */
async function planCost(db: Queryable, q: CompiledWhere): Promise<number> {
  const [row] = await rows<{ "QUERY PLAN": unknown }>(db, { sql: `EXPLAIN (FORMAT JSON) ${q.sql}`, params: q.params });
  const explained = row?.["QUERY PLAN"];
  const json: unknown = typeof explained === "string" ? JSON.parse(explained) : explained;
  const cost = (Array.isArray(json) ? (json[0] as { Plan?: { "Total Cost"?: number } } | undefined) : undefined)
    ?.Plan?.["Total Cost"];
  return typeof cost === "number" ? cost : Infinity;
}

/**
 * Ranges or their complement, whichever the planner costs lower (each box is an index range whose
 * entries are all counted, so the cost follows the entries read), or null when the tree takes too
 * many boxes. Measured at a million customers in decision 0032.
 */
async function cheaperRanges(db: Queryable, userId: string, tree: SegmentNode): Promise<PostgresShape | null> {
  const boxes = treeRangeBoxes(tree);
  if (!boxes) return null;
  const complement = rangeComplementCount(userId, boxes);
  if (!complement) return "ranges";
  const [outside, inside] = await Promise.all([planCost(db, complement), planCost(db, rangesCount(userId, boxes))]);
  return outside < inside ? "rangeComplement" : "ranges";
}

/** The statement that counts the tree in the chosen shape (a forced one that cannot apply is plain). */
function countStatement(
  userId: string,
  tree: SegmentNode,
  shape: PostgresShape,
): { shape: CountShape; query: CompiledWhere } {
  if (shape === "complement") return { shape: "complement", query: complementCount(userId, tree) };
  const boxes = shape === "ranges" || shape === "rangeComplement" ? treeRangeBoxes(tree) : null;
  if (shape === "rangeComplement") {
    const q = boxes && rangeComplementCount(userId, boxes);
    return q ? { shape, query: q } : { shape: "complement", query: complementCount(userId, tree) };
  }
  if (boxes) return { shape: "ranges", query: rangesCount(userId, boxes) };
  const disjoint = shape === "disjoint" ? disjointCount(userId, tree) : null;
  if (disjoint) return { shape: "disjoint", query: disjoint };
  return { shape: "plain", query: plainCount(userId, tree) };
}

async function countOf(db: Queryable, userId: string, relativeTree: SegmentNode, now: number): Promise<number> {
  const tree = resolveRelativeDates(relativeTree, now);
  // One condition on the customer's values or activity: counted from its own list.
  const list = leafListCountSql(userId, tree, "postgres", now);
  if (list) return runCount(db, list);
  const { shape, query } = countStatement(userId, tree, await chooseShape(db, userId, tree));
  const [row] = await rows<{ count: number }>(db, query);
  // No tally for the tenant: the complement has nothing to subtract from, so count plainly.
  if (!row && (shape === "complement" || shape === "rangeComplement")) return runCount(db, plainCount(userId, tree));
  return Number(row?.count ?? 0);
}

async function runCount(db: Queryable, q: CompiledWhere): Promise<number> {
  const [row] = await rows<{ count: number }>(db, q);
  return Number(row?.count ?? 0);
}

async function previewAs<T>(
  db: Queryable,
  userId: string,
  tree: SegmentNode,
  limit: number,
  map: (row: AudienceTuple) => T,
  now: number,
): Promise<{ count: number; rows: T[] }> {
  const count = await countOf(db, userId, tree, now);
  if (count === 0) return { count, rows: [] };
  const where = compileSegmentWhere(userId, tree, "postgres", now);
  return { count, rows: (await tuples(db, sampleSql(where, limit, "postgres"))).map(map) };
}

/** The store on the handle `db()` gives when called. */
function audienceOn(db: () => Queryable): AudienceStore {
  const countQuery: AudienceStore["audienceCountQuery"] = async (userId, relativeTree, now = Date.now()) => {
    const tree = resolveRelativeDates(relativeTree, now);
    return countStatement(userId, tree, await chooseShape(db(), userId, tree));
  };
  return {
    audienceCountQuery: countQuery,

    async audienceCountShape(userId, tree) {
      return (await countQuery(userId, tree)).shape;
    },

    async sqlAudienceCount(userId, tree, now = Date.now()) {
      return countOf(db(), userId, tree, now);
    },

    /** Each tree in its own shape; on a pool they run side by side, on one client one after the other. */
    async sqlAudienceCounts(userId, trees, now = Date.now()) {
      const on = db();
      return Promise.all(trees.map((tree) => countOf(on, userId, tree, now)));
    },

    async sqlAudiencePreview(userId, tree, limit, now = Date.now()) {
      return previewAs(db(), userId, tree, limit, tupleToRow, now);
    },

    async sqlAudiencePreviewAs(userId, tree, limit, map, now = Date.now()) {
      return previewAs(db(), userId, tree, limit, map, now);
    },

    async sqlAudiencePage(userId, tree, limit, cursor, now = Date.now()) {
      const where = compileSegmentWhere(userId, tree, "postgres", now);
      return (await tuples(db(), pageSql(where, limit, cursor, "postgres"))).map(tupleToRow);
    },

    async sqlMatchesForCustomer(userId, customerId, trees, now = Date.now()) {
      if (trees.length === 0) return [];
      const params: SqlParam[] = [];
      const columns = trees.map((tree, i) => {
        const c = compileTree(resolveRelativeDates(tree, now), "postgres", params.length + 1, false, userId);
        params.push(...c.params);
        // A comparison with a NULL date is NULL: not a match, as SQLite's coalesce(…, 0) says.
        return `coalesce(${c.sql}, false) AS "m${i}"`;
      });
      const userParam = params.length + 1;
      // Prepared: the text changes only when the tenant's segments do, and one customer by its key
      // has one good plan (relative dates are parameters).
      const [row] = await query<Record<string, boolean>>(
        db(),
        `SELECT ${columns.join(", ")} FROM "Customer" WHERE "userId" = $${userParam} AND "id" = $${userParam + 1}`,
        [...params, userId, customerId],
        { prepare: true },
      );
      return trees.map((_, i) => row?.[`m${i}`] === true);
    },

    audienceWhere(userId, tree, now = Date.now()) {
      return compileSegmentWhere(userId, tree, "postgres", now);
    },

    /** EXPLAIN of a compiled query, one line a step. */
    async explainPlan(q) {
      const plan = await rows<{ "QUERY PLAN": string }>(db(), { sql: `EXPLAIN ${q.sql}`, params: q.params });
      return plan.map((r) => r["QUERY PLAN"]);
    },
  };
}

/** The audience on the process's pool. */
export const postgresAudience: AudienceStore = audienceOn(() => postgres().pool);

/** The audience on a pool or client of one's own (for comparing the engines side by side). */
export function postgresAudienceOn(db: Queryable): AudienceStore {
  return audienceOn(() => db);
}
