// Customers: create, update, delete, read, and the paged list with search on name or e-mail.
// Every function takes the tenant id first and puts it in every query; another tenant's customer
// is "not found". The order totals (totalSpend, visits, lastActive) are kept by the orders
// service; here they only take starting values (API and import).
//
// The list is built for a million customers a tenant: it pages by rowid (newest added first) on
// the (userId) index with a keyset cursor, reads its exact total from CustomerTally (added to
// by the services that insert, taken from by a delete trigger), and searches through the trigram
// index customer_search (migrations customer_search, customer_search_by_tenant) inside the
// tenant's own rowid range of it, its match count capped at SEARCH_COUNT_CAP so a common term
// never counts a million rows.
import { db } from "~/db.server";
import { readStatement } from "~/db/reader.server";
import type { Customer } from "~/generated/prisma/client";
import { Prisma } from "~/generated/prisma/client";
import { ApiError, notFound } from "~/lib/api.server";
import { isId, newId } from "~/lib/id";
import { paiseToRupees, rupeesToPaise } from "~/lib/money";
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

export type ListCustomersOptions = { q?: string; limit?: number; cursor?: string | null };

export type CustomerPage = {
  customers: CustomerDto[];
  /** Exact without a search; with one, exact up to SEARCH_COUNT_CAP (then `totalCapped`). */
  total: number;
  totalCapped: boolean;
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
};

/** Normalises a search term: trimmed, inner whitespace collapsed, at most MAX_QUERY_LENGTH. */
export function normaliseQuery(q: string | null | undefined): string {
  return (q ?? "").trim().replace(/\s+/g, " ").slice(0, MAX_QUERY_LENGTH);
}

/** A cursor is the rowid of the last customer of the previous page. */
export function parseCursor(cursor: string | null | undefined): number | null {
  if (!cursor) return null;
  if (!/^\d{1,15}$/.test(cursor))
    throw new ApiError("bad_request", "cursor is not valid: pass the X-Next-Cursor of the previous page", {
      cursor: "Invalid cursor",
    });
  return Number(cursor);
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

export async function listCustomers(userId: string, options: ListCustomersOptions = {}): Promise<CustomerPage> {
  const q = normaliseQuery(options.q);
  const limit = Math.min(Math.max(1, Math.trunc(options.limit ?? DEFAULT_LIST_LIMIT)), MAX_LIST_LIMIT);
  const after = parseCursor(options.cursor);
  let rows: (CustomerRow & { r: number })[];
  let count: { total: number; capped: boolean };
  const matches = q ? searchMatches(userId, q) : null;
  if (matches && matches.length <= SEARCH_COUNT_CAP) {
    // The count found every match: the page is cut from them instead of searching a second time
    // (a rare term's trigram lookup is the whole cost of the request).
    count = { total: matches.length, capped: false };
    const rowids = matches
      .filter((r) => after === null || r < after)
      .sort((a, b) => b - a)
      .slice(0, limit + 1);
    const byRowid = readStatement(`SELECT c.rowid AS r, ${CUSTOMER_COLUMNS} FROM "Customer" c WHERE c.rowid = ?`);
    rows = rowids.flatMap((r) => (byRowid.get(r) as (CustomerRow & { r: number }) | undefined) ?? []);
  } else {
    const match = customerMatchSql(userId, q, after);
    // One statement reads the page's rows (the match, then each row by rowid); the limit is bound.
    rows = readStatement(
      `WITH m AS (${match.sql} LIMIT ?)
       SELECT m.r AS r, ${CUSTOMER_COLUMNS} FROM m JOIN "Customer" c ON c.rowid = m.r ORDER BY m.r DESC`,
    ).all(...match.params, limit + 1) as (CustomerRow & { r: number })[];
    count = matches ? { total: SEARCH_COUNT_CAP, capped: true } : await countCustomers(userId, q);
  }
  const pageRows = rows.slice(0, limit);
  const last = pageRows[pageRows.length - 1];
  return {
    customers: pageRows.map(rowToDto),
    total: count.total,
    totalCapped: count.capped,
    nextCursor: rows.length > limit && last ? String(last.r) : null,
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
