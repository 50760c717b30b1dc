// The customer search on PostgreSQL: the twin of ./customer-search.server.ts (SQLite's FTS5 table).
// Here the trigram index is an index of "Customer" itself, "Customer_search_idx" (pg_trgm GIN with
// btree_gin's "userId" first; migration 20261122044310_init): nothing is inserted into it by hand,
// and a search is a condition on the tenant's rows that the index answers, the tenant's own entries
// only, as SQLite's rowid range does (decision 0029 has the figures).
//
// The condition matches what SQLite finds: the term anywhere in "first last" or in the e-mail,
// case-insensitively (e-mail addresses are stored lower case, which the index's plain "email"
// column relies on).

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
 * first when `ordered`. The twin of customerMatchSql().
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
