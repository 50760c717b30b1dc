// The primary process when the server runs several workers (WEB_CONCURRENCY > 1): it forks them
// (they share the listening port through node:cluster), relays the process bus between them
// (app/services/process-bus.server.ts), replaces a worker that dies, and stops them all on SIGTERM
// or SIGINT.
//
// Why workers: Node serves HTTP from one thread. Measured on the bench (1,000,000 customers,
// GET /api/customers/{id} at 50 connections on 2 cores), one process answered ~2,000 requests a
// second with its core saturated; two workers use the second core. SQLite in WAL mode lets every
// worker read at once; writes take turns on the database's lock (busy timeout 10 s).
import cluster, { type Worker } from "node:cluster";
import type { Logger } from "../app/lib/logger.server.ts";
import type { BusMessage } from "../app/services/process-bus.server.ts";

export const READY_MESSAGE = "crm:ready";

export type ClusterOptions = {
  workers: number;
  log: Logger;
  /** The process bus's own check (handed over by server/index.ts from the app's build). */
  isBusMessage: (message: unknown) => message is BusMessage;
  /** The primary's own subscribers hear a worker's message too (the background jobs live here). */
  hearBusMessage: (message: BusMessage) => void;
  /** Called once, when every worker listens. */
  onReady: () => void;
};

const RESTART_DELAY_MS = 1000;
const STOP_TIMEOUT_MS = 10_000;

export function runCluster({ workers, log, isBusMessage, hearBusMessage, onReady }: ClusterOptions) {
  let stopping = false;
  let announced = false;
  const ready = new Set<number>();

  const fork = () => {
    const worker = cluster.fork();
    worker.on("message", (message: unknown) => {
      if (isBusMessage(message)) {
        for (const other of Object.values(cluster.workers ?? {})) {
          if (other && other !== worker && other.isConnected()) other.send(message);
        }
        hearBusMessage(message);
      } else if (message === READY_MESSAGE) {
        ready.add(worker.id);
        if (!announced && ready.size >= workers) {
          announced = true;
          onReady();
        }
      }
    });
    return worker;
  };

  cluster.on("exit", (worker: Worker, code, signal) => {
    const wasReady = ready.delete(worker.id);
    if (stopping) return;
    if (!wasReady) {
      // It died before listening (a port in use, a broken build): restarting would only repeat it.
      log.error(`A server worker stopped while starting (${signal ?? `exit code ${code}`}); see its error above.`);
      stopAll(1);
      return;
    }
    log.error(`A server worker stopped (${signal ?? `exit code ${code}`}); starting another.`);
    setTimeout(() => {
      if (!stopping) fork();
    }, RESTART_DELAY_MS).unref();
  });

  function stopAll(exitCode: number) {
    if (stopping) return;
    stopping = true;
    const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => Boolean(w && !w.isDead()));
    if (!alive.length) process.exit(exitCode);
    let left = alive.length;
    for (const worker of alive) {
      worker.once("exit", () => {
        left -= 1;
        if (left === 0) process.exit(exitCode);
      });
      worker.process.kill("SIGTERM");
    }
    setTimeout(() => process.exit(exitCode), STOP_TIMEOUT_MS).unref();
  }

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      log.info(`${signal}: stopping ${workers} workers`);
      stopAll(0);
    });
  }

  for (let i = 0; i < workers; i++) fork();
}
