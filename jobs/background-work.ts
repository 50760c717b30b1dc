// The background work thread: CSV imports and exports, campaign launches and receipt batches
// (app/services/background-work.server.ts starts it and says why). Each job arrives with a
// MessagePort of its own; the work is the same code the CLI runs in its own process
// (app/services/customer-import.server.ts, launches.start in app/models/launch/store.server.ts),
// on connections of this thread.
//
// Import: the upload's chunks arrive on the port; each is acknowledged ("read") once the import has
// taken it, which lets the request thread send more. Progress and the result (or the refusal) go
// back on the port. Export: the CSV is read a page at a time, only as many pages as the response
// has asked for ("more"); "cancel" or a closed port stops it.
import { type MessagePort, parentPort, threadId } from "node:worker_threads";
import { ApiError } from "../app/lib/api.server.ts";
import { runAtBackgroundPriority } from "../app/lib/thread-priority.server.ts";
import { exportCustomersCsv } from "../app/services/customer-export.server.ts";
import { importCustomerRows } from "../app/services/customer-import.server.ts";
import { openSqlite } from "../app/db/sqlite.server.ts";
import { launches } from "../app/models/launch/store.server.ts";
import { deliveryReceipts } from "../app/models/deliveries/receipts/store.server.ts";
import { type AnyConnection, closeConnection, openConnection } from "../app/db/connection.server.ts";
import { getEnv } from "../app/env.server.ts";
import { parseReceiptsBody } from "../app/services/sending/receipts-body.server.ts";
import type {
  ExportJob,
  FromExport,
  FromImport,
  FromWorker,
  FromLaunch,
  FromReceipts,
  ImportJob,
  Job,
  JobFailure,
  LaunchJob,
  ReceiptsJob,
  ToExport,
  ToImport,
} from "../app/services/background-work.server.ts";

// Requests first: this thread takes the CPU they leave (app/lib/thread-priority.server.ts).
runAtBackgroundPriority();

function failure(error: unknown): JobFailure {
  if (error instanceof ApiError) return { code: error.code, message: error.message };
  if (error instanceof Error) return { message: error.message, stack: error.stack };
  return { message: String(error) };
}

/** The upload as the import reads it: chunks as they arrive, each acknowledged when taken. */
function uploadFrom(port: MessagePort): AsyncIterable<Uint8Array> {
  const queue: Uint8Array[] = [];
  let ended = false;
  let aborted: string | null = null;
  let waiting: (() => void) | null = null;
  const wake = () => {
    waiting?.();
    waiting = null;
  };
  port.on("message", (message: ToImport) => {
    if (message.type === "chunk") queue.push(message.chunk);
    else if (message.type === "end") ended = true;
    else aborted = message.message;
    wake();
  });
  port.on("close", () => {
    aborted ??= "The upload was cut short.";
    wake();
  });
  return {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const chunk = queue.shift();
        if (chunk) {
          yield chunk;
          port.postMessage({ type: "read", bytes: chunk.byteLength } satisfies FromImport);
        } else if (aborted !== null) throw new Error(aborted);
        else if (ended) return;
        else await new Promise<void>((resolve) => (waiting = resolve));
      }
    },
  };
}

async function runImport(job: ImportJob, port: MessagePort) {
  const post = (message: FromImport) => port.postMessage(message);
  try {
    const rows = await importCustomerRows(job.userId, uploadFrom(port), {
      file: job.file,
      mapping: job.mapping,
      createFields: job.createFields,
      batchMs: job.batchMs,
      pauseMs: job.pauseMs,
      onProgress: (progress) => post({ type: "progress", progress }),
    });
    post({ type: "done", rows });
  } catch (error) {
    post({ type: "failed", error: failure(error) });
  } finally {
    port.close();
  }
}

async function runExport(job: ExportJob, port: MessagePort) {
  const post = (message: FromExport, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  const reader = exportCustomersCsv(job.userId, job.q, { file: job.file, timeZone: job.timeZone }).getReader();
  let wanted = 0;
  let stopped = false;
  let waiting: (() => void) | null = null;
  const wake = () => {
    waiting?.();
    waiting = null;
  };
  const stop = () => {
    stopped = true;
    wake();
  };
  port.on("message", (message: ToExport) => {
    if (message.type === "more") wanted += message.pages;
    else stop();
    wake();
  });
  port.on("close", stop);
  try {
    for (;;) {
      while (wanted === 0 && !stopped) await new Promise<void>((resolve) => (waiting = resolve));
      if (stopped) {
        await reader.cancel();
        return;
      }
      const { done, value } = await reader.read();
      if (done) {
        post({ type: "end" });
        return;
      }
      wanted -= 1;
      post({ type: "chunk", chunk: value }, [value.buffer as ArrayBuffer]);
    }
  } catch (error) {
    post({ type: "failed", error: failure(error) });
  } finally {
    port.close();
  }
}

async function runLaunch(job: LaunchJob, port: MessagePort) {
  const post = (message: FromLaunch) => port.postMessage(message);
  const connection = await launches.openConnection(job.file);
  try {
    const launch = await launches.start(connection, job.campaign, job.where, { now: job.now });
    // Between slices the thread's other jobs get their turn.
    while (await launch.step()) await new Promise((resolve) => setImmediate(resolve));
    post({ type: "done", audience: await launch.finish() });
  } catch (error) {
    post({ type: "failed", error: failure(error) });
  } finally {
    await closeConnection(connection);
    port.close();
  }
}

// Receipts come in batches several times a second while a campaign sends: one connection for them
// (on PostgreSQL a small pool of this thread's own; there is no file, so the key is the URL).
let receiptsConnection: { file: string; connection: AnyConnection } | undefined;

async function runReceipts(job: ReceiptsJob, port: MessagePort) {
  const post = (message: FromReceipts) => port.postMessage(message);
  try {
    const target = job.file || getEnv().databaseUrl;
    if (receiptsConnection?.file !== target) {
      // Replaced at once (jobs run side by side), the old one closed behind.
      if (receiptsConnection) void closeConnection(receiptsConnection.connection).catch(() => undefined);
      receiptsConnection = {
        file: target,
        connection: job.file
          ? openSqlite(job.file, { cacheMiB: 2 })
          : openConnection({ poolSize: 2, applicationName: "crm receipts" }),
      };
    }
    const receipts = job.body instanceof Uint8Array ? parseReceiptsBody(job.body) : job.body;
    if (receipts.length > 0) await deliveryReceipts.queueReceipts(receiptsConnection.connection, receipts, job.now);
    post({ type: "done", accepted: receipts.length });
  } catch (error) {
    post({ type: "failed", error: failure(error) });
  } finally {
    port.close();
  }
}

// An unhandled rejection would end the thread with exit code 0 and every job on it unanswered:
// end it with a failure, which the request thread turns into an error for each job.
process.on("unhandledRejection", (reason) => {
  console.error("Unhandled rejection in the background work thread:", reason);
  process.exit(1);
});

parentPort?.on("message", ({ job, port }: { job: Job; port: MessagePort }) => {
  port.postMessage({ type: "started", threadId } satisfies FromWorker);
  if (job.kind === "import") void runImport(job, port);
  else if (job.kind === "export") void runExport(job, port);
  else if (job.kind === "launch") void runLaunch(job, port);
  else void runReceipts(job, port);
});
