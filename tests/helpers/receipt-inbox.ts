// The receipts inbox (the "ReceiptInbox" table the delivery job applies) as the bounce mailbox's
// tests read and fill it, on the test's connection (useTestConnection()).
import type { AnyConnection } from "~/db/connection.server";
import type { Receipt } from "~/models/deliveries/receipts/rows";
import { deliveryReceipts } from "~/models/deliveries/receipts/store.server";
import { sqlRows, sqlRun } from "./sql";

export function receiptInbox(connection: () => AnyConnection) {
  return {
    /** Every receipt queued and not yet applied, oldest first. */
    inbox: async () =>
      (
        await sqlRows<{ receipts: string }>(connection(), `SELECT "receipts" FROM "ReceiptInbox" ORDER BY "id"`)
      ).flatMap((row) => JSON.parse(row.receipts) as Receipt[]),
    /** Empties the inbox. */
    clearInbox: () => sqlRun(connection(), `DELETE FROM "ReceiptInbox"`),
    /** Queues receipts as a feed does. */
    queue: (receipts: Receipt[]) => deliveryReceipts.queueReceipts(connection(), receipts),
  };
}
