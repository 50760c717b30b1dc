// What the receipts domain offers (app/models/deliveries/receipts/): what became of each message.
// The channel's answers recorded against their claim and the queued rows of cancelled campaigns
// ended (outcomes); receipts queued in the inbox by the endpoints and applied by the delivery job.
// Each write changes the campaign's counters with its rows in one transaction, on the delivery
// job's connection; a bounce or complaint puts its address on the tenant's suppression list in
// that transaction too.
import type { AnyConnection } from "~/db/connection.server";
import type { FeedbackPolicy, Receipt, ReceiptsApplied, SendOutcome } from "./rows";

export type ReceiptsStore = {
  /**
   * Applies receipts in one transaction. Idempotent and monotonic: a row moves from pending or sent
   * to delivered, failed or bounced once, a delivered row to bounced (a bounce report that came
   * later) or complained; opened and clicked only add to a delivered row (and deliver it if its
   * receipt has not come yet); nothing else moves a row, so a late "opened" never undoes a "clicked"
   * and a repeated vendor receipt changes nothing. Opens and clicks from this server's pixel and
   * links (a source other than the vendor) are events: each is counted in the totals and kept as a
   * DeliveryEvent; a machine's (told by the caller, or a click within the scanner window of the
   * delivery) counts apart and never sets the row's first open or click. Bounces, soft bounces and
   * complaints from a feed are kept as events too, and one whose (source, eventId) was seen already
   * changes nothing. Receipts for ids that are not delivery rows are counted as ignored. A bounce
   * or complaint puts its address on the tenant's suppression list in the same transaction, and so
   * does a soft bounce that reaches the policy's limit (the rules: planReceipts, ./plan.ts).
   */
  applyReceipts(
    connection: AnyConnection,
    receipts: readonly Receipt[],
    policy?: FeedbackPolicy,
  ): Promise<ReceiptsApplied>;

  /**
   * Keeps a checked batch of receipts for the delivery job to apply: one small write (a row per
   * RECEIPTS_PER_INBOX_ROW receipts, in one transaction), so the receipts endpoint answers without
   * reading or changing a delivery row on the request thread, and the job's transactions that apply
   * them stay short.
   */
  queueReceipts(connection: AnyConnection, receipts: readonly Receipt[], now?: number): Promise<void>;

  /**
   * Inbox rows the delivery job applies a call: one on SQLite (a transaction, the write lock left
   * free after it), on PostgreSQL a transaction for each of applyQueuedReceipts' appliers.
   */
  receiptBatchesPerCall(connection: AnyConnection): number;

  /** How many inbox rows wait to be applied. */
  queuedReceiptBatches(connection: AnyConnection): Promise<number>;

  /**
   * Applies queued receipt batches (inbox rows), oldest first, each in a transaction with its
   * removal from the inbox (so a crash in between applies it again, which receipts allow: they are
   * idempotent). At most `maxBatches` a call, so the job goes back to sending in between. On
   * PostgreSQL `appliers` transactions run side by side (the bench compares counts; the product
   * uses the default); SQLite applies one at a time.
   */
  applyQueuedReceipts(
    connection: AnyConnection,
    maxBatches?: number,
    policy?: FeedbackPolicy,
    appliers?: number,
  ): Promise<{ batches: number; applied: number; ignored: number }>;

  /**
   * Records what the channel said about claimed rows of one campaign, in one transaction. A row is
   * changed only while it is still pending with the attempt number of this claim (its lease token);
   * an outcome for a row whose lease ran out and was claimed again, or that a receipt already moved
   * on, changes nothing. Outcomes marked `error` count toward the campaign's error cap. A row that
   * bounced puts its address on the tenant's suppression list (hard-bounced, with this campaign).
   */
  recordOutcomes(
    connection: AnyConnection,
    campaignId: string,
    outcomes: readonly SendOutcome[],
    now?: number,
  ): Promise<void>;

  /**
   * Ends the queued rows of cancelled campaigns as "cancelled", up to `slice` rows a transaction and
   * a call. Rows out with the channel (their lease not yet run out) are left to come back first: a
   * message that was handed over keeps what the channel said. Returns how many rows it ended.
   */
  endCancelledRows(connection: AnyConnection, now?: number, slice?: number): Promise<number>;
};
