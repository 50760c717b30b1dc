// The receipts domain's door (app/models/deliveries/receipts/): outcomes and receipts, on the
// engine DATABASE_URL names.
import { engineDoor } from "~/db/engine.server";
import type { ReceiptsStore } from "./contract";
import { postgresReceipts } from "./postgres.server";
import { sqliteReceipts } from "./sqlite.server";

export type { FeedbackPolicy, Receipt, ReceiptEvent, ReceiptSource, ReceiptsApplied, SendOutcome } from "./rows";

export const deliveryReceipts = engineDoor<ReceiptsStore>({ sqlite: sqliteReceipts, postgres: postgresReceipts });
