// Background work: CSV imports and exports, campaign launches and the receipts webhook's write run
// in a worker thread, off the thread that answers requests (docs/decisions/0017, 0018). The jobs
// that run on a schedule (delivery, snapshots, the bounce mailbox) are job-scheduler.server.ts's.
//
// Their database work is synchronous (better-sqlite3): an import's transactions, an export's pages
// of a million rows, a launch's million inserts, a write that waits for the delivery job's lock.
// On the request thread it held every other request up (/healthz took over 10 s under mixed load).
// Here it runs in a worker thread (jobs/background-work.ts, compiled in production) with
// connections of its own; this thread only moves messages:
//
// - import: the upload's chunks go to the worker as they arrive, at most IMPORT_INFLIGHT_BYTES
//   ahead of what it has read (so a fast client cannot fill the worker's memory); its progress
//   comes back for the progress bar; the rows' consents and the new-customer notification are
//   written here afterwards (afterImport).
// - export: the worker produces the CSV a page at a time, at most EXPORT_PAGES_AHEAD pages ahead
//   of what the response has taken (backpressure from a slow download reaches the query).
// - launch and receipts: one message each way (runOnce).
//
// One worker per process, started on the first job and ended after IDLE_MS without one. Each job
// talks over a MessageChannel of its own.
import { MessageChannel, type MessagePort, Worker } from "node:worker_threads";
import { getEnv } from "~/env.server";
import { ApiError, type ApiErrorCode } from "~/lib/api.server";
import { logger } from "~/lib/logger.server";
import { singleton } from "~/lib/singleton.server";
import type { ColumnMapping } from "~/lib/customer-csv";
import type { NewCampaign } from "~/models/campaigns/rows";
import type { Receipt } from "~/models/deliveries/receipts/rows";
import { jobEntry } from "~/services/job-entry.server";
import type { CompiledWhere } from "~/models/segments/audience/rows";
import { exportFileName } from "~/services/customer-export.server";
import {
  afterImport,
  type ImportedRows,
  type ImportProgress,
  type ImportResult,
} from "~/services/customer-import.server";

/** How long the worker stays after its last job (it costs a second to start: tsx compiles the app's modules). */
const IDLE_MS = 60_000;
/** Upload bytes sent to the worker and not yet read by it. */
const IMPORT_INFLIGHT_BYTES = 4 * 1024 * 1024;
/** Export pages (2,000 rows each) the worker may prepare before the response asks for them. */
const EXPORT_PAGES_AHEAD = 2;
/**
 * The server's import transactions: each about IMPORT_BATCH_MS, then IMPORT_PAUSE_MS with the
 * write lock free. A request that writes meanwhile blocks its thread on SQLite's busy handler until
 * the lock is free, so at most about one transaction. That handler looks again after 1, 2, 5, 10,
 * 15, 20, 25, 25, 25, 50, 50 ms: a writer that came during a 200 ms transaction is sleeping at most
 * 50 ms when it ends, so a 50 ms pause lets it in rather than leaving it to miss gap after gap. The
 * cost: the saving phase writes 80% of the time, in smaller transactions than the CLI's.
 */
const IMPORT_BATCH_MS = 200;
const IMPORT_PAUSE_MS = 50;

/** What the worker answers a job that failed: a refusal to tell the user (ApiError) or a fault. */
export type JobFailure = { code?: ApiErrorCode; message: string; stack?: string };

/**
 * The database an import or export opens in the worker: the SQLite file, or none on PostgreSQL,
 * where the worker opens its own connection to DATABASE_URL (its environment is this thread's).
 */
function jobDatabaseFile(): string | undefined {
  return getEnv().databaseFile || undefined;
}

export type ImportJob = {
  kind: "import";
  userId: string;
  file: string | undefined;
  mapping?: ColumnMapping;
  /** Make text fields of the file's unknown columns (ImportOptions.createFields). */
  createFields?: boolean;
  batchMs: number;
  pauseMs: number;
};
export type ExportJob = {
  kind: "export";
  userId: string;
  file: string | undefined;
  q: string | null;
  timeZone: string;
};
export type LaunchJob = { kind: "launch"; file: string; campaign: NewCampaign; where: CompiledWhere; now: number };
/**
 * Receipts to queue: the vendor webhook's signed body as it came (the worker parses and checks
 * it), or receipts this server made itself (an open, a click, a bounce or complaint from a feed).
 */
export type ReceiptsJob = { kind: "receipts"; file: string; body: Uint8Array | Receipt[]; now: number };
export type Job = ImportJob | ExportJob | LaunchJob | ReceiptsJob;

/** Messages on a job's port, each way. */
export type ToImport = { type: "chunk"; chunk: Uint8Array } | { type: "end" } | { type: "abort"; message: string };
export type FromImport =
  | { type: "read"; bytes: number }
  | { type: "progress"; progress: ImportProgress }
  | { type: "done"; rows: ImportedRows }
  | { type: "failed"; error: JobFailure };
export type ToExport = { type: "more"; pages: number } | { type: "cancel" };
export type FromExport = { type: "chunk"; chunk: Uint8Array } | { type: "end" } | { type: "failed"; error: JobFailure };
/** The answer of a job that answers once. */
type Answer<T> = ({ type: "done" } & T) | { type: "failed"; error: JobFailure };
export type FromLaunch = Answer<{ audience: number }>;
export type FromReceipts = Answer<{ accepted: number }>;

/** The job's thread, for the test that proves the work left the request thread. */
export type FromWorker = { type: "started"; threadId: number };

type Running = { fail: (error: Error) => void };
const pool = singleton("background-work-worker", () => ({
  worker: null as Worker | null,
  running: new Set<Running>(),
  idle: null as NodeJS.Timeout | null,
}));

function startWorker(): Worker {
  // A young generation of 16 MB (V8's default is several times that): the thread parses receipt
  // batches several times a second while a campaign sends, and would otherwise hold tens of MB of
  // garbage between scavenges.
  const worker = new Worker(jobEntry("background-work"), {
    workerData: {},
    resourceLimits: { maxYoungGenerationSizeMb: 16 },
  });
  worker.on("error", (error) => {
    logger().error({ err: error }, "the background work thread failed");
  });
  worker.on("exit", (code) => {
    if (pool.worker === worker) pool.worker = null;
    const running = [...pool.running];
    pool.running.clear();
    for (const job of running) job.fail(new Error(`The background work thread stopped (exit code ${code}).`));
  });
  return worker;
}

/**
 * Starts the worker ahead of a likely job (the import screen opened), so the upload does not wait
 * for it; it ends after IDLE_MS if no job comes.
 */
export function warmOffThreadWorker(): void {
  if (pool.worker) return;
  endWhenIdle((pool.worker = startWorker()));
}

function endWhenIdle(worker: Worker) {
  worker.unref();
  if (pool.idle) clearTimeout(pool.idle);
  pool.idle = setTimeout(() => {
    pool.idle = null;
    if (pool.running.size === 0 && pool.worker === worker) {
      pool.worker = null;
      void worker.terminate();
    }
  }, IDLE_MS);
  pool.idle.unref();
}

/** Hands a job to the worker; returns this side of its port and the call that ends the job here. */
function startJob(job: Job, onWorkerLost: (error: Error) => void): { port: MessagePort; finish: () => void } {
  if (pool.idle) clearTimeout(pool.idle);
  pool.idle = null;
  const worker = (pool.worker ??= startWorker());
  worker.ref();
  const { port1, port2 } = new MessageChannel();
  const running: Running = { fail: onWorkerLost };
  pool.running.add(running);
  worker.postMessage({ job, port: port2 }, [port2]);
  let finished = false;
  return {
    port: port1,
    finish() {
      if (finished) return;
      finished = true;
      port1.close();
      pool.running.delete(running);
      if (pool.running.size > 0 || pool.worker !== worker) return;
      // Idle: the thread no longer keeps the process alive, and ends after a while.
      endWhenIdle(worker);
    },
  };
}

function failureError(error: JobFailure): Error {
  if (error.code) return new ApiError(error.code, error.message);
  const fault = new Error(error.message);
  if (error.stack) fault.stack = error.stack;
  return fault;
}

/** The worker thread ids jobs ran on, newest last (a few kept): what the off-thread test checks. */
const seenThreads = singleton("background-work-threads", () => [] as number[]);
export function offThreadJobThreads(): readonly number[] {
  return seenThreads;
}
function noteThread(message: unknown) {
  if ((message as FromWorker | undefined)?.type === "started") {
    seenThreads.push((message as FromWorker).threadId);
    if (seenThreads.length > 20) seenThreads.shift();
    return true;
  }
  return false;
}

/**
 * importCustomers (~/services/customer-import.server) in the worker thread: same rules, result and
 * refusals (an ApiError with the same message), with short write transactions and pauses between
 * them (IMPORT_BATCH_MS, IMPORT_PAUSE_MS).
 */
export async function importCustomersOffThread(
  userId: string,
  source: AsyncIterable<Uint8Array | string>,
  options: {
    mapping?: ColumnMapping;
    createFields?: boolean;
    onProgress?: (progress: ImportProgress) => void;
  } = {},
): Promise<ImportResult> {
  let settle!: { resolve: (r: ImportedRows) => void; reject: (e: Error) => void };
  const outcome = new Promise<ImportedRows>((resolve, reject) => (settle = { resolve, reject }));
  let settled = false;
  outcome.then(
    () => (settled = true),
    () => (settled = true),
  );
  let unread = 0;
  let wakeFeeder: (() => void) | null = null;
  const wake = () => {
    wakeFeeder?.();
    wakeFeeder = null;
  };
  const { port, finish } = startJob(
    {
      kind: "import",
      userId,
      file: jobDatabaseFile(),
      mapping: options.mapping,
      createFields: options.createFields,
      batchMs: IMPORT_BATCH_MS,
      pauseMs: IMPORT_PAUSE_MS,
    },
    (error) => settle.reject(error),
  );
  port.on("message", (message: FromImport | FromWorker) => {
    if (noteThread(message)) return;
    const m = message as FromImport;
    if (m.type === "read") {
      unread -= m.bytes;
      wake();
    } else if (m.type === "progress") options.onProgress?.(m.progress);
    else if (m.type === "done") settle.resolve(m.rows);
    else settle.reject(failureError(m.error));
  });
  const send = (message: ToImport, transfer: ArrayBuffer[] = []) => {
    if (!settled) port.postMessage(message, transfer);
  };
  const ended = outcome.then(
    () => undefined,
    () => undefined,
  );
  void ended.then(wake);

  const iterator = source[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  try {
    for (;;) {
      // The worker may refuse the file (binary, a column missing) while the upload still arrives.
      const next = await Promise.race([iterator.next(), ended.then(() => null)]);
      if (next === null) break;
      if (next.done) {
        send({ type: "end" });
        break;
      }
      // A copy of only this chunk's bytes (a Buffer may be a view of a larger pool), moved to the worker.
      const chunk = typeof next.value === "string" ? encoder.encode(next.value) : new Uint8Array(next.value);
      unread += chunk.byteLength;
      send({ type: "chunk", chunk }, [chunk.buffer as ArrayBuffer]);
      while (unread > IMPORT_INFLIGHT_BYTES && !settled) await new Promise<void>((resolve) => (wakeFeeder = resolve));
    }
  } catch (error) {
    // The upload was cut short: the worker refuses the file as the in-thread import did.
    send({ type: "abort", message: error instanceof Error ? error.message : String(error) });
  }
  if (settled) iterator.return?.()?.catch(() => undefined);
  try {
    // The rows' consents and the new-customer count, here, where Prisma and the process bus live.
    return await afterImport(userId, await outcome);
  } finally {
    finish();
  }
}

/**
 * The tenant's customers (all, or those matching q) as a CSV byte stream, made in the worker
 * thread by exportCustomersCsv (~/services/customer-export.server), same bytes.
 */
function exportCustomersCsvOffThread(userId: string, q: string | null, timeZone: string): ReadableStream<Uint8Array> {
  let job: { port: MessagePort; finish: () => void } | undefined;
  const chunks: Uint8Array[] = [];
  let end = false;
  let failure: Error | null = null;
  let waiting: (() => void) | null = null;
  const wake = () => {
    waiting?.();
    waiting = null;
  };
  return new ReadableStream<Uint8Array>(
    {
      start() {
        job = startJob({ kind: "export", userId, q, timeZone, file: jobDatabaseFile() }, (error) => {
          failure = error;
          wake();
        });
        job.port.on("message", (message: FromExport | FromWorker) => {
          if (noteThread(message)) return;
          const m = message as FromExport;
          if (m.type === "chunk") chunks.push(m.chunk);
          else if (m.type === "end") end = true;
          else failure = failureError(m.error);
          wake();
        });
        job.port.postMessage({ type: "more", pages: EXPORT_PAGES_AHEAD } satisfies ToExport);
      },
      async pull(controller) {
        while (chunks.length === 0 && !end && !failure) await new Promise<void>((resolve) => (waiting = resolve));
        const chunk = chunks.shift();
        if (chunk) {
          controller.enqueue(chunk);
          job?.port.postMessage({ type: "more", pages: 1 } satisfies ToExport);
        } else if (failure) {
          job?.finish();
          controller.error(failure);
        } else {
          job?.finish();
          controller.close();
        }
      },
      cancel() {
        // The download went away: the worker stops reading.
        job?.port.postMessage({ type: "cancel" } satisfies ToExport);
        job?.finish();
      },
    },
    { highWaterMark: 0 },
  );
}

/** Runs a job that answers once: resolves with its "done" answer, rejects on "failed". */
function runOnce<T extends object>(job: Job): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const started = startJob(job, (error) => {
      started.finish();
      reject(error);
    });
    started.port.on("message", (message: Answer<T> | FromWorker) => {
      if (noteThread(message)) return;
      const m = message as Answer<T>;
      started.finish();
      if (m.type === "done") resolve(m);
      else reject(failureError(m.error));
    });
  });
}

/**
 * The launch (launches.start in ~/models/launch/store.server) in the worker thread: the same slices of
 * LAUNCH_SLICE rows, each its own transaction, on the thread's own connection. A million-row
 * audience takes seconds of SQLite work; here none of it holds up this thread's requests.
 * Resolves with the audience written (0: nothing to send, nothing kept).
 */
export async function launchCampaignOffThread(campaign: NewCampaign, where: CompiledWhere, now = Date.now()) {
  const job: LaunchJob = { kind: "launch", file: getEnv().databaseFile, campaign, where, now };
  return (await runOnce<{ audience: number }>(job)).audience;
}

/**
 * deliveryReceipts.queueReceipts (~/models/deliveries/receipts/) in the worker thread: the webhook's
 * one write (the vendor's signed body, parsed there), or the receipts an open, a click or a bounce feed made.
 * On the request thread it waited, event loop and all, in SQLite's busy handler whenever the
 * delivery job held the write lock (up to 50 ms at a time while a campaign sends); here only the
 * answer waits. Resolves once the batch is committed, so a 202 still means "stored".
 */
export async function queueReceiptsOffThread(body: Uint8Array | Receipt[], now = Date.now()): Promise<number> {
  const job: ReceiptsJob = { kind: "receipts", file: getEnv().databaseFile, body, now };
  return (await runOnce<{ accepted: number }>(job)).accepted;
}

/** A streamed CSV download of the tenant's customers (all, or those matching q), made off the request thread. */
export function customersCsvResponse(userId: string, q: string | null, timeZone: string): Response {
  return new Response(exportCustomersCsvOffThread(userId, q, timeZone), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${exportFileName(q)}"`,
      "Cache-Control": "no-store",
    },
  });
}
