// Prints one closing line for the whole suite, 'tests: N passed, N failed, N skipped', from the
// JSON reports Vitest and Playwright write under reports/, after the name and first error line of
// each failure (CI keeps only the end of the output, so the failures are repeated there). Exits
// non-zero when a report is missing or anything failed.
import { existsSync, readFileSync } from "node:fs";

const totals = { passed: 0, failed: 0, skipped: 0 };
let missing = [];
const failures = [];
const firstLine = (text) =>
  String(text ?? "")
    .split("\n")
    .find((l) => l.trim()) ?? "";

const vitest = "reports/vitest.json";
if (existsSync(vitest)) {
  const r = JSON.parse(readFileSync(vitest, "utf8"));
  totals.passed += r.numPassedTests ?? 0;
  totals.failed += (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0);
  totals.skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  for (const file of r.testResults ?? []) {
    const where = String(file.name ?? "").replace(`${process.cwd()}/`, "");
    const failedTests = (file.assertionResults ?? []).filter((t) => t.status === "failed");
    for (const t of failedTests)
      failures.push(`failed: unit ${where} > ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
    if (file.status === "failed" && failedTests.length === 0)
      failures.push(`failed: unit ${where}: ${firstLine(file.message)}`);
  }
} else missing.push(vitest);

const playwright = "reports/playwright.json";
if (existsSync(playwright)) {
  const r = JSON.parse(readFileSync(playwright, "utf8"));
  const s = r.stats ?? {};
  totals.passed += (s.expected ?? 0) + (s.flaky ?? 0);
  totals.failed += s.unexpected ?? 0;
  totals.skipped += s.skipped ?? 0;
  if ((r.errors ?? []).length) totals.failed += r.errors.length;
  for (const e of r.errors ?? []) failures.push(`failed: e2e: ${firstLine(e.message)}`);
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status !== "unexpected" && t.status !== "flaky") continue;
        const error = (t.results ?? []).find((res) => res.error)?.error?.message;
        failures.push(
          `${t.status === "flaky" ? "passed on retry:" : "failed:"} e2e ${spec.file}:${spec.line} > ${[...titles, spec.title].join(" > ")}: ${firstLine(error)}`,
        );
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const suite of r.suites ?? []) walk(suite, []);
} else missing.push(playwright);

for (const f of failures) console.error(f);
for (const m of missing) console.error(`missing report: ${m}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 || missing.length > 0 ? 1 : 0);
