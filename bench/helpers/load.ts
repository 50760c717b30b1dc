// HTTP load for the bench: bench/helpers/load-client.ts in a process of its own (raw keep-alive sockets,
// closed loop, warm-up on the same connections before recording). See that file for why neither
// wrk nor fetch() measures this machine's servers truthfully.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

export type LoadStats = {
  client: "raw-http";
  connections: number;
  count: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  requestsPerSecond: number;
};

export type LoadPlan = {
  base: string;
  /** Request paths, taken in turn. */
  paths: string[];
  headers: Record<string, string>;
  connections: number;
  seconds: number;
  /** Unrecorded load on the same connections first (default 2 s). */
  warmupSeconds?: number;
};

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");

export function loadClient() {
  return "raw-http client process (bench/helpers/load-client.ts)";
}

export async function load(plan: LoadPlan): Promise<LoadStats> {
  const child = run(path.join(root, "node_modules/.bin/tsx"), [path.join(import.meta.dirname, "load-client.ts")], {
    cwd: root,
    maxBuffer: 1 << 20,
  });
  child.child.stdin?.end(JSON.stringify({ warmupSeconds: 2, ...plan }));
  const { stdout } = await child;
  const line = stdout.trim().split("\n").pop() ?? "{}";
  const r = JSON.parse(line) as LoadStats & { non2xx: number; firstBad: string | null };
  if (r.non2xx > 0)
    throw new Error(`${r.non2xx} of ${r.count} requests were not answered 2xx (${plan.paths[0]}: ${r.firstBad})`);
  if (r.count === 0) throw new Error(`no answers in ${plan.seconds} s (${plan.paths[0]})`);
  const { non2xx: _n, firstBad: _f, ...stats } = r;
  return stats;
}
