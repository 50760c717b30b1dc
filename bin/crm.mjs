#!/usr/bin/env node
// The `crm` command (`npx crm`, `npm run cli --`, `node bin/crm.mjs`). Runs the CLI that
// `npm run build` compiles with the server (build/node/cli.mjs) while it is up to date: no source
// file it was compiled from (build/node/cli-sources.json) is newer than it. Otherwise, where tsx is
// installed (a development install: it is a devDependency), runs the TypeScript source through it,
// slower, saying so at a terminal; without tsx, it runs the compiled CLI it has, or asks for
// `npm run build` when there is none (docs/decisions/0039-compiled-cli.md).
import { spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const compiled = path.join(root, "build", "node", "cli.mjs");
const args = process.argv.slice(2);

/** Why the compiled CLI cannot be used as it is ("" when it can), or null when there is none. */
function staleness() {
  let builtAt;
  try {
    builtAt = statSync(compiled).mtimeMs;
  } catch {
    return null;
  }
  let sources;
  try {
    sources = JSON.parse(readFileSync(path.join(root, "build", "node", "cli-sources.json"), "utf8")).sources;
  } catch {
    return "build/node/cli-sources.json is missing";
  }
  for (const source of sources) {
    let changed;
    try {
      changed = statSync(path.join(root, source)).mtimeMs;
    } catch {
      return `${source} is gone`;
    }
    if (changed > builtAt) return `${source} changed since`;
  }
  return "";
}

function tsxCli() {
  try {
    const require = createRequire(import.meta.url);
    return path.join(path.dirname(require.resolve("tsx/package.json")), "dist", "cli.mjs");
  } catch {
    return null;
  }
}

const stale = staleness();
if (stale === "") {
  await import(pathToFileURL(compiled).href);
} else {
  const tsx = tsxCli();
  if (tsx) {
    if (process.stderr.isTTY) {
      const why = stale === null ? "the CLI is not built" : `build/node/cli.mjs is out of date (${stale})`;
      process.stderr.write(`crm: ${why}; running the TypeScript source (slower). \`npm run build\` compiles it.\n`);
    }
    const result = spawnSync(process.execPath, [tsx, path.join(root, "cli", "index.ts"), ...args], {
      stdio: "inherit",
    });
    process.exit(result.status ?? 1);
  } else if (stale === null) {
    process.stderr.write(
      "crm: the CLI is not built. Run `npm run build` first (it compiles the server and the CLI).\n",
    );
    process.exit(1);
  } else {
    process.stderr.write(`crm: warning: build/node/cli.mjs is out of date (${stale}); run \`npm run build\`.\n`);
    await import(pathToFileURL(compiled).href);
  }
}
