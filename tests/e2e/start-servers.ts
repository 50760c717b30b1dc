// Playwright's webServer: the local Google fake plus the production server (`npm run build` has
// already run) on a fresh temporary database. Both stop when Playwright stops this process. With
// E2E_ENGINE=postgres (the "postgres" project of playwright.config.ts) the database is a fresh
// PostgreSQL one on TEST_POSTGRES_URL's server, dropped at the end.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startFakeGoogle } from "../fakes/google.ts";
import { createPostgresDatabase, type PostgresDatabase } from "../helpers/postgres.ts";
import { POSTGRES_URL_FILE } from "./postgres-url.ts";
import { productionServerEnv, repoRoot as root, serverCommand } from "../helpers/production-server.ts";

const port = Number(process.env.E2E_PORT ?? 3210);
const baseUrl = `http://localhost:${port}`;
const clientId = "e2e-client.apps.googleusercontent.com";
const clientSecret = `e2e-secret-${randomBytes(8).toString("hex")}`;

const dataDir = process.env.E2E_DATA_DIR || mkdtempSync(path.join(tmpdir(), "crm-e2e-"));
const google = await startFakeGoogle({ clientId, clientSecret });
const postgres: PostgresDatabase | null =
  process.env.E2E_ENGINE === "postgres" ? await createPostgresDatabase("crm_e2e") : null;
console.log(`[e2e] Google fake on ${google.url}; data in ${postgres ? postgres.name : dataDir}`);
// Where the specs find the PostgreSQL database (tests/e2e/fixtures.ts, withE2eDatabase()).
if (postgres) {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(path.join(dataDir, POSTGRES_URL_FILE), postgres.url);
}

const app: ChildProcess = spawn(serverCommand.file, serverCommand.args, {
  cwd: root,
  stdio: ["ignore", "inherit", "inherit"],
  env: productionServerEnv({
    port,
    publicUrl: baseUrl,
    dataDir,
    extra: {
      GOOGLE_CLIENT_ID: clientId,
      GOOGLE_CLIENT_SECRET: clientSecret,
      GOOGLE_OAUTH_BASE_URL: google.url,
      // Every test signs a fresh user in from the same address.
      SIGN_IN_RATE_LIMIT: "100000",
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    },
  }),
});

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  if (app.exitCode === null && app.signalCode === null) {
    app.kill("SIGTERM");
    await Promise.race([
      new Promise((resolve) => app.once("exit", resolve)),
      new Promise((resolve) => setTimeout(resolve, 5000)),
    ]);
    if (app.exitCode === null && app.signalCode === null) app.kill("SIGKILL");
  }
  await google.close();
  await postgres?.drop().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code);
}

app.once("exit", (code, signal) => {
  if (!stopping) {
    console.error(`[e2e] the app server exited (${signal ?? code}) before the tests ended`);
    void stop(1);
  }
});
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void stop(0));

// Playwright waits on /healthz too; this only makes a start-up failure say so quickly.
const deadline = Date.now() + 90_000;
for (;;) {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    if (res.ok) break;
  } catch {
    // not listening yet
  }
  if (stopping) break;
  if (Date.now() > deadline) {
    console.error(`[e2e] ${baseUrl}/healthz did not answer within 90 s`);
    await stop(1);
  }
  await new Promise((resolve) => setTimeout(resolve, 250));
}
// The install's owner, made first, so that every spec meets a server that has accounts (sign-up is
// open here: each test signs up a tenant of its own). A new install's page is first-run.spec.ts's.
if (!stopping) {
  const owner = await fetch(`http://127.0.0.1:${port}/auth/local`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      name: "E2E Owner",
      email: "e2e-owner@example.com",
      password: `owner-${randomBytes(12).toString("hex")}`,
    }),
    redirect: "manual",
  });
  if (owner.status !== 302) {
    console.error(`[e2e] making the owner's account answered ${owner.status}: ${await owner.text()}`);
    await stop(1);
  }
}
console.log(`[e2e] app ready on ${baseUrl}`);
