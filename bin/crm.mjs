#!/usr/bin/env node
// The `crm` command: runs the TypeScript CLI through tsx (a runtime dependency).
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tsx = path.join(path.dirname(require.resolve("tsx/package.json")), "dist/cli.mjs");
const result = spawnSync(process.execPath, [tsx, path.join(root, "cli/index.ts"), ...process.argv.slice(2)], {
  stdio: "inherit",
});
process.exit(result.status ?? 1);
