// Flows (docs/decisions/0046-flows.md), on either engine (bench/sections/sqlite/flows.ts,
// bench/sections/postgres/flows.ts), against the production server on the bench's database with
// the SMTP channel to the bench's sink (a relay's acceptance is the row's delivery, so a delivery
// row's updatedAt is when its message was handed over):
// - event to message: a live flow sends a message on `order_placed`; the shop posts order_placed
//   events at RATE a second (batches every 100 ms, each for a customer not in the flow yet) for
//   SECONDS; each event's time from its post to its message accepted by the relay. Goal: p95 ≤ 5 s.
// - people waiting: the server's resident memory (every process) with WAITING people waiting in a
//   live flow (rows written here as the clock writes them: at a wait step, due in 60 days) against
//   the same server with nobody waiting, each read after the server has run ten seconds. Goal: the
//   difference ≤ 20 MB (waits are rows, not memory).
import type { ChildProcess } from "node:child_process";
import type { AnyConnection } from "../../app/db/connection.server.ts";
import { closeConnection } from "../../app/db/connection.server.ts";
import { openSqlConnection, sqlRows, sqlRun, sqlValue } from "../../tests/helpers/sql.ts";
import type { BenchGoal, BenchSection } from "../harness/types.ts";
import { stats } from "./latency-stats.ts";
import { startProductionServer, stopProcess, treeRss } from "./server-processes.ts";
import { startSmtpSink } from "./smtp-sink.ts";

const RATE = Number(process.env.BENCH_FLOWS_RATE ?? 100);
const SECONDS = Number(process.env.BENCH_FLOWS_SECONDS ?? 20);
const WAITING = Number(process.env.BENCH_FLOWS_WAITING ?? 1_000_000);
const SETTLE_MS = 10_000;
const MB = 1024 * 1024;

type Options = {
  engine: "sqlite" | "postgres";
  /** The SQLite file or the PostgreSQL URL the server runs on. */
  target: string;
  userId: string;
  log: (message: string) => void;
};

async function api(base: string, token: string, pathname: string, body: unknown) {
  const response = await fetch(`${base}${pathname}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`POST ${pathname} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/** Event to message at RATE a second: each event's milliseconds from its post to its message's acceptance. */
async function eventToMessage(base: string, token: string, db: AnyConnection, customers: string[]) {
  const flow = await api(base, token, "/api/flows", {
    name: `Bench thank-you ${Date.now()}`,
    trigger: { type: "event", event: "order_placed" },
    steps: [{ id: "thanks", type: "send", templateId: "starter-order-follow-up" }],
    status: "live",
  });
  const flowId = String(flow.id);
  const posted = new Map<string, number>();
  const perBatch = Math.max(1, Math.round(RATE / 10));
  let next = 0;
  const posts: Promise<unknown>[] = [];
  const started = Date.now();
  for (let tick = 0; tick < SECONDS * 10 && next < customers.length; tick++) {
    const events = customers.slice(next, next + perBatch).map((customerId, i) => ({
      id: `bench-order-${started}-${next + i}`,
      name: "order_placed",
      customerId,
      properties: { amount: 499 },
    }));
    next += events.length;
    const at = Date.now();
    for (const e of events) posted.set(e.customerId, at);
    posts.push(api(base, token, "/api/events", { events }));
    const wait = started + (tick + 1) * 100 - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  await Promise.all(posts);
  const campaignId = async () =>
    sqlValue<string>(db, `SELECT "id" FROM "Campaign" WHERE "flowId" = ? AND "flowStepId" = '1:thanks'`, [flowId]);
  const id = await campaignId();
  const delivered = async () =>
    Number(
      await sqlValue<number>(
        db,
        `SELECT count(*) AS "n" FROM "Delivery" WHERE "campaignId" = ? AND "status" = 'delivered'`,
        [id],
      ),
    );
  for (let i = 0; i < 1200 && (await delivered()) < posted.size; i++) await new Promise((r) => setTimeout(r, 100));
  const rows = await sqlRows<{ customerId: string; updatedAt: number | string }>(
    db,
    `SELECT "customerId", "updatedAt" FROM "Delivery" WHERE "campaignId" = ? AND "status" = 'delivered'`,
    [id],
  );
  const latencies = rows.flatMap((r) => {
    const at = posted.get(r.customerId);
    return at === undefined ? [] : [Number(r.updatedAt) - at];
  });
  // Paused, so nothing later in the bench enters it.
  await sqlRun(db, `UPDATE "Flow" SET "status" = 'paused' WHERE "id" = ?`, [flowId]);
  return { events: posted.size, messages: rows.length, latency: stats(latencies) };
}

/** The server's memory after SETTLE_MS of running. */
async function settledRss(server: ChildProcess): Promise<number> {
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  return treeRss(server.pid ?? 0).total;
}

export async function measureFlows(options: Options): Promise<BenchSection> {
  const { issueToken } = await import("../../app/services/token.server.ts");
  const token = await issueToken(options.userId);
  const { sink, port } = startSmtpSink();
  const env = {
    DELIVERY_CHANNEL: "smtp",
    SMTP_URL: `smtp://127.0.0.1:${await port}`,
    MAIL_FROM: "Bench <news@shop.example>",
  };
  const db = openSqlConnection(options.target);
  try {
    const customers = (
      await sqlRows<{ id: string }>(db, `SELECT "id" FROM "Customer" WHERE "userId" = ? ORDER BY "id" DESC LIMIT ?`, [
        options.userId,
        RATE * SECONDS,
      ])
    ).map((r) => r.id);

    let { server, base } = await startProductionServer(env);
    options.log(`flows (${options.engine}): the production server on ${base}`);
    let latency: Awaited<ReturnType<typeof eventToMessage>>;
    let rssNone: number;
    try {
      latency = await eventToMessage(base, token, db, customers);
      options.log(`flows (${options.engine}): event to message p95 ${latency.latency.p95} ms`);
      // Nobody waiting: the flow above paused; a live flow with a wait and no one in it.
      const waitFlow = await api(base, token, "/api/flows", {
        name: `Bench win-back ${Date.now()}`,
        trigger: { type: "event", event: "bench_never" },
        steps: [
          { id: "wait", type: "wait", seconds: 60 * 86_400 },
          { id: "offer", type: "send", templateId: "starter-offer" },
        ],
        status: "live",
      });
      await stopProcess(server);
      ({ server, base } = await startProductionServer(env));
      rssNone = await settledRss(server);
      await stopProcess(server);
      // WAITING people at the wait, due in 60 days, as the clock leaves them.
      const now = Date.now();
      const wrote = await sqlRun(
        db,
        `INSERT INTO "FlowEntry" ("id", "userId", "flowId", "version", "customerId", "entryKey", "stepId", "state", "dueAt", "claims", "enteredAt", "revenuePaise")
         SELECT "id", "userId", ?, 1, "id", 'bench-waiting', 'wait', 'active', ?, 0, ?, 0
         FROM "Customer" WHERE "userId" = ? ORDER BY "id" LIMIT ?`,
        [String(waitFlow.id), now + 60 * 86_400_000, now, options.userId, WAITING],
      );
      options.log(`flows (${options.engine}): ${wrote} people waiting`);
      ({ server, base } = await startProductionServer(env));
      const rssWaiting = await settledRss(server);
      const difference = Math.round(((rssWaiting - rssNone) / MB) * 10) / 10;
      const goals: BenchGoal[] = [
        {
          goal: `an order_placed event to its flow's message handed to the relay, p95 (${RATE} events/s)`,
          value: latency.latency.p95,
          limit: 5000,
          unit: "ms",
          met: latency.latency.p95 <= 5000 && latency.messages === latency.events,
        },
        {
          goal: `server memory with ${wrote.toLocaleString("en-IN")} people waiting in a flow, over none`,
          value: difference,
          limit: 20,
          unit: "MB",
          met: difference <= 20,
        },
      ];
      await sqlRun(db, `DELETE FROM "FlowEntry" WHERE "flowId" = ?`, [String(waitFlow.id)]);
      return {
        name: "flows",
        figures: {
          rate: RATE,
          seconds: SECONDS,
          events: latency.events,
          messages: latency.messages,
          eventToMessageMs: latency.latency,
          waiting: wrote,
          rssNoneMb: Math.round(rssNone / MB),
          rssWaitingMb: Math.round(rssWaiting / MB),
          rssDifferenceMb: difference,
        },
        goals,
      };
    } finally {
      await stopProcess(server);
    }
  } finally {
    await closeConnection(db);
    sink.process.kill();
  }
}
