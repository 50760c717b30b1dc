// The dashboard snapshots job: a Bree worker thread that brings every tenant's daily snapshot up
// to now on a database connection it opens for itself and hands to the service
// (app/services/dashboard/snapshots.server.ts), then ends. Bree runs it at server start (which
// writes today's row where it is missing) and every hour after, so the dashboard counts at most an
// hour of new rows on top of the latest snapshot. On PostgreSQL every instance runs it, and the
// service's advisory lock lets one run at a time; a run that finds it held does nothing.
// What the parent hears: { type: "event", event: { type: "error" } } on a failure, "done" at the end.
import { parentPort } from "node:worker_threads";
import { closeConnection, openConnection } from "../app/db/connection.server.ts";
import { runAtBackgroundPriority } from "../app/lib/thread-priority.server.ts";
import { takeSnapshots } from "../app/services/dashboard/snapshots.server.ts";

// Requests first: this thread takes the CPU they leave (app/lib/thread-priority.server.ts).
runAtBackgroundPriority();

const post = (message: unknown) => parentPort?.postMessage(message);

// Two connections on PostgreSQL: one holds the run's advisory lock, the other runs the transactions.
const connection = openConnection({ poolSize: 2, applicationName: "crm-snapshots" });
const fail = (message: string) => post({ type: "event", event: { type: "error", message } });
try {
  const { failed } = await takeSnapshots(connection);
  for (const f of failed) fail(`Dashboard snapshot of tenant ${f.userId} failed: ${f.error}`);
} catch (err) {
  fail(`Dashboard snapshots failed: ${String((err as Error)?.stack ?? err)}`);
  await closeConnection(connection);
  process.exit(1);
}
await closeConnection(connection);
post("done");
