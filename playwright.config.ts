// End-to-end tests: Debian's Chromium (never a downloaded browser) against the production build,
// with Google's OAuth endpoints answered by a local fake (tests/fakes/google.ts).
import { defineConfig, devices } from "@playwright/test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

// One port for the runner and its workers (they inherit process.env). A random high port by
// default, so that two runs on one machine do not collide; E2E_PORT pins it.
process.env.E2E_PORT ??= String(20_000 + Math.floor(Math.random() * 20_000));
const port = Number(process.env.E2E_PORT);
// The server's data directory, known to the workers too (tests/e2e/fixtures.ts seeds through it).
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "crm-e2e-"));
const baseURL = `http://localhost:${port}`;
// The same product on PostgreSQL: a second server on the next port, on a database of
// its own, for the tests tagged @postgres (POSTGRES_TOO in tests/e2e/fixtures.ts: those whose SQL
// differs by engine; none reaches into the SQLite file).
const postgresPort = port + 1;
const postgresURL = `http://localhost:${postgresPort}`;

const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  headless: true,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};
const server = {
  command: "tsx tests/e2e/start-servers.ts",
  reuseExistingServer: false,
  timeout: 120_000,
  stdout: "pipe" as const,
  stderr: "pipe" as const,
  gracefulShutdown: { signal: "SIGTERM" as const, timeout: 10_000 },
};

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  fullyParallel: true,
  workers: 2,
  // One retry whether CI is set or not (neither `npm test` nor .ci/run sets it): the retry is what
  // records a failed test's trace.
  retries: 1,
  forbidOnly: Boolean(process.env.CI),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["html", { open: "never", outputFolder: "playwright-report" }]],
  // Per run, so that two runs on one tree do not delete each other's traces at start.
  outputDir: `test-results/e2e-${port}`,
  use: {
    baseURL,
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    // Recording a trace costs every test CPU on a 2-core machine: 46% more test time for auth and
    // customers (257 s against 177 s) when every test recorded one. Only a failed test's retry does.
    trace: "on-first-retry",
    screenshot: "only-on-failure",
    locale: "en-IN",
    timezoneId: "Asia/Kolkata",
  },
  // Workers take the tests in this order, project by project, file by file. PostgreSQL's first: its
  // few tests hold the longest (delivery-crash.spec.ts's crashes, minutes each), so they start while
  // the many short tests of "chromium" remain to fill the other worker, and no worker idles at the
  // end waiting for one long test.
  projects: [
    {
      name: "postgres",
      grep: /@postgres/,
      use: { ...devices["Desktop Chrome"], launchOptions: chromium, baseURL: postgresURL },
    },
    { name: "chromium", use: { ...devices["Desktop Chrome"], launchOptions: chromium } },
  ],
  webServer: [
    { ...server, url: `${baseURL}/healthz`, env: { E2E_PORT: String(port), E2E_DATA_DIR: process.env.E2E_DATA_DIR } },
    {
      ...server,
      url: `${postgresURL}/healthz`,
      env: { E2E_PORT: String(postgresPort), E2E_ENGINE: "postgres", E2E_DATA_DIR: `${process.env.E2E_DATA_DIR}-pg` },
    },
  ],
});
