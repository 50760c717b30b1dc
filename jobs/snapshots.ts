// The dashboard snapshots job: a Bree worker thread that brings every tenant's daily snapshot up
// to now on a database connection it opens for itself and hands to the service
// (app/services/dashboard/snapshots.server.ts), then ends. Bree runs it at server start (which
// writes today's row where it is missing) and every hour after, so the dashboard counts at most an
// hour of new rows on top of the latest snapshot.
// What the parent hears: { type: "event", event: { type: "error" } } on a failure, "done" at the end.
import { parentPort } from "node:worker_threads";
import { openSqlite } from "../app/db/sqlite.server.ts";
import { runAtBackgroundPriority } from "../app/lib/thread-priority.server.ts";
import { getEnv } from "../app/env.server.ts";
import { takeSnapshots } from "../app/services/dashboard/snapshots.server.ts";

// Requests first: this thread takes the CPU they leave (app/lib/thread-priority.server.ts).
runAtBackgroundPriority();

const post = (message: unknown) => parentPort?.postMessage(message);

const sqlite = openSqlite(getEnv().databaseFile);
const fail = (message: string) => post({ type: "event", event: { type: "error", message } });
try {
  const { failed } = await takeSnapshots(sqlite);
  for (const f of failed) fail(`Dashboard snapshot of tenant ${f.userId} failed: ${f.error}`);
} catch (err) {
  fail(`Dashboard snapshots failed: ${String((err as Error)?.stack ?? err)}`);
  sqlite.close();
  process.exit(1);
}
sqlite.close();
post("done");
