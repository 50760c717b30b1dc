// SMTP bench section: a campaign through the SMTP channel to a local SMTP server, beside the same
// campaign through the simulated vendor, in a data directory of its own:
// - `crm` (the CLI, in child processes) migrates a fresh database, creates a tenant, seeds it with
//   BENCH_SMTP_RECIPIENTS customers (default 100,000) and issues its /api token; a DKIM key for the
//   sender's domain is generated into the directory's dkim/ folder, so every message is signed;
// - the SMTP server is bench/helpers/smtp-sink-process.ts (smtp-server in a process of its own on loopback,
//   as a relay would be): it accepts every message, checks each has a DKIM-Signature and a unique
//   Message-ID, and reports its counts and its own CPU time;
// - the real production server (DELIVERY_CHANNEL=smtp, SMTP_URL at the sink) launches a campaign to
//   every customer through /api; timed from the launch request to every row final (delivered,
//   failed or bounced: a relay that accepts a message is its delivery), with the CPU time of the
//   server (per thread: the delivery job's, the request thread's) and of the sink;
// - then the same campaign through the simulated vendor (bench/helpers/vendor-process.ts, as the delivery
//   section runs it) on the same data and machine, for the side-by-side figure.
// SMTP_POOL and DELIVERY_CONCURRENCY come from BENCH_SMTP_POOL and BENCH_DELIVERY_CONCURRENCY
// (the server's defaults when unset) and are recorded with the figures.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { createPrivateKey, randomBytes, sign } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import type { BenchContext, BenchSection } from "../../harness/types.ts";
import { freePort, serverCommand } from "../../../tests/helpers/production-server.ts";
import { stopProcess, waitForHealth } from "../../helpers/server-processes.ts";
import { startSmtpSink } from "../../helpers/smtp-sink.ts";
import { templateFillFigures } from "../../helpers/template-fill.ts";

const root = path.resolve(import.meta.dirname, "../../..");
const tsx = path.join(root, "node_modules/.bin/tsx");
const run = promisify(execFile);
const round = (n: number) => Math.round(n * 100) / 100;
const GOAL_PER_SECOND = 2000;
const DOMAIN = "bench-mail.example";
const TENANT = "bench-smtp@example.com";

/**
 * What one RSA signature with the bench's DKIM key costs on this machine (OpenSSL through
 * node:crypto, as the signing threads do it), and so the most messages a second the machine's
 * cores could sign if they did nothing else: the ceiling any SMTP figure here stays under.
 */
function signingCeiling(privateKeyPem: string) {
  const key = createPrivateKey(privateKeyPem);
  const headers = Buffer.from("from:Bench Shop <news@bench-mail.example>\r\nsubject:x\r\n".repeat(6));
  for (let i = 0; i < 50; i++) sign("sha256", headers, key); // warm up
  const n = 1_000;
  const started = performance.now();
  for (let i = 0; i < n; i++) sign("sha256", headers, key);
  const msPerSignature = (performance.now() - started) / n;
  const cores = availableParallelism();
  return {
    bits: key.asymmetricKeyDetails?.modulusLength,
    msPerSignature: round(msPerSignature),
    cores,
    signaturesPerSecondAllCores: Math.round((cores * 1000) / msPerSignature),
    what: "RSA signatures of the DKIM key in one thread, timed; × the cores: the most messages a second this machine could sign with nothing else running",
  };
}

/**
 * CPU time (user + system, ms) of each thread of a process (Linux /proc). Node names no thread, so
 * the main thread (the one answering requests) is "main" and the others go by their id: the
 * busiest of them during a campaign is the delivery job's worker thread.
 */
function threadCpu(pid: number): Map<string, number> {
  const ticks = 100; // USER_HZ on Linux
  const byThread = new Map<string, number>();
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return byThread;
  }
  for (const tid of tasks) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      byThread.set(
        tid === String(pid) ? "main" : `thread ${tid}`,
        ((Number(fields[11]) + Number(fields[12])) * 1000) / ticks,
      );
    } catch {
      /* gone */
    }
  }
  return byThread;
}

/** CPU ms between two readings: the total, and the threads that used at least 1% of it, largest first. */
function cpuBetween(before: Map<string, number>, after: Map<string, number>) {
  const rows = [...after].map(([name, ms]) => [name, Math.round(ms - (before.get(name) ?? 0))] as const);
  rows.sort((a, b) => b[1] - a[1]);
  const totalMs = rows.reduce((s, [, ms]) => s + ms, 0);
  return { totalMs, byThread: Object.fromEntries(rows.filter(([, ms]) => ms > 0 && ms >= totalMs / 100)) };
}

type CampaignFigures = {
  recipients: number;
  launchSeconds: number;
  launchToAllFinalSeconds: number;
  messagesPerSecond: number;
  final: Record<string, unknown>;
  serverCpu: { totalMs: number; byThread: Record<string, number> };
  serverCpuMsPerMessage: number;
};

/** Launches a campaign to the segment through /api and waits for every row to be final. */
async function campaignThrough(
  ctx: BenchContext,
  label: string,
  server: ChildProcess,
  base: string,
  token: string,
  segmentId: string,
  dbFile: string,
  content: Record<string, unknown> = {
    subject: "Hello {NAME}, our Diwali offers",
    message:
      "Hi {NAME},\n\nEverything in the shop is 10% off until Sunday: https://shop.example/offers\n\nSee you soon,\nThe Bench Shop team",
  },
): Promise<CampaignFigures> {
  const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  const raw = new Database(dbFile, { readonly: true });
  try {
    const cpu0 = threadCpu(server.pid ?? 0);
    const launchedAt = performance.now();
    const launched = await fetch(`${base}/api/campaigns`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: `Bench ${label} campaign`, segmentId, ...content }),
    });
    if (launched.status !== 201) throw new Error(`launch answered ${launched.status}: ${await launched.text()}`);
    const campaign = (await launched.json()) as { id: string; audienceSize: number };
    const launchMs = performance.now() - launchedAt;
    const readStatus = raw.prepare(
      `SELECT "status", "audienceSize", "pendingCount", "sentCount", "deliveredCount", "failedCount", "bouncedCount" FROM "Campaign" WHERE "id" = ?`,
    );
    let status = readStatus.get(campaign.id) as { pendingCount: number; sentCount: number; status: string };
    for (let i = 0; i < 6000 && (status.pendingCount > 0 || status.sentCount > 0); i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = readStatus.get(campaign.id) as typeof status;
      if (status.status === "Paused") throw new Error(`the ${label} campaign paused: ${JSON.stringify(status)}`);
      if (i % 50 === 0)
        ctx.log(
          `smtp: ${label}: ${status.pendingCount.toLocaleString("en-IN")} pending, ${status.sentCount.toLocaleString("en-IN")} awaiting receipts`,
        );
    }
    const totalMs = performance.now() - launchedAt;
    if (status.pendingCount > 0 || status.sentCount > 0)
      throw new Error(`the ${label} campaign did not finish in 10 minutes: ${JSON.stringify(status)}`);
    const serverCpu = cpuBetween(cpu0, threadCpu(server.pid ?? 0));
    return {
      recipients: campaign.audienceSize,
      launchSeconds: round(launchMs / 1000),
      launchToAllFinalSeconds: round(totalMs / 1000),
      messagesPerSecond: Math.round(campaign.audienceSize / (totalMs / 1000)),
      final: status,
      serverCpu,
      serverCpuMsPerMessage: round(serverCpu.totalMs / campaign.audienceSize),
    };
  } finally {
    raw.close();
  }
}

export default async function smtpSection(ctx: BenchContext): Promise<BenchSection> {
  const goals: BenchSection["goals"] = [];
  const figures: Record<string, unknown> = {};
  const recipients = Number(process.env.BENCH_SMTP_RECIPIENTS ?? 100_000);
  const dataDir = path.join(ctx.workDir, "smtp");
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const dbFile = path.join(dataDir, "crm.db");
  const sessionSecret = randomBytes(32).toString("hex");
  const appEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: `file:${dbFile}`,
    SESSION_SECRET: sessionSecret,
    LOG_LEVEL: "warn",
  };
  const crm = async (...args: string[]) =>
    (await run(tsx, [path.join(root, "cli/index.ts"), ...args], { cwd: root, env: appEnv, maxBuffer: 1 << 20 })).stdout;

  // ---- A fresh tenant of its own -------------------------------------------------------------
  ctx.log(`smtp: seeding a fresh database with ${recipients.toLocaleString("en-IN")} customers`);
  const t = performance.now();
  await crm("db", "migrate");
  await crm("users", "create", "--email", TENANT, "--name", "Bench Shop");
  await crm("seed", "--user", TENANT, "--customers", String(recipients), "--seed", "3");
  const token = (await crm("users", "token", TENANT)).trim().split("\n").pop() ?? "";
  figures.seedSeconds = round((performance.now() - t) / 1000);
  // The sender domain's DKIM key, made as `crm dkim generate` makes it: the server signs with it.
  const { generateDkimKey } = await import("../../../app/services/email/dkim-keys.server.ts");
  const { key } = generateDkimKey(dataDir, DOMAIN, { selector: "bench" });
  figures.dkimKey = { domain: key.domain, selector: key.selector };
  figures.dkimSigning = signingCeiling(key.privateKey);

  const pool = process.env.BENCH_SMTP_POOL;
  const concurrency = process.env.BENCH_DELIVERY_CONCURRENCY;
  const tuning: Record<string, string> = {};
  if (pool) tuning.SMTP_POOL = pool;
  if (concurrency) tuning.DELIVERY_CONCURRENCY = concurrency;
  const serverEnv = (port: number, extra: Record<string, string>): NodeJS.ProcessEnv => ({
    ...appEnv,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOCAL_AUTH: "true",
    ...tuning,
    ...extra,
  });
  // BENCH_SMTP_PROFILE=<dir>: the servers write V8 CPU profiles there, one per thread (--cpu-prof).
  const profile = process.env.BENCH_SMTP_PROFILE;
  const profileArgs = profile ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(profile)}`] : [];
  const startServer = async (port: number, extra: Record<string, string>) => {
    const server = spawn(serverCommand.file, [...profileArgs, ...serverCommand.args], {
      cwd: root,
      stdio: ["ignore", "inherit", "inherit"],
      env: serverEnv(port, extra),
    });
    await waitForHealth(`http://127.0.0.1:${port}`);
    return server;
  };

  // The audience: every customer.
  let segmentId = "";
  const createSegment = async (base: string) => {
    const made = await fetch(`${base}/api/segments`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Bench everyone", conditions: { totalSpend: { $gte: 0 } } }),
    });
    if (made.status !== 201) throw new Error(`creating the segment answered ${made.status}: ${await made.text()}`);
    segmentId = ((await made.json()) as { id: string }).id;
  };

  // ---- Through SMTP to the local sink --------------------------------------------------------
  const { sink, port: sinkListening } = startSmtpSink(root);
  const processes: ChildProcess[] = [sink.process];
  const sinkReport = sink.report;
  try {
    const sinkPort = await sinkListening;
    const port = await freePort();
    ctx.log(`smtp: the SMTP sink on ${sinkPort}, the server on ${port}`);
    const smtpServer = await startServer(port, {
      DELIVERY_CHANNEL: "smtp",
      SMTP_URL: `smtp://127.0.0.1:${sinkPort}`,
      MAIL_FROM: `Bench Shop <news@${DOMAIN}>`,
    });
    processes.push(smtpServer);
    await createSegment(`http://127.0.0.1:${port}`);
    const sinkBefore = await sinkReport();
    const smtp = await campaignThrough(ctx, "SMTP", smtpServer, `http://127.0.0.1:${port}`, token, segmentId, dbFile);
    const sinkAfter = await sinkReport();
    // The same audience again, the message made from a starter template (blocks through MJML).
    const templated = await campaignThrough(
      ctx,
      "SMTP template",
      smtpServer,
      `http://127.0.0.1:${port}`,
      token,
      segmentId,
      dbFile,
      { templateId: "starter-offer" },
    );
    const sinkAfterTemplate = await sinkReport();
    await stopProcess(smtpServer);
    const received = {
      messages: sinkAfter.messages,
      dkimSigned: sinkAfter.dkimSigned,
      missingMessageId: sinkAfter.missingMessageId,
      duplicateMessageIds: sinkAfter.duplicateMessageIds,
      multipartAlternative: sinkAfter.multipartAlternative,
      oneClickUnsubscribe: sinkAfter.oneClickUnsubscribe,
      connections: sinkAfter.connections,
      megabytes: round(sinkAfter.bytes / 1e6),
      firstToLastSeconds: round(sinkAfter.firstToLastMs / 1000),
      sinkCpuMs: sinkAfter.cpuMs - sinkBefore.cpuMs,
      sinkCpuMsPerMessage: round((sinkAfter.cpuMs - sinkBefore.cpuMs) / Math.max(1, sinkAfter.messages)),
      sampleHeaders: sinkAfter.sampleHeaders?.split("\r\n").map((l) => (l.length > 160 ? `${l.slice(0, 160)}…` : l)),
    };
    figures.smtp = {
      ...smtp,
      settings: {
        SMTP_POOL: pool ?? "default (5)",
        DELIVERY_CONCURRENCY: concurrency ?? "default (4)",
      },
      received,
    };
    // Where the CPU went, a message at a time: the server's threads (signing among them) and the
    // sink's; the cores divided by it is the most this machine could send through this path.
    const signingMs = (figures.dkimSigning as { msPerSignature: number }).msPerSignature;
    const cpuMsPerMessage = smtp.serverCpuMsPerMessage + received.sinkCpuMsPerMessage;
    figures.cpuBound = {
      cpuMsPerMessage: round(cpuMsPerMessage),
      signingMsPerMessage: signingMs,
      restOfServerMsPerMessage: round(smtp.serverCpuMsPerMessage - signingMs),
      sinkMsPerMessage: received.sinkCpuMsPerMessage,
      messagesPerSecondWithEveryCore: Math.round((availableParallelism() * 1000) / cpuMsPerMessage),
      what: "CPU a message (server + SMTP sink), and the rate if every core of this machine did nothing but this path",
    };
    // What a template costs a message: the fill alone (in this process, both paths on the same
    // recipients), and the whole path through the server (the message is larger: MJML's HTML).
    const fill = await templateFillFigures();
    const templateMessages = sinkAfterTemplate.messages - sinkAfter.messages;
    figures.template = {
      ...templated,
      received: {
        messages: templateMessages,
        dkimSigned: sinkAfterTemplate.dkimSigned - sinkAfter.dkimSigned,
        bytesPerMessage: Math.round((sinkAfterTemplate.bytes - sinkAfter.bytes) / Math.max(1, templateMessages)),
        textBytesPerMessage: Math.round(sinkAfter.bytes / Math.max(1, sinkAfter.messages)),
      },
      serverCpuMsPerMessageOverText: round(templated.serverCpuMsPerMessage - smtp.serverCpuMsPerMessage),
      fill,
    };
    goals.push({
      // The render step: both paths with the same signed links (a token costs the same in either
      // path, one per tracked link; withSignedLinks and the server's CPU a message show the rest).
      goal: "Filling a template adds at most 50 µs of CPU a message over today's personalisation (the per-recipient render)",
      value: fill.addedUsPerMessage,
      limit: 50,
      unit: "µs",
      met: fill.addedUsPerMessage <= 50 && templateMessages === templated.recipients,
    });
    const allArrived =
      received.messages === smtp.recipients &&
      received.duplicateMessageIds === 0 &&
      received.missingMessageId === 0 &&
      (smtp.final as { deliveredCount?: number }).deliveredCount === smtp.recipients;
    const signed = received.dkimSigned === received.messages;
    goals.push({
      goal: `SMTP campaign of ${smtp.recipients.toLocaleString("en-IN")} to a local SMTP server, DKIM-signed: launch to every row final`,
      value: smtp.messagesPerSecond,
      limit: GOAL_PER_SECOND,
      unit: "msg/s",
      met: smtp.messagesPerSecond >= GOAL_PER_SECOND && allArrived && signed,
    });
    goals.push({
      goal: "SMTP: every message arrived once, with a unique Message-ID and a DKIM-Signature",
      value: received.messages - received.dkimSigned + received.duplicateMessageIds + received.missingMessageId,
      limit: 0,
      unit: "faults",
      met: allArrived && signed,
    });

    // ---- The same campaign through the simulated vendor ----------------------------------------
    const vendorPort = await freePort();
    const simPort = await freePort();
    const receiptsSecret = "bench-receipts-secret-0123456789";
    const vendorKey = "bench-vendor-key-0123456789";
    const vendor = spawn(tsx, [path.join(import.meta.dirname, "../../helpers/vendor-process.ts")], {
      cwd: root,
      stdio: ["ignore", "inherit", "inherit"],
      env: {
        ...process.env,
        VENDOR_PORT: String(vendorPort),
        VENDOR_KEY: vendorKey,
        VENDOR_RECEIPTS_URL: `http://127.0.0.1:${simPort}/api/webhooks/delivery-receipts`,
        VENDOR_RECEIPTS_SECRET: receiptsSecret,
      },
    });
    processes.push(vendor);
    ctx.log(`smtp: the same campaign through the simulated vendor on ${vendorPort}, the server on ${simPort}`);
    const simServer = await startServer(simPort, {
      DELIVERY_CHANNEL: "simulated",
      SIMULATED_VENDOR_URL: `http://127.0.0.1:${vendorPort}`,
      SIMULATED_VENDOR_KEY: vendorKey,
      RECEIPTS_SECRET: receiptsSecret,
    });
    processes.push(simServer);
    await waitForHealth(`http://127.0.0.1:${vendorPort}`);
    const simulated = await campaignThrough(
      ctx,
      "simulated",
      simServer,
      `http://127.0.0.1:${simPort}`,
      token,
      segmentId,
      dbFile,
    );
    figures.simulated = simulated;
    figures.smtpToSimulatedRate = round(smtp.messagesPerSecond / simulated.messagesPerSecond);
    figures.what =
      "a campaign to every customer of a fresh tenant through the production server: DELIVERY_CHANNEL=smtp to a local SMTP server process (bench/helpers/smtp-sink-process.ts) vs the simulated vendor in a process of its own; launch request to every row final; CPU per thread of the server (/proc) and of the sink over the campaign";
  } finally {
    for (const p of processes.reverse()) await stopProcess(p);
  }
  return { name: "smtp", figures, goals };
}
