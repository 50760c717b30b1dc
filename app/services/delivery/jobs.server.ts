// The background jobs, started once per server by the process that owns the database's setup
// (the cluster's primary, or the only process; never by an HTTP worker, so never twice). Bree is
// the scheduler; the delivery table is the queue (jobs/delivery.ts drains it in a worker thread).
//
// With the built-in vendor (DELIVERY_CHANNEL=simulated and no SIMULATED_VENDOR_URL), the vendor
// runs here too, on a loopback port, and posts its receipts to this server's receipts endpoint.
import { randomBytes } from "node:crypto";
import Bree from "bree";
import { getEnv } from "~/env.server";
import type { Logger } from "~/lib/logger.server";
import { notifyPaused, notifyPerformance } from "~/services/campaigns.server";
import type { EngineEvent } from "~/services/delivery/engine.server";
import { startSimulatedVendor, type SimulatedVendor } from "~/services/delivery/simulated-vendor.server";
import { jobEntry } from "~/services/job-entry.server";
import { onDeliveryWake } from "~/services/delivery/wake.server";

export type BackgroundJobs = { stop(): Promise<void> };

const DELIVERY_JOB = "delivery";

function isJobEvent(message: unknown): message is { type: "event"; event: EngineEvent } {
  return typeof message === "object" && message !== null && (message as { type?: unknown }).type === "event";
}

/**
 * Starts the jobs. `root` is the application's folder (with package.json): the job files are
 * found from it by jobEntry(), compiled in production and from the source otherwise.
 */
export async function startBackgroundJobs(options: { root: string; log: Logger }): Promise<BackgroundJobs> {
  const env = getEnv();
  const log = options.log.child({ component: "jobs" });
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
        "campaign paused by the error cap",
      );
      notifyPaused(event.campaign).catch((err: unknown) =>
        log.error({ err }, "could not write the paused notification"),
      );
    } else if (event.type === "error") {
      log.error(event.message);
    }
  };

  const bree = new Bree({
    root: false,
    defaultExtension: "mjs",
    acceptedExtensions: [".mjs", ".js"],
    // Bree's own lines go to our log; "already running" is the normal answer to a wake or an
    // interval while the job works, not a warning.
    logger: {
      info: (message: unknown) => log.debug(String(message)),
      warn: (message: unknown) => (String(message).includes("already running") ? undefined : log.warn(String(message))),
      error: (message: unknown, meta?: unknown) => log.error({ meta }, String(message)),
    } as unknown as Console,
    errorHandler: (err: unknown, meta: unknown) => log.error({ err, meta }, "background job failed"),
    workerMessageHandler: ({ message }: { message: unknown }) => {
      if (isJobEvent(message)) handleEvent(message.event);
    },
    jobs: [
      {
        name: DELIVERY_JOB,
        path: jobEntry("delivery", options.root),
        // Started at once, then again every few seconds when it has ended (an idle server keeps
        // no thread): a launch wakes it sooner.
        timeout: 0,
        interval: "5s",
        worker: { workerData: { vendorUrl: vendor?.url, vendorKey } },
      },
      // The dashboard's daily snapshots (jobs/snapshots.ts): at start, then every hour.
      { name: "snapshots", path: jobEntry("snapshots", options.root), timeout: 0, interval: "1h" },
    ],
  });

  const wake = () => {
    const worker = bree.workers.get(DELIVERY_JOB);
    if (worker) worker.postMessage("wake");
    else bree.run(DELIVERY_JOB).catch((err: unknown) => log.error({ err }, "could not start the delivery job"));
  };
  const stopWaking = onDeliveryWake(wake);
  await bree.start();

  return {
    async stop() {
      stopWaking();
      await bree.stop();
      await vendor?.close();
    },
  };
}
