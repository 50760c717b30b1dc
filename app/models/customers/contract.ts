// What the customers domain offers, whichever engine answers (./sqlite.server.ts,
// ./postgres.server.ts; callers use the door, ./store.server.ts): the Customer row's writes (with
// the search index and the tenant's customer tally kept in step), the reads of the detail and of
// the list's pages, and the count of new customers behind the notifications. The CSV import's and
// export's queries are a domain of their own, ./csv/. The rules (validation, paging, cursors, DTOs,
// messages) are the services': app/services/customers.server.ts.
import type { CustomerSort, SortOrder } from "~/lib/customers";
import type { Tx } from "~/models/transaction/store.server";
import type { CustomerDetailRows, CustomerFields, CustomerRow, ListQuery, ListRow, Position, RowKey } from "./rows";

export type CustomersStore = {
  /** A new customer row; throws DuplicateCustomerEmail when the tenant has the e-mail already. */
  insertCustomer(id: string, userId: string, fields: CustomerFields, tx?: Tx): Promise<CustomerRow>;
  /**
   * Adds the customer to the search index (a customer inserted outside an import). PostgreSQL's
   * index is an index of "Customer" itself: the insert has added it already.
   */
  indexCustomerForSearch(id: string, tx?: Tx): Promise<void>;
  /** Adds n to the tenant's customer count. */
  addToCustomerTally(userId: string, n: number, tx?: Tx): Promise<void>;
  /** Whether the tenant has this customer. */
  customerBelongsToUser(userId: string, id: string, tx?: Tx): Promise<boolean>;
  /** Rewrites a customer; throws DuplicateCustomerEmail when another of the tenant's has the e-mail. */
  updateCustomerRow(id: string, fields: CustomerFields, tx?: Tx): Promise<CustomerRow>;
  /** Deletes the customer's orders (their items go with them); returns how many. */
  deleteOrdersOfCustomer(userId: string, customerId: string, tx?: Tx): Promise<number>;
  /**
   * Deletes the tenant's customer row (the tally's delete trigger takes it off the count). False
   * when it is not there (any more): on PostgreSQL a delete of the same customer at the same time
   * waits for this one and then finds nothing.
   */
  deleteCustomerRow(userId: string, id: string, tx?: Tx): Promise<boolean>;
  /** The tenant's customer, or undefined. */
  findCustomerForUser(userId: string, id: string): Promise<CustomerRow | undefined>;
  /**
   * The customer detail's reads (GET /api/customers/{id}, the customer screen) together: the
   * customer, up to `ordersLimit` (clamped to 1–100) newest orders, and the tenant's segments by
   * name. On PostgreSQL one prepared statement, one round trip instead of three (decision 0035).
   */
  findCustomerDetail(userId: string, id: string, ordersLimit: number): Promise<CustomerDetailRows | undefined>;
  /** How many orders the tenant's customer has. */
  countOrdersOfCustomer(userId: string, customerId: string): Promise<number>;
  /** The tenant's count in CustomerTally, or null when it has none yet. */
  readCustomerTally(userId: string): Promise<number | null>;
  /** Counts the tenant's customers and keeps the count as their tally; returns it. */
  recountCustomerTally(userId: string): Promise<number>;
  /** Adds n to the user's count of new customers since the last notice; returns the new count. */
  addToNewCustomerCount(userId: string, n: number): Promise<number>;
  /** Starts the user's count of new customers again from zero. */
  resetNewCustomerCount(userId: string): Promise<void>;

  // The list's pages (docs/decisions/0014-customer-sorting.md)

  /** Whether `value` (from a cursor) can be a row's place on this engine: a rowid, or an id. */
  isRowKey(value: unknown): value is RowKey;
  /** Up to `n` of the tenant's rows (or of those `q` matches) after `from` in `order`. */
  readCustomersInOrder(
    userId: string,
    sort: CustomerSort,
    order: SortOrder,
    from: Position | null,
    n: number,
    q: string,
  ): Promise<ListRow[]>;
  /** Up to `n` of the matched rows (`matches`, the tenant's) after `from` in `order`, sorted in SQL. */
  readMatchedCustomers(
    userId: string,
    sort: CustomerSort,
    order: SortOrder,
    from: Position | null,
    n: number,
    matches: RowKey[],
  ): Promise<ListRow[]>;
  /** The places (rowids; ids on PostgreSQL) of the first `limit` matches of a search, in no particular order. */
  findSearchMatches(userId: string, q: string, limit: number): Promise<RowKey[]>;
  /**
   * The statements a walk of `sort`'s index runs in turn from `from` (the start when null), each
   * limited to `n` rows, with a term the row-by-row search: what the plan tests EXPLAIN.
   */
  walkQueries(
    userId: string,
    sort: CustomerSort,
    order: SortOrder,
    from: Position | null,
    n: number,
    term?: string,
  ): ListQuery[];

  // The CSV import and export
};
