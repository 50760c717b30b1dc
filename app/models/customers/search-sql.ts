// The customer search's SQL text on each engine, pure builders (no query is run here): the
// customers' list, count and export, the orders list's search on a customer's name, the seed and
// the bench build their statements from these.
//
// SQLite: the FTS5 trigram table "customer_search" (migrations customer_search and
// customer_search_by_tenant), how rows get into it, and the tenant-scoped lookup every search uses.
// The index's rowid is (User.rowid << 40) | Customer.rowid: each tenant's entries are one contiguous
// range, and a search hands that range to FTS5 with its MATCH, so it never reads another tenant's
// entries and takes a time that depends on the tenant's own data only. The table's update and
// delete triggers compute the same key.
//
// PostgreSQL: the trigram index is an index of "Customer" itself, "Customer_search_idx" (pg_trgm
// GIN with btree_gin's "userId" first; migration 20261122044310_init): nothing is inserted into it
// by hand, and a search is a condition on the tenant's rows that the index answers, the tenant's own
// entries only, as SQLite's rowid range does (decision 0029 has the figures). The condition matches
// what SQLite finds: the term anywhere in "first last" or in the e-mail, case-insensitively (e-mail
// addresses are stored lower case, which the index's plain "email" column relies on).

// ---------------------------------------------------------------------------------------------
// SQLite

const CUSTOMER_ROWID_BITS = 40;
/** The Customer rowid inside a search-index rowid. */
const CUSTOMER_ROWID_MASK = 2 ** CUSTOMER_ROWID_BITS - 1;

/** Index rows for the customers `where` (on "Customer" c) selects, in rowid order. */
function indexCustomersSql(where: string): string {
  return `INSERT INTO "customer_search" (rowid, name, email)
  SELECT (u.rowid << ${CUSTOMER_ROWID_BITS}) | c.rowid, c."firstName" || ' ' || c."lastName", c."email"
  FROM "Customer" c JOIN "User" u ON u."id" = c."userId" WHERE ${where} ORDER BY c.rowid`;
}

/** The SQL that adds one customer row to the search index (inserts are indexed by the services). */
export const INDEX_CUSTOMER_SQL = indexCustomersSql(`c."id" = ?`);

/** The SQL that indexes every customer above a rowid (a batch just inserted by an import or a seed). */
export const INDEX_CUSTOMERS_AFTER_SQL = indexCustomersSql(`c.rowid > ?`);

/** The first search-index rowid of the tenant's range (NULL for no such user: nothing matches). */
const TENANT_SEARCH_BASE = `((SELECT u.rowid FROM "User" u WHERE u."id" = ?) << ${CUSTOMER_ROWID_BITS})`;

/**
 * The bounds of the tenant's rowid range, below `afterRowid` when paging. FTS5 takes rowid bounds
 * into its index lookup, so a search's cost depends on the tenant's own entries only; but it
 * ignores a bound that is not an INTEGER, and better-sqlite3 binds every JS number as a REAL, hence
 * the CAST (measured: without it the upper bound was dropped and a search read every later
 * tenant's matches).
 */
export function tenantSearchRange(
  userId: string,
  afterRowid: number | null,
): { low: string; high: string; params: (string | number)[] } {
  return {
    low: TENANT_SEARCH_BASE,
    high: `${TENANT_SEARCH_BASE} + CAST(? AS INTEGER)`,
    // A cursor past the range (only a crafted one can be) must not widen it into the next tenant's.
    params: [
      userId,
      userId,
      afterRowid !== null ? Math.min(CUSTOMER_ROWID_MASK, Math.max(0, afterRowid - 1)) : CUSTOMER_ROWID_MASK,
    ],
  };
}

/**
 * The tenant's customers (as `c`) matching the trigram phrase `phrase`: the FROM and WHERE of a
 * search. The owner filter stays as well, so a customer is never shown to another tenant even if
 * the index held a stale key.
 */
export function customerSearchSql(
  userId: string,
  phrase: string,
  afterRowid: number | null = null,
): { sql: string; params: (string | number)[] } {
  const range = tenantSearchRange(userId, afterRowid);
  return {
    sql: `"customer_search" s JOIN "Customer" c ON c.rowid = s.rowid & ${CUSTOMER_ROWID_MASK}
        WHERE "customer_search" MATCH ? AND s.rowid BETWEEN ${range.low} AND ${range.high} AND c."userId" = ?`,
    params: [phrase, ...range.params, userId],
  };
}

/** The phrase a trigram MATCH looks for: the whole term, quotes doubled. */
export function ftsPhrase(q: string): string {
  return `"${q.replace(/"/g, '""')}"`;
}

/** A search's condition checked row by row (ASCII case-insensitive), as short terms are searched. */
export const ROW_MATCH_SQL = `(instr(lower(c."firstName" || ' ' || c."lastName"), ?) > 0 OR instr(lower(c."email"), ?) > 0)`;

/**
 * The SQL selecting the tenant's customers matching `q` (all of them without a term), newest
 * added first, as `id` and `r` (the rowid). Terms of three characters or more go through the
 * trigram index, inside the tenant's range of it; shorter ones scan (they stop at the page size on
 * any common letter pair).
 */
export function customerMatchSql(
  userId: string,
  q: string,
  afterRowid: number | null,
  /** Without the ORDER BY, for counting: measured, the ordered trigram scan costs 3x as much. */
  ordered = true,
): { sql: string; params: (string | number)[] } {
  const page = (column: string) => (afterRowid !== null ? ` AND ${column} < ?` : "");
  const order = (column: string) => (ordered ? ` ORDER BY ${column} DESC` : "");
  const cursorParams = afterRowid !== null ? [afterRowid] : [];
  if (!q) {
    return {
      sql: `SELECT c."id" AS id, c.rowid AS r FROM "Customer" c INDEXED BY "Customer_userId_idx"
        WHERE c."userId" = ?${page("c.rowid")}${order("c.rowid")}`,
      params: [userId, ...cursorParams],
    };
  }
  if ([...q].length >= 3) {
    // The cursor is the range's upper bound, and the range's order is the Customer rowid's.
    const search = customerSearchSql(userId, ftsPhrase(q), afterRowid);
    return { sql: `SELECT c."id" AS id, c.rowid AS r FROM ${search.sql}${order("s.rowid")}`, params: search.params };
  }
  const needle = q.toLowerCase();
  return {
    sql: `SELECT c."id" AS id, c.rowid AS r FROM "Customer" c INDEXED BY "Customer_userId_idx"
      WHERE c."userId" = ?${page("c.rowid")}
      AND ${ROW_MATCH_SQL}${order("c.rowid")}`,
    params: [userId, ...cursorParams, needle, needle],
  };
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL

/** Placeholders numbered as they are added, with their values: `$1`, `$2`, … */
export class SqlParams {
  readonly values: unknown[] = [];
  constructor(first: readonly unknown[] = []) {
    this.values.push(...first);
  }
  /** The placeholder of a new parameter. */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** The name as the search index and the name sort hold it (the expressions must be these, letter for letter). */
export const NAME_EXPRESSION = `lower(c."firstName" || ' ' || c."lastName")`;

/** A LIKE pattern finding `term` anywhere: lower-cased, LIKE's own characters (% _ \) escaped. */
export function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/** The condition on "Customer" c that a search for `term` adds, its pattern taken as a new parameter. */
export function searchCondition(params: SqlParams, term: string): string {
  const pattern = params.add(likePattern(term));
  return `(${NAME_EXPRESSION} LIKE ${pattern} OR c."email" LIKE ${pattern})`;
}

/**
 * The tenant's customers (all without a term, else those matching it) as `id` and `r` (the row's
 * place: its id on PostgreSQL, where SQLite gives its rowid), before `beforeId` when paging, newest
 * first when `ordered`. PostgreSQL's customerMatchSql().
 */
export function customerMatchSqlPg(
  userId: string,
  q: string,
  beforeId: string | null,
  /** Without the ORDER BY, for counting. */
  ordered = true,
): { sql: string; params: unknown[] } {
  const params = new SqlParams();
  const where = [`c."userId" = ${params.add(userId)}`];
  if (beforeId !== null) where.push(`c."id" < ${params.add(beforeId)}`);
  if (q) where.push(searchCondition(params, q));
  return {
    sql: `SELECT c."id" AS id, c."id" AS r FROM "Customer" c WHERE ${where.join(" AND ")}${ordered ? ` ORDER BY c."id" DESC` : ""}`,
    params: params.values,
  };
}
