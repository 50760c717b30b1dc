// The rules of campaigns and their delivery that screens, /api, notifications and the engine share:
// statuses, the figures made from a campaign's counters, rates, bands and colours, delivery ids and
// personalisation (docs/rules.md#campaigns).
import { formatCount, formatRate, rateOf } from "~/lib/numbers";

export const CAMPAIGN_STATUSES = ["Draft", "Active", "Paused", "Cancelled", "Completed"] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** A stored status as shown; a campaign without one counts as completed. */
export function campaignStatus(status: string | null | undefined): CampaignStatus {
  const found = CAMPAIGN_STATUSES.find((s) => s.toLowerCase() === (status ?? "").trim().toLowerCase());
  return found ?? "Completed";
}

/** Whether a campaign is a draft that launches itself at its scheduledAt (shown as "Scheduled"). */
export const isScheduled = <C extends { status: CampaignStatus; scheduledAt: string | null }>(
  c: C,
): c is C & { scheduledAt: string } => c.status === "Draft" && c.scheduledAt !== null;

/** Whether the delivery job still has work for a campaign in this status. */
export const isSending = (status: CampaignStatus) => status === "Active";

export const DELIVERY_STATUSES = [
  "pending",
  "sent",
  "delivered",
  "failed",
  "bounced",
  "complained",
  "cancelled",
  "suppressed",
] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * A delivery row's status as the log shows it: the stored ones, and "deferred", a pending row whose
 * details are not empty (an earlier attempt got a temporary answer and waits for its retry). It is
 * derived, never stored, so the claim's index stays on status = 'pending'.
 */
export const DELIVERY_LOG_STATUSES = [...DELIVERY_STATUSES, "deferred"] as const;
export type DeliveryLogStatus = (typeof DELIVERY_LOG_STATUSES)[number];

/** The log's status of a row: "deferred" for a pending row with details, else the stored status. */
export function deliveryLogStatus(status: DeliveryStatus, details: string): DeliveryLogStatus {
  return status === "pending" && details !== "" ? "deferred" : status;
}

export type ChipColour = "success" | "warning" | "primary" | "secondary" | "info" | "error" | "default";

const DELIVERY_CHIPS: Record<DeliveryLogStatus, { label: string; colour: ChipColour }> = {
  delivered: { label: "Delivered", colour: "success" },
  pending: { label: "Pending", colour: "warning" },
  sent: { label: "Sent", colour: "primary" },
  bounced: { label: "Bounced", colour: "error" },
  failed: { label: "Failed", colour: "error" },
  complained: { label: "Complained", colour: "error" },
  cancelled: { label: "Cancelled", colour: "default" },
  suppressed: { label: "Suppressed", colour: "secondary" },
  deferred: { label: "Deferred", colour: "info" },
};

/** A delivery log row's chip: its status read without case; anything else is 'Unknown'. */
export function deliveryChip(status: string | null | undefined): { label: string; colour: ChipColour } {
  const key = (status ?? "").trim().toLowerCase() as DeliveryLogStatus;
  return DELIVERY_CHIPS[key] ?? { label: "Unknown", colour: "default" };
}

/**
 * The counters a campaign keeps: its rows by state (pending, sent awaiting a receipt, delivered,
 * failed, bounced, complained, cancelled, suppressed add up to the audience); opened and clicked
 * count recipients (people, each once) whose message was opened or clicked. Customers a launch
 * left out as suppressed have no row (suppressedAtLaunch, outside the audience).
 */
export type CampaignCounters = {
  audienceSize: number;
  pendingCount: number;
  sentCount: number;
  deliveredCount: number;
  failedCount: number;
  bouncedCount: number;
  /** Rows whose recipient reported the message as spam (accepted and delivered first: part of Sent). */
  complainedCount: number;
  cancelledCount: number;
  suppressedCount: number;
  openedCount: number;
  clickedCount: number;
};

/**
 * Every figure of a campaign, made here alone from its counters (docs/rules.md#campaign-figures):
 * the list, the detail, the dashboard, the notifications and /api show these and no other sums.
 * sent + failed + cancelled + suppressed + pending = the audience, and sent, failed, cancelled and
 * suppressed never count down while a campaign sends (a message once accepted stays sent; a bounce
 * is a sent message that came back).
 */
export type DeliveryStats = {
  /** Accepted by the channel: awaiting a receipt, delivered, or bounced afterwards. */
  sent: number;
  delivered: number;
  /** Refused by the channel for good (never accepted). */
  failed: number;
  /** Accepted, then reported undeliverable (unknown mailbox, a vendor's late failure). */
  bounced: number;
  /** Delivered, then reported as spam by the recipient. */
  complained: number;
  /** Ended by a cancel before they were handed to the channel. */
  cancelled: number;
  /** Left out by the send: the address was suppressed after the launch (never handed to the channel). */
  suppressed: number;
  opened: number;
  clicked: number;
  /** Not yet accepted by the channel (queued, in flight or waiting for a retry). */
  pending: number;
  /** Rows with a final outcome: delivered, failed, bounced or complained. */
  attempted: number;
  /** (delivered + complained: both reached the mailbox) / attempted as a percentage with one decimal, e.g. "92.5%" ("—" before any outcome). */
  successRate: string;
  /** The same as a number, null before any outcome: no rate is shown for nothing attempted. */
  successRateValue: number | null;
};

/** One decimal, as every rate is shown: 0 when there is nothing to divide by. */
export function percent(part: number, whole: number): number {
  if (!whole || whole <= 0) return 0;
  return Math.round((part / whole) * 1000) / 10;
}

export function deliveryStats(c: CampaignCounters): DeliveryStats {
  const attempted = c.deliveredCount + c.failedCount + c.bouncedCount + c.complainedCount;
  const success = rateOf(c.deliveredCount + c.complainedCount, attempted);
  return {
    sent: c.sentCount + c.deliveredCount + c.bouncedCount + c.complainedCount,
    delivered: c.deliveredCount,
    failed: c.failedCount,
    bounced: c.bouncedCount,
    complained: c.complainedCount,
    cancelled: c.cancelledCount,
    suppressed: c.suppressedCount,
    opened: c.openedCount,
    clicked: c.clickedCount,
    pending: c.pendingCount,
    attempted,
    successRate: formatRate(success),
    successRateValue: success,
  };
}

/**
 * How far a campaign has got: rows the channel has answered for (sent, delivered, bounced or
 * failed), and rows the send left out as suppressed (done with: they will never be sent), out of
 * the audience, 0–100. A draft, which has no rows yet, is at 0; cancelled rows are not progress.
 */
export function progressPercent(c: AnsweredCounters & Pick<CampaignCounters, "audienceSize">): number {
  if (c.audienceSize <= 0) return 0;
  return Math.floor((answeredCount(c) / c.audienceSize) * 100);
}

type AnsweredCounters = Pick<
  CampaignCounters,
  "sentCount" | "deliveredCount" | "failedCount" | "bouncedCount" | "complainedCount" | "suppressedCount"
>;

/**
 * Rows the send is done with (what progress counts): those the channel has answered for (sent,
 * delivered, bounced, complained or failed) and those it left out as suppressed.
 */
export function answeredCount(c: AnsweredCounters): number {
  return c.sentCount + c.deliveredCount + c.failedCount + c.bouncedCount + c.complainedCount + c.suppressedCount;
}

/** How long after its figures last changed a campaign's screens keep refreshing (late receipts, opens). */
export const FIGURES_SETTLE_MS = 2 * 60_000;

/**
 * Whether a campaign's figures may still change on their own, so its screens keep refreshing:
 * while it sends or is paused, while rows are still pending (a cancel ending them), and until its
 * figures have not changed for FIGURES_SETTLE_MS (receipts and opens arrive after the send).
 */
export function figuresMayChange(
  c: { status: CampaignStatus; pendingCount: number; updatedAt: string },
  now = Date.now(),
): boolean {
  if (c.status === "Active" || c.status === "Paused") return true;
  if (c.status === "Draft") return false;
  return c.pendingCount > 0 || now - Date.parse(c.updatedAt) < FIGURES_SETTLE_MS;
}

export type SuccessBand = "Excellent" | "Good" | "Fair" | "Poor";

/** The detail screen's band of a delivery success rate (a percentage). */
export function successBand(rate: number): SuccessBand {
  if (rate >= 90) return "Excellent";
  if (rate >= 70) return "Good";
  if (rate >= 50) return "Fair";
  return "Poor";
}

export const successBandColour: Record<SuccessBand, ChipColour> = {
  Excellent: "success",
  Good: "primary",
  Fair: "warning",
  Poor: "error",
};

/** A campaign counts as successful at a delivery success rate of 90 or more. */
export const isSuccessful = (rate: number) => rate >= 90;

/** The list's success chip: sent / (sent + failed), rounded, and its colour; null before either (no rate). */
export function listSuccessChip(sent: number, failed: number): { value: number; colour: ChipColour } | null {
  const rate = rateOf(sent, sent + failed);
  if (rate === null) return null;
  const value = Math.round(rate);
  return { value, colour: successChipColour(value) };
}

/** A success chip's colour (list and dashboard): below 60 error, below 90 warning, else success. */
export const successChipColour = (rate: number): ChipColour =>
  rate < 60 ? "error" : rate < 90 ? "warning" : "success";

/** The figures of the CAMPAIGN_PERFORMANCE notification: sent / audience and opened / sent. */
export function performanceRates(c: { audienceSize: number; sent: number; opened: number }) {
  return { deliveryRate: percent(c.sent, c.audienceSize), openRate: c.opened > 0 ? percent(c.opened, c.sent) : null };
}

// Delivery ids: the campaign id's 8 time characters, then the row's seq in 16 hex digits.
const DELIVERY_ID = /^([0-9a-f]{8})([0-9a-f]{16})(?:r([1-9]\d{0,5}))?$/;

export function deliveryId(campaignId: string, seq: number): string {
  return campaignId.slice(0, 8) + seq.toString(16).padStart(16, "0");
}

/**
 * The idempotency key of a row's message: its delivery id, and for the n-th "Retry failed" an
 * "r<n>" after it (a retry is a new message, which a vendor must not take for the first one).
 */
export function deliveryKey(campaignId: string, seq: number, retries: number): string {
  return deliveryId(campaignId, seq) + (retries > 0 ? `r${retries}` : "");
}

/** The row (and retry) a delivery id or key names, or null for text that is not one. */
export function parseDeliveryId(id: string): { prefix: string; seq: number; retries: number } | null {
  const m = DELIVERY_ID.exec(id);
  if (!m) return null;
  const seq = Number.parseInt(m[2], 16);
  return Number.isSafeInteger(seq) && seq > 0 ? { prefix: m[1], seq, retries: m[3] ? Number(m[3]) : 0 } : null;
}

/**
 * A segment's audience as a launch would write it: the customers it matches (`audience`), those of
 * them on the tenant's suppression list (`suppressed`, left out), and the rest (`receivers`).
 */
export type AudienceReach = { audience: number; suppressed: number; receivers: number };

/**
 * How the wizard and the launch say who gets a campaign: "3,120 of 3,271 will receive it; 151
 * suppressed", or with nobody suppressed just the audience, "3,271 customers will receive it".
 */
export function audienceReachText({ audience, suppressed, receivers }: AudienceReach): string {
  if (suppressed <= 0) return `${formatCount(audience)} customer${audience === 1 ? "" : "s"} will receive it`;
  return `${formatCount(receivers)} of ${formatCount(audience)} will receive it; ${formatCount(suppressed)} suppressed`;
}

/**
 * The details of a delivery row the send left out because its address was suppressed after the
 * launch: "Not sent: the address was unsubscribed on 25 Nov 2026". `reason` is the list's
 * (unsubscribed, hard-bounced, complained, manual); `on` the day it was suppressed, written in the
 * tenant's zone.
 */
export function suppressedDetails(reason: string, on: string): string {
  switch (reason) {
    case "unsubscribed":
      return `Not sent: the address was unsubscribed on ${on}`;
    case "hard-bounced":
      return `Not sent: the address hard-bounced on ${on}`;
    case "complained":
      return `Not sent: its owner marked our e-mail as spam on ${on}`;
    default:
      return `Not sent: the address was added to the suppression list by hand on ${on}`;
  }
}

/** The toast after a launch when nobody was left out. */
export const LAUNCHED = "Campaign launched successfully!";

/**
 * The toast after a launch: LAUNCHED, or when the launch left suppressed customers out, who gets it:
 * "Campaign launched: 3,120 of 3,271 will receive it; 151 suppressed".
 */
export function launchedMessage(c: { audienceSize: number; suppressedAtLaunch: number }): string {
  if (c.suppressedAtLaunch <= 0) return LAUNCHED;
  const audience = c.audienceSize + c.suppressedAtLaunch;
  return `Campaign launched: ${audienceReachText({ audience, suppressed: c.suppressedAtLaunch, receivers: c.audienceSize })}`;
}

/** What {NAME} becomes when a recipient has no name. */
export const NAME_FALLBACK = "Customer";

/**
 * The message as one recipient reads it: every {NAME} replaced by their name, literally. The name
 * goes in through a function: a replacement string would read `$&`, `$'`, `$$`… in it as patterns.
 */
export function personalise(message: string, name: string): string {
  const value = name.trim() || NAME_FALLBACK;
  return message.replaceAll("{NAME}", () => value);
}

/** The wizard's preview: only the first {NAME} is replaced, with a sample name (literally, as above). */
export function previewMessage(message: string, sampleName: string): string {
  return message.replace("{NAME}", () => sampleName);
}

export const hasNamePlaceholder = (message: string) => message.includes("{NAME}");
