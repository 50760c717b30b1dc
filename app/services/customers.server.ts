// Customers: create, update, delete, read, and the paged list with search on name or e-mail.
// Every function takes the tenant id first and puts it in every query; another tenant's customer
// is "not found". The order totals (totalSpend, visits, lastActive) are kept by the orders
// service; here they only take starting values (API and import).
//
// The list is built for a million customers a tenant: it sorts by name, total spend, visits, last
// active or date added (rowid), either way, each a walk of a tenant-first index from a keyset
// cursor (docs/decisions/0014-customer-sorting.md), reads its exact total from CustomerTally
// (added to by the services that insert, taken from by a delete trigger), and searches through
// the trigram index customer_search (migrations customer_search, customer_search_by_tenant) inside
// the tenant's own rowid range of it, its match count capped at SEARCH_COUNT_CAP so a common term
// never counts a million rows.
import { z } from "zod";
import { db } from "~/db.server";
import { readStatement } from "~/db/reader.server";
import type { Customer } from "~/generated/prisma/client";
import { Prisma } from "~/generated/prisma/client";
import { ApiError, notFound } from "~/lib/api.server";
import { isId, newId } from "~/lib/id";
import { paiseToRupees, rupeesToPaise } from "~/lib/money";
import {
  CUSTOMER_SORTS,
  DEFAULT_SORT,
  defaultOrder,
  SORT_ORDERS,
  type CustomerSort,
  type SortOrder,
} from "~/lib/customers";
import { CUSTOMER_MESSAGES, type CustomerApiInput } from "~/schemas/customer";
import { recordNewCustomers } from "~/services/customer-events.server";
import { recentOrdersForCustomer, type RecentOrder } from "~/services/orders.server";
import { segmentsForCustomer } from "~/services/segments.server";
import { customerSearchSql, ftsPhrase, INDEX_CUSTOMER_SQL } from "~/services/customer-search.server";

// Tests and routes index the customers they make the way createCustomer does.
export { INDEX_CUSTOMER_SQL };

export const DEFAULT_LIST_LIMIT = 100;
export const MAX_LIST_LIMIT = 1000;
/** A search counts its matches up to this many; beyond it the screen says "1,000+". */
export const SEARCH_COUNT_CAP = 1000;
export const MAX_QUERY_LENGTH = 100;

export type CustomerSegmentRef = { _id: string; id: string; name: string };

export type CustomerDto = {
  _id: string;
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  address: string;
  company: string;
  notes: string;
  /** Rupees. */
  totalSpend: number;
  visits: number;
  lastActive: string | null;
  createdAt: string;
  updatedAt: string;
};

export type CustomerDetailDto = CustomerDto & { segments: CustomerSegmentRef[]; orders: RecentOrder[] };

export function toCustomerDto(c: Customer): CustomerDto {
  return {
    _id: c.id,
    id: c.id,
    firstName: c.firstName,
    lastName: c.lastName,
    email: c.email,
    phone: c.phone,
    address: c.address,
    company: c.company,
    notes: c.notes,
    totalSpend: paiseToRupees(c.totalSpendPaise),
    visits: c.visits,
    lastActive: c.lastActive ? c.lastActive.toISOString() : null,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

function duplicateEmail(): ApiError {
  return new ApiError("conflict", CUSTOMER_MESSAGES.duplicateEmail, { email: CUSTOMER_MESSAGES.duplicateEmail });
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

function startingValues(input: Partial<CustomerApiInput>) {
  return {
    ...(input.totalSpend !== undefined ? { totalSpendPaise: rupeesToPaise(input.totalSpend) } : {}),
    ...(input.visits !== undefined ? { visits: input.visits } : {}),
    ...(input.lastActive !== undefined ? { lastActive: input.lastActive } : {}),
  };
}

function personalFields(input: CustomerApiInput) {
  return {
    firstName: input.firstName,
    lastName: input.lastName,
    email: input.email,
    phone: input.phone,
    address: input.address,
    company: input.company,
    notes: input.notes,
  };
}

/** Adds n to the tenant's customer count (every path that inserts customers runs it). */
export const ADD_TO_TALLY_SQL = `INSERT INTO "CustomerTally" ("userId", "customers") VALUES (?, ?)
  ON CONFLICT ("userId") DO UPDATE SET "customers" = "customers" + excluded."customers"`;

export async function createCustomer(userId: string, input: CustomerApiInput): Promise<CustomerDto> {
  const id = newId();
  let created: Customer;
  try {
    created = await db().$transaction(async (tx) => {
      const row = await tx.customer.create({
        data: { id, userId, ...personalFields(input), ...startingValues(input) },
      });
      await tx.$executeRawUnsafe(INDEX_CUSTOMER_SQL, id);
      await tx.$executeRawUnsafe(ADD_TO_TALLY_SQL, userId, 1);
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateEmail();
    throw error;
  }
  await recordNewCustomers(userId, 1);
  return toCustomerDto(created);
}

export async function updateCustomer(userId: string, id: string, input: CustomerApiInput): Promise<CustomerDto> {
  if (!isId(id)) throw notFound("Customer");
  try {
    return await db().$transaction(async (tx) => {
      const existing = await tx.customer.findFirst({ where: { id, userId }, select: { id: true } });
      if (!existing) throw notFound("Customer");
      const row = await tx.customer.update({
        where: { id },
        data: { ...personalFields(input), ...startingValues(input) },
      });
      return toCustomerDto(row);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateEmail();
    throw error;
  }
}

/** Deletes the customer and their orders (and the orders' items) in one transaction. */
export async function deleteCustomer(userId: string, id: string): Promise<{ ordersDeleted: number }> {
  if (!isId(id)) throw notFound("Customer");
  return db().$transaction(async (tx) => {
    const existing = await tx.customer.findFirst({ where: { id, userId }, select: { id: true } });
    if (!existing) throw notFound("Customer");
    const orders = await tx.order.deleteMany({ where: { userId, customerId: id } });
    await tx.customer.delete({ where: { id } });
    return { ordersDeleted: orders.count };
  });
}

/** The Customer columns as the read connection returns them (DateTimes as unixepoch-ms). */
const CUSTOMER_COLUMNS = `c."id", c."userId", c."firstName", c."lastName", c."email", c."phone", c."address", c."company", c."notes",
  c."totalSpendPaise", c."visits", c."lastActive", c."createdAt", c."updatedAt"`;
type CustomerRow = Omit<Customer, "lastActive" | "createdAt" | "updatedAt"> & {
  lastActive: number | null;
  createdAt: number;
  updatedAt: number;
};

function rowToDto(c: CustomerRow): CustomerDto {
  return toCustomerDto({
    ...c,
    lastActive: c.lastActive === null ? null : new Date(c.lastActive),
    createdAt: new Date(c.createdAt),
    updatedAt: new Date(c.updatedAt),
  });
}

// The reads below are on every customer request (detail, list, screen), so they are prepared
// statements on the read connection (~/db/reader.server) instead of Prisma queries: measured, this
// took GET /api/customers/{id} from five Prisma queries to none.
export async function getCustomer(userId: string, id: string): Promise<CustomerDto> {
  if (!isId(id)) throw notFound("Customer");
  const row = readStatement(`SELECT ${CUSTOMER_COLUMNS} FROM "Customer" c WHERE c."userId" = ? AND c."id" = ?`).get(
    userId,
    id,
  ) as CustomerRow | undefined;
  if (!row) throw notFound("Customer");
  return rowToDto(row);
}

/** How many orders the customer has (the delete dialog says they go too). */
export async function customerOrderCount(userId: string, id: string): Promise<number> {
  if (!isId(id)) return 0;
  return db().order.count({ where: { userId, customerId: id } });
}

/** The segments the customer belongs to, as the segments service evaluates them. */
async function segmentsOf(userId: string, customerId: string): Promise<CustomerSegmentRef[]> {
  const segments = await segmentsForCustomer(userId, customerId);
  return segments.map((s) => ({ _id: s.id, id: s.id, name: s.name }));
}

/** The customer detail (docs/rules.md#customer-detail): the customer with their segments and recent orders. */
export async function customerDetail(userId: string, id: string, recentOrders = 10): Promise<CustomerDetailDto> {
  const customer = await getCustomer(userId, id);
  const [orders, segments] = await Promise.all([
    recentOrdersForCustomer(userId, id, recentOrders),
    segmentsOf(userId, id),
  ]);
  return { ...customer, segments, orders };
}

// ---------------------------------------------------------------------------------------------
// The list

// The sorts and their default orders are shared with the screen (~/lib/customers).
export { CUSTOMER_SORTS, DEFAULT_SORT, defaultOrder, SORT_ORDERS, type CustomerSort, type SortOrder };

export type ListCustomersOptions = {
  q?: string;
  limit?: number;
  sort?: CustomerSort;
  /** Defaults to defaultOrder(sort). */
  order?: SortOrder;
  /** The page after this position (a page's nextCursor). */
  cursor?: string | null;
  /** The page before this position (a page's prevCursor). */
  before?: string | null;
  /** The last page: the reversed order's first page, shown in this order. */
  last?: boolean;
};

export type CustomerPage = {
  customers: CustomerDto[];
  /** Exact without a search; with one, exact up to SEARCH_COUNT_CAP (then `totalCapped`). */
  total: number;
  totalCapped: boolean;
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
  /** Pass as `before` for the previous page; null on the first page. */
  prevCursor: string | null;
  sort: CustomerSort;
  order: SortOrder;
  /** Which end of the list this page is at, when it is known to be at one. */
  at: "first" | "last" | "only" | null;
};

/** Normalises a search term: trimmed, inner whitespace collapsed, at most MAX_QUERY_LENGTH. */
export function normaliseQuery(q: string | null | undefined): string {
  return (q ?? "").trim().replace(/\s+/g, " ").slice(0, MAX_QUERY_LENGTH);
}

// Every sort is a key of one or more columns and then the rowid (unique, so equal keys still have
// one order and a cursor one place), all in the same direction, which is exactly the order of a
// tenant-first index: a page is a walk of that index from the cursor's place, and the reversed
// order (Previous, the last page) is the same walk backwards. Spend, visits and last active use
// the segment indexes (docs/decisions/0004-segment-compiler.md), so their ties are broken by the
// other two figures; the name has its own index (migration customer_sort_by_name); the date added
// is the rowid, the order customers were added in. See docs/decisions/0014-customer-sorting.md.
type SortKey = { sql: string; type: "integer" | "text"; nullable: boolean };
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

type KeyValue = string | number | null;
/** A place in a sort: a row's key values and its rowid. */
type Position = { keys: KeyValue[]; r: number };

const reverse = (order: SortOrder): SortOrder => (order === "asc" ? "desc" : "asc");

function badCursor(): ApiError {
  return new ApiError("bad_request", "cursor is not valid: pass the X-Next-Cursor of the previous page", {
    cursor: "Invalid cursor",
  });
}

const SAFE_INTEGER = z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
const ROWID = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

/**
 * A cursor: the rowid alone for the date added (as before sorting existed), else
 * `<sort>.<base64url of the JSON [keys..., rowid]>`. A cursor of another sort is refused.
 */
export function encodeCursor(sort: CustomerSort, position: Position): string {
  if (sort === "createdAt") return String(position.r);
  return `${sort}.${Buffer.from(JSON.stringify([...position.keys, position.r])).toString("base64url")}`;
}

export function parseCursor(sort: CustomerSort, cursor: string | null | undefined): Position | null {
  if (!cursor) return null;
  if (sort === "createdAt") {
    if (!/^\d{1,15}$/.test(cursor)) throw badCursor();
    return { keys: [], r: Number(cursor) };
  }
  const prefix = `${sort}.`;
  if (!cursor.startsWith(prefix) || cursor.length > 1000) throw badCursor();
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor.slice(prefix.length), "base64url").toString("utf8"));
  } catch {
    throw badCursor();
  }
  const schemas: z.ZodType<KeyValue>[] = [
    ...SORTS[sort].keys.map((k) =>
      k.type === "text" ? z.string().max(1000) : k.nullable ? SAFE_INTEGER.nullable() : SAFE_INTEGER,
    ),
    ROWID,
  ];
  if (!Array.isArray(decoded) || decoded.length !== schemas.length) throw badCursor();
  const values = schemas.map((schema, i) => {
    const parsed = schema.safeParse(decoded[i]);
    if (!parsed.success) throw badCursor();
    return parsed.data;
  });
  return { keys: values.slice(0, -1), r: values[values.length - 1] as number };
}

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

type ListRow = CustomerRow & { r: number } & Record<`k${number}`, KeyValue>;

function positionOf(spec: SortSpec, row: ListRow): Position {
  return { keys: spec.keys.map((_, i) => row[`k${i}`] ?? null), r: row.r };
}

/** A search's condition checked row by row (ASCII case-insensitive), as short terms are searched. */
const ROW_MATCH_SQL = `(instr(lower(c."firstName" || ' ' || c."lastName"), ?) > 0 OR instr(lower(c."email"), ?) > 0)`;

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
    const st = readStatement(
      `SELECT c.rowid AS r${keyColumns(spec)}, ${CUSTOMER_COLUMNS} FROM "Customer" c INDEXED BY "${spec.index}"
       WHERE c."userId" = ?${piece.where ? ` AND ${piece.where}` : ""}${filter}
       ORDER BY ${orderBy(spec, order, piece.equal)} LIMIT ?`,
    );
    rows.push(...(st.all(userId, ...piece.params, ...filterParams, n - rows.length) as ListRow[]));
    if (rows.length >= n) break;
  }
  return rows;
}

/** Up to `n` of the matched rows (`rowids`, the tenant's) after `from` in `order`, sorted in SQL. */
function sortMatches(
  userId: string,
  spec: SortSpec,
  order: SortOrder,
  from: Position | null,
  n: number,
  rowids: number[],
): ListRow[] {
  const pieces = from ? piecesAfter(spec, order, from) : [];
  const where = pieces.length ? ` AND (${pieces.map((p) => `(${p.where})`).join(" OR ")})` : "";
  // The matches drive the join (CROSS JOIN keeps them outermost): a sort index would walk the tenant.
  return readStatement(
    `SELECT c.rowid AS r${keyColumns(spec)}, ${CUSTOMER_COLUMNS} FROM json_each(?) m CROSS JOIN "Customer" c
     ON c.rowid = m.value WHERE c."userId" = ?${where} ORDER BY ${orderBy(spec, order)} LIMIT ?`,
  ).all(JSON.stringify(rowids), userId, ...pieces.flatMap((p) => p.params), n) as ListRow[];
}

/** Up to `n` rows after `from` in `order`: of the tenant, or of a search (its matches, when all were counted). */
function readRows(
  userId: string,
  spec: SortSpec,
  q: string,
  matches: number[] | null,
  order: SortOrder,
  from: Position | null,
  n: number,
): ListRow[] {
  if (matches && matches.length <= SEARCH_COUNT_CAP) return sortMatches(userId, spec, order, from, n, matches);
  if (q && spec.keys.length === 0 && order === "desc" && [...q].length >= 3) {
    // Newest first through the trigram index, in its own rowid order: a common term's page costs
    // the same as a rare one's.
    const match = customerMatchSql(userId, q, from?.r ?? null);
    return readStatement(
      `WITH m AS (${match.sql} LIMIT ?)
       SELECT m.r AS r, ${CUSTOMER_COLUMNS} FROM m JOIN "Customer" c ON c.rowid = m.r ORDER BY m.r DESC`,
    ).all(...match.params, n) as ListRow[];
  }
  return walkIndex(userId, spec, order, from, n, q);
}

export async function listCustomers(userId: string, options: ListCustomersOptions = {}): Promise<CustomerPage> {
  const q = normaliseQuery(options.q);
  const limit = Math.min(Math.max(1, Math.trunc(options.limit ?? DEFAULT_LIST_LIMIT)), MAX_LIST_LIMIT);
  const sort = options.sort ?? DEFAULT_SORT;
  const order = options.order ?? defaultOrder(sort);
  const spec = SORTS[sort];
  const after = parseCursor(sort, options.cursor);
  const before = after ? null : parseCursor(sort, options.before);
  const last = !after && !before && options.last === true;
  const matches = q ? searchMatches(userId, q) : null;
  const read = (o: SortOrder, from: Position | null, n: number) => readRows(userId, spec, q, matches, o, from, n);
  const cursorOf = (row: ListRow | undefined) => (row ? encodeCursor(sort, positionOf(spec, row)) : null);

  let rows: ListRow[];
  let nextCursor: string | null;
  let prevCursor: string | null;
  const backwards = before || last ? read(reverse(order), before, limit + 1) : null;
  if (backwards && (last || backwards.length > limit)) {
    rows = backwards.slice(0, limit).reverse();
    prevCursor = backwards.length > limit ? cursorOf(rows[0]) : null;
    nextCursor = last ? null : cursorOf(rows[rows.length - 1]);
  } else {
    // Forwards; or backwards that reached the start, which is the first page, shown full.
    const from = backwards ? null : after;
    const forwards = read(order, from, limit + 1);
    rows = forwards.slice(0, limit);
    if (from && rows.length === 0) {
      // Past the end (the rows after the cursor were deleted): the last page.
      return listCustomers(userId, { ...options, sort, order, cursor: null, before: null, last: true });
    }
    nextCursor = forwards.length > limit ? cursorOf(rows[rows.length - 1]) : null;
    prevCursor = from ? cursorOf(rows[0]) : null;
  }
  const count =
    matches === null
      ? await countCustomers(userId)
      : matches.length <= SEARCH_COUNT_CAP
        ? { total: matches.length, capped: false }
        : { total: SEARCH_COUNT_CAP, capped: true };
  return {
    customers: rows.map(rowToDto),
    total: count.total,
    totalCapped: count.capped,
    nextCursor,
    prevCursor,
    sort,
    order,
    at: !prevCursor && !nextCursor ? "only" : !prevCursor ? "first" : !nextCursor ? "last" : null,
  };
}

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
      AND (instr(lower(c."firstName" || ' ' || c."lastName"), ?) > 0 OR instr(lower(c."email"), ?) > 0)${order("c.rowid")}`,
    params: [userId, ...cursorParams, needle, needle],
  };
}

/** The tenant's customer count (exact, one row read), or a search's match count (capped). */
export async function countCustomers(userId: string, q = ""): Promise<{ total: number; capped: boolean }> {
  const client = db();
  if (!q) {
    const tally = readStatement(`SELECT "customers" FROM "CustomerTally" WHERE "userId" = ?`).get(userId) as
      { customers: number } | undefined;
    if (tally) return { total: Math.max(0, tally.customers), capped: false };
    // No tally yet (customers written before it existed, or by another tool): count once, keep it.
    const n = await client.customer.count({ where: { userId } });
    await client.$executeRawUnsafe(
      `INSERT INTO "CustomerTally" ("userId", "customers") VALUES (?, ?) ON CONFLICT ("userId") DO UPDATE SET "customers" = excluded."customers"`,
      userId,
      n,
    );
    return { total: n, capped: false };
  }
  const n = searchMatches(userId, q).length;
  return { total: Math.min(n, SEARCH_COUNT_CAP), capped: n > SEARCH_COUNT_CAP };
}

/** The rowids of the first SEARCH_COUNT_CAP + 1 matches of a search, in no particular order. */
function searchMatches(userId: string, q: string): number[] {
  const match = customerMatchSql(userId, q, null, false);
  return readStatement(`SELECT r FROM (${match.sql}) LIMIT ${SEARCH_COUNT_CAP + 1}`)
    .pluck()
    .all(...match.params) as number[];
}
