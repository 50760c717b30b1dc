// A segment's audience as both engines give it: the customers' rows, the compiled SQL types, and the
// statements built on a compiled WHERE (the count, a sample, a page) in either dialect. The WHERE
// itself is compiled by ./where.ts; how a count is shaped is ./count-shapes.ts (SQLite) and
// ./ranges.ts (PostgreSQL).

export type SqlParam = number | string;
export type CompiledWhere = { sql: string; params: SqlParam[] };
export type Dialect = "sqlite" | "postgres";

/**
 * How a count was written: one scan ("plain"), a top-level OR as disjoint parts ("disjoint"), the
 * tenant minus the complement ("complement", on SQLite also "anchored" on one condition), and
 * PostgreSQL's own "ranges" and "rangeComplement" (./ranges.ts).
 */
export type CountShape = "plain" | "disjoint" | "complement" | "anchored" | "ranges" | "rangeComplement";

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

/** An audience row as the preview's sample statement returns it (raw mode): the columns below, in order. */
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

export function tupleToRow(t: AudienceTuple): AudienceRow {
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
