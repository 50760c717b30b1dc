// A PostgreSQL channel of LISTEN and NOTIFY on one connection of its own: how the process bus of
// one instance reaches the others sharing the database (docs/decisions/0034-many-instances.md).
//
// The connection is a pg.Client outside every pool: LISTEN belongs to a session, and a pooled
// connection would go back to the pool (and to other work) with it. The same connection sends, so
// what one process sends goes out in the order it was sent and nothing else waits for a pool.
//
// When the connection drops (the server restarted, pg_terminate_backend, a network cut), it is
// opened again after a delay that doubles from firstRetryMs up to maxRetryMs, with jitter so that
// many instances do not all knock at once after a restart; LISTEN is issued again on each new
// connection. Notifications sent while no connection listens are not kept by PostgreSQL: they are
// lost for this process. What this process sends in that time is queued (up to maxQueuedBytes) and
// sent once connected again. A heartbeat finds a connection that died without a word (a cable
// pulled) sooner than TCP would.
import pg from "pg";
import type { ChannelOptions, ChannelStatus, NotifyChannel } from "~/lib/notify-channel.server";

/** PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more (the server's encoding, UTF-8 here). */
export const MAX_NOTIFY_PAYLOAD_BYTES = 7_999;

export type { ChannelOptions, ChannelStatus, NotifyChannel };

const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
/** Payloads per NOTIFY statement (one round trip, one transaction, delivered in this order). */
const BATCH_MESSAGES = 500;
const BATCH_BYTES = 1 << 20;

/** SQLSTATEs and socket errors that mean the connection is gone, not that the statement was refused. */
const CONNECTION_LOST = new Set(["57P01", "57P02", "57P03", "08000", "08003", "08006", "ECONNRESET", "EPIPE"]);

function isConnectionLoss(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  if (code && CONNECTION_LOST.has(code)) return true;
  return /Connection terminated|not queryable|connection timeout|Client was closed|Query read timeout/i.test(
    (error as Error | null)?.message ?? "",
  );
}

export function openNotifyChannel(options: ChannelOptions): NotifyChannel {
  if (!CHANNEL_NAME.test(options.channel)) {
    throw new Error(`The channel name "${options.channel}" must be a lowercase identifier of at most 63 characters.`);
  }
  const firstRetryMs = options.firstRetryMs ?? 100;
  const maxRetryMs = options.maxRetryMs ?? 5_000;
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const maxQueuedBytes = options.maxQueuedBytes ?? 8 << 20;
  const status = (s: ChannelStatus) => options.onStatus?.(s);

  // `tail` chains the connection's statements (pg wants one at a time on a client); `lost` rejects
  // when the connection is given up, so a statement stuck on a silent socket does not hold the
  // queue forever.
  type Live = {
    client: pg.Client;
    pid: number;
    drop: (error: Error) => void;
    tail: Promise<unknown>;
    lost: Promise<never>;
  };
  const run = (current: Live, text: string, params?: unknown[]) => {
    const result = Promise.race([current.tail.then(() => current.client.query(text, params)), current.lost]);
    current.tail = result.catch(() => undefined);
    return result;
  };
  let live: Live | null = null;
  let closed = false;
  let everListened = false;
  let attempts = 0;
  let retryTimer: NodeJS.Timeout | undefined;
  const queue: { payload: string; bytes: number }[] = [];
  let queuedBytes = 0;
  // Payloads pushed out of a full queue since the last report: said once a burst, not once each.
  let overflowed = 0;
  const take = (count: number) => {
    const taken = queue.splice(0, count);
    for (const q of taken) queuedBytes -= q.bytes;
    return taken;
  };
  let sending = false;
  let flushWaiters: (() => void)[] = [];
  let markReady: () => void = () => undefined;
  const readyPromise = new Promise<void>((resolve) => (markReady = resolve));

  const settleFlush = () => {
    if (queue.length > 0 || sending) return;
    const waiters = flushWaiters;
    flushWaiters = [];
    for (const w of waiters) w();
  };

  const retryDelay = (attempt: number) =>
    Math.round(Math.min(maxRetryMs, firstRetryMs * 2 ** (attempt - 1)) * (0.5 + Math.random()));

  async function connect(): Promise<void> {
    retryTimer = undefined;
    if (closed) return;
    const client = new pg.Client({
      connectionString: options.url,
      application_name: options.applicationName ?? `crm ${options.channel}`,
      connectionTimeoutMillis: 10_000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    let dropped = false;
    let markLost: (error: Error) => void = () => undefined;
    const lost = new Promise<never>((_, reject) => (markLost = reject));
    lost.catch(() => undefined);
    const drop = (error: Error) => {
      if (dropped) return;
      dropped = true;
      markLost(error);
      if (live?.client === client) live = null;
      client.removeAllListeners("notification");
      // A socket that is already dead may never answer a goodbye: not waited for.
      void client.end().catch(() => undefined);
      if (closed) return;
      attempts += 1;
      const retryInMs = retryDelay(attempts);
      status({ state: "lost", error, retryInMs, attempts });
      retryTimer = setTimeout(() => void connect(), retryInMs);
    };
    // Without an error listener a dropped connection would end the process.
    client.on("error", (error) => drop(error));
    client.on("end", () => drop(new Error("The connection to PostgreSQL was closed.")));
    client.on("notification", (message) => {
      if (message.channel === options.channel && message.payload !== undefined) options.onNotification(message.payload);
    });
    let pid: number;
    try {
      await client.connect();
      await client.query(`LISTEN ${options.channel}`);
      const row = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      pid = row.rows[0].pid;
    } catch (error) {
      drop(error as Error);
      return;
    }
    if (closed || dropped) {
      void client.end().catch(() => undefined);
      return;
    }
    live = { client, pid, drop, tail: Promise.resolve(), lost };
    const reconnected = everListened;
    everListened = true;
    status({ state: "listening", reconnected, backendPid: pid, attempts });
    attempts = 0;
    markReady();
    void pump();
  }

  // Sends the queue in order, a batch a statement, while a connection is open.
  async function pump(): Promise<void> {
    if (sending) return;
    sending = true;
    try {
      while (queue.length > 0 && live && !closed) {
        const current = live;
        let bytes = 0;
        let count = 0;
        while (count < queue.length && count < BATCH_MESSAGES && bytes < BATCH_BYTES) {
          bytes += queue[count].bytes;
          count += 1;
        }
        const batch = queue.slice(0, count).map((q) => q.payload);
        try {
          // One statement: one round trip and one transaction, whose notifications the server
          // delivers in the order they were sent.
          await run(current, "SELECT pg_notify($1, m) FROM unnest($2::text[]) AS m", [options.channel, batch]);
          take(count);
        } catch (error) {
          if (isConnectionLoss(error) || live !== current) {
            // Kept for the next connection (a batch the server had already taken may then arrive
            // twice: the bus numbers its messages and drops a repeat).
            current.drop(error as Error);
            break;
          }
          take(count);
          status({ state: "dropped", error: error as Error, count });
        }
      }
    } finally {
      sending = false;
      settleFlush();
    }
  }

  // A connection that does not answer a SELECT 1 within the heartbeat's timeout is given up.
  const heartbeatTimeoutMs = Math.max(1_000, Math.min(10_000, heartbeatMs));
  const heartbeat =
    heartbeatMs > 0
      ? setInterval(() => {
          const current = live;
          if (!current) return;
          const timer = setTimeout(
            () => current.drop(new Error(`PostgreSQL did not answer within ${heartbeatTimeoutMs} ms.`)),
            heartbeatTimeoutMs,
          );
          run(current, "SELECT 1").then(
            () => clearTimeout(timer),
            (error: unknown) => {
              clearTimeout(timer);
              current.drop(error as Error);
            },
          );
        }, heartbeatMs)
      : undefined;
  heartbeat?.unref();

  const flushed = (): Promise<void> => {
    if (queue.length === 0 && !sending) return Promise.resolve();
    return new Promise((resolve) => flushWaiters.push(resolve));
  };

  void connect();

  return {
    send(payload) {
      if (closed) return;
      // Refused here rather than by the server, where it would take the rest of its batch with it.
      const bytes = Buffer.byteLength(payload);
      if (bytes > MAX_NOTIFY_PAYLOAD_BYTES) {
        status({
          state: "dropped",
          error: new Error(
            `A payload of ${bytes} bytes is more than PostgreSQL's NOTIFY carries (${MAX_NOTIFY_PAYLOAD_BYTES}).`,
          ),
          count: 1,
        });
        return;
      }
      // The batch out stays whole: only payloads behind it are pushed out.
      const keep = sending ? Math.min(queue.length, BATCH_MESSAGES) : 0;
      while (queuedBytes + bytes > maxQueuedBytes && queue.length > keep) {
        queuedBytes -= queue.splice(keep, 1)[0].bytes;
        if (overflowed++ === 0) {
          setImmediate(() => {
            status({
              state: "dropped",
              error: new Error(
                `More than ${maxQueuedBytes} bytes of messages waited to be sent: the oldest ${overflowed} were dropped.`,
              ),
              count: overflowed,
            });
            overflowed = 0;
          });
        }
      }
      queue.push({ payload, bytes });
      queuedBytes += bytes;
      if (live) void pump();
    },
    flushed,
    ready: () => readyPromise,
    get listening() {
      return live !== null;
    },
    get backendPid() {
      return live?.pid ?? null;
    },
    async close(flushTimeoutMs = 2_000) {
      if (closed) return;
      if (live && queue.length > 0) {
        await Promise.race([flushed(), new Promise((resolve) => setTimeout(resolve, flushTimeoutMs).unref())]);
      }
      closed = true;
      clearTimeout(retryTimer);
      clearInterval(heartbeat);
      const current = live;
      live = null;
      take(queue.length);
      settleFlush();
      if (current) {
        current.client.removeAllListeners("notification");
        await current.client.end().catch(() => undefined);
      }
    },
  };
}
