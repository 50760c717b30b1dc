// The environment the e2e suites start the production server with (`node build/node/server.mjs`
// after `npm run build`, as `npm run serve` and the container do): its own data directory and
// database, a fresh session secret, and sign-up open, since every test signs up a tenant of its
// own. What a newcomer meets with nothing set is tests/e2e/first-run.spec.ts.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import net from "node:net";
import path from "node:path";

export const repoRoot = path.resolve(import.meta.dirname, "../..");

// Node itself on the compiled server, never the tsx CLI: the CLI relays a SIGTERM to its child and
// SIGKILLs the child when it does not acknowledge within 60 ms (a busy event loop), exiting 143.
export const serverCommand = { file: process.execPath, args: ["build/node/server.mjs"] };

export function productionServerEnv(options: {
  port: number;
  publicUrl: string;
  dataDir: string;
  extra?: Record<string, string>;
}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(options.port),
    HOST: "127.0.0.1",
    PUBLIC_URL: options.publicUrl,
    DATA_DIR: options.dataDir,
    DATABASE_URL: `file:${path.join(options.dataDir, "crm.db")}`,
    SESSION_SECRET: randomBytes(32).toString("hex"),
    SIGN_UP: "open",
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    ...options.extra,
  };
}

/** A TCP port free on loopback right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Production servers a crash test starts and kills: each in a process group of its own, so
 * SIGKILL to the group reaches the primary, the workers and the jobs' threads at once. `killAll`
 * (the test's afterEach) kills every one still running.
 */
export function crashableServers() {
  const started: ChildProcess[] = [];
  return {
    start(env: NodeJS.ProcessEnv): ChildProcess {
      const server = spawn(serverCommand.file, serverCommand.args, {
        cwd: repoRoot,
        env,
        stdio: "ignore",
        detached: true,
      });
      started.push(server);
      return server;
    },
    /** SIGKILL to every process of the server. */
    kill(server: ChildProcess) {
      process.kill(-(server.pid ?? 0), "SIGKILL");
    },
    killAll() {
      for (const server of started.splice(0)) {
        try {
          if (server.pid) process.kill(-server.pid, "SIGKILL");
        } catch {
          /* already gone */
        }
      }
    },
  };
}

/** Waits until `${base}/healthz` answers (two minutes at most). */
export async function waitUntilUp(base: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the server did not start");
}
