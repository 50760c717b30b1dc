// A segment's audience on PostgreSQL: the twins of ./audience.server.ts (SQLite), with the same
// names, parameters and answers, each taking the pg pool or client to run on first. The SQL is the
// compiler's PostgreSQL text of the same tree (./compile.server.ts, dialect "postgres"); how the
// two dialects are kept to the same answers, and what was measured, is in
// docs/decisions/0032-segments-on-postgresql.md.
//
// Every answer is built to be the same whatever type parsers the pool was given: counts are cast
// to int, `lastActive` comes back as unix milliseconds (a double), never as a Date or a string.
//
// The count is one plain `count(*)` with the WHERE. The shapes SQLite needs (disjoint OR parts,
// complement counts, decision 0004) are not used here: PostgreSQL combines an OR's index ranges
// itself (BitmapOr), and the figures in the decision show the plain count within the goal.
import type { Pool, PoolClient, QueryResultRow } from "pg";
import { type SegmentNode, resolveRelativeDates } from "~/lib/segments";
import {
  type AudienceRow,
  type AudienceTuple,
  type CompiledWhere,
  type SqlParam,
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

function countQueryOf(userId: string, tree: SegmentNode, now: number): CompiledWhere {
  return countSql(compileSegmentWhere(userId, tree, "postgres", now), "postgres");
}

async function runCount(db: Queryable, q: CompiledWhere): Promise<number> {
  const [row] = await rows<{ count: number }>(db, q);
  return Number(row?.count ?? 0);
}

/** The count query a tenant's tree runs now, and its shape (always one plain count here). */
export async function audienceCountQuery(
  _db: Queryable,
  userId: string,
  tree: SegmentNode,
  now: number = Date.now(),
): Promise<{ shape: CountShape; query: CompiledWhere }> {
  return { shape: "plain", query: countQueryOf(userId, tree, now) };
}

/** Which shape counts a tenant's tree now: one plain count on PostgreSQL. */
export async function audienceCountShape(_db: Queryable, _userId: string, _tree: SegmentNode): Promise<CountShape> {
  return "plain";
}

/** The size of a tenant's segment audience. */
export async function sqlAudienceCount(
  db: Queryable,
  userId: string,
  tree: SegmentNode,
  now: number = Date.now(),
): Promise<number> {
  return runCount(db, countQueryOf(userId, tree, now));
}

/**
 * The audience sizes of several of a tenant's trees, in the trees' order (a list of segments), in
 * one statement: one round trip however many segments the list shows.
 */
export async function sqlAudienceCounts(
  db: Queryable,
  userId: string,
  trees: SegmentNode[],
  now: number = Date.now(),
): Promise<number[]> {
  if (trees.length === 0) return [];
  const params: SqlParam[] = [];
  const columns = trees.map((tree, i) => {
    // The tenant and the tree numbered on from the placeholders the earlier trees took.
    const tenant = params.length + 1;
    const c = compileTree(resolveRelativeDates(tree, now), "postgres", tenant + 1);
    params.push(userId, ...c.params);
    return `(SELECT count(*)::int FROM "Customer" WHERE "userId" = $${tenant} AND ${c.sql}) AS "c${i}"`;
  });
  const [row] = await rows<Record<string, number>>(db, { sql: `SELECT ${columns.join(", ")}`, params });
  return trees.map((_, i) => Number(row?.[`c${i}`] ?? 0));
}

async function previewAs<T>(
  db: Queryable,
  userId: string,
  tree: SegmentNode,
  limit: number,
  map: (row: AudienceTuple) => T,
  now: number,
): Promise<{ count: number; rows: T[] }> {
  const where = compileSegmentWhere(userId, tree, "postgres", now);
  const count = await runCount(db, countSql(where, "postgres"));
  if (count === 0) return { count, rows: [] };
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
