// Sending never breaks the rest of the product: while the production server sends a 20,000-recipient
// campaign at full speed through the built-in vendor (in this process, like a real provider), ten
// writers create, update and delete customers, orders and segments through /api, and two more
// create customers through the no-JS form (a signed-in cookie, form posts). No answer is >= 500,
// none is refused, and every write that was acknowledged is in the database afterwards.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import Database from "better-sqlite3";
import { startSimulatedVendor, type SimulatedVendor } from "../../app/services/sending/simulated-vendor.server.ts";
import { freePort, productionServerEnv, repoRoot as root, serverCommand } from "../helpers/production-server.ts";
import { runWriters } from "../helpers/writers.ts";

const RECIPIENTS = 20_000;
const SECONDS = 20;
const RECEIPTS_SECRET = "writes-test-receipts-secret-0123456789";
const VENDOR_KEY = "writes-test-vendor-key";
const PASSWORD = "writes while sending passphrase";

test.describe("writes while a campaign sends", () => {
  test.setTimeout(240_000);
  let dataDir = "";
  let vendor: SimulatedVendor | undefined;
  let server: ChildProcess | undefined;

  test.afterAll(async () => {
    if (server?.pid) {
      try {
        process.kill(-server.pid, "SIGKILL");
      } catch {
        /* already gone */
      }
    }
    await vendor?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test("ten API writers and two form writers get no 5xx, and every acknowledged write is stored", async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "crm-writes-"));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    vendor = await startSimulatedVendor({
      apiKey: VENDOR_KEY,
      receiptsUrl: `${base}/api/webhooks/delivery-receipts`,
      receiptsSecret: RECEIPTS_SECRET,
      delayFactor: 0.2,
    });
    const env = productionServerEnv({
      port,
      publicUrl: base,
      dataDir,
      extra: {
        SIMULATED_VENDOR_URL: vendor.url,
        SIMULATED_VENDOR_KEY: VENDOR_KEY,
        RECEIPTS_SECRET,
        // Full speed, but a 20,000-row campaign must outlast the writers on a busy machine.
        DELIVERY_RATE_PER_SECOND: "800",
        SIGN_IN_RATE_LIMIT: "100",
      },
    });
    const cli = (input: string, ...argv: string[]) =>
      execFileSync(process.execPath, [path.join(root, "bin/crm.mjs"), ...argv], { cwd: root, env, input }).toString();
    cli(`${PASSWORD}\n`, "users", "create", "--email", "writer@example.com", "--name", "Writer", "--password");
    cli("", "seed", "--user", "writer@example.com", "--customers", String(RECIPIENTS), "--seed", "5");
    const token = cli("", "users", "token", "writer@example.com").trim().split("\n").pop() ?? "";
    server = spawn(serverCommand.file, serverCommand.args, { cwd: root, env, stdio: "ignore", detached: true });
    await expect
      .poll(
        () =>
          fetch(`${base}/healthz`).then(
            (r) => r.status,
            () => 0,
          ),
        { timeout: 60_000 },
      )
      .toBe(200);

    const auth = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
    const segment = (await (
      await fetch(`${base}/api/segments`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ name: "Everyone", conditions: { visits: { $gte: 0 } } }),
      })
    ).json()) as { _id: string };
    const launched = await fetch(`${base}/api/campaigns`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ name: "Sale", subject: "Hi {NAME}", segmentId: segment._id, message: "Hello {NAME}" }),
    });
    expect(launched.status).toBe(201);
    const campaign = (await launched.json()) as { id: string; audienceSize: number };
    expect(campaign.audienceSize).toBe(RECIPIENTS);

    const db = new Database(path.join(dataDir, "crm.db"), { readonly: true });
    const pending = () =>
      Number(db.prepare(`SELECT "pendingCount" FROM "Campaign" WHERE "id" = ?`).pluck().get(campaign.id));
    await expect.poll(pending, { timeout: 30_000 }).toBeLessThan(RECIPIENTS);

    // The no-JS path: a signed-in cookie and form posts to the customer form.
    const signIn = await fetch(`${base}/auth/local`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
      body: new URLSearchParams({ email: "writer@example.com", password: PASSWORD }).toString(),
    });
    expect(signIn.status).toBe(302);
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0];
    expect(cookie).not.toBe("");
    const formStatuses: number[] = [];
    const formEmails: string[] = [];
    const formWriter = async (n: number) => {
      const until = Date.now() + SECONDS * 1000;
      for (let i = 0; Date.now() < until; i++) {
        const email = `form-${n}-${i}@writers.example`;
        const r = await fetch(`${base}/customers/new`, {
          method: "POST",
          redirect: "manual",
          headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base, Cookie: cookie },
          body: new URLSearchParams({ firstName: "Form", lastName: `${n}`, email }).toString(),
        });
        await r.arrayBuffer();
        formStatuses.push(r.status);
        if (r.status === 302) formEmails.push(email);
      }
    };

    const [report] = await Promise.all([
      runWriters({ base, token, writers: 10, seconds: SECONDS, tag: "api" }),
      formWriter(0),
      formWriter(1),
    ]);
    const stillSending = pending() > 0;

    test.info().annotations.push({
      type: "writes",
      description: `${report.writes} API writes, p50 ${report.p50} ms, p99 ${report.p99} ms, max ${report.max} ms; ${formStatuses.length} form posts; campaign still sending at the end: ${stillSending}`,
    });
    expect(report.failures).toEqual([]);
    expect(report.serverErrors).toBe(0);
    expect(report.clientErrors).toBe(0);
    expect(report.writes).toBeGreaterThan(100);
    expect(formStatuses.filter((s) => s !== 302)).toEqual([]);
    expect(formStatuses.length).toBeGreaterThan(5);
    expect(stillSending).toBe(true);

    // Every acknowledged write is stored, with its last acknowledged value.
    const stored = db.prepare(`SELECT "lastName" FROM "Customer" WHERE "id" = ?`).pluck();
    for (const k of report.kept) expect(stored.get(k.id)).toBe(k.lastName);
    const byEmail = db.prepare(`SELECT count(*) FROM "Customer" WHERE "email" = ?`).pluck();
    for (const email of formEmails) expect(byEmail.get(email)).toBe(1);
    // Orders and segments made by the writers were deleted again, as acknowledged.
    expect(db.prepare(`SELECT count(*) FROM "Segment" WHERE "name" LIKE 'api %'`).pluck().get()).toBe(0);
    db.close();
  });
});
