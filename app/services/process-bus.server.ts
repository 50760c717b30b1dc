// Messages between the server's processes, and on PostgreSQL between its instances. server/index.ts
// runs one worker per core (WEB_CONCURRENCY) behind one port, and several instances (machines or
// containers) may share one PostgreSQL database; a page's requests may reach any of them, so what
// one learns and the others must know — a new notification for an open page's Server-Sent Events,
// the progress of an import another process is saving, a user row changed, a launch to send — is
// published here.
//
// Within an instance: subscribers in the publishing process hear it at once; the primary process
// relays it to every other worker (server/cluster.ts). With one process (tests, the CLI,
// WEB_CONCURRENCY=1) it is a plain in-process event emitter.
//
// Between instances (PostgreSQL, docs/decisions/0034-many-instances.md): the primary, or the only
// process, holds the instance's one link (linkInstances(), a LISTEN/NOTIFY channel on a connection
// of its own, app/db/listen.server.ts). What the instance publishes goes out on it once; what
// arrives from another instance is heard by the primary's subscribers and relayed to its workers.
// Each message carries the sending instance's id and a number that rises with each message it
// sends: an instance's own messages coming back are dropped, and so is a repeat.
import { randomBytes } from "node:crypto";
import cluster from "node:cluster";
import { EventEmitter } from "node:events";
import { getEnv } from "~/env.server";
import type { Logger } from "~/lib/logger.server";
import type { ChannelOptions, NotifyChannel } from "~/lib/notify-channel.server";
import { singleton } from "~/lib/singleton.server";

export const BUS_MESSAGE = "crm:bus";
export type BusMessage = { kind: typeof BUS_MESSAGE; topic: string; payload: unknown };

/** The PostgreSQL channel the instances share. */
export const BUS_CHANNEL = "crm_bus";

/**
 * The most a message's topic and payload (as JSON) may take, in UTF-8 bytes: PostgreSQL carries
 * under 8,000 bytes a notification, and the envelope (instance id, number) takes the rest. A larger
 * message is refused in development and tests; in production it stays within its instance, with an
 * error in the log. Publish an id and let the other side read the rest from the database instead.
 */
export const MAX_BUS_MESSAGE_BYTES = 7_800;
/** PostgreSQL's own limit on a notification's payload (the whole envelope): under 8,000 bytes. */
const MAX_NOTIFY_BYTES = 7_999;

export function isBusMessage(message: unknown): message is BusMessage {
  return (
    typeof message === "object" &&
    message !== null &&
    (message as { kind?: unknown }).kind === BUS_MESSAGE &&
    typeof (message as { topic?: unknown }).topic === "string"
  );
}

/** Opens the channel between the instances (openNotifyChannel in app/db/listen.server.ts). */
export type OpenInstanceChannel = (options: ChannelOptions) => NotifyChannel;

/** This instance's link to the others. */
export type InstanceLink = {
  /** Random per start: every message this instance sends carries it. */
  readonly instanceId: string;
  readonly channel: NotifyChannel;
  /** Sends what is queued (briefly), then leaves the channel. */
  close(): Promise<void>;
};

/** On the wire: sender instance, its message number, topic, payload. */
type Envelope = { i: string; n: number; t: string; p?: unknown };

const MAX_SENDERS_REMEMBERED = 1_000;

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
  return {
    emitter,
    bridges: new Map<string, () => void>(),
    instanceId: randomBytes(8).toString("hex"),
    sent: 0,
    link: null as { channel: NotifyChannel; log: Logger } | null,
    /** The highest message number heard from each other instance: a repeat is dropped. */
    heard: new Map<string, number>(),
    /** Topics already logged as too large (production logs each once). */
    oversized: new Set<string>(),
  };
});

const production = () => getEnv().NODE_ENV === "production";

function messageBytes(topic: string, payload: unknown): number {
  return Buffer.byteLength(topic) + Buffer.byteLength(JSON.stringify(payload) ?? "");
}

function tooLarge(topic: string, bytes: number, limit: number): string {
  return (
    `A process-bus message on "${topic}" is ${bytes.toLocaleString("en-IN")} bytes; at most ` +
    `${limit.toLocaleString("en-IN")} cross between instances (PostgreSQL's NOTIFY): ` +
    `publish an id and read the rest from the database.`
  );
}

/** To every worker of this instance (from the primary), except `except`. */
function toWorkers(message: BusMessage, except?: unknown) {
  for (const worker of Object.values(cluster.workers ?? {})) {
    if (worker && worker !== except && worker.isConnected()) worker.send(message);
  }
}

/** To the other instances, when this process holds the link. */
function toInstances(topic: string, payload: unknown) {
  const link = state.link;
  if (!link) return;
  const envelope: Envelope = { i: state.instanceId, n: (state.sent += 1), t: topic, p: payload };
  const text = JSON.stringify(envelope);
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_NOTIFY_BYTES) {
    // Within this instance it was delivered; the others catch up when their pages reload.
    if (!state.oversized.has(topic)) {
      state.oversized.add(topic);
      link.log.error({ topic, bytes }, tooLarge(topic, bytes, MAX_NOTIFY_BYTES));
    }
    return;
  }
  link.channel.send(text);
}

/** A notification from the channel: another instance's message, heard here and relayed to the workers. */
function fromInstances(text: string) {
  let envelope: Envelope;
  try {
    envelope = JSON.parse(text) as Envelope;
  } catch {
    state.link?.log.warn({ channel: BUS_CHANNEL }, "A notification on the bus channel is not JSON: ignored.");
    return;
  }
  if (
    typeof envelope !== "object" ||
    envelope === null ||
    typeof envelope.i !== "string" ||
    typeof envelope.n !== "number" ||
    typeof envelope.t !== "string"
  ) {
    state.link?.log.warn({ channel: BUS_CHANNEL }, "A notification on the bus channel is not a bus message: ignored.");
    return;
  }
  // Our own, back from the server: delivered here when it was published.
  if (envelope.i === state.instanceId) return;
  const last = state.heard.get(envelope.i);
  if (last !== undefined && envelope.n <= last) return;
  // Most recently heard last, so the one forgotten first is the instance silent the longest.
  state.heard.delete(envelope.i);
  state.heard.set(envelope.i, envelope.n);
  if (state.heard.size > MAX_SENDERS_REMEMBERED) state.heard.delete(state.heard.keys().next().value as string);
  const message: BusMessage = { kind: BUS_MESSAGE, topic: envelope.t, payload: envelope.p };
  state.emitter.emit(message.topic, message.payload);
  if (cluster.isPrimary) toWorkers(message);
}

/** Tells every subscriber of the topic, in this process, the others of this instance and (PostgreSQL) the other instances. The payload must be plain JSON data. */
export function publish(topic: string, payload: unknown): void {
  // Refused where it is written and tested, on either engine, before it meets PostgreSQL's limit.
  if (!production()) {
    const bytes = messageBytes(topic, payload);
    if (bytes > MAX_BUS_MESSAGE_BYTES) throw new Error(tooLarge(topic, bytes, MAX_BUS_MESSAGE_BYTES));
  }
  state.emitter.emit(topic, payload);
  const message: BusMessage = { kind: BUS_MESSAGE, topic, payload };
  if (cluster.isWorker) {
    // The primary relays it to the other workers and instances.
    if (process.connected && process.send) process.send(message);
  } else {
    // The primary publishes too (the background jobs' notifications): straight to every worker.
    toWorkers(message);
    toInstances(topic, payload);
  }
}

/** The primary hears what a worker published (a launch waking the delivery job), as its own subscribers would, and passes it to the other instances. */
export function hearBusMessage(message: BusMessage): void {
  state.emitter.emit(message.topic, message.payload);
  toInstances(message.topic, message.payload);
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

/**
 * Links this instance's bus to the other instances sharing the PostgreSQL database at `url`: in
 * the process that relays for the instance (the cluster's primary, or the only process), once.
 * `open` is openNotifyChannel (app/db/listen.server.ts), passed in because services reach the
 * database layer only through its callers. A second call replaces the first link.
 */
export function linkInstances(open: OpenInstanceChannel, options: { url: string; log: Logger }): InstanceLink {
  if (cluster.isWorker) throw new Error("Only the primary process links its instance to the others.");
  const { log } = options;
  const previous = state.link;
  if (previous) void previous.channel.close();
  let lostAt: number | null = null;
  const channel = open({
    url: options.url,
    channel: BUS_CHANNEL,
    applicationName: `crm bus ${state.instanceId}`,
    onNotification: fromInstances,
    onStatus: (status) => {
      if (status.state === "listening") {
        if (status.reconnected) {
          // Notifications sent meanwhile were not kept for this instance: open pages catch up on reload.
          log.warn(
            { attempts: status.attempts, downMs: lostAt === null ? undefined : Date.now() - lostAt },
            "Linked to the other instances again: messages sent while the link was down did not reach this one.",
          );
        } else {
          log.info({ instanceId: state.instanceId }, "Linked to the other instances through PostgreSQL.");
        }
        lostAt = null;
      } else if (status.state === "lost") {
        // Said once a loss at warn; the retries that follow at debug.
        if (lostAt === null) {
          lostAt = Date.now();
          log.warn(
            { err: status.error, retryInMs: status.retryInMs },
            "Lost the PostgreSQL connection that links this instance to the others; reconnecting.",
          );
        } else {
          log.debug(
            { err: status.error, retryInMs: status.retryInMs, attempts: status.attempts },
            "Still reconnecting.",
          );
        }
      } else {
        log.error({ err: status.error, count: status.count }, "Messages to the other instances were dropped.");
      }
    },
  });
  const current = { channel, log };
  state.link = current;
  return {
    instanceId: state.instanceId,
    channel,
    async close() {
      if (state.link === current) state.link = null;
      await channel.close();
    },
  };
}
