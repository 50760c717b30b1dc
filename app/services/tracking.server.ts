// Opens and clicks: what /o/TOKEN and /c/TOKEN do with a hit. A token this server sealed
// becomes one Receipt ("opened" from the pixel, "clicked" from a link, `machine` for HEAD, bots and
// Apple's privacy proxy: app/lib/machine-events.ts), queued like every other receipt
// (queueReceiptsOffThread, then wakeDelivery) for the delivery job to apply; a token it did not
// seal records nothing. Hits are gathered for a few milliseconds and queued together: a burst of
// clicks after a campaign lands is one small write per batch, not one per hit. Each hit gets an
// event id of its own: however many times its receipt is queued or applied, by however many
// instances, it is stored (and counted) once (the DeliveryEvent (source, eventId) key).
import { randomUUID } from "node:crypto";
import { logger } from "~/lib/logger.server";
import { type Hit, machineClick, machineOpen } from "~/lib/machine-events";
import type { Receipt } from "~/models/deliveries/receipts/rows";
import { queueReceiptsOffThread } from "~/services/background-work.server";
import { wakeDelivery } from "~/services/sending/wake.server";
import { readClickToken, readOpenToken } from "~/services/tracking-token.server";

export type { Hit } from "~/lib/machine-events";

/** A 1×1 transparent GIF (GIF89a, one colour, a transparent pixel): 43 bytes. */
export const TRANSPARENT_GIF = Buffer.from("R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==", "base64");

/** The headers of every /o and /c answer. */
export const TRACKING_HEADERS = {
  "Cache-Control": "no-store, private",
  "Referrer-Policy": "no-referrer",
  "X-Robots-Tag": "noindex",
} as const;

/** How long a hit waits for others to be queued with it. */
const BATCH_MS = 5;
/** Receipts queued in one write at most (a batch this full goes at once). */
const BATCH_MAX = 250;

type Batch = { receipts: Receipt[]; done: Promise<void>; resolve: () => void; timer: NodeJS.Timeout };
let open: Batch | null = null;

function flush(batch: Batch) {
  if (open === batch) open = null;
  clearTimeout(batch.timer);
  queueReceiptsOffThread(batch.receipts)
    .then(
      () => wakeDelivery(),
      // The visitor still gets their image or their page: a hit is not worth an error page.
      (error: unknown) => logger().error({ err: error, receipts: batch.receipts.length }, "tracking: hits not queued"),
    )
    .finally(batch.resolve);
}

/** Queues a receipt with the others of the moment; resolves once its batch is stored (or failed, logged). */
function queueHit(receipt: Receipt): Promise<void> {
  let batch = open;
  if (!batch) {
    let resolve: () => void = () => {};
    const done = new Promise<void>((r) => (resolve = r));
    const made: Batch = { receipts: [], done, resolve, timer: setTimeout(() => flush(made), BATCH_MS) };
    batch = open = made;
  }
  batch.receipts.push(receipt);
  if (batch.receipts.length >= BATCH_MAX) flush(batch);
  return batch.done;
}

/** A pixel fetch: an "opened" receipt for a token this server sealed; false (nothing recorded) for any other. */
export async function recordOpen(token: string, hit: Hit, at = Date.now()): Promise<boolean> {
  const opened = readOpenToken(token);
  if (!opened) return false;
  await queueHit({
    id: opened.deliveryId,
    event: "opened",
    at,
    source: "pixel",
    eventId: randomUUID(),
    machine: machineOpen(hit) !== null,
  });
  return true;
}

/**
 * A click: the link's original address for a token this server sealed (after queueing a "clicked"
 * receipt), or null for any other (nothing recorded, and no redirect anywhere).
 */
export async function recordClick(token: string, hit: Hit, at = Date.now()): Promise<string | null> {
  const click = readClickToken(token);
  if (!click) return null;
  await queueHit({
    id: click.deliveryId,
    event: "clicked",
    at,
    source: "link",
    eventId: randomUUID(),
    link: click.link,
    machine: machineClick(hit) !== null,
  });
  return click.url;
}
