// The bounce mailbox job: a Bree worker thread that reads BOUNCE_MAILBOX_URL once
// (app/services/feedback/bounce-mailbox.server.ts), queues the receipts its DSNs and abuse reports
// mean in the receipts inbox on a database connection of its own, and ends. Bree starts it at
// server start and every BOUNCE_MAILBOX_POLL_SECONDS after; it is registered only when
// BOUNCE_MAILBOX_URL is set (app/services/job-scheduler.server.ts).
// What the parent hears (FromBounceMailboxJob): "wake" after receipts were queued (the delivery
// job applies them now rather than at its next idle check), log lines, "done" at the end.
//
// One instance at a time reads the mailbox: on PostgreSQL each poll holds the advisory lock
// "job:bounce-mailbox" (app/db/advisory-lock.server.ts) and is skipped while another instance
// polls, so two never read (and queue) the same reports at once.
import { parentPort } from "node:worker_threads";
import { runOnceAcrossInstances } from "../app/db/advisory-lock.server.ts";
import { closeConnection, openConnection } from "../app/db/connection.server.ts";
import { getEnv } from "../app/env.server.ts";
import { runAtBackgroundPriority } from "../app/lib/thread-priority.server.ts";
import { deliveryReceipts } from "../app/models/deliveries/receipts/store.server.ts";
import {
  BOUNCE_MAILBOX_JOB,
  BounceMailboxError,
  type FromBounceMailboxJob,
  pollBounceMailbox,
} from "../app/services/feedback/bounce-mailbox.server.ts";

runAtBackgroundPriority();

const post = (message: FromBounceMailboxJob | "done") => parentPort?.postMessage(message);

const env = getEnv();
const mailboxUrl = env.BOUNCE_MAILBOX_URL;
async function poll(url: string) {
  // A connection of this thread's own (on PostgreSQL a pool of one).
  const sqlite = openConnection({ poolSize: 1, applicationName: "crm bounce mailbox" });
  try {
    const result = await pollBounceMailbox(url, async (receipts) => {
      await deliveryReceipts.queueReceipts(sqlite, receipts);
      post({ type: "wake" });
    });
    if (result.read > 0) {
      post({
        type: "log",
        level: "info",
        message: "bounce mailbox read",
        fields: {
          read: result.read,
          queued: result.queued,
          processed: result.processed,
          unrecognised: result.unrecognised,
        },
      });
    }
  } catch (err) {
    // The mailbox could not be reached or read: said once a poll, tried again at the next.
    post({
      type: "log",
      level: err instanceof BounceMailboxError ? "warn" : "error",
      message:
        err instanceof BounceMailboxError
          ? `Bounce mailbox: ${err.message} Trying again in ${env.BOUNCE_MAILBOX_POLL_SECONDS} s.`
          : `Bounce mailbox poll failed: ${String((err as Error)?.stack ?? err)}`,
    });
  } finally {
    await closeConnection(sqlite);
  }
}
if (mailboxUrl) {
  try {
    await runOnceAcrossInstances(BOUNCE_MAILBOX_JOB, () => poll(mailboxUrl));
  } catch (err) {
    // The lock could not be taken (the database unreachable): tried again at the next poll.
    post({ type: "log", level: "warn", message: `Bounce mailbox: ${(err as Error).message}` });
  }
}
post("done");
