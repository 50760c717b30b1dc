// The process bus between instances sharing one PostgreSQL database
// (docs/decisions/0034-many-instances.md), on a real database of the file's own: this test process
// is one instance and real child processes (tests/helpers/instances.ts) are the others. A message
// reaches every other instance once, in order, and never comes back to its sender; a LISTEN
// connection the server kills comes back and delivers again; what the product sends over the bus
// (a notification for an open event stream, a user change, import progress, delivery wakes) works
// from one instance to another.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { pino } from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createMigratedPostgresDatabase, type PostgresDatabase } from "../../tests/helpers/postgres";
import { type Instance, startInstance } from "../../tests/helpers/instances";
import { resetEnvCache } from "~/env.server";
import { openNotifyChannel } from "~/db/listen.server";
import {
  BUS_CHANNEL,
  BUS_MESSAGE,
  hearBusMessage,
  type InstanceLink,
  linkInstances,
  MAX_BUS_MESSAGE_BYTES,
  publish,
  subscribe,
} from "~/services/process-bus.server";

let database: PostgresDatabase;
let admin: pg.Client;
let link: InstanceLink;
let dataDir: string;
const logLines: string[] = [];
const instances: Instance[] = [];

beforeAll(async () => {
  database = await createMigratedPostgresDatabase("crm_bus");
  dataDir = mkdtempSync(path.join(tmpdir(), "crm-bus-"));
  process.env.DATABASE_URL = database.url;
  process.env.DATA_DIR = dataDir;
  process.env.SESSION_SECRET ??= "test-secret-that-is-at-least-32-characters-long";
  resetEnvCache();
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  const log = pino({ level: "debug" }, { write: (line: string) => void logLines.push(line) });
  link = linkInstances(openNotifyChannel, { url: database.url, log });
  await link.channel.ready();
});

afterEach(async () => {
  await Promise.all(instances.splice(0).map((i) => i.stop()));
});

afterAll(async () => {
  await link?.close();
  const { db } = await import("~/db/prisma.server");
  const { closePostgres } = await import("~/db/postgres.server");
  await db().$disconnect();
  await closePostgres();
  await admin?.end();
  await database?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Another instance on the same database, linked and subscribed to `topics`. */
async function instance(...topics: string[]): Promise<Instance & { instanceId: string }> {
  const started = await startInstance(database.url, { DATA_DIR: dataDir });
  instances.push(started);
  const { instanceId } = await started.call<{ instanceId: string }>({ cmd: "link" });
  for (const topic of topics) await started.call({ cmd: "subscribe", topic });
  return Object.assign(started, { instanceId });
}

/** What this process's subscription to `topic` hears, from now on. */
function listen<T = unknown>(topic: string) {
  const heard: T[] = [];
  onTestFinished(subscribe<T>(topic, (payload) => heard.push(payload)));
  return heard;
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error(`Waited ${timeoutMs} ms for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return Date.now() - start;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe("the bus between instances", () => {
  it("a message published on one instance arrives once in every other, in order, and never back at its sender", async () => {
    const [b, c] = await Promise.all([instance("orders"), instance("orders")]);
    const here = listen<{ n: number; from: string }>("orders");
    const sent = Array.from({ length: 200 }, (_, n) => ({ n, from: "a" }));
    for (const payload of sent) publish("orders", payload);
    await link.channel.flushed();
    // Heard here at once, by the publisher's own subscribers: not again when PostgreSQL echoes it.
    expect(here).toHaveLength(200);
    for (const other of [b, c]) expect((await other.waitFor("orders", 200)).map((h) => h.payload)).toEqual(sent);

    await b.call({
      cmd: "publish",
      topic: "orders",
      payloads: [
        { n: 0, from: "b" },
        { n: 1, from: "b" },
      ],
    });
    await until(() => here.length === 202, "b's messages here");
    await c.waitFor("orders", 202);
    await settle();
    expect(here.slice(200)).toEqual([
      { n: 0, from: "b" },
      { n: 1, from: "b" },
    ]);
    // b heard its own two once (locally), c heard each of them once.
    expect(b.heard.filter((h) => h.topic === "orders")).toHaveLength(202);
    expect(c.heard.filter((h) => h.topic === "orders")).toHaveLength(202);
    expect(here).toHaveLength(202);
  });

  it("a message a worker hands to its primary (hearBusMessage) reaches the other instances", async () => {
    const b = await instance("from-a-worker");
    hearBusMessage({ kind: BUS_MESSAGE, topic: "from-a-worker", payload: { worker: 2 } });
    expect((await b.waitFor("from-a-worker", 1)).map((h) => h.payload)).toEqual([{ worker: 2 }]);
  });

  it("a LISTEN connection the server terminates comes back, listens again and keeps delivering both ways", async () => {
    const b = await instance("after-kill");
    const here = listen("after-kill");
    const { backendPid: before } = await b.call<{ backendPid: number }>({ cmd: "backendPid" });
    await admin.query("SELECT pg_terminate_backend($1)", [before]);
    let after = before;
    const backInMs = await until(async () => {
      after = (await b.call<{ backendPid: number | null }>({ cmd: "backendPid" })).backendPid ?? before;
      return after !== before;
    }, "b to listen again");
    expect(backInMs).toBeLessThan(3_000);
    publish("after-kill", "to b");
    expect((await b.waitFor("after-kill", 1)).map((h) => h.payload)).toEqual(["to b"]);
    await b.call({ cmd: "publish", topic: "after-kill", payloads: ["from b"] });
    await until(() => here.includes("from b"), "b's message here");
    expect(b.output()).toMatch(/Linked to the other instances again/);

    // This process's own link too: killed, back, and heard from.
    const mine = link.channel.backendPid;
    await admin.query("SELECT pg_terminate_backend($1)", [mine]);
    await until(() => link.channel.backendPid !== null && link.channel.backendPid !== mine, "this link to return");
    await b.call({ cmd: "publish", topic: "after-kill", payloads: ["again from b"] });
    await until(() => here.includes("again from b"), "b's second message here");
    expect(logLines.some((l) => l.includes("Lost the PostgreSQL connection"))).toBe(true);
  });

  it("what an instance publishes while its link is down goes out once the link is back, each message once", async () => {
    const b = await instance("while-down");
    const mine = link.channel.backendPid;
    await admin.query("SELECT pg_terminate_backend($1)", [mine]);
    const sent = Array.from({ length: 20 }, (_, n) => n);
    for (const n of sent) publish("while-down", n);
    expect((await b.waitFor("while-down", 20)).map((h) => h.payload)).toEqual(sent);
    await settle();
    expect(b.heard.filter((h) => h.topic === "while-down")).toHaveLength(20);
  });

  it("a message too large for PostgreSQL's NOTIFY is refused outside production, naming the limit", () => {
    expect(() => publish("big", "x".repeat(MAX_BUS_MESSAGE_BYTES))).toThrow(
      /on "big" is 7,805 bytes; at most 7,800 cross between instances/,
    );
    // Counted in UTF-8 bytes, as PostgreSQL counts: 2,000 rupee signs are 6,000 bytes.
    expect(() => publish("big", "₹".repeat(2_000))).not.toThrow();
    expect(() => publish("big", "₹".repeat(2_700))).toThrow(/8,105 bytes/);
  });

  it("a notification on the channel that is not a bus message is ignored", async () => {
    const b = await instance("after-noise");
    const here = listen("after-noise");
    await admin.query("SELECT pg_notify($1, 'not json'), pg_notify($1, '{\"x\":1}')", [BUS_CHANNEL]);
    await b.call({ cmd: "publish", topic: "after-noise", payloads: ["still here"] });
    await until(() => here.length === 1, "the message after the noise");
    expect(logLines.some((l) => l.includes("is not JSON: ignored"))).toBe(true);
    expect(logLines.some((l) => l.includes("is not a bus message: ignored"))).toBe(true);
  });
});

describe("what the product sends over the bus, from one instance to another", () => {
  it("a notification made on another instance reaches the event stream open here", async () => {
    const { createTestUser } = await import("../../tests/helpers/db");
    const { args, bearerFor, makeRequest } = await import("../../tests/helpers/requests");
    const stream = await import("~/routes/api/notifications-stream");
    const user = await createTestUser();
    const res = await stream.loader(
      args(makeRequest("/api/notifications/stream", { auth: { bearer: await bearerFor(user.id) } })),
    );
    expect(res.status).toBe(200);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let received = "";
    const reading = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        received += new TextDecoder().decode(value);
      }
    })();
    const b = await instance();
    const sentAt = Date.now();
    await b.call({ cmd: "notify", userId: user.id, title: "Made on instance b" });
    const inMs = await until(() => received.includes("Made on instance b"), "the stream's event");
    expect(Date.now() - sentAt).toBeLessThan(5_000);
    expect(inMs).toBeLessThan(2_000);
    expect(received).toMatch(
      /event: notification\ndata: \{"kind":"created","notification":\{.*"title":"Made on instance b"/,
    );
    await reader.cancel();
    await reading;
  });

  it("a user changed on another instance is dropped from this instance's cache at once", async () => {
    const { createTestUser } = await import("../../tests/helpers/db");
    const { getUser, USER_CHANGED } = await import("~/services/users.server");
    const changed = listen<string>(USER_CHANGED);
    const b = await instance();
    // Told apart from the cache's own expiry only when it all happens within its two seconds: a
    // machine too busy for that (a loaded CI run) makes the attempt say nothing, and it is tried again.
    for (let attempt = 1; ; attempt++) {
      const user = await createTestUser();
      const cachedAt = Date.now();
      const before = await getUser(user.id);
      await b.call({ cmd: "endSessions", userId: user.id });
      await until(() => changed.includes(user.id), "the user change here");
      const after = await getUser(user.id);
      if (Date.now() - cachedAt >= 2_000 && attempt < 3) continue;
      // Well within the cache's two seconds: the row was read again because the bus said so.
      expect(Date.now() - cachedAt).toBeLessThan(2_000);
      expect(after?.sessionVersion).toBe((before?.sessionVersion ?? 0) + 1);
      break;
    }
  });

  it("an import's progress saved on another instance is readable here", async () => {
    const { createTestUser } = await import("../../tests/helpers/db");
    const { importProgress } = await import("~/services/import-progress.server");
    const user = await createTestUser();
    const b = await instance();
    expect(importProgress(user.id, "progress-key-1")).toBeNull();
    await b.call({ cmd: "trackImport", userId: user.id, key: "progress-key-1", rows: 1234 });
    // The start (0 rows) and the 1,234 rows arrive as two messages; wait for the second.
    await until(() => importProgress(user.id, "progress-key-1")?.rows === 1234, "the progress here");
    expect(importProgress(user.id, "progress-key-1")).toMatchObject({ phase: "reading", rows: 1234 });
  });

  it("a wake reaches every instance's delivery job at once, a burst of them as two", async () => {
    const { onDeliveryWake } = await import("~/services/sending/wake.server");
    let wakes = 0;
    onTestFinished(onDeliveryWake(() => (wakes += 1)));
    const b = await instance();
    await b.call({ cmd: "wake", count: 1 });
    await until(() => wakes === 1, "the wake here");
    // 100 wakes at once (receipts, opens): the first goes at once, the rest as one at the window's end.
    await b.call({ cmd: "wake", count: 100 });
    await until(() => wakes === 3, "the burst's wakes here");
    await settle();
    expect(wakes).toBe(3);
  });
});
