// Runs the `crm` program as an admin would (node bin/crm.mjs …) against a data directory of its
// own, for the CLI's tests. Standard input is a pipe, never a terminal: `input` is what a script
// would pipe in.
import { spawn } from "node:child_process";
import path from "node:path";

export type CliRun = { code: number | null; stdout: string; stderr: string };

const root = path.resolve(import.meta.dirname, "..");

export function runCli(
  dataDir: string,
  argv: string[],
  options: { input?: string; env?: Record<string, string> } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, "bin/crm.mjs"), ...argv], {
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
  });
}
