// Sending beside writers, the part both engines' sections share (bench/sections/sqlite/smtp-writers.ts,
// bench/sections/postgres/smtp-writers.ts): a campaign goes out through the production server's SMTP
// channel to the SMTP sink (bench/helpers/smtp-sink.ts), and the send rate is measured in
// alternating windows, without writers and with four /api writers beside it
// (tests/helpers/writers.ts: customers, orders and segments created, updated, deleted). The goal:
// with the writers the send keeps at least 70% of its rate without them (median of the windows).
// Recipients: BENCH_SMTP_WRITERS_RECIPIENTS (default 200,000, a tenant of its own: at 4,000 msg/s without
// writers, 60,000 ran out before the last window); windows:
// BENCH_SMTP_WRITERS_WINDOWS pairs (default 3) of BENCH_SMTP_WRITERS_SECONDS (default 5).
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { freePort, serverCommand } from "../../tests/helpers/production-server.ts";
import { runWriters } from "../../tests/helpers/writers.ts";
import { stopProcess, waitForHealth } from "./server-processes.ts";
import { startSmtpSink } from "./smtp-sink.ts";
import type { BenchSection } from "../harness/types.ts";

const root = path.resolve(import.meta.dirname, "../..");
const tsx = path.join(root, "node_modules/.bin/tsx");
const run = promisify(execFile);
const round = (n: number) => Math.round(n * 100) / 100;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const GOAL_RATIO = 0.7;

export async function sendBesideWriters(options: {
  engine: "sqlite" | "postgres";
  workDir: string;
  /** PostgreSQL's database (already migrated); SQLite gets a file of its own in workDir. */
  databaseUrl?: string;
  log: (message: string) => void;
}): Promise<BenchSection> {
  const { log } = options;
  const recipients = Number(process.env.BENCH_SMTP_WRITERS_RECIPIENTS ?? 200_000);
  const pairs = Number(process.env.BENCH_SMTP_WRITERS_WINDOWS ?? 3);
  const seconds = Number(process.env.BENCH_SMTP_WRITERS_SECONDS ?? 5);
  const dataDir = path.join(options.workDir, `smtp-writers-${options.engine}`);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const appEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: options.databaseUrl ?? `file:${path.join(dataDir, "crm.db")}`,
    SESSION_SECRET: randomBytes(32).toString("hex"),
    LOG_LEVEL: "warn",
  };
  const crm = async (...args: string[]) =>
    (await run(tsx, [path.join(root, "cli/index.ts"), ...args], { cwd: root, env: appEnv, maxBuffer: 1 << 20 })).stdout;
  const email = `bench-writers-${Date.now()}@example.com`;
  log(`smtp-writers (${options.engine}): a tenant of ${recipients.toLocaleString("en-IN")} customers`);
  if (!options.databaseUrl) await crm("db", "migrate");
  await crm("users", "create", "--email", email, "--name", "Bench Writers Shop");
  await crm("seed", "--user", email, "--customers", String(recipients), "--seed", "5");
  const token = (await crm("users", "token", email)).trim().split("\n").pop() ?? "";

  const { sink, port: sinkListening } = startSmtpSink(root);
  const processes: ChildProcess[] = [sink.process];
  const sinkReport = sink.report;
  try {
    const sinkPort = await sinkListening;
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const server = spawn(serverCommand.file, serverCommand.args, {
      cwd: root,
      stdio: ["ignore", "inherit", "inherit"],
      env: {
        ...appEnv,
        NODE_ENV: "production",
        PORT: String(port),
        HOST: "127.0.0.1",
        PUBLIC_URL: base,
        LOCAL_AUTH: "true",
        DELIVERY_CHANNEL: "smtp",
        SMTP_URL: `smtp://127.0.0.1:${sinkPort}`,
        MAIL_FROM: "Bench Shop <news@bench-mail.example>",
      },
    });
    processes.push(server);
    await waitForHealth(base);
    const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
    const segment = await fetch(`${base}/api/segments`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: "Everyone", conditions: { totalSpend: { $gte: 0 } } }),
    });
    if (segment.status !== 201) throw new Error(`the segment answered ${segment.status}: ${await segment.text()}`);
    const segmentId = ((await segment.json()) as { id: string }).id;
    const launched = await fetch(`${base}/api/campaigns`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: "Beside writers", subject: "Hello {NAME}", segmentId, message: "Hi {NAME}" }),
    });
    if (launched.status !== 201) throw new Error(`the launch answered ${launched.status}: ${await launched.text()}`);
    // The send under way before the first window.
    for (let i = 0; i < 300 && (await sinkReport()).messages < 500; i++) await new Promise((r) => setTimeout(r, 100));
    const windows: { writers: number; messages: number; seconds: number; perSecond: number; writes?: number }[] = [];
    for (let i = 0; i < pairs * 2; i++) {
      const writers = i % 2 === 0 ? 0 : 4;
      const before = await sinkReport();
      const t = performance.now();
      let writes: number | undefined;
      if (writers) writes = (await runWriters({ base, token, writers, seconds })).writes;
      else await new Promise((r) => setTimeout(r, seconds * 1000));
      const after = await sinkReport();
      const s = (performance.now() - t) / 1000;
      const messages = after.messages - before.messages;
      windows.push({ writers, messages, seconds: round(s), perSecond: Math.round(messages / s), writes });
      log(`smtp-writers (${options.engine}): ${writers} writers, ${Math.round(messages / s)} msg/s`);
      if (after.messages >= recipients) throw new Error("the campaign ended before the last window: more recipients");
    }
    const last = await sinkReport();
    const without = median(windows.filter((w) => w.writers === 0).map((w) => w.perSecond));
    const beside = median(windows.filter((w) => w.writers > 0).map((w) => w.perSecond));
    const ratio = without ? round(beside / without) : 0;
    return {
      name: "smtp-writers",
      figures: {
        engine: options.engine,
        recipients,
        windows,
        medianPerSecond: { withoutWriters: without, withFourWriters: beside },
        ratio,
        sinkConnections: last.connections,
        duplicateMessageIds: last.duplicateMessageIds,
        what: "one campaign through the production server's SMTP channel to the SMTP sink; the sink's messages counted in alternating windows without writers and with four /api writers beside the send; ratio = median rate with writers / median rate without",
      },
      goals: [
        {
          goal: "SMTP send beside four /api writers: share of its rate without them",
          value: ratio,
          limit: GOAL_RATIO,
          unit: "ratio",
          met: ratio >= GOAL_RATIO && last.duplicateMessageIds === 0,
        },
      ],
    };
  } finally {
    for (const p of processes.reverse()) await stopProcess(p);
  }
}
