// Receipts: what the vendor says later about messages it accepted (delivered, bounced, opened,
// clicked). The receipts endpoint queues each checked batch in the inbox with one small write; the
// delivery job applies the inbox on its own connection, so a delivery row has one writer.
//
// On PostgreSQL each function runs its twin in ./receipts.postgres.server.ts (decision 0033); the
// rules (planReceipts) are the same code on both engines.
import { type AnyConnection, isPostgres } from "~/db/connection.server";
import type { Sqlite } from "~/db/sqlite.server";
import { parseDeliveryId } from "~/lib/campaigns";
import { type AddressToSuppress, type BouncedAddress, suppressAddresses } from "~/models/deliveries/outcomes.server";
import {
  applyQueuedReceiptsPg,
  applyReceiptsPg,
  INBOX_ROWS_PER_CALL_PG,
  queuedReceiptBatchesPg,
  queueReceiptsPg,
} from "~/models/deliveries/receipts.postgres.server";

type Connection = Sqlite;

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
  /**
   * The recipient the report names, when it names one: a receipt about another address than the
   * row's is ignored (a delivery id is no secret, and anyone can mail a bounce mailbox).
   */
  email?: string;
};

export type RowState = {
  seq: number;
  campaignId: string;
  userId: string;
  customerId: string;
  email: string;
  retries: number;
  status: string;
  details: string;
  updatedAt: number;
  openedAt: number | null;
  clickedAt: number | null;
  /** When a person first loaded the message's images (null: not yet, its open if any known from a click). */
  pixelOpenedAt: number | null;
  changed: boolean;
};

export type CounterDelta = {
  pending: number;
  sent: number;
  delivered: number;
  failed: number;
  bounced: number;
  complained: number;
  opened: number;
  clicked: number;
  opensTotal: number;
  clicksTotal: number;
  machineOpens: number;
  machineClicks: number;
  softBounces: number;
};
const STATE_COUNTER: Record<string, keyof CounterDelta | undefined> = {
  pending: "pending",
  sent: "sent",
  delivered: "delivered",
  failed: "failed",
  bounced: "bounced",
  complained: "complained",
};
const noDelta = (): CounterDelta => ({
  pending: 0,
  sent: 0,
  delivered: 0,
  failed: 0,
  bounced: 0,
  complained: 0,
  opened: 0,
  clicked: 0,
  opensTotal: 0,
  clicksTotal: 0,
  machineOpens: 0,
  machineClicks: 0,
  softBounces: 0,
});

/**
 * The rules applied with receipts that are settings (docs/rules.md#opens-and-clicks,
 * docs/rules.md#bounce-and-complaint-feeds): a click this soon after the message was delivered is a
 * link scanner's; this many soft bounces of one address within the window suppress it.
 */
export type FeedbackPolicy = { scannerWindowMs: number; softBounceLimit: number; softBounceWindowMs: number };
export const DEFAULT_FEEDBACK_POLICY: FeedbackPolicy = {
  scannerWindowMs: 10_000,
  softBounceLimit: 3,
  softBounceWindowMs: 30 * 24 * 3_600_000,
};

/** The detail a suppression by the soft-bounce policy carries. */
export function softBounceDetails(policy: FeedbackPolicy, details: string): string {
  const days = Math.round(policy.softBounceWindowMs / (24 * 3_600_000));
  return `${policy.softBounceLimit} soft bounces within ${days} days; the last: ${details}`.slice(0, 500);
}

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
 * does a soft bounce that reaches the policy's limit.
 */
export async function applyReceipts(
  sqlite: AnyConnection,
  receipts: readonly Receipt[],
  policy: FeedbackPolicy = DEFAULT_FEEDBACK_POLICY,
): Promise<{ applied: number; ignored: number }> {
  if (isPostgres(sqlite)) return applyReceiptsPg(sqlite, receipts, policy);
  return againIfStoredMeanwhile(() => applyReceiptsNow(sqlite, receipts, policy));
}

/**
 * A batch's event (source, eventId) was stored by another transaction after the batch looked:
 * the batch is rolled back, so nothing of it is counted, and applied again it sees the event.
 */
export class EventStoredMeanwhile extends Error {
  constructor() {
    super("A receipt's event was stored by another transaction while its batch was applied");
  }
}

/** A delivery row as the receipts read it. */
export type ReceiptRow = Omit<RowState, "changed">;

/** What the rules need to read, answered at once (the rows, the events seen, the soft bounces kept). */
export type ReceiptLookups = {
  /** The delivery row of `seq`, or undefined. */
  row(seq: number): ReceiptRow | undefined;
  /** Whether a feed's event (source, eventId) was stored already. */
  seen(source: string, eventId: string): boolean;
  /** How many soft bounces of the tenant's address are stored after `since` (ms). */
  softBouncesSince(userId: string, email: string, since: number): number;
};

/** A DeliveryEvent row to keep. */
export type NewDeliveryEvent = {
  userId: string;
  campaignId: string;
  seq: number;
  customerId: string;
  email: string;
  kind: ReceiptEvent;
  machine: boolean;
  link: number | null;
  source: ReceiptSource;
  eventId: string | null;
  details: string;
  at: number;
};

/** What a batch of receipts changes: the rows, the events, the counters, the addresses to suppress. */
export type ReceiptPlan = {
  applied: number;
  ignored: number;
  /** The latest time of an applied receipt (0: none): the campaigns' last change. */
  latest: number;
  rows: RowState[];
  events: NewDeliveryEvent[];
  deltas: Map<string, CounterDelta>;
  suppress: AddressToSuppress[];
};

/**
 * The rules of applyReceipts, apart from the database: what `receipts` change, given what is
 * stored (`lookups`). Both engines write the plan in one transaction.
 */
export function planReceipts(
  receipts: readonly Receipt[],
  policy: FeedbackPolicy,
  lookups: ReceiptLookups,
): ReceiptPlan {
  const rows = new Map<number, RowState | null>();
  const deltas = new Map<string, CounterDelta>();
  const events: NewDeliveryEvent[] = [];
  /** Soft bounces kept by this batch, by tenant and address: their times. */
  const softBouncesKept = new Map<string, number[]>();
  const delta = (campaignId: string) => {
    let d = deltas.get(campaignId);
    if (!d) deltas.set(campaignId, (d = noDelta()));
    return d;
  };
  const move = (row: RowState, to: "delivered" | "bounced" | "complained", at: number, details?: string) => {
    const d = delta(row.campaignId);
    const from = STATE_COUNTER[row.status];
    if (from) d[from] -= 1;
    d[to] += 1;
    row.status = to;
    if (details !== undefined) row.details = details;
    row.updatedAt = at;
    row.changed = true;
  };
  const keep = (row: RowState, r: Receipt, kind: ReceiptEvent, machine: boolean) => {
    const email = row.email.toLowerCase();
    events.push({
      userId: row.userId,
      campaignId: row.campaignId,
      seq: row.seq,
      customerId: row.customerId,
      email,
      kind,
      machine,
      link: r.link ?? null,
      source: r.source ?? "vendor",
      eventId: r.eventId ?? null,
      details: (r.details ?? "").slice(0, 500),
      at: r.at,
    });
    if (kind === "soft-bounced") {
      const key = `${row.userId}\u0000${email}`;
      let times = softBouncesKept.get(key);
      if (!times) softBouncesKept.set(key, (times = []));
      times.push(r.at);
    }
  };
  const softBouncesSince = (userId: string, email: string, since: number) =>
    lookups.softBouncesSince(userId, email, since) +
    (softBouncesKept.get(`${userId}\u0000${email}`) ?? []).filter((at) => at > since).length;
  let applied = 0;
  let ignored = 0;
  let latest = 0;
  const suppress: AddressToSuppress[] = [];
  const seenInBatch = new Set<string>();
  for (const r of receipts) {
    const id = parseDeliveryId(r.id);
    if (!id) {
      ignored += 1;
      continue;
    }
    let row = rows.get(id.seq);
    if (row === undefined) {
      const found = lookups.row(id.seq);
      row = found && found.campaignId.startsWith(id.prefix) ? { ...found, changed: false } : null;
      rows.set(id.seq, row);
    }
    // A receipt of an earlier message of a row that was retried since says nothing about it now.
    if (!row || row.retries !== id.retries) {
      ignored += 1;
      continue;
    }
    if (r.email !== undefined && r.email.toLowerCase() !== row.email.toLowerCase()) {
      ignored += 1;
      continue;
    }
    // A feed's event seen before (a replayed webhook, a report read twice) changes nothing.
    const source = r.source ?? "vendor";
    if (r.eventId !== undefined) {
      const key = `${source}\u0000${r.eventId}`;
      if (seenInBatch.has(key) || lookups.seen(source, r.eventId)) {
        ignored += 1;
        continue;
      }
      seenInBatch.add(key);
    }
    const fromVendor = source === "vendor";
    const open = row.status === "pending" || row.status === "sent";
    const reached = open || row.status === "delivered";
    let changed = false;
    if (r.event === "delivered" || r.event === "failed") {
      if (open) {
        // A receipt is about a message the vendor accepted: one it could not deliver
        // afterwards came back, a bounce, so "sent" never counts down (failed is for refusals).
        move(row, r.event === "delivered" ? "delivered" : "bounced", r.at, r.details ?? row.details);
        if (row.status === "bounced") suppress.push({ ...addressOf(row), reason: "hard-bounced" });
        changed = true;
      }
    } else if (r.event === "bounced") {
      // A bounce reported later (a DSN, SES, SendGrid) also takes back a delivery the relay had
      // accepted: Sent stays, Delivered becomes Bounced.
      if (reached) {
        move(row, "bounced", r.at, r.details ?? row.details);
        if (!fromVendor) keep(row, r, "bounced", false);
        suppress.push({ ...addressOf(row), reason: "hard-bounced" });
        changed = true;
      }
    } else if (r.event === "complained") {
      if (row.status === "sent" || row.status === "delivered") {
        move(row, "complained", r.at, r.details ?? "Reported as spam by the recipient");
        keep(row, r, "complained", false);
        suppress.push({ ...addressOf(row), reason: "complained" });
        changed = true;
      }
    } else if (r.event === "soft-bounced") {
      if (row.status !== "pending") {
        keep(row, r, "soft-bounced", false);
        delta(row.campaignId).softBounces += 1;
        changed = true;
        const since = r.at - policy.softBounceWindowMs;
        if (
          policy.softBounceLimit > 0 &&
          softBouncesSince(row.userId, row.email.toLowerCase(), since) >= policy.softBounceLimit
        )
          suppress.push({
            ...addressOf(row),
            reason: "soft-bounced",
            details: softBounceDetails(policy, r.details ?? ""),
          });
      }
    } else if (reached || row.status === "complained") {
      // Opened or clicked: the message reached the mailbox. When it was handed over: the row's
      // last change before this (the relay's acceptance, or the vendor's delivery receipt).
      const handedOverAt = row.updatedAt;
      if (open) {
        // Dated by the handover, not by this open: the message arrived some time before it
        // was read, and a click that follows must not look like a scanner's.
        move(row, "delivered", handedOverAt, row.details);
        changed = true;
      }
      const d = delta(row.campaignId);
      const click = r.event === "clicked";
      // A link scanner clicks within seconds of the delivery; a person does not.
      const machine =
        !fromVendor &&
        (r.machine === true || (click && policy.scannerWindowMs > 0 && r.at - handedOverAt < policy.scannerWindowMs));
      if (machine) {
        if (click) d.machineClicks += 1;
        else d.machineOpens += 1;
        keep(row, r, r.event, true);
        changed = true;
      } else {
        // The vendor reports each recipient's first open and click once (a repeat is a resend
        // of its webhook): the first of either is their open, counted once in the totals too.
        // This server's pixel and links report every one: opens in total are every image load by
        // a person, and for a recipient who clicked with images off (no load seen) their click
        // stands for one open. The first load of a recipient whose open is known only from a
        // click takes that open's place instead of adding one, so a click then a load and a load
        // then a click both count one open, whatever order they are applied in.
        if (!fromVendor) {
          if (click) d.clicksTotal += 1;
          else {
            const impliedByClick = row.openedAt !== null && row.pixelOpenedAt === null;
            if (!impliedByClick) d.opensTotal += 1;
            if (row.pixelOpenedAt === null || r.at < row.pixelOpenedAt) row.pixelOpenedAt = r.at;
          }
          keep(row, r, r.event, false);
          changed = true;
        }
        if (row.openedAt === null) {
          d.opened += 1;
          if (fromVendor || click) d.opensTotal += 1;
          if (fromVendor && !click) row.pixelOpenedAt = r.at;
        }
        // The first open and click are the earliest, whichever was applied first.
        if (row.openedAt === null || r.at < row.openedAt) {
          row.openedAt = r.at;
          changed = true;
        }
        if (click && (row.clickedAt === null || r.at < row.clickedAt)) {
          if (row.clickedAt === null) {
            d.clicked += 1;
            if (fromVendor) d.clicksTotal += 1;
          }
          row.clickedAt = r.at;
          changed = true;
        }
      }
      if (changed) row.changed = true;
    }
    if (changed) {
      applied += 1;
      latest = Math.max(latest, r.at);
    } else ignored += 1;
  }
  const changedRows: RowState[] = [];
  for (const row of rows.values()) if (row?.changed) changedRows.push(row);
  return { applied, ignored, latest, rows: changedRows, events, deltas, suppress };
}

/** applyReceipts, inside a transaction of the caller's (an inbox row's). */
function applyReceiptsNow(
  sqlite: Connection,
  receipts: readonly Receipt[],
  policy: FeedbackPolicy,
): { applied: number; ignored: number } {
  const read = sqlite.prepare<unknown[], ReceiptRow>(
    `SELECT "seq", "campaignId", "userId", "customerId", "email", "retries", "status", "details", "updatedAt", "openedAt", "clickedAt",
       "pixelOpenedAt"
     FROM "Delivery" WHERE "seq" = ?`,
  );
  const write = sqlite.prepare(
    `UPDATE "Delivery" SET "status" = ?, "details" = ?, "updatedAt" = ?, "openedAt" = ?, "clickedAt" = ?, "pixelOpenedAt" = ?
     WHERE "seq" = ?`,
  );
  const counters = sqlite.prepare(
    `UPDATE "Campaign" SET "pendingCount" = "pendingCount" + ?, "sentCount" = "sentCount" + ?, "deliveredCount" = "deliveredCount" + ?,
       "failedCount" = "failedCount" + ?, "bouncedCount" = "bouncedCount" + ?, "complainedCount" = "complainedCount" + ?,
       "openedCount" = "openedCount" + ?, "clickedCount" = "clickedCount" + ?, "opensTotal" = "opensTotal" + ?,
       "clicksTotal" = "clicksTotal" + ?, "machineOpenCount" = "machineOpenCount" + ?, "machineClickCount" = "machineClickCount" + ?,
       "softBounceCount" = "softBounceCount" + ?, "updatedAt" = max("updatedAt", ?)
     WHERE "id" = ?`,
  );
  const seenEvent = sqlite.prepare(`SELECT 1 FROM "DeliveryEvent" WHERE "source" = ? AND "eventId" = ?`).pluck();
  const keepEvent = sqlite.prepare(
    `INSERT INTO "DeliveryEvent" ("userId", "campaignId", "seq", "customerId", "email", "kind", "machine", "link", "source", "eventId", "details", "at")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT ("source", "eventId") DO NOTHING`,
  );
  const softBouncesSince = sqlite
    .prepare<unknown[], number>(
      `SELECT count(*) FROM "DeliveryEvent" WHERE "userId" = ? AND "email" = ? AND "kind" = 'soft-bounced' AND "at" > ?`,
    )
    .pluck();
  return sqlite
    .transaction(() => {
      const plan = planReceipts(receipts, policy, {
        row: (seq) => read.get(seq),
        seen: (source, eventId) => seenEvent.get(source, eventId) !== undefined,
        softBouncesSince: (userId, email, since) => softBouncesSince.get(userId, email, since) ?? 0,
      });
      // An event is counted only by the transaction that stored it: the (source, eventId) key
      // is unique, and a copy stored first leaves this batch unwritten (applied again, it is seen).
      for (const e of plan.events) {
        const { changes } = keepEvent.run(
          e.userId,
          e.campaignId,
          e.seq,
          e.customerId,
          e.email,
          e.kind,
          e.machine ? 1 : 0,
          e.link,
          e.source,
          e.eventId,
          e.details,
          e.at,
        );
        if (changes === 0) throw new EventStoredMeanwhile();
      }
      for (const row of plan.rows)
        write.run(row.status, row.details, row.updatedAt, row.openedAt, row.clickedAt, row.pixelOpenedAt, row.seq);
      for (const [campaignId, d] of plan.deltas) {
        counters.run(
          d.pending,
          d.sent,
          d.delivered,
          d.failed,
          d.bounced,
          d.complained,
          d.opened,
          d.clicked,
          d.opensTotal,
          d.clicksTotal,
          d.machineOpens,
          d.machineClicks,
          d.softBounces,
          plan.latest,
          campaignId,
        );
      }
      // A bounce or complaint puts its address on the tenant's suppression list, with the row that says so.
      suppressAddresses(sqlite, plan.suppress, Date.now());
      return { applied: plan.applied, ignored: plan.ignored };
    })
    .immediate();
}

/** Runs a SQLite apply, and once more if an event it would keep was stored by another connection meanwhile. */
function againIfStoredMeanwhile<T>(apply: () => T): T {
  try {
    return apply();
  } catch (error) {
    if (!(error instanceof EventStoredMeanwhile)) throw error;
    return apply();
  }
}

function addressOf(row: RowState): BouncedAddress {
  return { campaignId: row.campaignId, userId: row.userId, email: row.email, details: row.details };
}

/** Receipts an inbox row holds at most: the delivery job applies a row in one transaction of about 2 ms. */
const RECEIPTS_PER_INBOX_ROW = 250;

/**
 * Keeps a checked batch of receipts for the delivery job to apply: one small write (a row per
 * RECEIPTS_PER_INBOX_ROW receipts, in one transaction), so the receipts endpoint answers without
 * reading or changing a delivery row on the request thread, and the job's transactions that apply
 * them stay short.
 */
export async function queueReceipts(
  sqlite: AnyConnection,
  receipts: readonly Receipt[],
  now = Date.now(),
): Promise<void> {
  if (isPostgres(sqlite)) return queueReceiptsPg(sqlite, receipts, RECEIPTS_PER_INBOX_ROW, now);
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

/**
 * Inbox rows the delivery job applies a call: one on SQLite (a transaction, the write lock left
 * free after it), on PostgreSQL a transaction for each of applyQueuedReceipts' appliers.
 */
export function receiptBatchesPerCall(sqlite: AnyConnection): number {
  return isPostgres(sqlite) ? INBOX_ROWS_PER_CALL_PG : 1;
}

/** How many inbox rows wait to be applied. */
export async function queuedReceiptBatches(sqlite: AnyConnection): Promise<number> {
  if (isPostgres(sqlite)) return queuedReceiptBatchesPg(sqlite);
  return Number(sqlite.prepare<unknown[], number>(`SELECT count(*) FROM "ReceiptInbox"`).pluck().get());
}

/**
 * Applies queued receipt batches, oldest first, each in one transaction with its removal from the
 * inbox (so a crash in between applies it again, which receipts allow: they are idempotent). At
 * most `maxBatches` a call, so the job goes back to sending in between.
 */
export async function applyQueuedReceipts(
  sqlite: AnyConnection,
  maxBatches = 10,
  policy: FeedbackPolicy = DEFAULT_FEEDBACK_POLICY,
): Promise<{ batches: number; applied: number; ignored: number }> {
  if (isPostgres(sqlite)) return applyQueuedReceiptsPg(sqlite, maxBatches, policy);
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
    return applyReceiptsNow(sqlite, receipts, policy);
  });
  const total = { batches: 0, applied: 0, ignored: 0 };
  while (total.batches < maxBatches) {
    const result = againIfStoredMeanwhile(() => one.immediate());
    if (!result) break;
    total.batches += 1;
    total.applied += result.applied;
    total.ignored += result.ignored;
  }
  return total;
}
