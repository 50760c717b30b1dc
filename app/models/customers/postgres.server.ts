// The customers on PostgreSQL, on the process's pool (the writes through Prisma: ./common.server.ts).
//
// The list walks a tenant-first index from a keyset position, as on SQLite
// (docs/decisions/0014-customer-sorting.md), with two differences of the engine:
//
// - A row's place is its "id" (time-ordered) where SQLite uses its rowid: PostgreSQL has no rowid,
//   and "Customer_userId_name_idx" and "Customer_userId_id_idx" end with "id" (decision 0029).
//   Customers added one after another get rising ids, so "date added" and every tie come in the
//   order SQLite gives; ids made in the same second by two processes of a cluster are ordered by
//   their process part instead.
// - SQLite puts NULL first ascending and last descending, PostgreSQL's indexes the other way round.
//   A never-active customer sorts as on SQLite: the pieces of a walk keep NULL and non-NULL last
//   active apart where it is the first key, and say NULLS FIRST/LAST where it is a later one.
//
// The segment indexes, (userId, spend, visits, lastActive), do not end with "id": a walk of them
// reads the rows of one (spend, visits) value together and orders them by the rest (an
// Incremental Sort of that group, not of the tenant). The tests check the plans.
//
// The CSV import and export are ./csv/'s.
import type { Pool, PoolClient, QueryResultRow } from "pg";
import { db } from "~/db/prisma.server";
import { postgres, query, type Postgres } from "~/db/postgres.server";
import type { CustomerSort, SortOrder } from "~/lib/customers";
import { isId } from "~/lib/id";
import { recentOrdersLimit } from "~/models/orders/rows";
import type { CustomersStore } from "./contract";
import {
  ADD_TO_TALLY_SQL_PG,
  CUSTOMER_COLUMNS,
  SORT_KEY_NAMES,
  SORT_KEYS,
  type CustomerDetailRows,
  type CustomerRow,
  type KeyValue,
  type ListQuery,
  type ListRow,
  type Position,
  type RowKey,
  type SortKeyName,
} from "./rows";
import { commonCustomers } from "./common.server";
import { customerMatchSqlPg, NAME_EXPRESSION, searchCondition, SqlParams } from "./search-sql";

type Db = Postgres | Pool | PoolClient;

async function rows<Row extends QueryResultRow>(db: Db, sql: string, params: readonly unknown[]): Promise<Row[]> {
  return query<Row>(db, sql, params);
}

/** A statement of every customer request (its text fixed): prepared once per connection. */
async function preparedRows<Row extends QueryResultRow>(
  db: Db,
  sql: string,
  params: readonly unknown[],
): Promise<Row[]> {
  return query<Row>(db, sql, params, { prepare: true });
}

// ---------------------------------------------------------------------------------------------
// The list's pages

type SortKey = { sql: string; nullable: boolean; /** A date: bound as a Date, read back as ms. */ date?: boolean };
type SortSpec = { keys: SortKey[] };

/** Each key as PostgreSQL sorts it. The name as its index holds it: lower-cased and in code-point order (SQLite's BINARY). */
const KEY_SQL: Record<SortKeyName, Omit<SortKey, "nullable">> = {
  name: { sql: `${NAME_EXPRESSION} COLLATE "C"` },
  spend: { sql: `c."totalSpendPaise"` },
  visits: { sql: `c."visits"` },
  lastActive: { sql: `c."lastActive"`, date: true },
};
const ROW = `c."id"`;

/** Each sort's keys (SORT_KEY_NAMES, the same as SQLite's: a cursor holds their values) in PostgreSQL's SQL. */
function sortSpec(sort: CustomerSort): SortSpec {
  return { keys: SORT_KEY_NAMES[sort].map((name, i) => ({ ...KEY_SQL[name], nullable: SORT_KEYS[sort][i].nullable })) };
}

const SORTS: Record<CustomerSort, SortSpec> = {
  createdAt: sortSpec("createdAt"),
  name: sortSpec("name"),
  totalSpend: sortSpec("totalSpend"),
  visits: sortSpec("visits"),
  lastActive: sortSpec("lastActive"),
};

/**
 * A condition on the rows. `held` is how many leading keys it holds to one value (NULL included),
 * `notNull` which later keys it keeps from being NULL: neither needs its NULLs placed in the
 * ORDER BY, so the index's own order serves.
 */
type Piece = { where: (params: SqlParams) => string; held: number; notNull: Set<number> };

function bind(key: SortKey, value: KeyValue, params: SqlParams): string {
  return params.add(key.date && typeof value === "number" ? new Date(value) : value);
}

/** The keys 0..j-1 equal to the position's. */
function heldEqual(spec: SortSpec, from: Position, j: number, params: SqlParams): string[] {
  const where: string[] = [];
  for (let i = 0; i < j; i++) {
    const value = from.keys[i] ?? null;
    where.push(
      value === null ? `${spec.keys[i].sql} IS NULL` : `${spec.keys[i].sql} = ${bind(spec.keys[i], value, params)}`,
    );
  }
  return where;
}

/**
 * The rows after `from` in `order`, as conditions whose rows follow one another in that order: all
 * keys equal and a later id, then the last key beyond with the others equal, and so on to the
 * first key beyond. Each is one range of the sort's index. As on SQLite, NULL is the smallest.
 */
function piecesAfter(spec: SortSpec, order: SortOrder, from: Position): Piece[] {
  const asc = order === "asc";
  const n = spec.keys.length;
  const pieces: Piece[] = [
    {
      where: (params) =>
        [...heldEqual(spec, from, n, params), `${ROW} ${asc ? ">" : "<"} ${params.add(from.r)}`].join(" AND "),
      held: n,
      notNull: new Set(),
    },
  ];
  for (let j = n - 1; j >= 0; j--) {
    const key = spec.keys[j];
    const value = from.keys[j] ?? null;
    const range = (condition: (params: SqlParams) => string, nullOnly = false): Piece => ({
      where: (params) => [...heldEqual(spec, from, j, params), condition(params)].join(" AND "),
      held: nullOnly ? j + 1 : j,
      notNull: nullOnly ? new Set() : new Set([j]),
    });
    if (asc) {
      // After NULL (the first values ascending) comes every value.
      if (value === null) pieces.push(range(() => `${key.sql} IS NOT NULL`));
      else pieces.push(range((params) => `${key.sql} > ${bind(key, value, params)}`));
    } else if (value !== null) {
      pieces.push(range((params) => `${key.sql} < ${bind(key, value, params)}`));
      if (key.nullable) pieces.push(range(() => `${key.sql} IS NULL`, true));
    }
  }
  return pieces;
}

/**
 * The walk from the start. A nullable first key (last active) is two ranges, its NULLs and the
 * rest, each in the index's own order.
 */
function piecesFromStart(spec: SortSpec, order: SortOrder): Piece[] {
  const first = spec.keys[0];
  if (!first?.nullable) return [{ where: () => "", held: 0, notNull: new Set() }];
  const nulls: Piece = { where: () => `${first.sql} IS NULL`, held: 1, notNull: new Set() };
  const values: Piece = { where: () => `${first.sql} IS NOT NULL`, held: 0, notNull: new Set([0]) };
  return order === "asc" ? [nulls, values] : [values, nulls];
}

/**
 * The ORDER BY of a piece: every key, then the id, NULLs where SQLite has them. A key the piece
 * holds to one value (NULL too) or keeps from NULL is ordered as the index is, so the planner
 * walks the index (it drops a key held equal, but not one held NULL).
 */
function orderBy(spec: SortSpec, order: SortOrder, piece: Pick<Piece, "held" | "notNull">): string {
  const dir = order === "asc" ? "ASC" : "DESC";
  const terms = spec.keys.map((key, i) => {
    const free = key.nullable && i >= piece.held && !piece.notNull.has(i);
    return `${key.sql} ${dir}${free ? (order === "asc" ? " NULLS FIRST" : " NULLS LAST") : ""}`;
  });
  return [...terms, `${ROW} ${dir}`].join(", ");
}

function keyColumns(spec: SortSpec): string {
  return spec.keys.map((k, i) => `, ${k.sql} AS k${i}`).join("");
}

function pieceQuery(
  userId: string,
  spec: SortSpec,
  order: SortOrder,
  piece: Piece,
  n: number,
  term: string,
): ListQuery {
  const params = new SqlParams();
  const where = [`c."userId" = ${params.add(userId)}`];
  const condition = piece.where(params);
  if (condition) where.push(condition);
  if (term) where.push(searchCondition(params, term));
  return {
    sql: `SELECT ${ROW} AS r${keyColumns(spec)}, ${CUSTOMER_COLUMNS} FROM "Customer" c
      WHERE ${where.join(" AND ")} ORDER BY ${orderBy(spec, order, piece)} LIMIT ${params.add(n)}`,
    params: params.values,
  };
}

function walkPieces(spec: SortSpec, order: SortOrder, from: Position | null): Piece[] {
  return from ? piecesAfter(spec, order, from) : piecesFromStart(spec, order);
}

export const postgresCustomers: CustomersStore = {
  ...commonCustomers,

  /** PostgreSQL's index is an index of "Customer" itself: the insert has added the customer already. */
  async indexCustomerForSearch() {},

  async addToCustomerTally(userId, n, tx = db()) {
    await tx.$executeRawUnsafe(ADD_TO_TALLY_SQL_PG, userId, n);
  },

  async findCustomerForUser(userId, id) {
    const [row] = await preparedRows<CustomerRow>(
      postgres(),
      `SELECT ${CUSTOMER_COLUMNS} FROM "Customer" c WHERE c."userId" = $1 AND c."id" = $2`,
      [userId, id],
    );
    return row;
  },

  /** One statement: the orders and segments as JSON arrays beside the customer. */
  async findCustomerDetail(userId, id, ordersLimit) {
    const limit = recentOrdersLimit(ordersLimit);
    const [row] = await preparedRows<CustomerRow & Pick<CustomerDetailRows, "orders" | "segments">>(
      postgres(),
      `SELECT ${CUSTOMER_COLUMNS},
       (SELECT coalesce(json_agg(json_build_object(
                 'id', o."id", 'createdAt', floor(extract(epoch FROM o."createdAt") * 1000)::bigint,
                 'amountPaise', o."amountPaise", 'taxPaise', o."taxPaise", 'status', o."status")
               ORDER BY o."createdAt" DESC, o."id" DESC), '[]')
          FROM (SELECT "id", "createdAt", "amountPaise", "taxPaise", "status" FROM "Order"
                WHERE "userId" = $1 AND "customerId" = $2 ORDER BY "createdAt" DESC, "id" DESC LIMIT $3) o
       ) AS "orders",
       (SELECT coalesce(json_agg(json_build_object('id', s."id", 'name', s."name", 'conditions', s."conditions")
               ORDER BY s."name" COLLATE "C", s."id"), '[]')
          FROM "Segment" s WHERE s."userId" = $1
       ) AS "segments"
     FROM "Customer" c WHERE c."userId" = $1 AND c."id" = $2`,
      [userId, id, limit],
    );
    if (!row) return undefined;
    const { orders, segments, ...customer } = row;
    return { customer, orders, segments };
  },

  async readCustomerTally(userId) {
    const [row] = await rows<{ customers: number }>(
      postgres(),
      `SELECT "customers" FROM "CustomerTally" WHERE "userId" = $1`,
      [userId],
    );
    return row ? row.customers : null;
  },

  async recountCustomerTally(userId) {
    const [row] = await rows<{ customers: number }>(
      postgres(),
      `INSERT INTO "CustomerTally" ("userId", "customers")
     SELECT $1, count(*)::int FROM "Customer" WHERE "userId" = $1
     ON CONFLICT ("userId") DO UPDATE SET "customers" = excluded."customers"
     RETURNING "customers"`,
      [userId],
    );
    return row.customers;
  },

  // The list's pages

  isRowKey(value): value is RowKey {
    return isId(value);
  },

  async readCustomersInOrder(userId, sort, order, from, n, q) {
    const spec = SORTS[sort];
    const found: ListRow[] = [];
    for (const piece of walkPieces(spec, order, from)) {
      const { sql, params } = pieceQuery(userId, spec, order, piece, n - found.length, q);
      found.push(...(await rows<ListRow>(postgres(), sql, params)));
      if (found.length >= n) break;
    }
    return found;
  },

  async readMatchedCustomers(userId, sort, order, from, n, matches) {
    const spec = SORTS[sort];
    const params = new SqlParams([matches.map(String), userId]);
    const pieces = from ? piecesAfter(spec, order, from) : [];
    const after = pieces.length ? ` AND (${pieces.map((p) => `(${p.where(params)})`).join(" OR ")})` : "";
    return rows<ListRow>(
      postgres(),
      `SELECT ${ROW} AS r${keyColumns(spec)}, ${CUSTOMER_COLUMNS} FROM "Customer" c
     WHERE c."id" = ANY($1::text[]) AND c."userId" = $2${after}
     ORDER BY ${orderBy(spec, order, { held: 0, notNull: new Set() })} LIMIT ${params.add(n)}`,
      params.values,
    );
  },

  async findSearchMatches(userId, q, limit) {
    const match = customerMatchSqlPg(userId, q, null, false);
    const found = await rows<{ r: string }>(postgres(), `${match.sql} LIMIT ${Math.trunc(limit)}`, match.params);
    return found.map((row) => row.r);
  },

  walkQueries(userId, sort, order, from, n, term = "") {
    const spec = SORTS[sort];
    return walkPieces(spec, order, from).map((piece) => pieceQuery(userId, spec, order, piece, n, term));
  },
};
