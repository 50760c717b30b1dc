// The scheduler of the background jobs (Bree), started once per server by the process that owns the database's setup
// (the cluster's primary, or the only process; never by an HTTP worker, so never twice). Bree is
// the scheduler: the delivery job (jobs/delivery.ts drains the delivery table, the queue, in a
// worker thread; its wiring is app/services/sending/job.server.ts, with the built-in vendor) and
// the dashboard's daily snapshots (jobs/snapshots.ts); beside them, the clock that launches
// scheduled campaigns (campaigns/schedule-clock.server.ts) and the flow clock that moves people
// through flows (flows/flow-clock.server.ts). A request's heavy work (imports, exports,
// launches) goes to another thread, background-work.server.ts, when the request comes, not here.
import Bree from "bree";
import type { Logger } from "~/lib/logger.server";
import { DELIVERY_JOB, prepareDeliveryJob } from "~/services/sending/job.server";
import { BOUNCE_MAILBOX_JOB, onBounceMailboxMessage } from "~/services/feedback/bounce-mailbox.server";
import { getEnv } from "~/env.server";
import { jobEntry } from "~/services/job-entry.server";
import { startScheduleClock } from "~/services/campaigns/schedule-clock.server";
import { startFlowClock } from "~/services/flows/flow-clock.server";

export type BackgroundJobs = { stop(): Promise<void> };

/**
 * Starts the jobs. `root` is the application's folder (with package.json): the job files are
 * found from it by jobEntry(), compiled in production and from the source otherwise.
 */
export async function startBackgroundJobs(options: { root: string; log: Logger }): Promise<BackgroundJobs> {
  const log = options.log.child({ component: "jobs" });
  const delivery = await prepareDeliveryJob(log);
  const env = getEnv();
  const bounceMailbox = env.BOUNCE_MAILBOX_URL ? env.BOUNCE_MAILBOX_POLL_SECONDS * 1000 : null;

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
    workerMessageHandler: ({ name, message }: { name: string; message: unknown }) =>
      name === BOUNCE_MAILBOX_JOB ? onBounceMailboxMessage(message, log) : delivery.onMessage(message),
    jobs: [
      {
        name: DELIVERY_JOB,
        path: jobEntry("delivery", options.root),
        // Started at once, then again every few seconds when it has ended (an idle server keeps
        // no thread): a launch wakes it sooner.
        timeout: 0,
        interval: "5s",
        worker: { workerData: delivery.workerData },
      },
      // The dashboard's daily snapshots (jobs/snapshots.ts): at start, then every hour.
      { name: "snapshots", path: jobEntry("snapshots", options.root), timeout: 0, interval: "1h" },
      // The bounce mailbox (jobs/bounce-mailbox.ts), when BOUNCE_MAILBOX_URL is set: at start, then
      // every BOUNCE_MAILBOX_POLL_SECONDS.
      ...(bounceMailbox
        ? [
            {
              name: BOUNCE_MAILBOX_JOB,
              path: jobEntry("bounce-mailbox", options.root),
              timeout: 0,
              interval: bounceMailbox,
            },
          ]
        : []),
    ],
  });

  const stopWaking = delivery.listenForWakes(() => {
    const worker = bree.workers.get(DELIVERY_JOB);
    if (worker) worker.postMessage("wake");
    else bree.run(DELIVERY_JOB).catch((err: unknown) => log.error({ err }, "could not start the delivery job"));
  });
  await bree.start();
  // Scheduled campaigns: a query every few seconds on this thread and, when one is due, the launch
  // a request would make, which hands its audience to the background work thread. Not a Bree job:
  // that thread is this process's, out of a job's worker thread's reach.
  const scheduleClock = startScheduleClock(log);
  // Flows: the same kind of clock, once a second (services/flows/flow-clock.server.ts).
  const flowClock = startFlowClock(log);

  return {
    async stop() {
      stopWaking();
      await scheduleClock.stop();
      await flowClock.stop();
      await bree.stop();
      await delivery.close();
    },
  };
}
