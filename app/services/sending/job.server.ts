// The delivery job's wiring in the process that runs the background jobs
// (app/services/job-scheduler.server.ts): the built-in vendor it sends to, what it tells this
// process (completions and pauses, which become notifications), and the wakes a launch, resume or
// retry sends it.
//
// With the built-in vendor (DELIVERY_CHANNEL=simulated and no SIMULATED_VENDOR_URL), the vendor
// runs here too, on a loopback port, and posts its receipts to this server's receipts endpoint.
import { randomBytes } from "node:crypto";
import { getEnv } from "~/env.server";
import type { Logger } from "~/lib/logger.server";
import { notifyPaused, notifyPerformance } from "~/services/campaigns/reports.server";
import { deliveryStartNotes } from "~/services/sending/channels.server";
import type { EngineEvent } from "~/services/sending/engine-settings.server";
import { startSimulatedVendor, type SimulatedVendor } from "~/services/sending/simulated-vendor.server";
import { onDeliveryWake } from "~/services/sending/wake.server";

/** The Bree job's name. */
export const DELIVERY_JOB = "delivery";

export type DeliveryJobWiring = {
  /** What the job's worker thread is started with (jobs/delivery.ts reads it). */
  workerData: { vendorUrl?: string; vendorKey?: string };
  /** A message from the job's thread. */
  onMessage(message: unknown): void;
  /** Passes every wake (from any instance, on PostgreSQL) to `wake`; returns the call that stops it. */
  listenForWakes(wake: () => void): () => void;
  /** Closes the built-in vendor (after the job has stopped: its last batches may still send). */
  close(): Promise<void>;
};

/** The built-in vendor this process runs, for a message sent outside a campaign (a template's test). */
let runningVendor: { vendorUrl: string; vendorKey: string } | null = null;
export const builtInVendor = () => runningVendor;

function isJobEvent(message: unknown): message is { type: "event"; event: EngineEvent } {
  return typeof message === "object" && message !== null && (message as { type?: unknown }).type === "event";
}

/** Starts the built-in vendor when it is the channel; returns the rest of the delivery job's wiring. */
export async function prepareDeliveryJob(log: Logger): Promise<DeliveryJobWiring> {
  const env = getEnv();
  // Once per server: an http:// PUBLIC_URL for real mail, and whether SMTP mail is DKIM-signed.
  for (const note of deliveryStartNotes(env)) log[note.level](note.message);
  let vendor: SimulatedVendor | undefined;
  let vendorKey = env.SIMULATED_VENDOR_KEY;
  if (env.DELIVERY_CHANNEL === "simulated" && !env.SIMULATED_VENDOR_URL) {
    vendorKey = randomBytes(24).toString("hex");
    vendor = await startSimulatedVendor({
      apiKey: vendorKey,
      receiptsUrl: `http://127.0.0.1:${env.PORT}/api/webhooks/delivery-receipts`,
      receiptsSecret: env.receiptsSecret,
      log: (line) => log.warn(line),
    });
    log.info({ url: vendor.url }, "built-in e-mail vendor listening");
    runningVendor = { vendorUrl: vendor.url, vendorKey };
  }

  const handleEvent = (event: EngineEvent) => {
    if (event.type === "completed") {
      log.info({ campaignId: event.campaign.id }, "campaign completed");
      notifyPerformance(event.campaign).catch((err: unknown) =>
        log.error({ err }, "could not write the campaign's performance notification"),
      );
    } else if (event.type === "paused") {
      log.warn(
        { campaignId: event.campaign.id, detail: event.campaign.statusDetail },
        // The error cap, a relay refusing the sender, a vendor's refusal: the detail says which.
        "campaign paused while sending",
      );
      notifyPaused(event.campaign).catch((err: unknown) =>
        log.error({ err }, "could not write the paused notification"),
      );
    } else if (event.type === "error") {
      log.error(event.message);
    }
  };

  return {
    workerData: { vendorUrl: vendor?.url, vendorKey },
    onMessage(message) {
      if (isJobEvent(message)) handleEvent(message.event);
    },
    listenForWakes: (wake) => onDeliveryWake(wake),
    async close() {
      runningVendor = null;
      await vendor?.close();
    },
  };
}
