// Crash safety of campaign delivery: the production server sends a 20,000-recipient campaign, is
// killed with SIGKILL in the middle (every process of it at once), and started again. Afterwards
// every recipient has exactly one delivery row, in a final state, and nobody got two different
// messages. Through the built-in vendor (running here, outside the server, like a real provider)
// the vendor accepted each idempotency key once; through SMTP (a real SMTP server process here),
// the messages that arrived twice are at most the pool's connections (the messages in flight at
// the kill), each with the same Message-ID. The "chromium" project runs both on SQLite, the
// "postgres" project (playwright.config.ts) the vendor's on a PostgreSQL database of the test's own.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { deliveryId, personalise } from "../../app/lib/campaigns.ts";
import { startSimulatedVendor, type SimulatedVendor } from "../../app/services/sending/simulated-vendor.server.ts";
import { closeConnection } from "../../app/db/connection.server.ts";
import { createPostgresDatabase, type PostgresDatabase } from "../helpers/postgres.ts";
import {
  crashableServers,
  freePort,
  productionServerEnv,
  repoRoot as root,
  waitUntilUp,
} from "../helpers/production-server.ts";
import { type SmtpCapture, startSmtpCapture } from "../helpers/smtp.ts";
import { openSqlConnection, sqlRow, sqlRows, sqlValue } from "../helpers/sql.ts";

const RECIPIENTS = 20_000;
const RECEIPTS_SECRET = "crash-test-receipts-secret-0123456789";
const VENDOR_KEY = "crash-test-vendor-key";

type Final = {
  status: string;
  pendingCount: number;
  sentCount: number;
  deliveredCount: number;
  failedCount: number;
  bouncedCount: number;
  audienceSize: number;
};

/**
 * Seeds RECIPIENTS customers, starts the production server with `extra`, launches a campaign to
 * all of them, SIGKILLs every process of the server once 30% are out, starts it again and waits
 * until the campaign is Completed. Returns the campaign's rows and figures. With `postgres` the
 * server (and the CLI) run on that database instead of DATA_DIR's SQLite file.
 */
async function sendThroughACrash(
  dataDir: string,
  port: number,
  extra: Record<string, string>,
  servers: ReturnType<typeof crashableServers>,
  postgres: PostgresDatabase | null,
) {
  const base = `http://127.0.0.1:${port}`;
  // One environment (one session secret) for the CLI and both runs of the server.
  const env = productionServerEnv({
    port,
    publicUrl: base,
    dataDir,
    extra: {
      WEB_CONCURRENCY: "2",
      DELIVERY_LEASE_SECONDS: "5",
      ...extra,
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    },
  });
  const cli = (...argv: string[]) =>
    execFileSync(process.execPath, [path.join(root, "bin/crm.mjs"), ...argv], { cwd: root, env }).toString();
  cli("users", "create", "--email", "crash@example.com", "--name", "Crash Test");
  cli("seed", "--user", "crash@example.com", "--customers", String(RECIPIENTS), "--seed", "4");
  const token = cli("users", "token", "crash@example.com").trim().split("\n").pop() ?? "";
  const start = () => servers.start(env);
  const waitUp = () => waitUntilUp(base);
  const api = async (pathname: string, init: RequestInit = {}) => {
    const r = await fetch(`${base}${pathname}`, {
      ...init,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    });
    return (await r.json()) as Record<string, unknown>;
  };

  const first = start();
  await waitUp();
  const segment = await api("/api/segments", {
    method: "POST",
    body: JSON.stringify({ name: "Everyone", conditions: { visits: { $gte: 0 } } }),
  });
  const launched = await api("/api/campaigns", {
    method: "POST",
    body: JSON.stringify({
      name: "Crash",
      subject: "Hi {NAME}",
      segmentId: segment._id,
      message: "Hello {NAME}, 10% off",
    }),
  });
  const id = launched.id as string;
  expect(launched.audienceSize).toBe(RECIPIENTS);

  // The server's database, read behind its back.
  const db = openSqlConnection(postgres?.url ?? path.join(dataDir, "crm.db"));
  const pending = async () =>
    Number(await sqlValue<number>(db, `SELECT "pendingCount" FROM "Campaign" WHERE "id" = ?`, [id]));
  // Kill once a good part, but not all, has been handed over.
  for (let i = 0; i < 600 && (await pending()) > RECIPIENTS * 0.7; i++) await new Promise((r) => setTimeout(r, 50));
  const pendingAtKill = await pending();
  expect(pendingAtKill).toBeGreaterThan(0);
  servers.kill(first);
  await new Promise((r) => setTimeout(r, 500));

  start();
  await waitUp();
  const final = async () =>
    (await sqlRow<Final>(
      db,
      `SELECT "status", "pendingCount", "sentCount", "deliveredCount", "failedCount", "bouncedCount", "audienceSize" FROM "Campaign" WHERE "id" = ?`,
      [id],
    ))!;
  // Leases of the batches lost in the crash run out after 5 s; then they are claimed again.
  for (let i = 0; i < 2400; i++) {
    const now = await final();
    if (now.status === "Completed" && now.sentCount === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const c = await final();
  expect(c).toMatchObject({ status: "Completed", pendingCount: 0, sentCount: 0 });
  expect(c.deliveredCount + c.failedCount + c.bouncedCount).toBe(RECIPIENTS);

  const rows = await sqlRows<{ seq: number; customerId: string; name: string; status: string }>(
    db,
    `SELECT "seq", "customerId", "name", "status" FROM "Delivery" WHERE "campaignId" = ?`,
    [id],
  );
  expect(rows).toHaveLength(RECIPIENTS);
  expect(new Set(rows.map((r) => r.customerId)).size).toBe(RECIPIENTS);
  expect(rows.filter((r) => !["delivered", "failed", "bounced"].includes(r.status))).toEqual([]);
  await closeConnection(db);
  return { id, rows, pendingAtKill };
}

test.describe("delivery survives a crash", () => {
  test.setTimeout(300_000);
  let dataDir = "";
  let vendor: SimulatedVendor | undefined;
  let smtp: SmtpCapture | undefined;
  let postgres: PostgresDatabase | null = null;
  const servers = crashableServers();

  test.beforeEach(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "crm-crash-"));
    if (test.info().project.name === "postgres") postgres = await createPostgresDatabase("crm_crash");
  });

  test.afterEach(async () => {
    servers.killAll();
    await vendor?.close();
    vendor = undefined;
    await smtp?.close();
    smtp = undefined;
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await postgres?.drop();
    postgres = null;
  });

  // On PostgreSQL too (the "postgres" project): claiming rows, their leases and the counters are
  // SQL of each engine's own. The SMTP test below runs on SQLite only: what it adds (the relay's
  // pool, the messages in flight, their Message-IDs) is the channel's, the same on either engine.
  test(
    "kill -9 in the middle of a 20,000-recipient campaign loses and doubles nothing",
    { tag: "@postgres" },
    async () => {
      const port = await freePort();
      vendor = await startSimulatedVendor({
        apiKey: VENDOR_KEY,
        receiptsUrl: `http://127.0.0.1:${port}/api/webhooks/delivery-receipts`,
        receiptsSecret: RECEIPTS_SECRET,
        delayFactor: 0.2,
      });
      const { id, rows, pendingAtKill } = await sendThroughACrash(
        dataDir,
        port,
        {
          SIMULATED_VENDOR_URL: vendor.url,
          SIMULATED_VENDOR_KEY: VENDOR_KEY,
          RECEIPTS_SECRET,
          // Slow enough that the kill lands while batches are out.
          DELIVERY_RATE_PER_SECOND: "2000",
          DELIVERY_BATCH_SIZE: "200",
        },
        servers,
        postgres,
      );
      // The vendor accepted every key exactly once (a re-sent key is answered "duplicate" and not
      // delivered again), and each recipient's one message is theirs.
      const accepted = vendor.accepted();
      expect(accepted.size).toBe(RECIPIENTS);
      // The recipient's own message, with their own unsubscribe link in the footer. Checked in plain
      // JavaScript and asserted once: 40,000 expect() calls, each capturing a stack, held the
      // worker's event loop for many minutes (past the test's timeout, which could not fire).
      const unsubscribe = /Unsubscribe: http:\/\/127\.0\.0\.1:\d+\/u\/[A-Za-z0-9_-]+$/;
      const wrong = rows.filter((r) => {
        const text = accepted.get(deliveryId(id, r.seq))?.text;
        return !text?.startsWith(`${personalise("Hello {NAME}, 10% off", r.name)}\n`) || !unsubscribe.test(text);
      });
      expect(wrong.map((r) => ({ seq: r.seq, text: accepted.get(deliveryId(id, r.seq))?.text }))).toEqual([]);
      test.info().annotations.push({
        type: "crash",
        description: `pending at kill ${pendingAtKill}, re-sent keys answered duplicate ${vendor.stats().duplicates}`,
      });
    },
  );

  test("through SMTP, kill -9 repeats at most the messages in flight, each with its Message-ID", async () => {
    const POOL = 5;
    smtp = await startSmtpCapture();
    const smtpPort = smtp.port;
    const port = await freePort();
    const { id, rows, pendingAtKill } = await sendThroughACrash(
      dataDir,
      port,
      {
        DELIVERY_CHANNEL: "smtp",
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        SMTP_POOL: String(POOL),
        MAIL_FROM: "Crash Test <news@shop.example>",
        DELIVERY_RATE_PER_SECOND: "2000",
      },
      servers,
      postgres,
    );
    // A relay's acceptance is the delivery: every row delivered.
    expect(rows.every((r) => r.status === "delivered")).toBe(true);
    // The Message-ID is on MAIL_FROM's domain.
    const expected = new Set(rows.map((r) => `<${deliveryId(id, r.seq)}@shop.example>`));
    const received = smtp.messages.map((m) => m.messageId);
    const unique = new Set(received);
    expect(unique).toEqual(expected);
    const duplicates = received.length - unique.size;
    expect(duplicates).toBeLessThanOrEqual(POOL);
    test.info().annotations.push({
      type: "crash",
      description: `SMTP: pending at kill ${pendingAtKill}, messages received ${received.length}, received twice ${duplicates}`,
    });
  });
});
