// Receipts: what the vendor says later about messages it accepted (delivered, bounced, opened,
// clicked). The receipts endpoint queues each checked batch in the inbox with one small write; the
// delivery job applies the inbox on its own connection, so a delivery row has one writer.
import { parseDeliveryId } from "~/lib/campaigns";
import { type BouncedAddress, suppressBounced } from "~/models/deliveries/outcomes.server";
import type { Connection } from "~/models/transaction.server";

/** What the built-in vendor's receipts webhook may say. */
export const RECEIPT_EVENTS = ["delivered", "failed", "bounced", "opened", "clicked"] as const;
/** What a receipt may say: the vendor's events, and the later feedback of real mail. */
export const FEEDBACK_EVENTS = [...RECEIPT_EVENTS, "soft-bounced", "complained"] as const;
export type ReceiptEvent = (typeof FEEDBACK_EVENTS)[number];
/** Where a receipt came from (kept on its DeliveryEvent row). */
export type ReceiptSource = "vendor" | "pixel" | "link" | "smtp" | "imap" | "ses" | "sendgrid";
export type Receipt = {
  /** The delivery id (the Message-ID's local part, the vendor's idempotency key). */
  id: string;
  event: ReceiptEvent;
  /** Milliseconds. */
  at: number;
  /** The row's new details (a bounce's or complaint's reason). */
  details?: string;
  /** An open or click told apart as a machine (privacy proxy, link scanner, bot): counted apart, never as a person. */
  machine?: boolean;
  /** A click's link: its index among the message's links (app/lib/email-body.ts). */
  link?: number;
  /** Where it came from; the vendor's webhook when not said. */
  source?: ReceiptSource;
  /** The feed's own id of the event (SNS MessageId, sg_event_id, a report's Message-ID): a replay changes nothing. */
  eventId?: string;
};

type RowState = {
  seq: number;
  campaignId: string;
  userId: string;
  email: string;
  retries: number;
  status: string;
  details: string;
  updatedAt: number;
  openedAt: number | null;
  clickedAt: number | null;
  changed: boolean;
};

type CounterDelta = {
  pending: number;
  sent: number;
  delivered: number;
  failed: number;
  bounced: number;
  opened: number;
  clicked: number;
};
const STATE_COUNTER: Record<string, keyof CounterDelta | undefined> = {
  pending: "pending",
  sent: "sent",
  delivered: "delivered",
  failed: "failed",
  bounced: "bounced",
};

/**
 * Applies receipts in one transaction. Idempotent and monotonic: a row moves from pending or sent
 * to delivered, failed or bounced once; opened and clicked only add to a delivered row (and deliver
 * it if its receipt has not come yet); nothing moves a row back, so a late "opened" never undoes a
 * "clicked" and a repeated receipt changes nothing. Receipts for ids that are not delivery rows are
 * counted as ignored. A row that bounces puts its address on the tenant's suppression list, in the
 * same transaction.
 */
export async function applyReceipts(
  sqlite: Connection,
  receipts: readonly Receipt[],
): Promise<{ applied: number; ignored: number }> {
  return applyReceiptsNow(sqlite, receipts);
}

/** applyReceipts, inside a transaction of the caller's (an inbox row's). */
function applyReceiptsNow(sqlite: Connection, receipts: readonly Receipt[]): { applied: number; ignored: number } {
  const read = sqlite.prepare<unknown[], Omit<RowState, "changed">>(
    `SELECT "seq", "campaignId", "userId", "email", "retries", "status", "details", "updatedAt", "openedAt", "clickedAt"
     FROM "Delivery" WHERE "seq" = ?`,
  );
  const write = sqlite.prepare(
    `UPDATE "Delivery" SET "status" = ?, "details" = ?, "updatedAt" = ?, "openedAt" = ?, "clickedAt" = ? WHERE "seq" = ?`,
  );
  const counters = sqlite.prepare(
    `UPDATE "Campaign" SET "pendingCount" = "pendingCount" + ?, "sentCount" = "sentCount" + ?, "deliveredCount" = "deliveredCount" + ?,
       "failedCount" = "failedCount" + ?, "bouncedCount" = "bouncedCount" + ?, "openedCount" = "openedCount" + ?,
       "clickedCount" = "clickedCount" + ?, "updatedAt" = max("updatedAt", ?)
     WHERE "id" = ?`,
  );
  return sqlite
    .transaction(() => {
      const rows = new Map<number, RowState | null>();
      const deltas = new Map<string, CounterDelta>();
      const delta = (campaignId: string) => {
        let d = deltas.get(campaignId);
        if (!d)
          deltas.set(
            campaignId,
            (d = { pending: 0, sent: 0, delivered: 0, failed: 0, bounced: 0, opened: 0, clicked: 0 }),
          );
        return d;
      };
      const move = (row: RowState, to: "delivered" | "failed" | "bounced", at: number, details: string | undefined) => {
        const d = delta(row.campaignId);
        const from = STATE_COUNTER[row.status];
        if (from) d[from] -= 1;
        d[to] += 1;
        row.status = to;
        if (details !== undefined) row.details = details;
        row.updatedAt = at;
        row.changed = true;
      };
      let applied = 0;
      let ignored = 0;
      let latest = 0;
      const bounced: BouncedAddress[] = [];
      for (const r of receipts) {
        const id = parseDeliveryId(r.id);
        if (!id) {
          ignored += 1;
          continue;
        }
        let row = rows.get(id.seq);
        if (row === undefined) {
          const found = read.get(id.seq);
          row = found && found.campaignId.startsWith(id.prefix) ? { ...found, changed: false } : null;
          rows.set(id.seq, row);
        }
        // A receipt of an earlier message of a row that was retried since says nothing about it now.
        if (!row || row.retries !== id.retries) {
          ignored += 1;
          continue;
        }
        const open = row.status === "pending" || row.status === "sent";
        let changed = false;
        if (r.event === "delivered" || r.event === "failed" || r.event === "bounced") {
          if (open) {
            // A receipt is about a message the vendor accepted: one it could not deliver
            // afterwards came back, a bounce, so "sent" never counts down (failed is for refusals).
            move(row, r.event === "delivered" ? "delivered" : "bounced", r.at, r.details ?? row.details);
            if (row.status === "bounced")
              bounced.push({ campaignId: row.campaignId, userId: row.userId, email: row.email, details: row.details });
            changed = true;
          }
        } else if (open || row.status === "delivered") {
          if (open) {
            move(row, "delivered", r.at, row.details);
            changed = true;
          }
          const d = delta(row.campaignId);
          if (row.openedAt === null) {
            row.openedAt = r.at;
            d.opened += 1;
            changed = true;
          }
          if (r.event === "clicked" && row.clickedAt === null) {
            row.clickedAt = r.at;
            d.clicked += 1;
            changed = true;
          }
          if (changed) row.changed = true;
        }
        if (changed) {
          applied += 1;
          latest = Math.max(latest, r.at);
        } else ignored += 1;
      }
      for (const row of rows.values()) {
        if (row?.changed) write.run(row.status, row.details, row.updatedAt, row.openedAt, row.clickedAt, row.seq);
      }
      for (const [campaignId, d] of deltas) {
        counters.run(d.pending, d.sent, d.delivered, d.failed, d.bounced, d.opened, d.clicked, latest, campaignId);
      }
      // A bounce puts its address on the tenant's suppression list, with the row that says so.
      suppressBounced(sqlite, bounced, Date.now());
      return { applied, ignored };
    })
    .immediate();
}

/** Receipts an inbox row holds at most: the delivery job applies a row in one transaction of about 2 ms. */
const RECEIPTS_PER_INBOX_ROW = 250;

/**
 * Keeps a checked batch of receipts for the delivery job to apply: one small write (a row per
 * RECEIPTS_PER_INBOX_ROW receipts, in one transaction), so the receipts endpoint answers without
 * reading or changing a delivery row on the request thread, and the job's transactions that apply
 * them stay short.
 */
export async function queueReceipts(sqlite: Connection, receipts: readonly Receipt[], now = Date.now()): Promise<void> {
  const insert = sqlite.prepare(`INSERT INTO "ReceiptInbox" ("receipts", "count", "receivedAt") VALUES (?, ?, ?)`);
  sqlite
    .transaction(() => {
      for (let i = 0; i < receipts.length; i += RECEIPTS_PER_INBOX_ROW) {
        const part = receipts.slice(i, i + RECEIPTS_PER_INBOX_ROW);
        insert.run(JSON.stringify(part), part.length, now);
      }
    })
    .immediate();
}

/** How many inbox rows wait to be applied. */
export async function queuedReceiptBatches(sqlite: Connection): Promise<number> {
  return Number(sqlite.prepare<unknown[], number>(`SELECT count(*) FROM "ReceiptInbox"`).pluck().get());
}

/**
 * Applies queued receipt batches, oldest first, each in one transaction with its removal from the
 * inbox (so a crash in between applies it again, which receipts allow: they are idempotent). At
 * most `maxBatches` a call, so the job goes back to sending in between.
 */
export async function applyQueuedReceipts(
  sqlite: Connection,
  maxBatches = 10,
): Promise<{ batches: number; applied: number; ignored: number }> {
  const oldest = sqlite.prepare<unknown[], { id: number; receipts: string }>(
    `SELECT "id", "receipts" FROM "ReceiptInbox" ORDER BY "id" LIMIT 1`,
  );
  const remove = sqlite.prepare(`DELETE FROM "ReceiptInbox" WHERE "id" = ?`);
  const one = sqlite.transaction(() => {
    const row = oldest.get();
    if (!row) return null;
    remove.run(row.id);
    // Written by queueReceipts from checked receipts; anything else in the table is dropped.
    let receipts: Receipt[] = [];
    try {
      const parsed: unknown = JSON.parse(row.receipts);
      if (Array.isArray(parsed)) receipts = parsed as Receipt[];
    } catch {
      receipts = [];
    }
    return applyReceiptsNow(sqlite, receipts);
  });
  const total = { batches: 0, applied: 0, ignored: 0 };
  while (total.batches < maxBatches) {
    const result = one.immediate();
    if (!result) break;
    total.batches += 1;
    total.applied += result.applied;
    total.ignored += result.ignored;
  }
  return total;
}
