// What the customer activity domain offers, whichever engine answers (./common.server.ts for both;
// callers use the door, ./store.server.ts): a customer's order figures recomputed from their orders
// inside the order write's transaction, and read back (tests, the customer page).
import type { Tx } from "~/models/transaction/store.server";
import type { OrderFigures } from "./rows";

export type CustomerActivityStore = {
  /**
   * Recomputes the customer's order figures from their counting orders, in the order write's
   * transaction: exact whatever the write was (a create, an edit, a cancel, a delete).
   */
  refreshOrderFigures(userId: string, customerId: string, tx: Tx): Promise<void>;
  /** The customer's order figures, or null when they have no row (no orders and no engagement yet). */
  readOrderFigures(userId: string, customerId: string): Promise<OrderFigures | null>;
};
