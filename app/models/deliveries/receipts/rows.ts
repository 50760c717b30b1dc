// What became of each message (app/models/deliveries/receipts/): the channel's answers recorded
// against their claim (outcomes), and what the vendor or a feed says later about messages it
// accepted (receipts: delivered, bounced, opened, clicked, complained). The types, constants and
// helpers that are the same on both engines; the rules that apply receipts are ./plan.ts.
import type { NewSuppression, SuppressionReason } from "~/models/suppressions/rows";

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

/** A customer's latest open and click among the rows a batch of receipts changed. */
export type CustomerEngagement = {
  customerId: string;
  userId: string;
  lastOpenAt: number | null;
  lastClickAt: number | null;
};

/**
 * The latest open and click of each customer among `rows`, in customer id order (the order both
 * engines write CustomerActivity in, so two batches take its row locks in one order): what keeps a
 * customer's last open and last click (~/models/customer-activity) in the receipts' transaction.
 */
export function latestEngagement(
  rows: readonly Pick<RowState, "userId" | "customerId" | "openedAt" | "clickedAt">[],
): CustomerEngagement[] {
  const latest = new Map<string, CustomerEngagement>();
  const later = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));
  for (const row of rows) {
    if (row.openedAt === null && row.clickedAt === null) continue;
    const seen = latest.get(row.customerId);
    latest.set(row.customerId, {
      customerId: row.customerId,
      userId: row.userId,
      lastOpenAt: later(seen?.lastOpenAt ?? null, row.openedAt),
      lastClickAt: later(seen?.lastClickAt ?? null, row.clickedAt),
    });
  }
  return [...latest.values()].sort((a, b) => (a.customerId < b.customerId ? -1 : a.customerId > b.customerId ? 1 : 0));
}

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

/** What applying receipts did: how many changed something, and how many changed nothing. */
export type ReceiptsApplied = { applied: number; ignored: number };

/** Receipts an inbox row holds at most: the delivery job applies a row in one transaction of about 2 ms. */
export const RECEIPTS_PER_INBOX_ROW = 250;

/** A batch of receipts as inbox rows: each row's receipts (as JSON) and how many it holds. */
export function inboxRows(receipts: readonly Receipt[]): { receipts: string; count: number }[] {
  const rows: { receipts: string; count: number }[] = [];
  for (let i = 0; i < receipts.length; i += RECEIPTS_PER_INBOX_ROW) {
    const part = receipts.slice(i, i + RECEIPTS_PER_INBOX_ROW);
    rows.push({ receipts: JSON.stringify(part), count: part.length });
  }
  return rows;
}

/**
 * The receipts an inbox row holds. Written by queueReceipts from checked receipts; anything else
 * in the table is dropped (no receipts).
 */
export function inboxReceipts(text: string): Receipt[] {
  try {
    const parsed: unknown = JSON.parse(text);
    if (Array.isArray(parsed)) return parsed as Receipt[];
  } catch {
    // not a list of receipts: dropped with its row
  }
  return [];
}

// --- Outcomes -----------------------------------------------------------------------------------

/** A bounced row's address, to put on the suppression list. */
export type BouncedAddress = { campaignId: string; userId: string; email: string; details: string };
/** An address to put on its tenant's suppression list because of what happened to a campaign's message. */
export type AddressToSuppress = BouncedAddress & { reason: SuppressionReason };

/**
 * The addresses to suppress by tenant, each with the name of the campaign it came from
 * (`campaignName`); entries without an address are left out.
 */
export function suppressionsByTenant(
  entries: readonly AddressToSuppress[],
  campaignName: (campaignId: string) => string,
): Map<string, NewSuppression[]> {
  const byTenant = new Map<string, NewSuppression[]>();
  for (const b of entries) {
    if (!b.email) continue;
    let list = byTenant.get(b.userId);
    if (!list) byTenant.set(b.userId, (list = []));
    list.push({
      email: b.email,
      reason: b.reason,
      campaignId: b.campaignId,
      campaignName: campaignName(b.campaignId),
      details: b.details,
    });
  }
  return byTenant;
}

export type SendOutcome =
  /** Accepted by a channel that sends receipts later: the row waits for one as sent. */
  | { seq: number; attempts: number; outcome: "sent"; details: string }
  /** Accepted by a channel without receipts (an SMTP relay): that acceptance is the delivery. */
  | { seq: number; attempts: number; outcome: "delivered"; details: string }
  | { seq: number; attempts: number; outcome: "failed" | "bounced"; details: string; error: boolean }
  | { seq: number; attempts: number; outcome: "retry"; details: string; retryAt: number; error: boolean }
  /** Never handed to the channel (the campaign was paused or cancelled): back in the queue, the attempt not spent. */
  | { seq: number; attempts: number; outcome: "held" };

/** What a cancel writes in the details of the rows it ends. */
export const CANCELLED_DETAILS = "Not sent: the campaign was cancelled";

/** The cancelled campaigns with rows still queued (the same statement on both engines). */
export const CANCELLED_WITH_PENDING = `SELECT "id" FROM "Campaign" WHERE "status" = 'Cancelled' AND "pendingCount" > 0`;
