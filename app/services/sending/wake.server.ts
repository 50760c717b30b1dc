// A launch, resume, cancel or retry (or receipts queued) tells the delivery job to look for work
// now instead of at its next idle check. It is a message on the process bus: the process that runs
// the job (the primary, or the only process) hears it from any worker and passes it to the job's
// thread, and on PostgreSQL every instance's job hears it (docs/decisions/0034-many-instances.md),
// so each instance's job looks for the new work at once.
//
// A pause or cancel needs no message to stop the sends of other instances: each engine checks the
// campaign's status in the database before a message goes (on PostgreSQL through a status read at
// most 200 ms old, and the control answers only after that long: send-checks.postgres.server.ts).
import { publish, subscribe } from "~/services/process-bus.server";

export const DELIVERY_WAKE_TOPIC = "delivery:wake";

// Wakes come in bursts (every receipts post and tracked open wakes the job, and on PostgreSQL each
// wake is a notification to every instance): at most one every COALESCE_MS goes out, the last of a
// burst at the end of its window, so none is lost, and a busy job loses nothing by the wait (it
// looks for work after each batch anyway).
const COALESCE_MS = 50;
let lastWake = 0;
let pendingWake: NodeJS.Timeout | null = null;

function sendWake() {
  lastWake = Date.now();
  publish(DELIVERY_WAKE_TOPIC, null);
}

/** Look for work now, on every instance. */
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

/** Calls the listener with every wake, from this instance or another; returns the call that stops it. */
export function onDeliveryWake(listener: () => void): () => void {
  return subscribe(DELIVERY_WAKE_TOPIC, () => listener());
}
