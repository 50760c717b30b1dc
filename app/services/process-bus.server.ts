// Messages between the server's worker processes. server/index.ts runs one worker per core
// (WEB_CONCURRENCY) behind one port; a page's requests may reach any of them, so what one worker
// learns and the others must know — a new notification for an open page's Server-Sent Events,
// the progress of an import another worker is saving, a sign-in attempt counted against an
// address — is published here. Subscribers in the publishing process hear it at once; the
// primary process relays it to every other worker (server/cluster.ts). With one process (tests,
// the CLI, WEB_CONCURRENCY=1) it is a plain in-process event emitter.
import cluster from "node:cluster";
import { EventEmitter } from "node:events";

export const BUS_MESSAGE = "crm:bus";
export type BusMessage = { kind: typeof BUS_MESSAGE; topic: string; payload: unknown };

export function isBusMessage(message: unknown): message is BusMessage {
  return typeof message === "object" && message !== null && (message as { kind?: unknown }).kind === BUS_MESSAGE && typeof (message as { topic?: unknown }).topic === "string";
}

// One per process, whichever copy of this module (the Remix build or the server's own import) asks.
const globalForBus = globalThis as unknown as { __crmProcessBus?: EventEmitter };

function bus(): EventEmitter {
  if (globalForBus.__crmProcessBus) return globalForBus.__crmProcessBus;
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  if (cluster.isWorker) {
    process.on("message", (message: unknown) => {
      if (isBusMessage(message)) emitter.emit(message.topic, message.payload);
    });
  }
  globalForBus.__crmProcessBus = emitter;
  return emitter;
}

/** Tells every subscriber of the topic, in this process and the others. The payload must be plain data (it crosses IPC as JSON). */
export function publish(topic: string, payload: unknown): void {
  bus().emit(topic, payload);
  if (cluster.isWorker && process.connected && process.send) {
    const message: BusMessage = { kind: BUS_MESSAGE, topic, payload };
    process.send(message);
  }
}

/** Listens to a topic; returns the call that stops listening. */
export function subscribe<T>(topic: string, listener: (payload: T) => void): () => void {
  const emitter = bus();
  const handler = listener as (payload: unknown) => void;
  emitter.on(topic, handler);
  return () => {
    emitter.off(topic, handler);
  };
}

/** Subscribes once per process (a module's bridge from the bus into its own state). */
export function subscribeOnce<T>(key: string, topic: string, listener: (payload: T) => void): void {
  const flag = `__crmBusBridge:${key}`;
  const g = globalThis as unknown as Record<string, boolean | undefined>;
  if (g[flag]) return;
  g[flag] = true;
  subscribe(topic, listener);
}
