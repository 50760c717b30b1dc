// `npm test`: the whole suite, in order — typecheck, lint, formatting (Prettier), unit and service
// tests (Vitest, real SQLite), production build, malformed requests against it (tests/abuse), end-to-end tests (Playwright in Debian's Chromium)
// — then one closing line with the totals. Every stage runs even if an earlier one failed, so one
// run shows everything.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";

rmSync("reports", { recursive: true, force: true });
mkdirSync("reports", { recursive: true });

const stages = [
  ["typecheck", "npx", ["tsc", "--noEmit"]],
  ["lint", "npx", ["eslint", "."]],
  ["format", "npx", ["prettier", "--check", "."]],
  ["unit", "npx", ["vitest", "run", "--reporter=default", "--reporter=json", "--outputFile.json=reports/vitest.json"]],
  ["build", "npm", ["run", "build"]],
  ["abuse", "npx", ["tsx", "tests/abuse/run.ts"]],
  ["e2e", "npx", ["playwright", "test", "--reporter=list,json"]],
];

const failed = [];
for (const [name, cmd, args] of stages) {
  if ((name === "e2e" || name === "abuse") && failed.includes("build")) {
    failed.push(name);
    continue;
  }
  console.log(`\n=== ${name}: ${cmd} ${args.join(" ")}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, {
    stdio: "inherit",
    env: {
      ...process.env,
      PLAYWRIGHT_JSON_OUTPUT_FILE: "reports/playwright.json",
      PLAYWRIGHT_JSON_OUTPUT_NAME: "reports/playwright.json",
    },
  });
  console.log(`=== ${name}: ${r.status === 0 ? "ok" : "FAILED"} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (r.status !== 0) failed.push(name);
}

const summary = spawnSync("node", ["scripts/test-summary.mjs"], { stdio: "inherit" });
if (failed.length) console.error(`failed stages: ${failed.join(", ")}`);
process.exit(failed.length || summary.status !== 0 ? 1 : 0);
