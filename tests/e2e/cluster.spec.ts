// The production server with two worker processes (WEB_CONCURRENCY=2), started here on a database
// of its own: what one worker learns reaches the others (a notification change reaches event
// streams held by every worker; sign-in attempts are counted together), a worker that dies is
// replaced while the other keeps answering, and SIGTERM stops them all. Requests go over fresh
// connections, which the primary hands to the workers in turn.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { productionServerEnv, repoRoot as root, serverCommand } from "../helpers/production-server.ts";

const RATE_LIMIT = 4;

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** One request on a connection of its own (no keep-alive), so each may reach another worker. */
function request(
  base: string,
  pathname: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${pathname}`,
      { method: options.method ?? "GET", headers: options.headers, agent: false },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** An open event stream: the text received so far, and a way to close it. */
function openStream(base: string, token: string) {
  let received = "";
  const req = http.get(
    `${base}/api/notifications/stream`,
    { headers: { Authorization: `Bearer ${token}` }, agent: false },
    (res) => {
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (received += chunk));
    },
  );
  req.on("error", () => undefined);
  return { text: () => received, close: () => req.destroy() };
}

// A new e-mail signs up with the password it is sent with.
const signInForm = (email: string) =>
  new URLSearchParams({ name: "Cluster Tester", email, password: "cluster tester passphrase" }).toString();

function childPids(pid: number): number[] {
  try {
    return execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)])
      .toString()
      .split("\n")
      .map((s) => Number(s.trim()))
      .filter(Boolean);
  } catch {
    return [];
  }
}

test.describe("two worker processes", () => {
  let server: ChildProcess;
  let output = "";
  let base = "";
  let dataDir = "";

  test.beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "crm-cluster-"));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = spawn(serverCommand.file, serverCommand.args, {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      env: productionServerEnv({
        port,
        publicUrl: base,
        dataDir,
        // The ready line is logged at info.
        extra: { SIGN_IN_RATE_LIMIT: String(RATE_LIMIT), WEB_CONCURRENCY: "2", LOG_LEVEL: "info" },
      }),
    });
    server.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    server.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    await expect.poll(() => output, { timeout: 60_000 }).toMatch(/CRM ready on .*2 workers/);
  });

  test.afterAll(async () => {
    if (server.exitCode === null && server.signalCode === null) server.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("share notifications, sign-in attempts, survive a worker's death and stop on SIGTERM", async () => {
    test.setTimeout(90_000);
    // Sign in (attempt 1 of the address's budget); the callback address carries the API token.
    const signIn = await request(base, "/auth/local", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: signInForm("cluster@example.com"),
    });
    expect(signIn.status).toBe(302);
    const token = new URL(signIn.headers.location ?? "", base).searchParams.get("token") ?? "";
    expect(token).not.toBe("");

    // Four streams on four connections: both workers hold some. A change made through a fifth
    // connection reaches all of them.
    const streams = Array.from({ length: 4 }, () => openStream(base, token));
    try {
      await expect.poll(() => streams.every((s) => s.text().includes("retry:")), { timeout: 10_000 }).toBe(true);
      const readAll = await request(base, "/api/notifications/read-all", {
        method: "PUT",
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(readAll.status).toBe(200);
      await expect
        .poll(() => streams.filter((s) => s.text().includes('"kind":"changed"')).length, { timeout: 10_000 })
        .toBe(4);
    } finally {
      for (const s of streams) s.close();
    }

    // Sign-in attempts from one address are counted across workers: attempts 2 to 4 pass, then
    // every further one is refused, whichever worker it reaches.
    const outcomes: string[] = [];
    for (let i = 2; i <= RATE_LIMIT + 2; i++) {
      const attempt = await request(base, "/auth/local", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: signInForm(`cluster${i}@example.com`),
      });
      outcomes.push(
        attempt.status === 302
          ? "signed in"
          : attempt.body.includes("Too many sign-in attempts. Wait a minute and try again.")
            ? "refused"
            : `${attempt.status}`,
      );
    }
    expect(outcomes).toEqual(["signed in", "signed in", "signed in", "refused", "refused"]);

    // A worker killed outright: the other keeps answering, and the primary starts a new one.
    // The spawned process is the primary (node itself, no wrapper process).
    const primary = server.pid ?? 0;
    const workers = childPids(primary);
    expect(workers).toHaveLength(2);
    process.kill(workers[0], "SIGKILL");
    // (A connection the primary hands over in the instant before it learns of the death is lost
    // with the worker; the primary stops handing them over as soon as it knows.)
    await expect
      .poll(() => output, { timeout: 10_000 })
      .toMatch(/A server worker stopped \(SIGKILL\); starting another\./);
    for (let i = 0; i < 6; i++) expect((await request(base, "/healthz")).status).toBe(200);
    await expect
      .poll(() => childPids(primary).filter((pid) => !workers.includes(pid)).length, { timeout: 20_000 })
      .toBe(1);
    expect((await request(base, `/api/customers`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);

    // SIGTERM stops the primary and its workers.
    const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)));
    server.kill("SIGTERM");
    expect(await exited).toBe(0);
    await expect.poll(() => childPids(primary).length, { timeout: 10_000 }).toBe(0);
  });
});
