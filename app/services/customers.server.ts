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
import { ApiError, notFound } from "~/lib/api.server";
import { isId, newId } from "~/lib/id";
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT } from "~/lib/list-limits";
import { paiseToRupees, rupeesToPaise } from "~/lib/money";
import {
  CUSTOMER_SORTS,
  DEFAULT_SORT,
  defaultOrder,
  SORT_ORDERS,
  type CustomerSort,
  type SortOrder,
} from "~/lib/customers";
import {
  DuplicateCustomerEmail,
  SORT_KEYS,
  type CustomerFields,
  type CustomerRow,
  type KeyValue,
  type ListRow,
  type Position,
  type RowKey,
} from "~/models/customers/rows";
import { customers } from "~/models/customers/store.server";
import { transaction, type Tx } from "~/models/transaction/store.server";
import { CUSTOMER_MESSAGES, type CustomerApiInput } from "~/schemas/customer";
import { recordNewCustomers } from "~/services/customer-events.server";
import {
  checkFieldValues,
  fieldCatalog,
  readCustomerFieldValues,
  writeCustomerFieldValues,
} from "~/services/custom-fields.server";
import { type CustomerContactDto, toRecentOrder, type RecentOrder } from "~/services/orders.server";
import { segmentsMatchingCustomer } from "~/services/segments.server";
import { checkTagList, customerTags, replaceCustomerTags } from "~/services/tags.server";
import type { FieldValueWrites } from "~/models/custom-fields/rows";
import type { FieldValues } from "~/lib/custom-fields";
import { CONSENT_BY_HAND_SOURCE, type ConsentDto, type ConsentStatus } from "~/lib/consent";
import { suppressions } from "~/models/suppressions/store.server";
import { consentOf, recordConsent, suppressWithdrawn } from "~/services/consent.server";
import { enterOnEvents } from "~/services/flows/flow-entry.server";
import { OWN_EVENTS, type OwnEvent, recordOwnEvent } from "~/services/own-events.server";

// Tests, the seed and the bench still reach these here.

/** A search counts its matches up to this many; beyond it the screen says "1,000+". */
export const SEARCH_COUNT_CAP = 1000;
export const MAX_QUERY_LENGTH = 100;

export type CustomerSegmentRef = { _id: string; id: string; name: string };

export type CustomerDto = CustomerContactDto & {
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

/** One customer as /api reads and writes it: the record, its field values by name, its tags and its consent. */
export type CustomerRecordDto = CustomerDto & { fields: FieldValues; tags: string[]; consent: ConsentDto };

export type CustomerDetailDto = CustomerRecordDto & { segments: CustomerSegmentRef[]; orders: RecentOrder[] };

// Written out, not spread from toCustomerContact(): an object built by spreading takes
// JSON.stringify's slow path, about 7 µs a row, 0.7 ms on a page of 100 (the customers list's
// figures in npm run bench fell to 0.62× with the spread).
function toCustomerDto(c: CustomerRow): CustomerDto {
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
    lastActive: c.lastActive === null ? null : new Date(c.lastActive).toISOString(),
    createdAt: new Date(c.createdAt).toISOString(),
    updatedAt: new Date(c.updatedAt).toISOString(),
  };
}

function duplicateEmail(): ApiError {
  return new ApiError("conflict", CUSTOMER_MESSAGES.duplicateEmail, { email: CUSTOMER_MESSAGES.duplicateEmail });
}

/** The fields a create or an update writes: the personal ones, and the starting values given. */
function customerFields(input: CustomerApiInput): CustomerFields {
  return {
    firstName: input.firstName,
    lastName: input.lastName,
    email: input.email,
    phone: input.phone,
    address: input.address,
    company: input.company,
    notes: input.notes,
    ...(input.totalSpend !== undefined ? { totalSpendPaise: rupeesToPaise(input.totalSpend) } : {}),
    ...(input.visits !== undefined ? { visits: input.visits } : {}),
    ...(input.lastActive !== undefined ? { lastActive: input.lastActive } : {}),
  };
}

/**
 * The field values and tags a create or an update writes, checked before its transaction starts:
 * `undefined` where the input leaves them out (they stay as they are). A create writes the
 * defaults of the fields it leaves out.
 */
async function checkedExtras(
  userId: string,
  input: CustomerApiInput,
  creating: boolean,
): Promise<{ fields?: FieldValueWrites; tags?: string[] }> {
  const tags = input.tags === undefined ? undefined : checkTagList(input.tags);
  if (input.fields === undefined && !creating) return { tags };
  const catalog = await fieldCatalog(userId);
  return { fields: checkFieldValues(input.fields ?? {}, catalog, creating), tags };
}

/**
 * Writes checked field values, tags and consent of one customer in the caller's transaction.
 * Returns whether the customer's address must be suppressed once it commits (consent withdrawn).
 */
async function writeExtras(
  userId: string,
  id: string,
  input: CustomerApiInput,
  extras: { fields?: FieldValueWrites; tags?: string[] },
  tx: Tx,
): Promise<boolean> {
  if (extras.fields) await writeCustomerFieldValues(userId, id, extras.fields, tx);
  if (extras.tags) await replaceCustomerTags(userId, id, extras.tags, tx);
  return input.consent ? recordConsent(userId, id, input.consent, tx) : false;
}

/** The customer as /api gives one: the record with its field values, tags and consent. */
async function withExtras(userId: string, row: CustomerRow): Promise<CustomerRecordDto> {
  const [fields, tags, consent] = await Promise.all([
    readCustomerFieldValues(userId, row.id),
    customerTags(userId, row.id),
    consentOf(userId, row.id, row.email),
  ]);
  return { ...toCustomerDto(row), fields, tags, consent };
}

/**
 * Writes one customer in a transaction: their record (`writeRow`, which may refuse), then their
 * checked field values, tags and consent. An e-mail another customer has is a 409; an address
 * whose consent this withdrew is suppressed once it commits.
 */
async function writeCustomer(
  userId: string,
  id: string,
  input: CustomerApiInput,
  creating: boolean,
  writeRow: (tx: Tx) => Promise<CustomerRow>,
): Promise<CustomerRow> {
  const extras = await checkedExtras(userId, input, creating);
  let written: CustomerRow;
  let withdrawn = false;
  try {
    written = await transaction(async (tx) => {
      const row = await writeRow(tx);
      withdrawn = await writeExtras(userId, id, input, extras, tx);
      return row;
    });
  } catch (error) {
    if (error instanceof DuplicateCustomerEmail) throw duplicateEmail();
    throw error;
  }
  if (withdrawn) await suppressWithdrawn(userId, [written.email]);
  return written;
}

export async function createCustomer(userId: string, input: CustomerApiInput): Promise<CustomerRecordDto> {
  const id = newId();
  // The new customer is searchable and counted in the same transaction that adds them, with
  // their field values and tags.
  let joined: OwnEvent | undefined;
  const created = await writeCustomer(userId, id, input, true, async (tx) => {
    const row = await customers.insertCustomer(id, userId, customerFields(input), tx);
    await customers.indexCustomerForSearch(id, tx);
    await customers.addToCustomerTally(userId, 1, tx);
    joined = await recordOwnEvent(tx, userId, {
      name: OWN_EVENTS.customerCreated,
      key: `customer:${id}`,
      customerId: id,
      // The event names the customer; their details are on the customer.
      properties: {},
    });
    return row;
  });
  if (joined) await enterOnEvents(userId, [joined]);
  await recordNewCustomers(userId, 1);
  return withExtras(userId, created);
}

/**
 * Replaces a customer's record. `fields` changes only the fields it names and `tags` replaces the
 * tags; left out, they stay as they are (a client that knows nothing of them loses nothing).
 */
export async function updateCustomer(userId: string, id: string, input: CustomerApiInput): Promise<CustomerRecordDto> {
  if (!isId(id)) throw notFound("Customer");
  const updated = await writeCustomer(userId, id, input, false, async (tx) => {
    if (!(await customers.customerBelongsToUser(userId, id, tx))) throw notFound("Customer");
    return customers.updateCustomerRow(id, customerFields(input), tx);
  });
  return withExtras(userId, updated);
}

/**
 * Records a customer's consent by hand (the customer page): `status`, dated now, from
 * CONSENT_BY_HAND_SOURCE, with the text agreed to; "unsubscribed" suppresses the address, as
 * through /api. Returns the customer's address, whether it is on the suppression list now, and the
 * consent as it reads now.
 */
export async function setCustomerConsent(
  userId: string,
  id: string,
  input: { status: ConsentStatus; text?: string },
): Promise<{ email: string; suppressed: boolean; consent: ConsentDto }> {
  if (!isId(id)) throw notFound("Customer");
  const row = await customers.findCustomerForUser(userId, id);
  if (!row) throw notFound("Customer");
  const withdrawn = await transaction(async (tx) => {
    if (!(await customers.customerBelongsToUser(userId, id, tx))) throw notFound("Customer");
    return recordConsent(userId, id, { status: input.status, source: CONSENT_BY_HAND_SOURCE, text: input.text }, tx);
  });
  if (withdrawn) await suppressWithdrawn(userId, [row.email]);
  const [consent, suppression] = await Promise.all([
    consentOf(userId, id, row.email),
    suppressions.findSuppression(userId, row.email),
  ]);
  return { email: row.email, suppressed: suppression !== null, consent };
}

/** Deletes the customer and their orders (and the orders' items) in one transaction. */
export async function deleteCustomer(userId: string, id: string): Promise<{ ordersDeleted: number }> {
  if (!isId(id)) throw notFound("Customer");
  return transaction(async (tx) => {
    if (!(await customers.customerBelongsToUser(userId, id, tx))) throw notFound("Customer");
    const ordersDeleted = await customers.deleteOrdersOfCustomer(userId, id, tx);
    if (!(await customers.deleteCustomerRow(userId, id, tx))) throw notFound("Customer");
    return { ordersDeleted };
  });
}

// The reads below are on every customer request (detail, list, screen): the model answers them
// with prepared statements on the read connection instead of Prisma queries (measured, this took
// GET /api/customers/{id} from five Prisma queries to none).
export async function getCustomer(userId: string, id: string): Promise<CustomerRecordDto> {
  if (!isId(id)) throw notFound("Customer");
  const row = await customers.findCustomerForUser(userId, id);
  if (!row) throw notFound("Customer");
  return withExtras(userId, row);
}

/** How many orders the customer has (the delete dialog says they go too). */
export async function customerOrderCount(userId: string, id: string): Promise<number> {
  if (!isId(id)) return 0;
  return customers.countOrdersOfCustomer(userId, id);
}

/** The customer detail (docs/rules.md#customer-detail): the customer with their segments and recent orders. */
export async function customerDetail(userId: string, id: string, recentOrders = 10): Promise<CustomerDetailDto> {
  if (!isId(id)) throw notFound("Customer");
  const rows = await customers.findCustomerDetail(userId, id, recentOrders);
  if (!rows) throw notFound("Customer");
  const [segments, record] = await Promise.all([
    segmentsMatchingCustomer(userId, id, rows.segments),
    withExtras(userId, rows.customer),
  ]);
  return {
    ...record,
    segments: segments.map((s) => ({ _id: s.id, id: s.id, name: s.name })),
    orders: rows.orders.map(toRecentOrder),
  };
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

// Every sort is a key of one or more columns and then the rowid, the order of a tenant-first index
// (app/models/customers/ walks it; docs/decisions/0014-customer-sorting.md). A cursor
// holds a row's place in its sort: the key values and the rowid (on PostgreSQL the row's id).

const reverse = (order: SortOrder): SortOrder => (order === "asc" ? "desc" : "asc");

function badCursor(): ApiError {
  return new ApiError("bad_request", "cursor is not valid: pass the X-Next-Cursor of the previous page", {
    cursor: "Invalid cursor",
  });
}

const SAFE_INTEGER = z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
/** A row's place: a rowid, or on PostgreSQL an id (the model says which the engine takes). */
const ROW_KEY = z.custom<RowKey>((value) => customers.isRowKey(value));

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
    const r = /^\d{1,15}$/.test(cursor) ? Number(cursor) : cursor;
    if (!customers.isRowKey(r)) throw badCursor();
    return { keys: [], r };
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
    ...SORT_KEYS[sort].map((k) =>
      k.type === "text" ? z.string().max(1000) : k.nullable ? SAFE_INTEGER.nullable() : SAFE_INTEGER,
    ),
    ROW_KEY,
  ];
  if (!Array.isArray(decoded) || decoded.length !== schemas.length) throw badCursor();
  const values = schemas.map((schema, i) => {
    const parsed = schema.safeParse(decoded[i]);
    if (!parsed.success) throw badCursor();
    return parsed.data;
  });
  return { keys: values.slice(0, -1), r: values[values.length - 1] as RowKey };
}

function positionOf(sort: CustomerSort, row: ListRow): Position {
  return { keys: SORT_KEYS[sort].map((_, i) => row[`k${i}`] ?? null), r: row.r };
}

/** Up to `n` rows after `from` in `order`: of the tenant, or of a search (its matches, when all were counted). */
function readRows(
  userId: string,
  sort: CustomerSort,
  q: string,
  matches: RowKey[] | null,
  order: SortOrder,
  from: Position | null,
  n: number,
): Promise<ListRow[]> {
  if (matches && matches.length <= SEARCH_COUNT_CAP)
    return customers.readMatchedCustomers(userId, sort, order, from, n, matches);
  return customers.readCustomersInOrder(userId, sort, order, from, n, q);
}

export async function listCustomers(userId: string, options: ListCustomersOptions = {}): Promise<CustomerPage> {
  const q = normaliseQuery(options.q);
  const limit = Math.min(Math.max(1, Math.trunc(options.limit ?? DEFAULT_LIST_LIMIT)), MAX_LIST_LIMIT);
  const sort = options.sort ?? DEFAULT_SORT;
  const order = options.order ?? defaultOrder(sort);
  const after = parseCursor(sort, options.cursor);
  const before = after ? null : parseCursor(sort, options.before);
  const last = !after && !before && options.last === true;
  const matches = q ? await searchMatches(userId, q) : null;
  const read = (o: SortOrder, from: Position | null, n: number) => readRows(userId, sort, q, matches, o, from, n);
  const cursorOf = (row: ListRow | undefined) => (row ? encodeCursor(sort, positionOf(sort, row)) : null);

  let rows: ListRow[];
  let nextCursor: string | null;
  let prevCursor: string | null;
  const backwards = before || last ? await read(reverse(order), before, limit + 1) : null;
  if (backwards && (last || backwards.length > limit)) {
    rows = backwards.slice(0, limit).reverse();
    prevCursor = backwards.length > limit ? cursorOf(rows[0]) : null;
    nextCursor = last ? null : cursorOf(rows[rows.length - 1]);
  } else {
    // Forwards; or backwards that reached the start, which is the first page, shown full.
    const from = backwards ? null : after;
    const forwards = await read(order, from, limit + 1);
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
    customers: rows.map(toCustomerDto),
    total: count.total,
    totalCapped: count.capped,
    nextCursor,
    prevCursor,
    sort,
    order,
    at: !prevCursor && !nextCursor ? "only" : !prevCursor ? "first" : !nextCursor ? "last" : null,
  };
}

/** The tenant's customer count (exact, one row read), or a search's match count (capped). */
export async function countCustomers(userId: string, q = ""): Promise<{ total: number; capped: boolean }> {
  if (!q) {
    const tally = await customers.readCustomerTally(userId);
    if (tally !== null) return { total: Math.max(0, tally), capped: false };
    // No tally yet (customers written before it existed, or by another tool): count once, keep it.
    return { total: await customers.recountCustomerTally(userId), capped: false };
  }
  const n = (await searchMatches(userId, q)).length;
  return { total: Math.min(n, SEARCH_COUNT_CAP), capped: n > SEARCH_COUNT_CAP };
}

/** The places of the first SEARCH_COUNT_CAP + 1 matches of a search, in no particular order. */
function searchMatches(userId: string, q: string): Promise<RowKey[]> {
  return customers.findSearchMatches(userId, q, SEARCH_COUNT_CAP + 1);
}
