// Reading bench/helpers/loop-monitor.mjs from the bench: the event-loop delay of the processes that answer
// requests, over exactly a phase the bench marks. The monitor is preloaded into the server
// (`--import bench/helpers/loop-monitor.mjs`, inherited by its cluster workers) and writes one file per
// process (BENCH_LOOP_MONITOR_FILE with {pid} replaced) when sent SIGUSR2.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";

export type LoopFigures = { samples: number; p50: number; p99: number; max: number };

export const loopMonitorArgs = ["--import", path.resolve(import.meta.dirname, "loop-monitor.mjs")];

/** The environment that turns the monitor on, writing under `dir`. */
export function loopMonitorEnv(dir: string): Record<string, string> {
  return { BENCH_LOOP_MONITOR_FILE: path.join(dir, "loop-{pid}.json") };
}

/** Every process's direct children (a cluster's workers), from /proc. */
export function childrenByParent(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      /* gone */
    }
  }
  return children;
}

/** The processes of a server that answer requests: its cluster workers, or itself without any. */
export function servingPids(serverPid: number): number[] {
  const workers = childrenByParent().get(serverPid) ?? [];
  return workers.length ? workers : [serverPid];
}

/** Each process's figures since its last mark, once all have written them. */
export async function markLoops(dir: string, pids: number[]): Promise<Map<number, LoopFigures>> {
  const sent = Date.now();
  for (const pid of pids) process.kill(pid, "SIGUSR2");
  const figures = new Map<number, LoopFigures>();
  for (let i = 0; i < 600 && figures.size < pids.length; i++) {
    for (const pid of pids) {
      const file = path.join(dir, `loop-${pid}.json`);
      if (figures.has(pid) || !existsSync(file)) continue;
      try {
        const f = JSON.parse(readFileSync(file, "utf8")) as LoopFigures & { at: number };
        if (f.at >= sent) figures.set(pid, { samples: f.samples, p50: f.p50, p99: f.p99, max: f.max });
      } catch {
        /* being replaced: read again */
      }
    }
    if (figures.size < pids.length) await new Promise((r) => setTimeout(r, 50));
  }
  if (figures.size < pids.length) throw new Error("the server's event-loop monitor did not answer");
  return figures;
}
