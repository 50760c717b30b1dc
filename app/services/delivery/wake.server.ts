// A launch, resume or retry tells the delivery job to look for work now instead of at its next
// idle check. It is a message on the process bus: the process that runs the job (the primary, or
// the only process) hears it from any worker and passes it to the job's thread.
import { publish, subscribe } from "~/services/process-bus.server";

export const DELIVERY_WAKE_TOPIC = "delivery:wake";

export function wakeDelivery(): void {
  publish(DELIVERY_WAKE_TOPIC, null);
}

export function onDeliveryWake(listener: () => void): () => void {
  return subscribe(DELIVERY_WAKE_TOPIC, listener);
}
