// The bench's view of the processes it starts (production servers, the vendor) and of the
// PostgreSQL server on the same machine: health, resident memory and CPU time, from /proc (Linux).
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { freePort, serverCommand } from "../../tests/helpers/production-server.ts";
import { childrenByParent } from "./loop-marks.ts";

/** What a production server the bench starts differs by: settings added or overridden, node's own arguments (the loop monitor's), and whether its output is shown. */
export type BenchServerOptions = { env?: Record<string, string>; nodeArgs?: string[]; stdout?: "inherit" | "ignore" };

/**
 * Spawns the production server on `port` with the bench's settings (production, loopback, local
 * sign-in, warnings only, this process's DATABASE_URL unless `env` says otherwise); not waited for.
 */
export function spawnProductionServer(
  port: number,
  { env = {}, nodeArgs = [], stdout = "inherit" }: BenchServerOptions = {},
): { server: ChildProcess; base: string } {
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(serverCommand.file, [...nodeArgs, ...serverCommand.args], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    stdio: ["ignore", stdout, "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: base,
      LOCAL_AUTH: "true",
      LOG_LEVEL: "warn",
      ...env,
    },
  });
  return { server, base };
}

/**
 * The production server on the bench's database, on a free loopback port, started and healthy
 * (spawnProductionServer's settings); `env` adds or overrides settings.
 */
export async function startProductionServer(
  env: Record<string, string> = {},
): Promise<{ server: ChildProcess; base: string }> {
  const { server, base } = spawnProductionServer(await freePort(), { env });
  try {
    await waitForHealth(base);
  } catch (error) {
    await stopProcess(server);
    throw error;
  }
  return { server, base };
}

/** Waits until `${base}/healthz` answers 2xx (a minute at most). */
export async function waitForHealth(base: string) {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      /* not up yet */
    }
    if (i > 600) throw new Error(`${base} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Ends a process the bench started (SIGTERM) and waits for it to exit; one already gone is left. */
export async function stopProcess(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  await once(child, "exit").catch(() => undefined);
}

export type Rss = { total: number; anon: number; file: number };

/** Resident memory of a process and all its descendants, in bytes. */
export function treeRss(pid: number): Rss {
  const children = childrenByParent();
  const rss: Rss = { total: 0, anon: 0, file: 0 };
  const kb = (status: string, field: string) =>
    Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  const visit = (p: number) => {
    try {
      const status = readFileSync(`/proc/${p}/status`, "utf8");
      rss.total += kb(status, "VmRSS");
      rss.anon += kb(status, "RssAnon");
      rss.file += kb(status, "RssFile") + kb(status, "RssShmem");
    } catch {
      /* gone */
    }
    for (const c of children.get(p) ?? []) visit(c);
  };
  visit(pid);
  return rss;
}

const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system) of a process and its descendants alive now, plus what the children
 * it has waited for used (cutime, cstime): the difference of two readings is the CPU the tree used
 * between them, including processes that ended meanwhile (PostgreSQL's backends, which the
 * postmaster waits for).
 */
export function treeCpuSeconds(pid: number): number {
  const children = childrenByParent();
  let ticks = 0;
  const fields = (p: number) => {
    const stat = readFileSync(`/proc/${p}/stat`, "utf8");
    return stat
      .slice(stat.lastIndexOf(")") + 2)
      .split(" ")
      .map(Number);
  };
  try {
    // After the ")": state is field 3 of stat, so utime (14) is index 11, cutime (16) index 13.
    const f = fields(pid);
    ticks += f[11] + f[12] + f[13] + f[14];
  } catch {
    return 0;
  }
  const visit = (p: number) => {
    for (const c of children.get(p) ?? []) {
      try {
        const f = fields(c);
        ticks += f[11] + f[12];
      } catch {
        /* gone */
      }
      visit(c);
    }
  };
  visit(pid);
  return ticks / TICKS_PER_SECOND;
}

/** The PostgreSQL server's main process (the postmaster), when it runs on this machine. */
export async function postmasterPid(url: string): Promise<number | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const backend = (await client.query<{ pid: number }>(`SELECT pg_backend_pid() AS pid`)).rows[0].pid;
    const status = readFileSync(`/proc/${backend}/status`, "utf8");
    return Number(/PPid:\s+(\d+)/.exec(status)?.[1] ?? 0) || null;
  } catch {
    return null;
  } finally {
    await client.end();
  }
}
