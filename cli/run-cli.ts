// Runs the `crm` program as an admin would against a data directory of its own, for the CLI's
// tests. Standard input is a pipe, never a terminal: `input` is what a script would pipe in.
//
// The program is the CLI compiled as `npm run build` compiles it (vite.node.config.ts), built once
// for the sources as they are: in
// node_modules/.cache/crm-cli/<key>/, the key made from the name, size and time of every source
// file under app/, cli/ and jobs/, so the test files and runs that see the same sources share one
// build and a changed source gets a new one. Run through tsx, every command compiled the
// TypeScript first (1.5–3 s of CPU each, and CLI tests timed out on a loaded machine).
// bin/crm.mjs itself, which chooses between the build and the source, is tested in cli/bin.test.ts.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

export type CliRun = { code: number | null; stdout: string; stderr: string };

const root = path.resolve(import.meta.dirname, "..");
const cache = path.join(root, "node_modules", ".cache", "crm-cli");
// A lock left by a run that was killed while building is taken over after this long.
const STALE_LOCK_MS = 5 * 60_000;

/** A key for the CLI's sources as they are now (test files left out: the build has none). */
export function sourceKey(): string {
  const hash = createHash("sha256");
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (!/\.test\.tsx?$/.test(entry.name)) {
        const { size, mtimeMs } = statSync(file);
        hash.update(`${path.relative(root, file)}\0${size}\0${mtimeMs}\n`);
      }
    }
  };
  for (const dir of ["app", "cli", "jobs"]) walk(path.join(root, dir));
  for (const file of ["vite.node.config.ts", "package-lock.json"]) {
    hash.update(`${file}\0${statSync(path.join(root, file)).mtimeMs}\n`);
  }
  return hash.digest("hex").slice(0, 16);
}

async function build(): Promise<string> {
  const dir = path.join(cache, sourceKey());
  const entry = path.join(dir, "cli.mjs");
  if (existsSync(entry)) return entry;
  mkdirSync(cache, { recursive: true });
  const lock = `${dir}.lock`;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (existsSync(entry)) return entry;
    try {
      if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
    } catch {
      // the builder finished meanwhile
    }
    await sleep(200);
  }
  try {
    if (existsSync(entry)) return entry;
    const { build: viteBuild } = await import("vite");
    const { nodeBuildConfig } = await import("../vite.node.config");
    const staging = `${dir}.building`;
    await viteBuild({ ...nodeBuildConfig({ cli: "cli/index.ts" }, staging), configFile: false });
    renameSync(staging, dir);
    // Builds of earlier sources: kept an hour, for a run that still uses one.
    for (const other of readdirSync(cache)) {
      const otherDir = path.join(cache, other);
      if (otherDir !== dir && Date.now() - statSync(otherDir).mtimeMs > 3_600_000) {
        rmSync(otherDir, { recursive: true, force: true });
      }
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  return entry;
}

let compiled: Promise<string> | undefined;

/** The compiled CLI for the sources as they are, built on the first call if no run has built it. */
export function compiledCli(): Promise<string> {
  compiled ??= build();
  return compiled;
}

// Built while the test file loads, before any test's time runs.
await compiledCli();

export function runCli(
  dataDir: string,
  argv: string[],
  options: { input?: string; env?: Record<string, string> } = {},
): Promise<CliRun> {
  return compiledCli().then(
    (cli) =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [cli, ...argv], {
          cwd: root,
          env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", NODE_ENV: "development", ...options.env },
        });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
        child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
        child.on("error", reject);
        child.on("close", (code) => resolve({ code, stdout, stderr }));
        child.stdin.end(options.input ?? "");
      }),
  );
}
