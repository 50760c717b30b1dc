// Server instances in processes of their own (tests/helpers/instance-process.ts), sharing one
// PostgreSQL database with the test: for the tests of what crosses instances (the process bus's
// link, delivery wakes, advisory locks). Each is a real Node process with its own bus, instance id
// and connections; the test sends it commands and collects what it hears.
import { type ChildProcess, fork } from "node:child_process";
import path from "node:path";

export type InstanceCommand =
  | { cmd: "link" }
  | { cmd: "backendPid" }
  | { cmd: "subscribe"; topic: string }
  | { cmd: "publish"; topic: string; payloads: unknown[] }
  | { cmd: "notify"; userId: string; title: string }
  | { cmd: "endSessions"; userId: string }
  | { cmd: "trackImport"; userId: string; key: string; rows: number }
  | { cmd: "wake"; count: number }
  | { cmd: "lock"; name: string }
  | { cmd: "release"; name: string }
  | { cmd: "runJob"; name: string; workMs: number }
  | { cmd: "exit" };

export type InstanceReply =
  | { reply: number; result?: unknown; error?: string }
  | { event: "message"; topic: string; payload: unknown; at: number }
  | { event: "started" };

export type Heard = { topic: string; payload: unknown; at: number };

export type Instance = {
  readonly pid: number;
  /** What its subscriptions heard, in order. */
  readonly heard: Heard[];
  /** Its stdout and stderr so far (its log). */
  output(): string;
  call<T = Record<string, unknown>>(command: InstanceCommand): Promise<T>;
  /** Resolves when it has heard `count` messages on `topic` (rejects after `timeoutMs`). */
  waitFor(topic: string, count: number, timeoutMs?: number): Promise<Heard[]>;
  /** SIGKILL: no goodbye to the database, as a crash. */
  kill(): Promise<void>;
  /** Leaves the bus, releases its locks, exits. */
  stop(): Promise<void>;
};

const SCRIPT = path.resolve(import.meta.dirname, "instance-process.ts");
const ROOT = path.resolve(import.meta.dirname, "../..");

/** Starts an instance on the database at `databaseUrl`. */
export async function startInstance(databaseUrl: string, env: Record<string, string> = {}): Promise<Instance> {
  const child: ChildProcess = fork(SCRIPT, [], {
    cwd: ROOT,
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "pipe", "pipe", "ipc"],
    env: {
      ...process.env,
      NODE_ENV: "test",
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: process.env.SESSION_SECRET ?? "test-secret-that-is-at-least-32-characters-long",
      ...env,
    },
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const heard: Heard[] = [];
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once("exit", () => {
      exited = true;
      for (const p of pending.values()) p.reject(new Error(`The instance exited.\n${output}`));
      pending.clear();
      resolve();
    }),
  );
  const started = new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`The instance exited at start (${code}).\n${output}`)));
    child.on("message", (message: InstanceReply) => {
      if ("reply" in message) {
        const p = pending.get(message.reply);
        pending.delete(message.reply);
        if (message.error) p?.reject(new Error(message.error));
        else p?.resolve(message.result);
      } else if (message.event === "message") {
        heard.push({ topic: message.topic, payload: message.payload, at: message.at });
      } else if (message.event === "started") {
        resolve();
      }
    });
  });
  await started;

  const call = <T>(command: InstanceCommand) =>
    new Promise<T>((resolve, reject) => {
      if (exited) return reject(new Error("The instance has exited."));
      const id = (nextId += 1);
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      child.send({ id, command });
    });

  return {
    pid: child.pid ?? 0,
    heard,
    output: () => output,
    call,
    async waitFor(topic, count, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const got = heard.filter((h) => h.topic === topic);
        if (got.length >= count) return got;
        if (Date.now() > until) {
          throw new Error(`Heard ${got.length} of ${count} messages on ${topic} in ${timeoutMs} ms.\n${output}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    async kill() {
      if (!exited) child.kill("SIGKILL");
      await exit;
    },
    async stop() {
      if (exited) return;
      await call({ cmd: "exit" }).catch(() => undefined);
      await exit;
    },
  };
}
