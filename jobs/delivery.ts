// The delivery job: a Bree worker thread that drains the delivery table through the configured
// channel (app/services/sending/engine.server.ts) with a database connection of its own.
//
// Bree starts it at server start and again every few seconds if it is not running; it keeps
// running while there is work (campaigns sending, receipts queued) and ends after a quiet spell, so an idle server holds no thread.
// Messages from the parent: "wake" (a launch, resume or retry: look for work now) and "cancel"
// (the server is stopping: finish the batches out, then exit; a batch that does not come back in
// time is claimed again when its lease runs out). What the parent hears: { type: "event", event }
// for completions and pauses (it writes the notifications), and "done" when the job ends.
import { parentPort, workerData } from "node:worker_threads";
import { closeConnection, openConnection } from "../app/db/connection.server.ts";
import { runAtBackgroundPriority } from "../app/lib/thread-priority.server.ts";
import { getEnv } from "../app/env.server.ts";
import { campaigns } from "../app/models/campaigns/store.server.ts";
import { launches } from "../app/models/launch/store.server.ts";
import { deliveryReceipts } from "../app/models/deliveries/receipts/store.server.ts";
import { createChannel } from "../app/services/sending/channels.server.ts";
import { createDeliveryEngine } from "../app/services/sending/engine.server.ts";
import type { EngineEvent } from "../app/services/sending/engine-settings.server.ts";

// Requests first: this thread takes the CPU they leave (app/lib/thread-priority.server.ts).
runAtBackgroundPriority();

type JobData = { vendorUrl?: string; vendorKey?: string; quietMs?: number };
const data = (workerData ?? {}) as JobData;
const post = (message: unknown) => parentPort?.postMessage(message);

// An unhandled rejection in a worker thread ends it with exit code 0, which Bree reports as a
// success: report it and exit with a failure instead.
process.on("unhandledRejection", (reason) => {
  post({
    type: "event",
    event: {
      type: "error",
      message: `Unhandled rejection in the delivery job: ${String((reason as Error)?.stack ?? reason)}`,
    } satisfies EngineEvent,
  });
  process.exit(1);
});

const env = getEnv();
// The queue's working set is the rows being claimed and answered: a small page cache does (on
// PostgreSQL, a pool of this thread's own).
const sqlite = openConnection({ cacheMiB: 16, applicationName: "crm delivery" });
const channel = createChannel(env, { vendorUrl: data.vendorUrl, vendorKey: data.vendorKey });
const engine = createDeliveryEngine({
  connection: sqlite,
  channel,
  settings: {
    batchSize: env.DELIVERY_BATCH_SIZE,
    concurrency: env.DELIVERY_CONCURRENCY,
    ratePerSecond: env.DELIVERY_RATE_PER_SECOND,
    errorCap: env.DELIVERY_ERROR_CAP,
    maxAttempts: env.DELIVERY_MAX_ATTEMPTS,
    leaseMs: env.DELIVERY_LEASE_SECONDS * 1000,
    feedback: {
      scannerWindowMs: env.TRACKING_SCANNER_WINDOW_SECONDS * 1000,
      softBounceLimit: env.SOFT_BOUNCE_LIMIT,
      softBounceWindowMs: env.SOFT_BOUNCE_WINDOW_DAYS * 24 * 3_600_000,
    },
  },
  onEvent: (event) => {
    if (event.type !== "progress") post({ type: "event", event });
  },
});

let ending = false;
async function end() {
  if (ending) return;
  ending = true;
  clearInterval(quietCheck);
  await engine.stop();
  await channel.close();
  await closeConnection(sqlite);
  post("done");
  process.exit(0);
}

parentPort?.on("message", (message: unknown) => {
  if (message === "wake") engine.wake();
  else if (message === "cancel") void end();
});

// Ends after a quiet spell: no campaign sending for quietMs.
const quietMs = data.quietMs ?? 30_000;
let lastBusy = Date.now();
const quietCheck = setInterval(async () => {
  if (ending) return;
  if (
    (await campaigns.sendingCampaigns(sqlite)).length > 0 ||
    (await deliveryReceipts.queuedReceiptBatches(sqlite)) > 0
  )
    lastBusy = Date.now();
  else if (Date.now() - lastBusy >= quietMs) void end();
}, 1000);

// A launch cut off by a crash (its draft still marked as launching, no slice written for a
// minute) gets its partial audience removed, so it can be launched again.
await launches.recoverInterrupted(sqlite);
void engine.run();
