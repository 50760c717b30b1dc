// A launch, resume or retry tells the delivery job to look for work now instead of at its next
// idle check; a pause, resume or cancel also says which campaign changed to what. It is a message
// on the process bus: the process that runs the job (the primary, or the only process) hears it
// from any worker and passes it to the job's thread, and on PostgreSQL every instance's job hears
// it (docs/decisions/0034-many-instances.md), so each looks for work at once and each can stop
// sending a campaign paused or cancelled on another.
import { publish, subscribe } from "~/services/process-bus.server";

export const DELIVERY_WAKE_TOPIC = "delivery:wake";

/** A campaign whose sending was paused, resumed or cancelled (by a person or by the error cap). */
export type CampaignStatusChange = { campaignId: string; status: "Active" | "Paused" | "Cancelled" };

/** What a wake carries: a status change, or null for "look for work". */
export type DeliveryWake = CampaignStatusChange | null;

const STATUSES = new Set(["Active", "Paused", "Cancelled"]);

/** A wake's payload as it arrived (from another instance too): a well-formed change, or null. */
function asWake(payload: unknown): DeliveryWake {
  const change = payload as Partial<CampaignStatusChange> | null;
  return change &&
    typeof change.campaignId === "string" &&
    typeof change.status === "string" &&
    STATUSES.has(change.status)
    ? { campaignId: change.campaignId, status: change.status }
    : null;
}

// Plain wakes come in bursts (every receipts post and tracked open wakes the job, and on
// PostgreSQL each wake is a notification to every instance): at most one every COALESCE_MS goes
// out, the last of a burst at the end of its window, so none is lost and a busy job loses nothing
// by it (it looks for work after each batch anyway).
const COALESCE_MS = 50;
let lastWake = 0;
let pendingWake: NodeJS.Timeout | null = null;

function sendWake() {
  lastWake = Date.now();
  publish(DELIVERY_WAKE_TOPIC, null);
}

/** Look for work now (after a launch, a retry, receipts queued), on every instance. */
export function wakeDelivery(): void {
  if (pendingWake) return;
  const since = Date.now() - lastWake;
  if (since >= COALESCE_MS) {
    sendWake();
    return;
  }
  pendingWake = setTimeout(() => {
    pendingWake = null;
    sendWake();
  }, COALESCE_MS - since);
  // A CLI command that woke the job does not stay up for it.
  pendingWake.unref();
}

/** A campaign's sending was paused, resumed or cancelled: every instance's job hears it at once (never coalesced). */
export function campaignStatusChanged(change: CampaignStatusChange): void {
  publish(DELIVERY_WAKE_TOPIC, { campaignId: change.campaignId, status: change.status } satisfies CampaignStatusChange);
}

/** Calls the listener with every wake, from this instance or another; returns the call that stops it. */
export function onDeliveryWake(listener: (wake: DeliveryWake) => void): () => void {
  return subscribe<unknown>(DELIVERY_WAKE_TOPIC, (payload) => listener(asWake(payload)));
}
