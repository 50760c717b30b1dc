// The container recipe without a container engine: does what the Dockerfile does, in a temporary
// copy of the repository, and checks the result the way the image would be used.
//
//   build stage:   npm ci, npm run build, npm prune --omit=dev (as root, like `docker build`)
//   runtime stage: the server as the unprivileged user `crm`, with the Dockerfile's environment
//                  (NODE_ENV=production, DATA_DIR, PORT, HOST) and an empty data directory owned
//                  by that user, started with the Dockerfile's CMD
//
// Checks: /healthz answers 200; the migrations ran on the empty data directory (the database file
// exists, belongs to `crm`, has the tables and records every migration); local sign-in through the
// /login form opens a session that the dashboard accepts; SIGTERM stops the server.
// One line per check; exits non-zero on the first failure, printing the server's log.
//
// Usage: node scripts/container-check.mjs   (as root, so it can create the user and switch to it;
// run by .ci/run). KEEP=1 leaves the temporary directory behind for a look.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const repo = path.resolve(import.meta.dirname, "..");
const USER = "crm";
const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

let server;
let serverLog = "";
const work = mkdtempSync(path.join(os.tmpdir(), "crm-container-"));
const app = path.join(work, "app"); // the image's /app
const data = path.join(work, "data"); // the image's /data volume

function ok(message) {
  console.log(`container check: ok    ${message}`);
}

function fail(message) {
  console.error(`container check: FAIL  ${message}`);
  if (serverLog) console.error(`--- server output ---\n${serverLog.trimEnd()}\n---`);
  cleanUp();
  process.exit(1);
}

function cleanUp() {
  if (server && server.exitCode === null) {
    try {
      process.kill(-server.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  if (process.env.KEEP === "1") console.log(`container check: kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

/** Runs a build-stage command in the copy, as the Dockerfile's RUN would, failing the check if it fails. */
function run(label, cmd, args) {
  const t = Date.now();
  const r = spawnSync(cmd, args, { cwd: app, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8", env: buildEnv() });
  if (r.status !== 0) {
    console.error(`${r.stdout}\n${r.stderr}`.trim().split("\n").slice(-40).join("\n"));
    fail(`${label} exited with ${r.status ?? r.signal}`);
  }
  ok(`${label} (${seconds(t)})`);
}

// What `docker build` has: no development settings of the calling shell leak in (CI=true does).
function buildEnv() {
  const keep = ["PATH", "HOME", "CI", "TMPDIR", "npm_config_cache"];
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => keep.includes(k)));
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

function idOf(flag) {
  return Number(execFileSync("id", [flag, USER], { encoding: "utf8" }).trim());
}

process.on("SIGINT", () => fail("interrupted"));
process.on("SIGTERM", () => fail("terminated"));

if (process.getuid?.() !== 0) fail("run as root: it creates the user `crm` and starts the server as that user");

// --- The build context: the work tree less .dockerignore, as `COPY . .` sees it -----------------
{
  const ignored = readFileSync(path.join(repo, ".dockerignore"), "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
  mkdirSync(app);
  const excludes = ignored.map((p) => `--exclude=./${p.replace(/^\/+|\/+$/g, "")}`);
  const tar = spawnSync(
    "sh",
    [
      "-c",
      `tar -C "$1" --anchored ${excludes.map((e) => `'${e}'`).join(" ")} -cf - . | tar -C "$2" -xf -`,
      "sh",
      repo,
      app,
    ],
    { stdio: "inherit" },
  );
  if (tar.status !== 0) fail("copying the build context");
  ok(`build context copied to ${app} (less ${ignored.join(", ")}); node ${process.version}`);
}

// --- Build stage -----------------------------------------------------------------------------
run("npm ci --no-audit --no-fund", "npm", ["ci", "--no-audit", "--no-fund"]);
run("npm run build", "npm", ["run", "build"]);
run("npm prune --omit=dev", "npm", ["prune", "--omit=dev", "--no-audit", "--no-fund"]);
{
  // Only packages nothing at run time asks for: prisma and typescript stay, as peers of
  // @prisma/client and @remix-run/node.
  const devOnly = ["vite", "vitest", "@remix-run/dev", "@playwright/test", "eslint", "prettier", "tsx"];
  const left = devOnly.filter((p) => existsSync(path.join(app, "node_modules", p, "package.json")));
  if (left.length) fail(`npm prune left devDependencies behind: ${left.join(", ")}`);
  // The pages' build, the compiled server and jobs (what CMD runs), and the compiled CLI (bin/crm.mjs).
  const needed = ["build/server/index.js", "build/node/server.mjs", "build/node/jobs/delivery.mjs"];
  for (const f of [
    ...needed,
    "build/node/jobs/snapshots.mjs",
    "build/node/jobs/background-work.mjs",
    "build/node/jobs/bounce-mailbox.mjs",
    "build/node/jobs/dkim-signing-thread.mjs",
    "build/node/cli.mjs",
    "build/node/cli-sources.json",
  ]) {
    if (!existsSync(path.join(app, f))) fail(`the image would lack ${f}`);
  }
  ok(
    `the pruned app has no devDependencies (${devOnly.join(", ")} gone) and has the build, the compiled server and CLI`,
  );
  // `docker exec … node bin/crm.mjs`: the compiled CLI answers without tsx, saying nothing about its build.
  const crm = spawnSync("node", ["bin/crm.mjs", "--help"], { cwd: app, encoding: "utf8", env: buildEnv() });
  if (crm.status !== 0 || !crm.stdout.includes("Usage: crm") || crm.stderr) {
    fail(`node bin/crm.mjs --help in the pruned app: exit ${crm.status}\n${crm.stdout}${crm.stderr}`);
  }
  ok("node bin/crm.mjs --help answers from the compiled CLI");
}

// --- Runtime stage: the user, /data and ownership, as the Dockerfile's second stage -------------
if (spawnSync("id", ["-u", USER], { stdio: "ignore" }).status !== 0) {
  if (spawnSync("getent", ["group", USER], { stdio: "ignore" }).status !== 0) {
    execFileSync("groupadd", ["--system", USER]);
  }
  execFileSync("useradd", ["--system", "--gid", USER, "--home", "/app", "--no-create-home", USER]);
  ok(`created the system user ${USER}`);
}
const uid = idOf("-u");
const gid = idOf("-g");
if (uid === 0) fail(`user ${USER} is root`);
mkdirSync(data);
// The temporary directory is private to root; the user must be able to reach /app and /data in it.
chmodSync(work, 0o755);
execFileSync("chown", ["-R", `${USER}:${USER}`, app, data]);
ok(`user ${USER} (uid ${uid}) owns the app and the empty data directory ${data}`);

// --- Start the server with the Dockerfile's ENV and CMD ----------------------------------------
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const serverEnv = {
  PATH: "/usr/local/bin:/usr/bin:/bin",
  HOME: app,
  // The Dockerfile's ENV, with DATA_DIR and PORT pointing at this run's directory and a free port
  // (the container's /data and 3000, mapped).
  NODE_ENV: "production",
  DATA_DIR: data,
  PORT: String(port),
  HOST: "0.0.0.0",
  // Nothing else: `docker run` with the image's defaults. The session secret is generated into the
  // data directory, and the first visitor creates the owner's account on the sign-in page.
};
// The Dockerfile's CMD: ["node", "build/node/server.mjs"], as USER crm.
const cmd = [process.execPath, "build/node/server.mjs"];
const t0 = Date.now();
server = spawn("setpriv", [`--reuid=${uid}`, `--regid=${gid}`, "--init-groups", "--", ...cmd], {
  cwd: app,
  env: serverEnv,
  detached: true, // its own process group, so the check can stop it and its workers
  stdio: ["ignore", "pipe", "pipe"],
});
server.stdout.on("data", (d) => (serverLog += d));
server.stderr.on("data", (d) => (serverLog += d));

async function get(pathname, init = {}) {
  return fetch(base + pathname, { redirect: "manual", signal: AbortSignal.timeout(10_000), ...init });
}

{
  let health;
  while (Date.now() - t0 < 90_000) {
    if (server.exitCode !== null) fail(`the server exited with ${server.exitCode} before answering`);
    try {
      health = await get("/healthz");
      if (health.status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  if (health?.status !== 200) fail(`/healthz did not answer 200 within 90 s (last: ${health?.status ?? "no answer"})`);
  const body = await health.text();
  ok(`/healthz answered 200 ${body} (${seconds(t0)} after start, as ${USER} with NODE_ENV=production)`);
}

// --- The migration on the empty data directory ---------------------------------------------------
{
  const dbFile = path.join(data, "crm.db");
  if (!existsSync(dbFile)) fail(`no database file ${dbFile} after start`);
  if (statSync(dbFile).uid !== uid) fail(`${dbFile} belongs to uid ${statSync(dbFile).uid}, not ${USER}`);
  const migrations = readdirSync(path.join(app, "prisma/migrations"), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  // The pruned app's own better-sqlite3, read-only: what the server wrote, not what it says it wrote.
  const probe = spawnSync(
    process.execPath,
    [
      "--input-type=commonjs",
      "-e",
      `const db = new (require("better-sqlite3"))(process.argv[1], { readonly: true });
       const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all();
       const applied = db.prepare("SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL").pluck().all();
       console.log(JSON.stringify({ tables, applied }));`,
      dbFile,
    ],
    { cwd: app, encoding: "utf8" },
  );
  if (probe.status !== 0) fail(`reading ${dbFile}: ${probe.stderr.trim()}`);
  const { tables, applied } = JSON.parse(probe.stdout);
  const missing = migrations.filter((m) => !applied.includes(m));
  if (missing.length) fail(`migrations not recorded in ${dbFile}: ${missing.join(", ")}`);
  for (const t of ["User", "Customer", "Order"]) if (!tables.includes(t)) fail(`no ${t} table in ${dbFile}`);
  ok(
    `migrated the empty data directory: ${path.basename(dbFile)} owned by ${USER}, ${applied.length}/${migrations.length} migrations, ${tables.length} tables`,
  );
}

// --- Local sign-in through the login form, as a browser without JavaScript would post it --------
{
  const page = await get("/login");
  if (page.status !== 200) fail(`GET /login answered ${page.status}`);
  const html = await page.text();
  const form = [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)].find(
    ([, attrs]) => /method="post"/i.test(attrs) && /action="\/login"/i.test(attrs),
  );
  if (!form) fail("the login page has no local sign-in form (a POST form to /login)");
  if (!html.includes("Create the owner&#x27;s account") && !html.includes("Create the owner's account"))
    fail("the login page of a new install does not offer to create the owner's account");
  const attr = (tag, name) => tag.match(new RegExp(`\\s${name}="([^"]*)"`, "i"))?.[1];
  const account = { name: "Container Check", email: "container-check@example.com", password: "container-Check-2026!" };
  const fields = new URLSearchParams();
  for (const [tag] of form[2].matchAll(/<input\b[^>]*>/gi)) {
    const name = attr(tag, "name");
    const type = (attr(tag, "type") ?? "text").toLowerCase();
    if (!name || ["checkbox", "radio", "submit", "button", "file"].includes(type)) continue;
    if (type === "hidden") fields.set(name, attr(tag, "value") ?? "");
    else if (type === "email" || /mail/i.test(name)) fields.set(name, account.email);
    else if (type === "password") fields.set(name, account.password);
    else if (/name/i.test(name)) fields.set(name, account.name);
    else fields.set(name, attr(tag, "value") ?? "");
  }
  // A named submit button (an intent) is sent as a browser would send the first one.
  const button = [...form[2].matchAll(/<button\b[^>]*>/gi)]
    .map(([t]) => t)
    .find((t) => attr(t, "name") && !/type="button"/i.test(t));
  if (button) fields.set(attr(button, "name"), attr(button, "value") ?? "");
  const posted = [...fields.keys()].join(", ");

  const res = await get("/login", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
    body: fields,
  });
  const location = res.headers.get("location") ?? "";
  const cookie = (res.headers.getSetCookie?.() ?? [])
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith("__crm_session="));
  if (res.status < 300 || res.status >= 400 || !cookie) {
    const text = await res.text();
    const errors = [...text.matchAll(/class="field-error"[^>]*>([^<]*)</g)].map((m) => m[1]);
    fail(
      `POST /login (${posted}) answered ${res.status}${location ? ` → ${location}` : ""} without a session${errors.length ? `: ${errors.join("; ")}` : ""}`,
    );
  }
  // A browser's token travels in a one-time cookie, never in the address.
  if (location !== "/auth/callback?auth=success")
    fail(`POST /login redirected to ${location}, not /auth/callback?auth=success`);
  if (!existsSync(path.join(data, "session-secret")))
    fail(`no session secret was generated into ${data} with SESSION_SECRET unset`);
  const dashboard = await get("/dashboard", { headers: { Cookie: cookie } });
  if (dashboard.status !== 200)
    fail(`/dashboard with the new session answered ${dashboard.status} ${dashboard.headers.get("location") ?? ""}`);
  const dashboardHtml = await dashboard.text();
  if (!dashboardHtml.includes(account.name))
    fail(`/dashboard does not show the signed-in user's name "${account.name}"`);
  ok(
    `the owner's account from the sign-in page with the image's defaults: POST /login (${posted}) → ${res.status} /auth/callback?auth=success, session cookie set, session secret generated; /dashboard answered 200 for "${account.name}"`,
  );
}

// --- Stop as `docker stop` does ---------------------------------------------------------------
{
  const t = Date.now();
  const exited = new Promise((r) => server.once("exit", (code, signal) => r(code ?? signal)));
  // `docker stop` signals the container's first process only: the server's primary.
  process.kill(server.pid, "SIGTERM");
  const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r("timeout"), 10_000))]);
  if (code !== 0) fail(`SIGTERM: the server ended with ${code}`);
  ok(`SIGTERM stopped the server with exit code 0 (${seconds(t)})`);
}

cleanUp();
console.log(`container check: passed in ${seconds(started)}`);
