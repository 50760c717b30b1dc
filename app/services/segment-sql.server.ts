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
import Database from "better-sqlite3";
import { getEnv } from "~/env.server";
import { type Operator, type SegmentNode, toComparison } from "~/lib/segments";

export type SqlParam = number | string;
export type CompiledWhere = { sql: string; params: SqlParam[] };
export type Dialect = "sqlite" | "postgres";

const SQL_OPERATORS: Record<Operator, string> = { $gt: ">", $gte: ">=", $lt: "<", $lte: "<=", $eq: "=" };

/**
 * Compiles a validated tree to a boolean SQL expression over "Customer" columns. Placeholders are
 * `?` for SQLite and `$n` for PostgreSQL (numbered from `firstParam`).
 */
export function compileTree(tree: SegmentNode, dialect: Dialect = "sqlite", firstParam = 1): CompiledWhere {
  const params: SqlParam[] = [];
  const placeholder = () => (dialect === "postgres" ? `$${firstParam + params.length - 1}` : "?");
  const walk = (node: SegmentNode): string => {
    if (node.kind === "condition") {
      const c = toComparison(node);
      params.push(c.value);
      return `"${c.column}" ${SQL_OPERATORS[c.op]} ${placeholder()}`;
    }
    if (node.children.length === 1) return walk(node.children[0]);
    return `(${node.children.map(walk).join(node.logic === "OR" ? " OR " : " AND ")})`;
  };
  const sql = walk(tree);
  return { sql, params };
}

/** The full WHERE of a tenant's segment: the tenant first (it leads every index), then the tree. */
export function compileSegmentWhere(userId: string, tree: SegmentNode, dialect: Dialect = "sqlite"): CompiledWhere {
  const inner = compileTree(tree, dialect, 2);
  return { sql: `"userId" = ${dialect === "postgres" ? "$1" : "?"} AND ${inner.sql}`, params: [userId, ...inner.params] };
}

// ---------------------------------------------------------------------------------------------
// Execution (SQLite)

type Reader = { file: string; db: Database.Database; statements: Map<string, Database.Statement> };
const globalForReader = globalThis as unknown as { __crmSegmentReader?: Reader };
const MAX_CACHED_STATEMENTS = 500;

function reader(): Reader {
  const file = getEnv().databaseFile;
  const current = globalForReader.__crmSegmentReader;
  if (current && current.file === file && current.db.open) return current;
  if (current?.db.open) current.db.close();
  const db = new Database(file, { fileMustExist: true });
  db.pragma("busy_timeout = 10000");
  db.pragma("query_only = ON");
  // Audience scans read whole indexes: map the file instead of copying pages through a small cache.
  db.pragma("mmap_size = 1073741824");
  db.pragma("cache_size = -65536");
  const next: Reader = { file, db, statements: new Map() };
  globalForReader.__crmSegmentReader = next;
  return next;
}

function statement(sql: string): Database.Statement {
  const r = reader();
  let st = r.statements.get(sql);
  if (!st) {
    if (r.statements.size >= MAX_CACHED_STATEMENTS) r.statements.delete(r.statements.keys().next().value as string);
    st = r.db.prepare(sql);
    r.statements.set(sql, st);
  }
  return st;
}

/** Closes the audience connection (tests and the CLI call it before removing a database). */
export function closeSegmentReader() {
  const current = globalForReader.__crmSegmentReader;
  if (current?.db.open) current.db.close();
  globalForReader.__crmSegmentReader = undefined;
}

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

export function countSql(where: CompiledWhere): CompiledWhere {
  return { sql: `SELECT count(*) FROM "Customer" WHERE ${where.sql}`, params: where.params };
}

/** A sample of the audience: the first rows the chosen index yields, no sort to pay for. */
export function sampleSql(where: CompiledWhere, limit: number): CompiledWhere {
  return { sql: `SELECT ${AUDIENCE_COLUMNS} FROM "Customer" WHERE ${where.sql} LIMIT ?`, params: [...where.params, limit] };
}

/** A page of the audience in id (creation) order, after a cursor. */
export function pageSql(where: CompiledWhere, limit: number, cursor?: string): CompiledWhere {
  const after = cursor ? ` AND "id" > ?` : "";
  return {
    sql: `SELECT ${AUDIENCE_COLUMNS} FROM "Customer" WHERE ${where.sql}${after} ORDER BY "id" LIMIT ?`,
    params: [...where.params, ...(cursor ? [cursor] : []), limit],
  };
}

export function runCount(q: CompiledWhere): number {
  return Number(statement(q.sql).pluck().get(...q.params) ?? 0);
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
};

/**
 * Estimates, from a sample of the tenant, the share of customers each part of an OR matches,
 * summed: roughly how much of the tenant the disjoint parts would scan. Null for a tenant smaller
 * than the sample, where every shape answers in a few milliseconds.
 */
function orPartsShare(userId: string, parts: CompiledWhere[]): number | null {
  const sums = parts.map((c, i) => `coalesce(sum(${c.sql}), 0) AS "p${i}"`).join(", ");
  // The (userId, id) index walks the oldest customers first; left to itself the planner may sort
  // the whole tenant instead. Without that index, no estimate: the plain scan answers.
  const sql = `SELECT count(*) AS "n", ${sums} FROM (SELECT "totalSpendPaise", "visits", "lastActive" FROM "Customer" INDEXED BY "Customer_userId_id_idx" WHERE "userId" = ? ORDER BY "id" LIMIT ?)`;
  let row: Record<string, number>;
  try {
    row = statement(sql).get(...parts.flatMap((c) => c.params), userId, segmentSqlTuning.sampleSize) as Record<string, number>;
  } catch {
    return null;
  }
  if (row.n < segmentSqlTuning.sampleSize) return null;
  return parts.reduce((sum, _, i) => sum + row[`p${i}`], 0) / row.n;
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
  const parts = tree.children.map((c) => compileTree(c));
  const params: SqlParam[] = [];
  const terms = parts.map((c, i) => {
    const earlier = parts.slice(0, i);
    params.push(userId, ...c.params, ...earlier.flatMap((e) => e.params));
    const keep = earlier.map((e) => ` AND (${e.sql}) IS NOT TRUE`).join("");
    return `(SELECT count(*) FROM "Customer" WHERE "userId" = ? AND ${c.sql}${keep})`;
  });
  return { sql: `SELECT ${terms.join(" + ")}`, params };
}

export function sqlAudienceCount(userId: string, tree: SegmentNode, where?: CompiledWhere): number {
  if (tree.kind === "group" && tree.logic === "OR" && tree.children.length > 1 && tree.children.length <= 8) {
    const share = orPartsShare(userId, tree.children.map((c) => compileTree(c)));
    const disjoint = share !== null && share <= segmentSqlTuning.narrowOr ? disjointOrSql(userId, tree) : null;
    if (disjoint) return runCount(disjoint);
  }
  return runCount(countSql(where ?? compileSegmentWhere(userId, tree)));
}

/** Count and sample from one compiled WHERE; an empty audience skips the sample. */
export function sqlAudiencePreview(userId: string, tree: SegmentNode, limit: number) {
  const where = compileSegmentWhere(userId, tree);
  const count = sqlAudienceCount(userId, tree, where);
  const rows = count === 0 ? [] : runRows(sampleSql(where, limit));
  return { count, rows };
}

export function sqlAudiencePage(userId: string, tree: SegmentNode, limit: number, cursor?: string): AudienceRow[] {
  return runRows(pageSql(compileSegmentWhere(userId, tree), limit, cursor));
}

/** Which of the trees match one customer, in one query: `[true, false, …]` in the trees' order. */
export function sqlMatchesForCustomer(userId: string, customerId: string, trees: SegmentNode[]): boolean[] {
  if (trees.length === 0) return [];
  const params: SqlParam[] = [];
  const columns = trees.map((tree, i) => {
    const c = compileTree(tree);
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
  const rows = reader().db.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.params) as { detail: string }[];
  return rows.map((r) => r.detail);
}
