// The customers as stored: the Customer row, its writes (with the search index and the tenant's
// customer tally kept in step), the reads of the detail and of the list's pages, and the count of
// new customers behind the notifications. The rules (validation, paging, cursors, DTOs, messages)
// are the service's: app/services/customers.server.ts.
//
// The list's reads walk a tenant-first index from a keyset position
// (docs/decisions/0014-customer-sorting.md); the reads on every customer request are prepared
// statements on the read connection (~/db/reader.server), the writes go through Prisma.
//
// On PostgreSQL (DATABASE_URL=postgres://…) each read has a twin in ./customers.postgres.server.ts
// on the process's pool, chosen at the top of the function (docs/decisions/0033-postgresql-runtime.md).
import { db } from "~/db/prisma.server";
import { databaseEngine } from "~/db/connection.server";
import { postgres } from "~/db/postgres.server";
import { readStatement } from "~/db/reader.server";
import { Prisma, type Customer } from "~/generated/prisma/client";
import type { CustomerSort, SortOrder } from "~/lib/customers";
import { isId } from "~/lib/id";
import { customerMatchSql, INDEX_CUSTOMER_SQL, ROW_MATCH_SQL } from "~/models/customer-search.server";
import {
  ADD_TO_TALLY_SQL_PG,
  findCustomerDetailPg,
  findCustomerForUserPg,
  findSearchMatchesPg,
  readCustomersInOrderPg,
  readCustomerTallyPg,
  readMatchedCustomersPg,
  recountCustomerTallyPg,
} from "~/models/customers.postgres.server";
import { recentOrdersOfCustomer, type RecentOrderRow } from "~/models/orders.server";
import { segmentConditionsOfUser, type SegmentConditionsRow } from "~/models/segments.server";
import type { Tx } from "~/models/transaction.server";

/** One Customer row (dates as unixepoch milliseconds, as the read connection returns them). */
export type CustomerRow = Omit<Customer, "lastActive" | "createdAt" | "updatedAt"> & {
  lastActive: number | null;
  createdAt: number;
  updatedAt: number;
};

/** The Customer columns of a whole CustomerRow, on the table as `c`. */
const CUSTOMER_COLUMNS = `c."id", c."userId", c."firstName", c."lastName", c."email", c."phone", c."address", c."company", c."notes",
  c."totalSpendPaise", c."visits", c."lastActive", c."createdAt", c."updatedAt"`;

/** What a customer write stores: the personal fields, and the starting values when given. */
export type CustomerFields = Pick<
  CustomerRow,
  "firstName" | "lastName" | "email" | "phone" | "address" | "company" | "notes"
> & {
  totalSpendPaise?: number;
  visits?: number;
  lastActive?: Date | null;
};

/** The tenant already has a customer with this e-mail (the ("userId", "email") unique index). */
export class DuplicateCustomerEmail extends Error {
  constructor() {
    super("A customer with this e-mail already exists");
  }
}

function duplicateOr(error: unknown): unknown {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002"
    ? new DuplicateCustomerEmail()
    : error;
}

function toRow(c: Customer): CustomerRow {
  return {
    ...c,
    lastActive: c.lastActive === null ? null : c.lastActive.getTime(),
    createdAt: c.createdAt.getTime(),
    updatedAt: c.updatedAt.getTime(),
  };
}

/** Adds n to the tenant's customer count (every path that inserts customers runs it). */
export const ADD_TO_TALLY_SQL = `INSERT INTO "CustomerTally" ("userId", "customers") VALUES (?, ?)
  ON CONFLICT ("userId") DO UPDATE SET "customers" = "customers" + excluded."customers"`;

/** A new customer row; throws DuplicateCustomerEmail when the tenant has the e-mail already. */
export async function insertCustomer(
  id: string,
  userId: string,
  fields: CustomerFields,
  tx: Tx = db(),
): Promise<CustomerRow> {
  try {
    return toRow(await tx.customer.create({ data: { id, userId, ...fields } }));
  } catch (error) {
    throw duplicateOr(error);
  }
}

/**
 * Adds the customer to the search index (a customer inserted outside an import). PostgreSQL's
 * index is an index of "Customer" itself: the insert has added it already.
 */
export async function indexCustomerForSearch(id: string, tx: Tx = db()): Promise<void> {
  if (databaseEngine() === "postgres") return;
  await tx.$executeRawUnsafe(INDEX_CUSTOMER_SQL, id);
}

/** Adds n to the tenant's customer count. */
export async function addToCustomerTally(userId: string, n: number, tx: Tx = db()): Promise<void> {
  await tx.$executeRawUnsafe(databaseEngine() === "postgres" ? ADD_TO_TALLY_SQL_PG : ADD_TO_TALLY_SQL, userId, n);
}

/** Whether the tenant has this customer. */
export async function customerBelongsToUser(userId: string, id: string, tx: Tx = db()): Promise<boolean> {
  const row = await tx.customer.findFirst({ where: { id, userId }, select: { id: true } });
  return row !== null;
}

/** Rewrites a customer; throws DuplicateCustomerEmail when another of the tenant's has the e-mail. */
export async function updateCustomerRow(id: string, fields: CustomerFields, tx: Tx = db()): Promise<CustomerRow> {
  try {
    return toRow(await tx.customer.update({ where: { id }, data: fields }));
  } catch (error) {
    throw duplicateOr(error);
  }
}

/** Deletes the customer's orders (their items go with them); returns how many. */
export async function deleteOrdersOfCustomer(userId: string, customerId: string, tx: Tx = db()): Promise<number> {
  const orders = await tx.order.deleteMany({ where: { userId, customerId } });
  return orders.count;
}

/**
 * Deletes the tenant's customer row (the tally's delete trigger takes it off the count). False
 * when it is not there (any more): on PostgreSQL a delete of the same customer at the same time
 * waits for this one and then finds nothing.
 */
export async function deleteCustomerRow(userId: string, id: string, tx: Tx = db()): Promise<boolean> {
  return (await tx.customer.deleteMany({ where: { id, userId } })).count === 1;
}

/** The tenant's customer, or undefined. */
export async function findCustomerForUser(userId: string, id: string): Promise<CustomerRow | undefined> {
  if (databaseEngine() === "postgres") return findCustomerForUserPg(postgres(), userId, id);
  return readStatement<CustomerRow>(
    `SELECT ${CUSTOMER_COLUMNS} FROM "Customer" c WHERE c."userId" = ? AND c."id" = ?`,
  ).get(userId, id);
}

/** What the customer detail reads: the customer, their newest orders, and the tenant's segments with their conditions. */
export type CustomerDetailRows = {
  customer: CustomerRow;
  orders: RecentOrderRow[];
  segments: (SegmentConditionsRow & { name: string })[];
};

/**
 * The customer detail's reads (GET /api/customers/{id}, the customer screen) together: the
 * customer, up to `ordersLimit` (clamped to 1–100) newest orders, and the tenant's segments by
 * name. On PostgreSQL one prepared statement, one round trip instead of three (decision 0035).
 */
export async function findCustomerDetail(
  userId: string,
  id: string,
  ordersLimit: number,
): Promise<CustomerDetailRows | undefined> {
  if (databaseEngine() === "postgres") return findCustomerDetailPg(postgres(), userId, id, ordersLimit);
  const customer = await findCustomerForUser(userId, id);
  if (!customer) return undefined;
  const [orders, segments] = await Promise.all([
    recentOrdersOfCustomer(userId, id, ordersLimit),
    segmentConditionsOfUser(userId),
  ]);
  return { customer, orders, segments };
}

/** How many orders the tenant's customer has. */
export async function countOrdersOfCustomer(userId: string, customerId: string): Promise<number> {
  return db().order.count({ where: { userId, customerId } });
}

/** The tenant's count in CustomerTally, or null when it has none yet. */
export async function readCustomerTally(userId: string): Promise<number | null> {
  if (databaseEngine() === "postgres") return readCustomerTallyPg(postgres(), userId);
  const tally = readStatement<{ customers: number }>(`SELECT "customers" FROM "CustomerTally" WHERE "userId" = ?`).get(
    userId,
  );
  return tally ? tally.customers : null;
}

/** Counts the tenant's customers and keeps the count as their tally; returns it. */
export async function recountCustomerTally(userId: string): Promise<number> {
  if (databaseEngine() === "postgres") return recountCustomerTallyPg(postgres(), userId);
  const client = db();
  const n = await client.customer.count({ where: { userId } });
  await client.$executeRawUnsafe(
    `INSERT INTO "CustomerTally" ("userId", "customers") VALUES (?, ?) ON CONFLICT ("userId") DO UPDATE SET "customers" = excluded."customers"`,
    userId,
    n,
  );
  return n;
}

/** Adds n to the user's count of new customers since the last notice; returns the new count. */
export async function addToNewCustomerCount(userId: string, n: number): Promise<number> {
  const user = await db().user.update({
    where: { id: userId },
    data: { newCustomersSinceNotice: { increment: n } },
    select: { newCustomersSinceNotice: true },
  });
  return user.newCustomersSinceNotice;
}

/** Starts the user's count of new customers again from zero. */
export async function resetNewCustomerCount(userId: string): Promise<void> {
  await db().user.update({ where: { id: userId }, data: { newCustomersSinceNotice: 0 } });
}

// ---------------------------------------------------------------------------------------------
// The list's pages

// Every sort is a key of one or more columns and then the rowid (unique, so equal keys still have
// one order and a cursor one place), all in the same direction, which is exactly the order of a
// tenant-first index: a page is a walk of that index from the cursor's place, and the reversed
// order (Previous, the last page) is the same walk backwards. Spend, visits and last active use
// the segment indexes (docs/decisions/0004-segment-compiler.md), so their ties are broken by the
// other two figures; the name has its own index (migration customer_sort_by_name); the date added
// is the rowid, the order customers were added in. See docs/decisions/0014-customer-sorting.md.

/** What a sort key holds, as a cursor carries it. */
export type SortKeyType = { type: "integer" | "text"; nullable: boolean };
type SortKey = SortKeyType & { sql: string };
type SortSpec = { index: string; keys: SortKey[] };

/** The name a list sorts by: the shown "First Last", lower-cased, as its index holds it. */
const NAME_KEY: SortKey = { sql: `lower(c."firstName" || ' ' || c."lastName")`, type: "text", nullable: false };
const SPEND: SortKey = { sql: `c."totalSpendPaise"`, type: "integer", nullable: false };
const VISITS: SortKey = { sql: `c."visits"`, type: "integer", nullable: false };
/** NULL (never active) sorts before every date, as SQLite orders NULLs: first ascending, last descending. */
const LAST_ACTIVE: SortKey = { sql: `c."lastActive"`, type: "integer", nullable: true };

const SORTS: Record<CustomerSort, SortSpec> = {
  createdAt: { index: "Customer_userId_idx", keys: [] },
  name: { index: "Customer_userId_name_idx", keys: [NAME_KEY] },
  totalSpend: { index: "Customer_userId_totalSpendPaise_visits_lastActive_idx", keys: [SPEND, VISITS, LAST_ACTIVE] },
  visits: { index: "Customer_userId_visits_totalSpendPaise_lastActive_idx", keys: [VISITS, SPEND, LAST_ACTIVE] },
  lastActive: { index: "Customer_userId_lastActive_totalSpendPaise_visits_idx", keys: [LAST_ACTIVE, SPEND, VISITS] },
};

/** The keys of each sort before the rowid, in order: what a cursor of that sort holds. */
export const SORT_KEYS: Record<CustomerSort, readonly SortKeyType[]> = {
  createdAt: SORTS.createdAt.keys,
  name: SORTS.name.keys,
  totalSpend: SORTS.totalSpend.keys,
  visits: SORTS.visits.keys,
  lastActive: SORTS.lastActive.keys,
};

export type KeyValue = string | number | null;

/**
 * A row's own place, the last of every sort's keys: SQLite's rowid (the order rows were added in);
 * on PostgreSQL, which has no rowid, the row's id (time-ordered, decision 0029).
 */
export type RowKey = number | string;

/** Whether `value` (from a cursor) can be a row's place on the configured engine. */
export function isRowKey(value: unknown): value is RowKey {
  if (databaseEngine() === "postgres") return isId(value);
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 1;
}

/** A place in a sort: a row's key values and its place `r`. */
export type Position = { keys: KeyValue[]; r: RowKey };

/** A row of a page: the customer, its place `r`, and its sort's key values as k0, k1, … */
export type ListRow = CustomerRow & { r: RowKey } & Record<`k${number}`, KeyValue>;

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
  const filter = term ? ` AND ${ROW_MATCH_SQL}` : "";
  const filterParams = term ? [term.toLowerCase(), term.toLowerCase()] : [];
  const pieces: Piece[] = from ? piecesAfter(spec, order, from) : [{ where: "", params: [], equal: 0 }];
  const rows: ListRow[] = [];
  for (const piece of pieces) {
    const st = readStatement<ListRow>(
      `SELECT c.rowid AS r${keyColumns(spec)}, ${CUSTOMER_COLUMNS} FROM "Customer" c INDEXED BY "${spec.index}"
       WHERE c."userId" = ?${piece.where ? ` AND ${piece.where}` : ""}${filter}
       ORDER BY ${orderBy(spec, order, piece.equal)} LIMIT ?`,
    );
    rows.push(...st.all(userId, ...piece.params, ...filterParams, n - rows.length));
    if (rows.length >= n) break;
  }
  return rows;
}

/** Up to `n` of the matched rows (`rowids`, the tenant's) after `from` in `order`, sorted in SQL. */
export async function readMatchedCustomers(
  userId: string,
  sort: CustomerSort,
  order: SortOrder,
  from: Position | null,
  n: number,
  rowids: RowKey[],
): Promise<ListRow[]> {
  if (databaseEngine() === "postgres")
    return readMatchedCustomersPg(postgres(), userId, sort, order, from, n, rowids.map(String));
  const spec = SORTS[sort];
  const pieces = from ? piecesAfter(spec, order, from) : [];
  const where = pieces.length ? ` AND (${pieces.map((p) => `(${p.where})`).join(" OR ")})` : "";
  // The matches drive the join (CROSS JOIN keeps them outermost): a sort index would walk the tenant.
  return readStatement<ListRow>(
    `SELECT c.rowid AS r${keyColumns(spec)}, ${CUSTOMER_COLUMNS} FROM json_each(?) m CROSS JOIN "Customer" c
     ON c.rowid = m.value WHERE c."userId" = ?${where} ORDER BY ${orderBy(spec, order)} LIMIT ?`,
  ).all(JSON.stringify(rowids), userId, ...pieces.flatMap((p) => p.params), n);
}

/** Up to `n` of the tenant's rows (or of those `q` matches) after `from` in `order`. */
export async function readCustomersInOrder(
  userId: string,
  sort: CustomerSort,
  order: SortOrder,
  from: Position | null,
  n: number,
  q: string,
): Promise<ListRow[]> {
  if (databaseEngine() === "postgres") return readCustomersInOrderPg(postgres(), userId, sort, order, from, n, q);
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
}

/** The places (rowids; ids on PostgreSQL) of the first `limit` matches of a search, in no particular order. */
export async function findSearchMatches(userId: string, q: string, limit: number): Promise<RowKey[]> {
  if (databaseEngine() === "postgres") return findSearchMatchesPg(postgres(), userId, q, limit);
  const match = customerMatchSql(userId, q, null, false);
  return readStatement<number>(`SELECT r FROM (${match.sql}) LIMIT ${limit}`)
    .pluck()
    .all(...match.params);
}
