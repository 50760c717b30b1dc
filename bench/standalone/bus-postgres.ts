// `npx tsx bench/standalone/bus-postgres.ts`: what crosses instances on PostgreSQL, measured between real
// processes (docs/decisions/0034-many-instances.md). This process and a child it forks are each
// linked as an instance (linkInstances() over openNotifyChannel(), as server/index.ts does) on a
// database of their own on TEST_POSTGRES_URL's server, dropped after. Prints JSON on stdout:
//
// - latency: one message from this instance's publish() to the child's subscriber, BUS_MESSAGES
//   (default 500) messages 10 ms apart, in ms (p50, p90, p99, max);
// - burst: BUS_BURST (default 20,000) messages of about 130 bytes published at once, until the
//   child heard the last (ms, messages a second);
// - reconnect: from pg_terminate_backend of this instance's listening connection until it listens
//   again (ms);
// - lock: an advisory lock held by a child that is SIGKILLed, until this process takes it (ms, 10
//   runs), and how long a refused try takes (connect, pg_try_advisory_lock, close).
//
// Both processes stamp times with performance.timeOrigin + performance.now(), one clock.
import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { pino } from "pino";
import { createPostgresDatabase } from "../../tests/helpers/postgres.ts";
import { tryAdvisoryLock } from "../../app/db/advisory-lock.server.ts";
import { openNotifyChannel } from "../../app/db/listen.server.ts";
import { linkInstances, publish, subscribe } from "../../app/services/process-bus.server.ts";

process.env.SESSION_SECRET ??= randomBytes(32).toString("hex");
process.env.NODE_ENV ??= "production";

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const MESSAGES = Number(process.env.BUS_MESSAGES ?? 500);
const BURST = Number(process.env.BUS_BURST ?? 20_000);
const role = process.argv[2];
// The link's warnings (the reconnection measured below) go to stderr; stdout is the JSON.
const log = pino({ level: "warn" }, pino.destination(2));

type FromChild = { ready?: true; sent?: number; got?: number; burstDone?: number; locked?: true };

if (role === "listener") {
  // The other instance: hears the messages and reports when.
  const link = linkInstances(openNotifyChannel, { url: process.env.DATABASE_URL ?? "", log });
  await link.channel.ready();
  subscribe<{ t: number }>("bench:latency", (p) => process.send?.({ sent: p.t, got: now() } satisfies FromChild));
  subscribe<{ i: number }>("bench:burst", (p) => {
    if (p.i === BURST - 1) process.send?.({ burstDone: now() } satisfies FromChild);
  });
  process.send?.({ ready: true } satisfies FromChild);
  process.on("disconnect", () => process.exit(0));
} else if (role === "holder") {
  // A process that takes the lock and waits to be killed.
  await tryAdvisoryLock(process.env.DATABASE_URL ?? "", "bench:lock");
  process.send?.({ locked: true } satisfies FromChild);
  setInterval(() => undefined, 60_000);
} else {
  const database = await createPostgresDatabase("crm_bus_bench");
  process.env.DATABASE_URL = database.url;
  const child = (name: string) =>
    fork(import.meta.filename, [name], { execArgv: ["--import", "tsx"], env: { ...process.env } });
  const quantiles = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (q: number) => +sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(2);
    return { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) };
  };
  try {
    const link = linkInstances(openNotifyChannel, { url: database.url, log });
    await link.channel.ready();
    const listener = child("listener");
    const latencies: number[] = [];
    let burstDone = 0;
    await new Promise<void>((resolve) =>
      listener.on("message", (m: FromChild) => {
        if (m.ready) resolve();
        if (m.got !== undefined && m.sent !== undefined) latencies.push(m.got - m.sent);
        if (m.burstDone) burstDone = m.burstDone;
      }),
    );
    for (let i = 0; i < MESSAGES; i++) {
      publish("bench:latency", { t: now() });
      await sleep(10);
    }
    await sleep(500);

    const burstStart = now();
    for (let i = 0; i < BURST; i++) publish("bench:burst", { i, pad: "x".repeat(100) });
    while (!burstDone) await sleep(2);
    const burstMs = burstDone - burstStart;

    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    const before = link.channel.backendPid;
    const killedAt = now();
    await admin.query("SELECT pg_terminate_backend($1)", [before]);
    while (!link.channel.backendPid || link.channel.backendPid === before) await sleep(1);
    const reconnectMs = now() - killedAt;
    listener.kill();

    const freed: number[] = [];
    const refused: number[] = [];
    for (let i = 0; i < 10; i++) {
      const holder = child("holder");
      await new Promise((resolve) => holder.once("message", resolve));
      const tried = now();
      if (await tryAdvisoryLock(database.url, "bench:lock")) throw new Error("The lock should be held.");
      refused.push(now() - tried);
      const killed = now();
      holder.kill("SIGKILL");
      let lock = await tryAdvisoryLock(database.url, "bench:lock");
      while (!lock) lock = await tryAdvisoryLock(database.url, "bench:lock");
      freed.push(now() - killed);
      await lock.release();
    }
    await admin.end();
    await link.close();
    console.log(
      JSON.stringify(
        {
          latency: { messages: latencies.length, ms: quantiles(latencies) },
          burst: { messages: BURST, ms: Math.round(burstMs), perSecond: Math.round(BURST / (burstMs / 1000)) },
          reconnect: { ms: Math.round(reconnectMs) },
          lock: { freedAfterSigkillMs: quantiles(freed), refusedTryMs: quantiles(refused) },
        },
        null,
        2,
      ),
    );
  } finally {
    await database.drop();
  }
  process.exit(0);
}
