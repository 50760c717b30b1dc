// The customers on SQLite. The reads on every customer request are prepared statements on the read
// connection (~/db/reader.server); the writes go through Prisma (./common.server.ts). The search is
// the FTS5 trigram table (./search-sql.ts). The CSV import and export are ./csv/'s.
import { db } from "~/db/prisma.server";
import { readStatement } from "~/db/reader.server";
import type { CustomerSort, SortOrder } from "~/lib/customers";
import { orders } from "~/models/orders/store.server";
import { storedSegments } from "~/models/segments/store.server";
import type { CustomersStore } from "./contract";
import {
  ADD_TO_TALLY_SQL,
  CUSTOMER_COLUMNS,
  SORT_KEY_NAMES,
  SORT_KEYS,
  type CustomerRow,
  type KeyValue,
  type ListQuery,
  type ListRow,
  type Position,
  type RowKey,
  type SortKeyName,
  type SortKeyType,
} from "./rows";
import { commonCustomers } from "./common.server";
import { customerMatchSql, INDEX_CUSTOMER_SQL, ROW_MATCH_SQL } from "./search-sql";

// ---------------------------------------------------------------------------------------------
// The list's pages
//
// A row's place is its rowid, the order customers were added in (docs/decisions/0014-customer-sorting.md).

type SortKey = SortKeyType & { sql: string };
type SortSpec = { index: string; keys: SortKey[] };

/** Each key as SQLite sorts it. The name: the shown "First Last", lower-cased, as its index holds it. */
const KEY_SQL: Record<SortKeyName, string> = {
  name: `lower(c."firstName" || ' ' || c."lastName")`,
  spend: `c."totalSpendPaise"`,
  visits: `c."visits"`,
  /** NULL (never active) sorts before every date, as SQLite orders NULLs: first ascending, last descending. */
  lastActive: `c."lastActive"`,
};

/** Each sort's index, and its keys (SORT_KEY_NAMES) in SQLite's SQL. */
function sortSpec(sort: CustomerSort, index: string): SortSpec {
  return { index, keys: SORT_KEY_NAMES[sort].map((name, i) => ({ ...SORT_KEYS[sort][i], sql: KEY_SQL[name] })) };
}

const SORTS: Record<CustomerSort, SortSpec> = {
  createdAt: sortSpec("createdAt", "Customer_userId_idx"),
  name: sortSpec("name", "Customer_userId_name_idx"),
  totalSpend: sortSpec("totalSpend", "Customer_userId_totalSpendPaise_visits_lastActive_idx"),
  visits: sortSpec("visits", "Customer_userId_visits_totalSpendPaise_lastActive_idx"),
  lastActive: sortSpec("lastActive", "Customer_userId_lastActive_totalSpendPaise_visits_idx"),
};

/** A condition on the rows, its parameters, and how many leading keys it holds equal. */
type Piece = { where: string; params: KeyValue[]; equal: number };

/**
 * The rows after `from` in `order`, as conditions whose rows follow one another in that order:
 * all keys equal and a rowid beyond, then the last key beyond with the others equal, and so on to
 * the first key beyond. Each is one range of the sort's index.
 */
function piecesAfter(spec: SortSpec, order: SortOrder, from: Position): Piece[] {
  const asc = order === "asc";
  const pieces: Piece[] = [];
  const prefix = (j: number): Piece => {
    const where: string[] = [];
    const params: KeyValue[] = [];
    for (let i = 0; i < j; i++) {
      const value = from.keys[i] ?? null;
      if (value === null) where.push(`${spec.keys[i].sql} IS NULL`);
      else {
        where.push(`${spec.keys[i].sql} = ?`);
        params.push(value);
      }
    }
    return { where: where.join(" AND "), params, equal: j };
  };
  const add = (base: Piece, condition: string, params: KeyValue[]) =>
    pieces.push({
      where: base.where ? `${base.where} AND ${condition}` : condition,
      params: [...base.params, ...params],
      equal: base.equal,
    });
  // better-sqlite3 binds numbers as REAL; the rowid range needs an INTEGER bound.
  add(prefix(spec.keys.length), `c.rowid ${asc ? ">" : "<"} CAST(? AS INTEGER)`, [from.r]);
  for (let j = spec.keys.length - 1; j >= 0; j--) {
    const key = spec.keys[j];
    const value = from.keys[j] ?? null;
    const base = prefix(j);
    if (asc) {
      // After NULL (the first values ascending) comes every value; the bound skips the NULLs in the index.
      if (value === null) add(base, `${key.sql} > -9223372036854775808`, []);
      else add(base, `${key.sql} > ?`, [value]);
    } else if (value !== null) {
      add(base, `${key.sql} < ?`, [value]);
      if (key.nullable) add(base, `${key.sql} IS NULL`, []);
    }
  }
  return pieces;
}

/**
 * The ORDER BY of a sort, without the `equal` leading keys a piece holds equal (SQLite does not
 * see that an expression held equal needs no ordering, and would sort the page).
 */
function orderBy(spec: SortSpec, order: SortOrder, equal = 0): string {
  const dir = order === "asc" ? "ASC" : "DESC";
  return [...spec.keys.slice(equal).map((k) => `${k.sql} ${dir}`), `c.rowid ${dir}`].join(", ");
}

function keyColumns(spec: SortSpec): string {
  return spec.keys.map((k, i) => `, ${k.sql} AS k${i}`).join("");
}

/** The statement of one piece of a walk, its limit the last parameter (after the term's). */
function pieceStatement(spec: SortSpec, order: SortOrder, piece: Piece, term: string): string {
  const filter = term ? ` AND ${ROW_MATCH_SQL}` : "";
  return `SELECT c.rowid AS r${keyColumns(spec)}, ${CUSTOMER_COLUMNS} FROM "Customer" c INDEXED BY "${spec.index}"
       WHERE c."userId" = ?${piece.where ? ` AND ${piece.where}` : ""}${filter}
       ORDER BY ${orderBy(spec, order, piece.equal)} LIMIT ?`;
}

function walkPieces(spec: SortSpec, order: SortOrder, from: Position | null): Piece[] {
  return from ? piecesAfter(spec, order, from) : [{ where: "", params: [], equal: 0 }];
}

function termParams(term: string): string[] {
  return term ? [term.toLowerCase(), term.toLowerCase()] : [];
}

/**
 * Up to `n` of the tenant's rows after `from` in `order`, walking the sort's index; with a term,
 * only the rows it matches (for searches too common to sort in memory).
 */
function walkIndex(
  userId: string,
  spec: SortSpec,
  order: SortOrder,
  from: Position | null,
  n: number,
  term: string,
): ListRow[] {
  const filterParams = termParams(term);
  const rows: ListRow[] = [];
  for (const piece of walkPieces(spec, order, from)) {
    const st = readStatement<ListRow>(pieceStatement(spec, order, piece, term));
    rows.push(...st.all(userId, ...piece.params, ...filterParams, n - rows.length));
    if (rows.length >= n) break;
  }
  return rows;
}

export const sqliteCustomers: CustomersStore = {
  ...commonCustomers,

  async indexCustomerForSearch(id, tx = db()) {
    await tx.$executeRawUnsafe(INDEX_CUSTOMER_SQL, id);
  },

  async addToCustomerTally(userId, n, tx = db()) {
    await tx.$executeRawUnsafe(ADD_TO_TALLY_SQL, userId, n);
  },

  async findCustomerForUser(userId, id) {
    return readStatement<CustomerRow>(
      `SELECT ${CUSTOMER_COLUMNS} FROM "Customer" c WHERE c."userId" = ? AND c."id" = ?`,
    ).get(userId, id);
  },

  async findCustomerDetail(userId, id, ordersLimit) {
    const customer = await sqliteCustomers.findCustomerForUser(userId, id);
    if (!customer) return undefined;
    const [recent, segments] = await Promise.all([
      orders.recentOrdersOfCustomer(userId, id, ordersLimit),
      storedSegments.segmentConditionsOfUser(userId),
    ]);
    return { customer, orders: recent, segments };
  },

  async readCustomerTally(userId) {
    const tally = readStatement<{ customers: number }>(
      `SELECT "customers" FROM "CustomerTally" WHERE "userId" = ?`,
    ).get(userId);
    return tally ? tally.customers : null;
  },

  async recountCustomerTally(userId) {
    const client = db();
    const n = await client.customer.count({ where: { userId } });
    await client.$executeRawUnsafe(
      `INSERT INTO "CustomerTally" ("userId", "customers") VALUES (?, ?) ON CONFLICT ("userId") DO UPDATE SET "customers" = excluded."customers"`,
      userId,
      n,
    );
    return n;
  },

  // The list's pages

  isRowKey(value): value is RowKey {
    return typeof value === "number" && Number.isSafeInteger(value) && value >= 1;
  },

  async readCustomersInOrder(userId, sort, order, from, n, q) {
    const spec = SORTS[sort];
    if (q && spec.keys.length === 0 && order === "desc" && [...q].length >= 3) {
      // Newest first through the trigram index, in its own rowid order: a common term's page costs
      // the same as a rare one's.
      const match = customerMatchSql(userId, q, from ? Number(from.r) : null);
      return readStatement<ListRow>(
        `WITH m AS (${match.sql} LIMIT ?)
       SELECT m.r AS r, ${CUSTOMER_COLUMNS} FROM m JOIN "Customer" c ON c.rowid = m.r ORDER BY m.r DESC`,
      ).all(...match.params, n);
    }
    return walkIndex(userId, spec, order, from, n, q);
  },

  async readMatchedCustomers(userId, sort, order, from, n, matches) {
    const spec = SORTS[sort];
    const pieces = from ? piecesAfter(spec, order, from) : [];
    const where = pieces.length ? ` AND (${pieces.map((p) => `(${p.where})`).join(" OR ")})` : "";
    // The matches drive the join (CROSS JOIN keeps them outermost): a sort index would walk the tenant.
    return readStatement<ListRow>(
      `SELECT c.rowid AS r${keyColumns(spec)}, ${CUSTOMER_COLUMNS} FROM json_each(?) m CROSS JOIN "Customer" c
     ON c.rowid = m.value WHERE c."userId" = ?${where} ORDER BY ${orderBy(spec, order)} LIMIT ?`,
    ).all(JSON.stringify(matches), userId, ...pieces.flatMap((p) => p.params), n);
  },

  async findSearchMatches(userId, q, limit) {
    const match = customerMatchSql(userId, q, null, false);
    return readStatement<number>(`SELECT r FROM (${match.sql}) LIMIT ${limit}`)
      .pluck()
      .all(...match.params);
  },

  walkQueries(userId, sort, order, from, n, term = ""): ListQuery[] {
    const spec = SORTS[sort];
    return walkPieces(spec, order, from).map((piece) => ({
      sql: pieceStatement(spec, order, piece, term),
      params: [userId, ...piece.params, ...termParams(term), n],
    }));
  },
};
