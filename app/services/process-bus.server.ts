// Messages between the server's worker processes. server/index.ts runs one worker per core
// (WEB_CONCURRENCY) behind one port; a page's requests may reach any of them, so what one worker
// learns and the others must know — a new notification for an open page's Server-Sent Events,
// the progress of an import another worker is saving, a sign-in attempt counted against an
// address — is published here. Subscribers in the publishing process hear it at once; the
// primary process relays it to every other worker (server/cluster.ts). With one process (tests,
// the CLI, WEB_CONCURRENCY=1) it is a plain in-process event emitter.
import cluster from "node:cluster";
import { EventEmitter } from "node:events";
import { singleton } from "~/lib/singleton.server";

export const BUS_MESSAGE = "crm:bus";
export type BusMessage = { kind: typeof BUS_MESSAGE; topic: string; payload: unknown };

export function isBusMessage(message: unknown): message is BusMessage {
  return (
    typeof message === "object" &&
    message !== null &&
    (message as { kind?: unknown }).kind === BUS_MESSAGE &&
    typeof (message as { topic?: unknown }).topic === "string"
  );
}

// One per process: in development Vite may evaluate this module again, and a second emitter
// would split publishers from subscribers. `bridges` holds each module's bridge (subscribeOnce).
const state = singleton("process-bus", () => {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  if (cluster.isWorker) {
    process.on("message", (message: unknown) => {
      if (isBusMessage(message)) emitter.emit(message.topic, message.payload);
    });
  }
  return { emitter, bridges: new Map<string, () => void>() };
});

/** Tells every subscriber of the topic, in this process and the others. The payload must be plain data (it crosses IPC as JSON). */
export function publish(topic: string, payload: unknown): void {
  state.emitter.emit(topic, payload);
  const message: BusMessage = { kind: BUS_MESSAGE, topic, payload };
  if (cluster.isWorker) {
    if (process.connected && process.send) process.send(message);
  } else {
    // The primary publishes too (the background jobs' notifications): straight to every worker.
    for (const worker of Object.values(cluster.workers ?? {})) if (worker?.isConnected()) worker.send(message);
  }
}

/** The primary hears what a worker published (a launch waking the delivery job), as its own subscribers would. */
export function hearBusMessage(message: BusMessage): void {
  state.emitter.emit(message.topic, message.payload);
}

/** Listens to a topic; returns the call that stops listening. */
export function subscribe<T>(topic: string, listener: (payload: T) => void): () => void {
  const emitter = state.emitter;
  const handler = listener as (payload: unknown) => void;
  emitter.on(topic, handler);
  return () => {
    emitter.off(topic, handler);
  };
}

/**
 * A module's one bridge from the bus into its own state: subscribing again under the same key
 * (the module evaluated again in development) replaces the earlier listener instead of adding one.
 */
export function subscribeOnce<T>(key: string, topic: string, listener: (payload: T) => void): void {
  state.bridges.get(key)?.();
  state.bridges.set(key, subscribe(topic, listener));
}
