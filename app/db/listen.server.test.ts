// The LISTEN/NOTIFY channel (app/db/listen.server.ts) on a real PostgreSQL database of the file's
// own, some connections through a TCP relay the test can cut or freeze: it reconnects with a
// growing delay while the server cannot be reached, finds a connection that went silent by its
// heartbeat, keeps sending after a payload the server refused, and drops the oldest of what waits
// when too much does.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import {
  createPostgresDatabase,
  databaseUrl,
  type PostgresDatabase,
  TEST_POSTGRES_URL,
} from "../../tests/helpers/postgres";
import { type ChannelStatus, type NotifyChannel, openNotifyChannel } from "~/db/listen.server";

let database: PostgresDatabase;

beforeAll(async () => {
  database = await createPostgresDatabase("crm_listen");
});

afterAll(async () => {
  await database?.drop();
});

/** A TCP relay to the test server: cut() closes every connection through it, freeze() stops them in silence. */
async function relay() {
  const target = new URL(TEST_POSTGRES_URL);
  const sockets = new Set<net.Socket>();
  let frozen = false;
  // Half-open allowed: a frozen connection ignores the client's goodbye too, as a cut cable would.
  const server = net.createServer({ allowHalfOpen: true }, (client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("error", () => undefined);
      s.on("close", () => sockets.delete(s));
    }
    client.on("data", (d) => void (frozen || upstream.write(d)));
    upstream.on("data", (d) => void (frozen || client.write(d)));
    client.on("end", () => void (frozen || upstream.end()));
    upstream.on("end", () => void (frozen || client.end()));
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  const url = new URL(databaseUrl(database.name));
  url.hostname = "127.0.0.1";
  url.port = String(port);
  onTestFinished(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return {
    url: url.toString(),
    cut: () => {
      for (const s of sockets) s.destroy();
    },
    /** Connections open now stay open but carry nothing; new ones work. */
    freeze: () => {
      frozen = true;
      const before = new Set(sockets);
      server.removeAllListeners("connection");
      server.on("connection", (client: net.Socket) => {
        // A fresh relay for connections made after the freeze.
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        for (const s of [client, upstream]) {
          s.on("error", () => undefined);
        }
        client.pipe(upstream).pipe(client);
        onTestFinished(() => {
          client.destroy();
          upstream.destroy();
        });
      });
      return before.size;
    },
  };
}

function channel(url: string, extra: Partial<Parameters<typeof openNotifyChannel>[0]> = {}) {
  const heard: string[] = [];
  const statuses: ChannelStatus[] = [];
  const opened: NotifyChannel = openNotifyChannel({
    url,
    channel: "test_bus",
    onNotification: (p) => heard.push(p),
    onStatus: (s) => statuses.push(s),
    ...extra,
  });
  onTestFinished(() => opened.close());
  return { channel: opened, heard, statuses };
}

async function until(check: () => boolean, what: string, timeoutMs = 10_000) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`Waited ${timeoutMs} ms for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return Date.now() - start;
}

describe("the LISTEN/NOTIFY channel", () => {
  it("delivers what any listener sends to every listener, itself included, in order", async () => {
    const a = channel(database.url);
    const b = channel(database.url);
    await Promise.all([a.channel.ready(), b.channel.ready()]);
    for (let i = 0; i < 1_000; i++) a.channel.send(`a${i}`);
    b.channel.send("b0");
    await Promise.all([a.channel.flushed(), b.channel.flushed()]);
    await until(() => a.heard.length === 1_001 && b.heard.length === 1_001, "both to hear everything");
    const fromA = Array.from({ length: 1_000 }, (_, i) => `a${i}`);
    for (const heard of [a.heard, b.heard]) expect(heard.filter((p) => p.startsWith("a"))).toEqual(fromA);
  });

  it("refuses a channel name that is not a lowercase identifier", () => {
    for (const name of ["Bus", "bus; DROP TABLE x", "", "a".repeat(64)]) {
      expect(() => openNotifyChannel({ url: database.url, channel: name, onNotification: () => undefined })).toThrow(
        /lowercase identifier/,
      );
    }
  });

  it("tries again with a growing delay while the server cannot be reached, and stops when closed", async () => {
    const { channel: c, statuses } = channel("postgres://postgres@127.0.0.1:1/none", {
      firstRetryMs: 20,
      maxRetryMs: 160,
    });
    await until(() => statuses.length >= 6, "six tries");
    await c.close();
    const lost = statuses.filter((s) => s.state === "lost");
    expect(lost.map((s) => s.attempts)).toEqual(lost.map((_, i) => i + 1));
    // 20, 40, 80, 160, 160… each with a jitter of ±50%.
    lost.forEach((s, i) => {
      const base = Math.min(160, 20 * 2 ** i);
      expect(s.retryInMs).toBeGreaterThanOrEqual(base * 0.5);
      expect(s.retryInMs).toBeLessThanOrEqual(base * 1.5);
    });
    const count = statuses.length;
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(statuses.length).toBe(count);
    expect(c.listening).toBe(false);
  });

  it("comes back after its connections are cut, and sends what was queued meanwhile", async () => {
    const r = await relay();
    const a = channel(r.url, { firstRetryMs: 50 });
    const b = channel(database.url);
    await Promise.all([a.channel.ready(), b.channel.ready()]);
    r.cut();
    a.channel.send("while cut");
    await until(() => b.heard.includes("while cut"), "the queued message");
    expect(a.statuses.some((s) => s.state === "lost")).toBe(true);
    expect(a.statuses.at(-1)).toMatchObject({ state: "listening", reconnected: true });
    b.channel.send("to a, again");
    await until(() => a.heard.includes("to a, again"), "a listening again");
  });

  it("finds a connection that went silent by its heartbeat, listens again on a new one and sends what was stuck", async () => {
    const r = await relay();
    const a = channel(r.url, { heartbeatMs: 200, firstRetryMs: 20 });
    const b = channel(database.url);
    await Promise.all([a.channel.ready(), b.channel.ready()]);
    const before = a.channel.backendPid;
    r.freeze();
    // Sent into the silence: its statement never answers, and must not hold the queue.
    a.channel.send("sent into the freeze");
    const inMs = await until(
      () => a.channel.backendPid !== null && a.channel.backendPid !== before,
      "a new connection after the heartbeat failed",
    );
    // The heartbeat's period and its 1 s timeout, then a reconnection.
    expect(inMs).toBeLessThan(3_000);
    expect(a.statuses.find((s) => s.state === "lost")).toMatchObject({
      error: expect.objectContaining({ message: expect.stringMatching(/did not answer within 1000 ms/) }),
    });
    b.channel.send("after the freeze");
    await until(() => a.heard.includes("after the freeze"), "a to hear again");
    await until(() => b.heard.includes("sent into the freeze"), "the message sent into the freeze");
  });

  it("refuses a payload too large for NOTIFY on its own, and sends the ones around it", async () => {
    const a = channel(database.url);
    await a.channel.ready();
    a.channel.send("before");
    a.channel.send("x".repeat(7_999));
    a.channel.send("₹".repeat(2_667));
    a.channel.send("after");
    await a.channel.flushed();
    await until(() => a.heard.includes("after"), "the last payload");
    expect(a.heard).toEqual(["before", "x".repeat(7_999), "after"]);
    const dropped = a.statuses.filter((s) => s.state === "dropped");
    expect(dropped).toEqual([
      {
        state: "dropped",
        count: 1,
        error: new Error("A payload of 8001 bytes is more than PostgreSQL's NOTIFY carries (7999)."),
      },
    ]);
  });

  it("keeps at most maxQueuedBytes of payloads while it cannot send, dropping the oldest, said once a burst", async () => {
    const r = await relay();
    const a = channel(r.url, { maxQueuedBytes: 3, firstRetryMs: 300 });
    const b = channel(database.url);
    await Promise.all([a.channel.ready(), b.channel.ready()]);
    r.cut();
    await until(() => !a.channel.listening, "a to see the cut");
    for (const p of ["1", "2", "3", "4", "5"]) a.channel.send(p);
    await new Promise((resolve) => setImmediate(resolve));
    expect(a.statuses.filter((s) => s.state === "dropped")).toEqual([
      {
        state: "dropped",
        count: 2,
        error: new Error("More than 3 bytes of messages waited to be sent: the oldest 2 were dropped."),
      },
    ]);
    await until(() => b.heard.length === 3, "the three kept");
    expect(b.heard).toEqual(["3", "4", "5"]);
  });
});
