// What the orders domain offers, whichever engine answers (./sqlite.server.ts, ./postgres.server.ts;
// callers use the door, ./store.server.ts). A function given `tx` runs in that transaction.
import type { Tx } from "~/models/transaction/store.server";
import type {
  CustomerTotalsRow,
  OrderCustomerRow,
  OrderFields,
  OrderItemFields,
  OrderPageOptions,
  OrderPageRows,
  OrderRow,
  OrderWithItemsRow,
  RecentOrderRow,
} from "./rows";

export type OrdersStore = {
  /**
   * Whether the tenant has this customer (in `tx`, not deleted before it ends: on PostgreSQL the
   * customer is held FOR KEY SHARE, so a delete waits for the order about to be inserted).
   */
  customerOfUserExists(userId: string, customerId: string, tx?: Tx): Promise<boolean>;
  /** A new order and its items; returns the order row. */
  insertOrderWithItems(
    order: OrderFields & { id: string; userId: string; customerId: string },
    items: OrderItemFields[],
    tx?: Tx,
  ): Promise<OrderRow>;
  /** Rewrites an order and replaces its items; returns the order row as updated. */
  updateOrderWithItems(id: string, fields: OrderFields, items: OrderItemFields[], tx?: Tx): Promise<OrderRow>;
  /** Deletes an order (its items go with it). */
  deleteOrderById(id: string, tx?: Tx): Promise<void>;
  /** The tenant's order, or null; in `tx`, locked until it ends (the order's writes queue on it). */
  findOrderOfUser(userId: string, id: string, tx?: Tx): Promise<OrderRow | null>;
  /** An order known to exist (just written), with its customer and items. */
  orderWithItems(id: string, tx?: Tx): Promise<OrderWithItemsRow>;
  /** The tenant's order with its customer and items, or null. */
  findOrderWithItemsOfUser(userId: string, id: string, tx?: Tx): Promise<OrderWithItemsRow | null>;
  /**
   * The tenant's customer's stored totals, or null (the customer was deleted); in `tx`, locked
   * until it ends, so the totals written from them are not computed from a read another write
   * overtook.
   */
  findCustomerTotals(userId: string, customerId: string, tx?: Tx): Promise<CustomerTotalsRow | null>;
  /** Stores a customer's totals. */
  writeCustomerTotals(customerId: string, totals: CustomerTotalsRow, tx?: Tx): Promise<void>;
  /**
   * A page of the tenant's orders newest first (ids are time-ordered), searched on customer name
   * or order id: after `cursor` (the last id of the previous page), or the page before `before`
   * (the first id of the current page), with the counts the pager needs. `limit` is a clamped
   * integer written into the SQL (anything else throws).
   */
  findOrderPage(userId: string, options: OrderPageOptions): Promise<OrderPageRows>;
  /** The query plan of the orders search on `q` for the tenant, one line a step (for the plan tests). */
  orderSearchPlan(userId: string, q: string): Promise<string[]>;
  /** The customer's latest orders, newest first (`take` clamped to 1–100). */
  recentOrdersOfCustomer(userId: string, customerId: string, take: number): Promise<RecentOrderRow[]>;
  /** The tenant's customer by id, or by any of the e-mails given. */
  findOrderCustomer(userId: string, ref: { id: string } | { emails: string[] }): Promise<OrderCustomerRow | null>;
};
