// A segment's audience on SQLite: its count, its preview (count and sample), its pages, and which
// segments contain one customer, evaluated in the database on the SQL ./where.ts writes.
// Customers are never loaded into JavaScript to be filtered.
//
// Audience reads go through the read connection with cached prepared statements: at a million
// customers the query is the cost, so nothing else is allowed to add to it (see
// bench/sections/sqlite/segments.ts). The functions are async as the contract is; on SQLite they answer
// synchronously inside.
import type Database from "better-sqlite3";
import {
  readConnection as reader,
  readStatement as statement,
  type ReadConnection as Reader,
} from "~/db/reader.server";
import { type SegmentNode } from "~/lib/segments";
import { resolveRelativeDates } from "~/lib/segment-dates";
import type { AudienceStore } from "~/models/segments/audience/contract";
import {
  type AndShape,
  chooseAndShape,
  complementCountSql,
  disjointOrSql,
} from "~/models/segments/audience/count-shapes";
import {
  type AudienceRow,
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
  compileSegmentWhere,
  compileTree,
  leafListCountSql,
  onlyCustomerColumns,
} from "~/models/segments/audience/where";

function runRows(q: CompiledWhere): AudienceRow[] {
  return statement<AudienceRow>(q.sql).all(...q.params);
}

/** The estimate's one row: the sample's size `n` and the matches of each part, `p0`, `p1`, … */
type EstimateRow = Record<string, number>;

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
  sample: { limit: number; statement: Database.Statement<unknown[], AudienceTuple>; params: SqlParam[] } | null;
  /** Only for a top-level OR of 2 to 8 parts: how its count's shape is chosen. */
  or: OrPlan | null;
  /** Only for a top-level AND of 2 to 8 parts: the same for counting by the complement. */
  and: AndPlan | null;
};

type AndPlan = {
  userId: string;
  tree: SegmentNode;
  /** The sample's count, the whole tree's matches (p0) and each child's (p1…). */
  estimate: Database.Statement<unknown[], EstimateRow>;
  estimateParams: SqlParam[];
  simple: boolean[];
  /** The complement counts prepared so far, by anchor ("tenant" or the child's index). */
  counts: Map<string, { statement: Database.Statement; params: SqlParam[] }>;
  choice: { shape: AndShape; at: number; sampleSize: number; broadAnd: number; forceAnd: string | null } | null;
};

type OrPlan = {
  estimate: Database.Statement<unknown[], EstimateRow>;
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

function orEstimateSql(parts: CompiledWhere[]): string {
  const sums = parts.map((c, i) => `coalesce(sum(${c.sql}), 0) AS "p${i}"`).join(", ");
  // The (userId, id) index walks the oldest customers first; left to itself the planner may sort
  // the whole tenant instead.
  return `SELECT count(*) AS "n", ${sums} FROM (SELECT "totalSpendPaise", "visits", "lastActive" FROM "Customer" INDEXED BY "Customer_userId_id_idx" WHERE "userId" = ? ORDER BY "id" LIMIT ?)`;
}

/** The prepared estimate of the parts over the tenant's oldest customers, and its parameters. */
function estimateOf(
  userId: string,
  parts: CompiledWhere[],
): { estimate: Database.Statement<unknown[], EstimateRow>; estimateParams: SqlParam[] } | null {
  try {
    return {
      estimate: statement<EstimateRow>(orEstimateSql(parts)),
      estimateParams: [...parts.flatMap((c) => c.params), userId],
    };
  } catch {
    // Without the (userId, id) index, no estimate: the plain scan answers.
    return null;
  }
}

/**
 * Only a tree of the customer's three figures gets the OR's and the AND's plans: their shapes and
 * estimates are built on those columns' covering indexes. A tree that also tests fields or tags is
 * counted by the plain scan, its value tests each read once into a lookup table.
 */
function buildOrPlan(userId: string, tree: SegmentNode): OrPlan | null {
  if (tree.kind !== "group" || tree.logic !== "OR" || tree.children.length < 2 || tree.children.length > 8) return null;
  if (!onlyCustomerColumns(tree)) return null;
  const parts = tree.children.map((c) => compileTree(c));
  const disjoint = disjointOrSql(userId, tree);
  if (!disjoint) return null;
  const estimate = estimateOf(userId, parts);
  if (!estimate) return null;
  return {
    ...estimate,
    parts: parts.length,
    disjoint: statement(disjoint.sql).pluck(),
    disjointParams: disjoint.params,
    choice: null,
  };
}

function buildAndPlan(userId: string, tree: SegmentNode): AndPlan | null {
  if (tree.kind !== "group" || tree.logic !== "AND" || tree.children.length < 2 || tree.children.length > 8)
    return null;
  if (!onlyCustomerColumns(tree)) return null;
  const parts = [compileTree(tree), ...tree.children.map((c) => compileTree(c))];
  const estimate = estimateOf(userId, parts);
  if (!estimate) return null;
  return {
    userId,
    tree,
    ...estimate,
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
  const cache = cachedPlans;
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
  const count = leafListCountSql(userId, tree) ?? countSql(where);
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
  let row: EstimateRow;
  try {
    row = or.estimate.get(...or.estimateParams, sampleSize) ?? { n: 0 };
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
    let row: EstimateRow | null;
    try {
      row = and.estimate.get(...and.estimateParams, sampleSize) ?? null;
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

function countQuery(userId: string, tree: SegmentNode, now: number): { shape: CountShape; query: CompiledWhere } {
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

function planCount(plan: AudiencePlan): number {
  if (plan.or && countsDisjoint(plan.or)) return Number(plan.or.disjoint.pluck().get(...plan.or.disjointParams) ?? 0);
  if (plan.and) {
    const shape = andShape(plan.and);
    const count = shape.shape === "complement" ? andCount(plan.and, shape.anchor) : null;
    if (count) return Number(count.statement.get(...count.params) ?? 0);
  }
  return Number(plan.count.pluck().get(...plan.countParams) ?? 0);
}

function previewAs<T>(
  userId: string,
  tree: SegmentNode,
  limit: number,
  map: (row: AudienceTuple) => T,
  now: number,
): { count: number; rows: T[] } {
  const plan = audiencePlan(userId, tree, now);
  const count = planCount(plan);
  if (count === 0) return { count, rows: [] };
  let sample = plan.sample;
  if (!sample || sample.limit !== limit) {
    const q = sampleSql(plan.where, limit);
    sample = plan.sample = {
      limit,
      statement: plan.reader.db.prepare<unknown[], AudienceTuple>(q.sql).raw(),
      params: q.params,
    };
  }
  const tuples = sample.statement.all(...sample.params);
  const rows = new Array<T>(tuples.length);
  for (let i = 0; i < tuples.length; i++) rows[i] = map(tuples[i]);
  return { count, rows };
}

export const sqliteAudience: AudienceStore = {
  async audienceCountQuery(userId, tree, now = Date.now()) {
    return countQuery(userId, tree, now);
  },

  async audienceCountShape(userId, tree) {
    return countQuery(userId, tree, Date.now()).shape;
  },

  async sqlAudienceCount(userId, tree, now = Date.now()) {
    return planCount(audiencePlan(userId, tree, now));
  },

  async sqlAudienceCounts(userId, trees, now = Date.now()) {
    return trees.map((tree) => planCount(audiencePlan(userId, tree, now)));
  },

  async sqlAudiencePreview(userId, tree, limit, now = Date.now()) {
    return previewAs(userId, tree, limit, tupleToRow, now);
  },

  async sqlAudiencePreviewAs(userId, tree, limit, map, now = Date.now()) {
    return previewAs(userId, tree, limit, map, now);
  },

  async sqlAudiencePage(userId, tree, limit, cursor, now = Date.now()) {
    return runRows(pageSql(audiencePlan(userId, tree, now).where, limit, cursor));
  },

  async sqlMatchesForCustomer(userId, customerId, trees, now = Date.now()) {
    if (trees.length === 0) return [];
    const params: SqlParam[] = [];
    const columns = trees.map((tree, i) => {
      const c = compileTree(resolveRelativeDates(tree, now), "sqlite", 1, false, userId);
      params.push(...c.params);
      return `coalesce(${c.sql}, 0) AS "m${i}"`;
    });
    const row = statement<Record<string, number>>(
      `SELECT ${columns.join(", ")} FROM "Customer" WHERE "userId" = ? AND "id" = ?`,
    ).get(...params, userId, customerId);
    return trees.map((_, i) => Boolean(row && row[`m${i}`]));
  },

  audienceWhere(userId, tree, now = Date.now()) {
    return compileSegmentWhere(userId, tree, "sqlite", now);
  },

  async explainPlan(q) {
    const rows = reader()
      .db.prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${q.sql}`)
      .all(...q.params);
    return rows.map((r) => r.detail);
  },
};
