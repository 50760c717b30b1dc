// Events in (docs/decisions/0044-events-in.md), on either engine (bench/sections/sqlite/events.ts,
// bench/sections/postgres/events.ts): the production server on the bench's database takes
// POST /api/events batches of 100 events (each a new id, for customers of the seeded tenant) from
// CONNECTIONS closed-loop clients for SECONDS after a warm-up. Goals of the issue: at least 5,000
// events a second, and a batch's p99 at most 100 ms. A batch posted again is checked to keep
// nothing (all duplicates). The issue's "while a campaign sends at 1,000 msg/s" is not part of this
// run: the events are measured alone.
import type { BenchGoal, BenchSection } from "../harness/types.ts";
import { stats } from "./latency-stats.ts";
import { startProductionServer, stopProcess } from "./server-processes.ts";

const SECONDS = Number(process.env.BENCH_EVENTS_SECONDS ?? 10);
const WARMUP_SECONDS = 2;
const CONNECTIONS = Number(process.env.BENCH_EVENTS_CONNECTIONS ?? 4);
const BATCH = 100;

export async function measureEventsIn(options: {
  engine: "sqlite" | "postgres";
  userId: string;
  customerIds: readonly string[];
  log: (message: string) => void;
}): Promise<BenchSection> {
  const { issueToken } = await import("../../app/services/token.server.ts");
  const { server, base } = await startProductionServer();
  options.log(`events (${options.engine}): the production server on ${base}`);
  try {
    const headers = { Authorization: `Bearer ${await issueToken(options.userId)}`, "Content-Type": "application/json" };
    let next = 0;
    const batchBody = () => {
      const events = Array.from({ length: BATCH }, () => {
        const n = next++;
        return {
          id: `bench-${options.engine}-${n}`,
          name: n % 3 === 0 ? "cart_abandoned" : "page_viewed",
          customerId: options.customerIds[n % options.customerIds.length],
          properties: { url: `https://shop.example/p/${n % 997}`, items: [{ sku: `SKU-${n % 50}`, qty: 1 + (n % 3) }] },
        };
      });
      return JSON.stringify({ events });
    };
    const post = async (body: string) => {
      const response = await fetch(`${base}/api/events`, { method: "POST", headers, body });
      const answer = (await response.json()) as { accepted?: number; duplicates?: number };
      if (!response.ok) throw new Error(`POST /api/events answered ${response.status}: ${JSON.stringify(answer)}`);
      return answer;
    };

    const latencies: number[] = [];
    let accepted = 0;
    let recording = false;
    let stop = false;
    const client = async () => {
      while (!stop) {
        const body = batchBody();
        const t = performance.now();
        const answer = await post(body);
        const ms = performance.now() - t;
        if (recording) {
          latencies.push(ms);
          accepted += answer.accepted ?? 0;
        }
      }
    };
    const clients = Array.from({ length: CONNECTIONS }, client);
    await new Promise((r) => setTimeout(r, WARMUP_SECONDS * 1000));
    recording = true;
    const started = performance.now();
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    recording = false;
    const elapsed = (performance.now() - started) / 1000;
    stop = true;
    await Promise.all(clients);

    // The same batch again keeps nothing.
    next = 0;
    const repeat = await post(batchBody());
    const perSecond = Math.round(accepted / elapsed);
    const batch = stats(latencies);
    options.log(`events (${options.engine}): ${perSecond} events/s, batch p99 ${batch.p99} ms`);
    const goals: BenchGoal[] = [
      {
        goal: "POST /api/events: events kept a second (batches of 100)",
        value: perSecond,
        limit: 5000,
        unit: "events/s",
        met: perSecond >= 5000,
      },
      {
        goal: "POST /api/events: a batch of 100, p99",
        value: batch.p99,
        limit: 100,
        unit: "ms",
        met: batch.p99 <= 100,
      },
      {
        goal: "a batch posted again keeps nothing",
        value: repeat.accepted ?? -1,
        limit: 0,
        unit: "events",
        met: repeat.accepted === 0 && repeat.duplicates === BATCH,
      },
    ];
    return {
      name: "events",
      figures: {
        connections: CONNECTIONS,
        batch: BATCH,
        seconds: elapsed,
        accepted,
        perSecond,
        batchMs: batch,
        repeat,
      },
      goals,
    };
  } finally {
    await stopProcess(server);
  }
}
