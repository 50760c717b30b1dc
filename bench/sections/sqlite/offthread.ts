// Offthread bench section (docs/decisions/0017): the production server keeps answering while a
// 1,000,000-row CSV import and then a full export run through it. On a copy of the seeded database
// (the import must not grow the table the later sections measure), the server runs with one
// worker process (WEB_CONCURRENCY=1: the import, the export and the probes all meet on the one
// event loop) and bench/helpers/loop-monitor.mjs preloaded. A prober process of its own
// (bench/helpers/probe-client.ts) sends GET /healthz and GET /api/customers/{id} every 50 ms and creates a
// customer every 5 s, throughout: idle first, during POST /api/customers/import of the file, then
// during GET /api/customers/export of tenant A (every row, read to the end).
//
// Figures per phase: p50/p95/p99/max of /healthz and of the read, the writes' times and statuses,
// the server's event-loop delay (the monitor's histogram over exactly that phase, and the highest
// eventLoopDelayP99Ms /healthz reported; both how late the loop ran beyond the 10 ms sampling
// interval, so an idle loop reads about 0),
// the import's rows/s and the export's rows/s. Goals: /healthz and reads p99 under 100 ms and the
// event-loop delay p99 under 20 ms during both.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { copyFileSync, createReadStream, existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import Database from "better-sqlite3";
import type { ProbeSample } from "../../helpers/probe-client.ts";
import type { BenchContext, BenchSection } from "../../harness/types.ts";
import { writeCsv } from "../../helpers/customers-csv.ts";
import { stats } from "../../helpers/latency-stats.ts";
import { freePort } from "../../../tests/helpers/production-server.ts";
import { type LoopFigures, loopMonitorArgs, loopMonitorEnv, markLoops } from "../../helpers/loop-marks.ts";
import { spawnProductionServer } from "../../helpers/server-processes.ts";

const root = path.resolve(import.meta.dirname, "../../..");
const tsx = path.join(root, "node_modules/.bin/tsx");

type Phase = { name: "idle" | "import" | "export"; from: number; to: number; loop: LoopFigures };
type PhaseFigures = {
  seconds: number;
  healthz: ReturnType<typeof stats> & { failed: number };
  read: ReturnType<typeof stats> & { failed: number };
  write: ReturnType<typeof stats> & { failed: number };
  eventLoopDelayMs: LoopFigures;
  healthzReportedEventLoopDelayP99MsMax: number | null;
};

export default async function offthreadSection(ctx: BenchContext): Promise<BenchSection> {
  const rows = Number(process.env.BENCH_OFFTHREAD_ROWS ?? 1_000_000);
  const idleSeconds = Number(process.env.BENCH_OFFTHREAD_IDLE_SECONDS ?? 5);
  const figures: Record<string, unknown> = {};
  const goals: BenchSection["goals"] = [];
  const { upsertLocalUser } = await import("../../../app/services/users.server.ts");
  const { issueToken } = await import("../../../app/services/token.server.ts");

  // The importing tenant, then a copy of the database as it stands.
  const importer = await upsertLocalUser({ email: "bench-offthread@example.com", name: "Bench Off-thread Importer" });
  const dir = path.join(ctx.workDir, "offthread");
  mkdirSync(dir, { recursive: true });
  const dbFile = path.join(dir, "crm.db");
  ctx.log("offthread: copying the database");
  const source = new Database(ctx.dbFile);
  source.pragma("wal_checkpoint(TRUNCATE)");
  source.close();
  copyFileSync(ctx.dbFile, dbFile);
  for (const suffix of ["-wal", "-shm"])
    if (existsSync(`${ctx.dbFile}${suffix}`)) copyFileSync(`${ctx.dbFile}${suffix}`, `${dbFile}${suffix}`);

  const csvFile = path.join(ctx.workDir, "offthread.csv");
  ctx.log(`offthread: writing a CSV of ${rows.toLocaleString("en-IN")} rows`);
  await writeCsv(csvFile, rows);
  const csvBytes = statSync(csvFile).size;

  const copy = new Database(dbFile, { readonly: true });
  const ids = (
    copy.prepare(`SELECT "id" FROM "Customer" WHERE "userId" = ? AND rowid % 89 = 0 LIMIT 2000`).all(ctx.userId) as {
      id: string;
    }[]
  ).map((r) => r.id);
  const tenantRows = Number(copy.prepare(`SELECT count(*) FROM "Customer" WHERE "userId" = ?`).pluck().get(ctx.userId));
  copy.close();

  const port = await freePort();
  ctx.log(`offthread: starting the production server (one worker) on port ${port}`);
  const { server, base } = spawnProductionServer(port, {
    nodeArgs: loopMonitorArgs,
    stdout: "ignore",
    env: { DATA_DIR: dir, DATABASE_URL: `file:${dbFile}`, WEB_CONCURRENCY: "1", ...loopMonitorEnv(dir) },
  });
  const prober = spawn(tsx, [path.join(import.meta.dirname, "../../helpers/probe-client.ts")], {
    cwd: root,
    stdio: ["pipe", "pipe", "inherit"],
  });
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/healthz`)).ok) break;
      } catch {
        /* not up yet */
      }
      if (i > 600) throw new Error("the server did not start");
      await new Promise((r) => setTimeout(r, 100));
    }
    const tokenA = await issueToken(ctx.userId);
    const importToken = await issueToken(importer.id);
    // Warm up the read path.
    for (let i = 0; i < 100; i++) {
      const r = await fetch(`${base}/api/customers/${ids[i % ids.length]}`, {
        headers: { Authorization: `Bearer ${tokenA}` },
      });
      if (!r.ok) throw new Error(`GET /api/customers/{id} answered ${r.status}`);
      await r.arrayBuffer();
    }

    /** The monitor's figures since the last mark, once the server has written them. */
    const markLoop = async (): Promise<LoopFigures> => (await markLoops(dir, [server.pid ?? 0])).get(server.pid ?? 0)!;

    let probeOutput = "";
    prober.stdout.setEncoding("utf8");
    prober.stdout.on("data", (c: string) => (probeOutput += c));
    const samplesFile = path.join(dir, "probes.json");
    prober.stdin.write(
      `${JSON.stringify({ base, token: tokenA, ids, intervalMs: 50, writeIntervalMs: 5000, outFile: samplesFile })}\n`,
    );
    for (let i = 0; !probeOutput.includes("ready\n"); i++) {
      if (i > 1200) throw new Error("the prober did not start");
      await new Promise((r) => setTimeout(r, 50));
    }
    const phases: Phase[] = [];
    await markLoop();

    ctx.log(`offthread: ${idleSeconds} s idle`);
    let from = Date.now();
    await new Promise((r) => setTimeout(r, idleSeconds * 1000));
    phases.push({ name: "idle", from, to: Date.now(), loop: await markLoop() });

    ctx.log(`offthread: POST /api/customers/import of ${(csvBytes / 1e6).toFixed(0)} MB while probing`);
    from = Date.now();
    const imported = await upload(`${base}/api/customers/import`, importToken, csvFile, csvBytes);
    const importMs = Date.now() - from;
    phases.push({ name: "import", from, to: Date.now(), loop: await markLoop() });
    if (imported.status !== 200)
      throw new Error(`the import answered ${imported.status}: ${imported.body.slice(0, 300)}`);
    const result = JSON.parse(imported.body) as { rows: number; created: number; failed: number; durationMs: number };
    ctx.log(`offthread: imported ${result.created} in ${(importMs / 1000).toFixed(1)} s; GET /api/customers/export`);

    from = Date.now();
    // A failed export still leaves the import's figures in the report.
    const exported = await download(`${base}/api/customers/export`, tokenA).catch((error: unknown) => {
      figures.exportError = String(error);
      return { status: 0, bytes: 0, lines: 0 };
    });
    const exportMs = Date.now() - from;
    phases.push({ name: "export", from, to: Date.now(), loop: await markLoop() });
    if (exported.status !== 200) figures.exportError ??= `the export answered ${exported.status}`;

    prober.stdin.end("stop\n");
    await once(prober, "exit");
    const samples = (JSON.parse(readFileSync(samplesFile, "utf8")) as { samples: ProbeSample[] }).samples;

    const ofPhase = (phase: Phase, kind: ProbeSample["kind"]) =>
      samples.filter((s) => s.kind === kind && s.at >= phase.from && s.at < phase.to);
    const byPhase: Record<string, PhaseFigures> = {};
    for (const phase of phases) {
      const health = ofPhase(phase, "healthz");
      const reads = ofPhase(phase, "read");
      const writes = ofPhase(phase, "write");
      const reported = health.map((s) => s.loopP99).filter((v): v is number => typeof v === "number");
      byPhase[phase.name] = {
        seconds: (phase.to - phase.from) / 1000,
        healthz: { ...stats(health.map((s) => s.ms)), failed: health.filter((s) => s.status !== 200).length },
        read: { ...stats(reads.map((s) => s.ms)), failed: reads.filter((s) => s.status !== 200).length },
        write: { ...stats(writes.map((s) => s.ms)), failed: writes.filter((s) => s.status !== 201).length },
        eventLoopDelayMs: phase.loop,
        healthzReportedEventLoopDelayP99MsMax: reported.length ? Math.max(...reported) : null,
      };
    }
    figures.phases = byPhase;
    for (const [name, f] of Object.entries(byPhase))
      ctx.log(
        `offthread: ${name}: healthz p99 ${f.healthz.p99} ms, read p99 ${f.read.p99} ms, write p99 ${f.write.p99} ms (${f.write.count}, ${f.write.failed} failed), loop p99 ${f.eventLoopDelayMs.p99} ms`,
      );
    figures.import = {
      rows: result.rows,
      created: result.created,
      failed: result.failed,
      fileMegabytes: Math.round(csvBytes / 1e5) / 10,
      seconds: importMs / 1000,
      rowsPerSecond: Math.round(result.rows / (importMs / 1000)),
      serverDurationSeconds: result.durationMs / 1000,
    };
    figures.export = {
      tenantRowsBefore: tenantRows,
      lines: exported.lines,
      megabytes: Math.round(exported.bytes / 1e5) / 10,
      seconds: exportMs / 1000,
      rowsPerSecond: Math.round((exported.lines - 1) / (exportMs / 1000)),
    };
    figures.setup = {
      workers: 1,
      probeIntervalMs: 50,
      writeIntervalMs: 5000,
      note: "event-loop delay as /healthz measures it: how late the loop ran beyond the 10 ms sampling interval (an idle loop reads about 0)",
    };
    for (const name of ["import", "export"] as const) {
      const phase = byPhase[name];
      goals.push(
        {
          goal: `/healthz p99 during the ${name}`,
          value: phase.healthz.p99,
          limit: 100,
          unit: "ms",
          met: phase.healthz.p99 < 100 && phase.healthz.failed === 0,
        },
        {
          goal: `GET /api/customers/{id} p99 during the ${name}`,
          value: phase.read.p99,
          limit: 100,
          unit: "ms",
          met: phase.read.p99 < 100 && phase.read.failed === 0,
        },
        {
          goal: `server event-loop delay p99 during the ${name}`,
          value: phase.eventLoopDelayMs.p99,
          limit: 20,
          unit: "ms",
          met: phase.eventLoopDelayMs.p99 < 20,
        },
      );
    }
  } finally {
    if (prober.exitCode === null) prober.kill("SIGTERM");
    server.kill("SIGTERM");
    await once(server, "exit").catch(() => undefined);
  }
  return { name: "offthread", figures, goals };
}

/** POST the file as the body, streamed; the whole answer. */
function upload(url: string, token: string, file: string, bytes: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "text/csv", "Content-Length": bytes },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    createReadStream(file, { highWaterMark: 1 << 20 }).pipe(req);
  });
}

/** GET the export and read it to the end, counting bytes and lines. */
function download(url: string, token: string): Promise<{ status: number; bytes: number; lines: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { Authorization: `Bearer ${token}` } }, (res) => {
      let bytes = 0;
      let lines = 0;
      res.on("data", (c: Buffer) => {
        bytes += c.length;
        for (let at = c.indexOf(10); at !== -1; at = c.indexOf(10, at + 1)) lines += 1;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes, lines }));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}
