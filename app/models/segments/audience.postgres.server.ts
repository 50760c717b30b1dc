// A segment's audience on PostgreSQL: the twins of ./audience.server.ts (SQLite), with the same
// names, parameters and answers, each taking the pg pool or client to run on first. The SQL is the
// compiler's PostgreSQL text of the same tree (./compile.server.ts, dialect "postgres"); how the
// two dialects are kept to the same answers, and what was measured, is in
// docs/decisions/0032-segments-on-postgresql.md.
//
// Every answer is built to be the same whatever type parsers the pool was given: counts are cast
// to int, `lastActive` comes back as unix milliseconds (a double), never as a Date or a string.
//
// The count's shape is chosen as SQLite's is (decision 0004), from a sample of the tenant's oldest
// customers, but PostgreSQL gets its own shapes: a broad tree is counted as the tenant's tally
// minus the customers it does not match (its complement is a narrow index range), a narrow
// top-level OR as disjoint parts (an index-only range each, where the plain OR reads the table
// through a BitmapOr), anything else as one plain count. Measured in decision 0032.
import type { Pool, PoolClient, QueryResultRow } from "pg";
import { type SegmentNode, resolveRelativeDates } from "~/lib/segments";
import {
  type AudienceRow,
  type AudienceTuple,
  type CompiledWhere,
  type SqlParam,
  compilePostgresComplement,
  compileSegmentWhere,
  compileTree,
  countSql,
  pageSql,
  sampleSql,
} from "~/models/segments/compile.server";

/** A pool or one of its clients: anything a statement can run on. */
export type Queryable = Pool | PoolClient;

type CountShape = "plain" | "disjoint" | "complement" | "anchored";

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

async function rows<Row extends QueryResultRow>(db: Queryable, q: CompiledWhere): Promise<Row[]> {
  return (await db.query<Row>(q.sql, q.params)).rows;
}

async function tuples(db: Queryable, q: CompiledWhere): Promise<AudienceTuple[]> {
  return (await db.query<AudienceTuple>({ text: q.sql, values: q.params, rowMode: "array" })).rows;
}

/** How the count's shape is chosen (tests force each shape; the figures are in decision 0032). */
export const postgresCountTuning = {
  /** Customers sampled (oldest first) to estimate the tree's share of the tenant. */
  sampleSize: 2000,
  /** From this estimated share on, the tree is counted as the tally minus its complement. */
  broad: 0.5,
  /** Below this estimated sum of its parts' shares, a top-level OR is counted as disjoint parts. */
  narrowOr: 0.35,
  /** Tests force a shape (a complement without a tally, or a disjoint count of no OR, counts plain). */
  force: null as null | PostgresShape,
};

type PostgresShape = "plain" | "complement" | "disjoint";

/** The statements of one tenant's resolved tree: its numbering starts at $1, the tenant. */
function placeholdersFrom(params: SqlParam[]) {
  return params.length + 1;
}

function plainCount(userId: string, tree: SegmentNode): CompiledWhere {
  const inner = compileTree(tree, "postgres", 2);
  return countSql({ sql: `"userId" = $1 AND ${inner.sql}`, params: [userId, ...inner.params] }, "postgres");
}

/**
 * The tally minus the customers the tree does not match: no row when the tenant has no tally (then
 * the plain count answers). CustomerTally is the count the customer list and the launch already
 * trust, kept in the same transaction as every customer insert and delete.
 */
function complementCount(userId: string, tree: SegmentNode): CompiledWhere {
  const not = compilePostgresComplement(tree, 2);
  return {
    sql: `SELECT (t."customers" - (SELECT count(*) FROM "Customer" WHERE "userId" = $1 AND ${not.sql}))::int AS "count" FROM "CustomerTally" t WHERE t."userId" = $1`,
    params: [userId, ...not.params],
  };
}

/** A top-level OR as count(C1) + count(C2 AND C1 IS NOT TRUE) + …, each part a range of its own index. */
function disjointCount(userId: string, tree: SegmentNode): CompiledWhere | null {
  if (tree.kind !== "group" || tree.logic !== "OR" || tree.children.length < 2) return null;
  const params: SqlParam[] = [userId];
  const compiled = (node: SegmentNode) => {
    const c = compileTree(node, "postgres", placeholdersFrom(params));
    params.push(...c.params);
    return c.sql;
  };
  const terms = tree.children.map((child, i) => {
    const own = compiled(child);
    const earlier = tree.children.slice(0, i).map((e) => ` AND (${compiled(e)}) IS NOT TRUE`);
    return `(SELECT count(*) FROM "Customer" WHERE "userId" = $1 AND ${own}${earlier.join("")})`;
  });
  return { sql: `SELECT (${terms.join(" + ")})::int AS "count"`, params };
}

/** One row from a sample of the tenant: its size `n`, the tree's matches `p0`, each OR part's `p1`…. */
function estimateSql(userId: string, tree: SegmentNode, sampleSize: number): CompiledWhere {
  const params: SqlParam[] = [userId];
  const parts = [tree, ...(tree.kind === "group" && tree.logic === "OR" ? tree.children : [])];
  const filters = parts.map((part, i) => {
    const c = compileTree(part, "postgres", placeholdersFrom(params));
    params.push(...c.params);
    return `count(*) FILTER (WHERE ${c.sql})::int AS "p${i}"`;
  });
  const limit = Number.isSafeInteger(sampleSize) ? sampleSize : 2000;
  return {
    sql: `SELECT count(*)::int AS "n", ${filters.join(", ")} FROM (SELECT "totalSpendPaise", "visits", "lastActive" FROM "Customer" WHERE "userId" = $1 ORDER BY "id" LIMIT ${limit}) AS s`,
    params,
  };
}

/** How long a chosen shape is kept before the tenant is sampled again. */
const SHAPE_CHOICE_TTL_MS = 5_000;
const MAX_CACHED_CHOICES = 256;
type Choice = { shape: PostgresShape; at: number; tuning: string };
/** The last choices per pool (or client): a tenant's tree is sampled once every few seconds. */
const choices = new WeakMap<Queryable, Map<string, Choice>>();

async function chooseShape(db: Queryable, userId: string, tree: SegmentNode): Promise<PostgresShape> {
  const { sampleSize, broad, narrowOr, force } = postgresCountTuning;
  if (force) return force;
  const tuning = `${sampleSize} ${broad} ${narrowOr}`;
  let cache = choices.get(db);
  if (!cache) choices.set(db, (cache = new Map()));
  // JSON never holds a raw newline, so the key's last newline separates the tenant from the tree.
  const key = `${userId}\n${JSON.stringify(tree)}`;
  const known = cache.get(key);
  const now = Date.now();
  if (known && known.tuning === tuning && now - known.at < SHAPE_CHOICE_TTL_MS) return known.shape;
  const [row] = await rows<Record<string, number>>(db, estimateSql(userId, tree, sampleSize));
  let shape: PostgresShape = "plain";
  const n = row?.n ?? 0;
  // A tenant smaller than the sample answers in a few milliseconds whatever the shape.
  if (row && n >= sampleSize) {
    let parts = 0;
    for (let i = 1; `p${i}` in row; i++) parts += row[`p${i}`];
    if (row.p0 / n >= broad) shape = "complement";
    else if (`p1` in row && parts / n <= narrowOr) shape = "disjoint";
  }
  cache.delete(key);
  if (cache.size >= MAX_CACHED_CHOICES) cache.delete(cache.keys().next().value as string);
  cache.set(key, { shape, at: now, tuning });
  return shape;
}

/** The statement that counts the tree in the chosen shape (a forced one that cannot apply is plain). */
function countStatement(
  userId: string,
  tree: SegmentNode,
  shape: PostgresShape,
): { shape: CountShape; query: CompiledWhere } {
  if (shape === "complement") return { shape: "complement", query: complementCount(userId, tree) };
  const disjoint = shape === "disjoint" ? disjointCount(userId, tree) : null;
  if (disjoint) return { shape: "disjoint", query: disjoint };
  return { shape: "plain", query: plainCount(userId, tree) };
}

async function countOf(db: Queryable, userId: string, relativeTree: SegmentNode, now: number): Promise<number> {
  const tree = resolveRelativeDates(relativeTree, now);
  const { shape, query } = countStatement(userId, tree, await chooseShape(db, userId, tree));
  const [row] = await rows<{ count: number }>(db, query);
  // No tally for the tenant: the complement has nothing to subtract from, so count plainly.
  if (!row && shape === "complement") return runCount(db, plainCount(userId, tree));
  return Number(row?.count ?? 0);
}

async function runCount(db: Queryable, q: CompiledWhere): Promise<number> {
  const [row] = await rows<{ count: number }>(db, q);
  return Number(row?.count ?? 0);
}

/** The count query a tenant's tree runs now, and its shape (for the bench report and tests). */
export async function audienceCountQuery(
  db: Queryable,
  userId: string,
  relativeTree: SegmentNode,
  now: number = Date.now(),
): Promise<{ shape: CountShape; query: CompiledWhere }> {
  const tree = resolveRelativeDates(relativeTree, now);
  return countStatement(userId, tree, await chooseShape(db, userId, tree));
}

/** Which shape counts a tenant's tree now (for the bench report and tests). */
export async function audienceCountShape(db: Queryable, userId: string, tree: SegmentNode): Promise<CountShape> {
  return (await audienceCountQuery(db, userId, tree)).shape;
}

/** The size of a tenant's segment audience. */
export async function sqlAudienceCount(
  db: Queryable,
  userId: string,
  tree: SegmentNode,
  now: number = Date.now(),
): Promise<number> {
  return countOf(db, userId, tree, now);
}

/**
 * The audience sizes of several of a tenant's trees, in the trees' order (a list of segments), each
 * in its own shape; on a pool they run side by side, on one client one after the other.
 */
export async function sqlAudienceCounts(
  db: Queryable,
  userId: string,
  trees: SegmentNode[],
  now: number = Date.now(),
): Promise<number[]> {
  return Promise.all(trees.map((tree) => countOf(db, userId, tree, now)));
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

/** Count and sample; an empty audience skips the sample. */
export async function sqlAudiencePreview(
  db: Queryable,
  userId: string,
  tree: SegmentNode,
  limit: number,
  now: number = Date.now(),
): Promise<{ count: number; rows: AudienceRow[] }> {
  return previewAs(db, userId, tree, limit, tupleToRow, now);
}

/** sqlAudiencePreview with each sample row mapped from its tuple by `map` (the preview's DTO). */
export async function sqlAudiencePreviewAs<T>(
  db: Queryable,
  userId: string,
  tree: SegmentNode,
  limit: number,
  map: (row: AudienceTuple) => T,
  now: number = Date.now(),
): Promise<{ count: number; rows: T[] }> {
  return previewAs(db, userId, tree, limit, map, now);
}

/** A page of the audience in id (creation) order, after a cursor. */
export async function sqlAudiencePage(
  db: Queryable,
  userId: string,
  tree: SegmentNode,
  limit: number,
  cursor?: string,
  now: number = Date.now(),
): Promise<AudienceRow[]> {
  const where = compileSegmentWhere(userId, tree, "postgres", now);
  return (await tuples(db, pageSql(where, limit, cursor, "postgres"))).map(tupleToRow);
}

/** Which of the trees match one customer, in one query: `[true, false, …]` in the trees' order. */
export async function sqlMatchesForCustomer(
  db: Queryable,
  userId: string,
  customerId: string,
  trees: SegmentNode[],
  now: number = Date.now(),
): Promise<boolean[]> {
  if (trees.length === 0) return [];
  const params: SqlParam[] = [];
  const columns = trees.map((tree, i) => {
    const c = compileTree(resolveRelativeDates(tree, now), "postgres", params.length + 1);
    params.push(...c.params);
    // A comparison with a NULL date is NULL: not a match, as SQLite's coalesce(…, 0) says.
    return `coalesce(${c.sql}, false) AS "m${i}"`;
  });
  const userParam = params.length + 1;
  const [row] = await rows<Record<string, boolean>>(db, {
    sql: `SELECT ${columns.join(", ")} FROM "Customer" WHERE "userId" = $${userParam} AND "id" = $${userParam + 1}`,
    params: [...params, userId, customerId],
  });
  return trees.map((_, i) => row?.[`m${i}`] === true);
}

/** EXPLAIN of a compiled query, one line a step (for the bench report and tuning). */
export async function explainPlan(db: Queryable, q: CompiledWhere): Promise<string[]> {
  const plan = await rows<{ "QUERY PLAN": string }>(db, { sql: `EXPLAIN ${q.sql}`, params: q.params });
  return plan.map((r) => r["QUERY PLAN"]);
}
