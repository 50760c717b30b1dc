// Prints one closing line for the whole suite, 'tests: N passed, N failed, N skipped', from the
// JSON reports Vitest and Playwright write under reports/. Exits non-zero when a report is
// missing or anything failed.
import { existsSync, readFileSync } from "node:fs";

const totals = { passed: 0, failed: 0, skipped: 0 };
let missing = [];

const vitest = "reports/vitest.json";
if (existsSync(vitest)) {
  const r = JSON.parse(readFileSync(vitest, "utf8"));
  totals.passed += r.numPassedTests ?? 0;
  totals.failed += (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0);
  totals.skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
} else missing.push(vitest);

const playwright = "reports/playwright.json";
if (existsSync(playwright)) {
  const r = JSON.parse(readFileSync(playwright, "utf8"));
  const s = r.stats ?? {};
  totals.passed += (s.expected ?? 0) + (s.flaky ?? 0);
  totals.failed += s.unexpected ?? 0;
  totals.skipped += s.skipped ?? 0;
  if ((r.errors ?? []).length) totals.failed += r.errors.length;
} else missing.push(playwright);

for (const m of missing) console.error(`missing report: ${m}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 || missing.length > 0 ? 1 : 0);
