// HTTP load for the bench: wrk (Debian's `wrk` package) when it is on the PATH, else a loop of
// fetch() calls in this process.
//
// Why wrk: measured on this 2-core machine, the fetch loop at 50 connections spends so much of a
// core on its own work that it reported p99 52-57 ms against a server that answers from memory;
// wrk is written in C and leaves the server its core. The report says which client measured.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export type LoadStats = { client: "wrk" | "fetch"; connections: number; count: number; errors: number; p50: number; p95: number; p99: number; max: number; requestsPerSecond: number };

export type LoadPlan = {
  base: string;
  /** Request paths, taken in turn. */
  paths: string[];
  headers: Record<string, string>;
  connections: number;
  seconds: number;
};

let wrkPath: string | null | undefined;
function findWrk(): string | null {
  if (wrkPath !== undefined) return wrkPath;
  const found = spawnSync("sh", ["-c", "command -v wrk"], { encoding: "utf8" });
  wrkPath = found.status === 0 ? found.stdout.trim() : null;
  return wrkPath;
}

export function loadClient(): "wrk" | "fetch" {
  return findWrk() ? "wrk" : "fetch";
}

const round = (n: number) => Math.round(n * 100) / 100;

function luaString(s: string) {
  return `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

function runWrk(wrk: string, plan: LoadPlan): LoadStats {
  const dir = mkdtempSync(path.join(os.tmpdir(), "crm-wrk-"));
  const script = path.join(dir, "plan.lua");
  writeFileSync(
    script,
    `local paths = {${plan.paths.map(luaString).join(",")}}
local i = 0
${Object.entries(plan.headers).map(([k, v]) => `wrk.headers[${luaString(k)}] = ${luaString(v)}`).join("\n")}
request = function()
  i = i + 1
  return wrk.format("GET", paths[(i % #paths) + 1])
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('RESULT {"count":%d,"errors":%d,"non2xx":%d,"p50":%.3f,"p95":%.3f,"p99":%.3f,"max":%.3f,"seconds":%.3f}\\n',
    summary.requests, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000, latency.max / 1000, summary.duration / 1e6))
end
`,
  );
  const out = execFileSync(wrk, ["-t1", `-c${plan.connections}`, `-d${plan.seconds}s`, "--timeout", "10s", "-s", script, plan.base], { encoding: "utf8" });
  const line = out.split("\n").find((l) => l.startsWith("RESULT "));
  if (!line) throw new Error(`wrk printed no result:\n${out}`);
  const r = JSON.parse(line.slice(7)) as { count: number; errors: number; non2xx: number; p50: number; p95: number; p99: number; max: number; seconds: number };
  if (r.non2xx > 0) throw new Error(`${r.non2xx} of ${r.count} requests were not answered 2xx (${plan.paths[0]})`);
  return { client: "wrk", connections: plan.connections, count: r.count, errors: r.errors, p50: round(r.p50), p95: round(r.p95), p99: round(r.p99), max: round(r.max), requestsPerSecond: Math.round(r.count / r.seconds) };
}

async function runFetch(plan: LoadPlan): Promise<LoadStats> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const until = started + plan.seconds * 1000;
  await Promise.all(
    Array.from({ length: plan.connections }, async () => {
      while (performance.now() < until) {
        const url = plan.base + plan.paths[next++ % plan.paths.length];
        const t = performance.now();
        const r = await fetch(url, { headers: plan.headers });
        await r.arrayBuffer();
        if (!r.ok) throw new Error(`${url} answered ${r.status}`);
        latencies.push(performance.now() - t);
      }
    }),
  ).catch((error: unknown) => {
    errors += 1;
    throw error;
  });
  const s = latencies.sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? 0;
  return { client: "fetch", connections: plan.connections, count: s.length, errors, p50: round(at(50)), p95: round(at(95)), p99: round(at(99)), max: round(s[s.length - 1] ?? 0), requestsPerSecond: Math.round(s.length / ((performance.now() - started) / 1000)) };
}

/** Warms the server up for a second, then measures for plan.seconds. */
export async function load(plan: LoadPlan): Promise<LoadStats> {
  const wrk = findWrk();
  if (wrk) {
    runWrk(wrk, { ...plan, seconds: 1 });
    return runWrk(wrk, plan);
  }
  await runFetch({ ...plan, seconds: 1 });
  return runFetch(plan);
}
