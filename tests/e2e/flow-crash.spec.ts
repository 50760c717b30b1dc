// Crash safety of flows over real SMTP: the production server runs a two-message flow (send, wait
// three seconds, send) for 600 people who entered through /api/events (a batch posted twice, one
// batch out of order), and is killed with SIGKILL (every process of it at once) at two seeded
// points: once KILL_AT of the first step's messages have arrived, and again once KILL_AT of the
// second's have; each time it is started again. Afterwards every person passed each step once, has
// one delivery row per step, and received each step's message under one Message-ID: a message that
// arrived twice is one that was in flight at a kill (at most the pool's connections a kill), with
// the same Message-ID. The flow's figures add up. The "chromium" project runs it on SQLite, the
// "postgres" project on a PostgreSQL database of the test's own.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { deliveryId } from "../../app/lib/campaigns.ts";
import { closeConnection } from "../../app/db/connection.server.ts";
import { createPostgresDatabase, type PostgresDatabase } from "../helpers/postgres.ts";
import {
  crashableServers,
  freePort,
  productionServerEnv,
  repoRoot as root,
  waitUntilUp,
} from "../helpers/production-server.ts";
import { joinedBatch, TWO_MESSAGE_FLOW } from "../helpers/flow-batches.ts";
import { type SmtpCapture, startSmtpCapture } from "../helpers/smtp.ts";
import { openSqlConnection, sqlRows, sqlValue } from "../helpers/sql.ts";

const PEOPLE = 600;
const POOL = 4;
/** The seeded kill points: after this many messages of the first step, then of the second. */
const KILL_AT = 150;

test.describe("flows survive a crash", () => {
  test.setTimeout(300_000);
  let dataDir = "";
  let smtp: SmtpCapture | undefined;
  let postgres: PostgresDatabase | null = null;
  const servers = crashableServers();

  test.beforeEach(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "crm-flow-crash-"));
    if (test.info().project.name === "postgres") postgres = await createPostgresDatabase("crm_flow_crash");
  });

  test.afterEach(async () => {
    servers.killAll();
    await smtp?.close();
    smtp = undefined;
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await postgres?.drop();
    postgres = null;
  });

  test(
    "kill -9 twice while 600 people go through a flow: each step once per person, one Message-ID each",
    { tag: "@postgres" },
    async () => {
      // A relay that takes a moment over each message, so the kills land while messages are out.
      smtp = await startSmtpCapture({ delayMs: 15 });
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const env = productionServerEnv({
        port,
        publicUrl: base,
        dataDir,
        extra: {
          WEB_CONCURRENCY: "2",
          DELIVERY_LEASE_SECONDS: "5",
          DELIVERY_CHANNEL: "smtp",
          SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
          SMTP_POOL: String(POOL),
          MAIL_FROM: "Flow Crash <news@shop.example>",
          ...(postgres ? { DATABASE_URL: postgres.url } : {}),
        },
      });
      const cli = (...argv: string[]) =>
        execFileSync(process.execPath, [path.join(root, "bin/crm.mjs"), ...argv], { cwd: root, env }).toString();
      cli("users", "create", "--email", "flows@example.com", "--name", "Flow Crash");
      const token = cli("users", "token", "flows@example.com").trim().split("\n").pop() ?? "";
      const start = () => servers.start(env);
      const waitUp = () => waitUntilUp(base);
      const api = async (pathname: string, body: unknown) => {
        const r = await fetch(`${base}${pathname}`, {
          method: "POST",
          body: JSON.stringify(body),
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        });
        expect(r.status, await r.clone().text()).toBe(200);
        return (await r.json()) as Record<string, unknown>;
      };

      let server = start();
      await waitUp();
      const flow = await api("/api/flows", TWO_MESSAGE_FLOW);
      const flowId = String(flow.id);
      await api("/api/events", joinedBatch(0, 200));
      await api("/api/events", joinedBatch(200, 400));
      // The first batch again: nobody enters twice.
      expect(await api("/api/events", joinedBatch(0, 200))).toMatchObject({ accepted: 0, duplicates: 200 });
      // Out of order: an hour ago, posted last.
      await api("/api/events", joinedBatch(400, PEOPLE, new Date(Date.now() - 3_600_000).toISOString()));

      const db = openSqlConnection(postgres?.url ?? path.join(dataDir, "crm.db"));
      const stepCampaign = async (step: string) =>
        sqlValue<string>(db, `SELECT "id" FROM "Campaign" WHERE "flowId" = ? AND "flowStepId" = ?`, [
          flowId,
          `1:${step}`,
        ]);
      const firstId = String(await stepCampaign("first"));
      const secondId = String(await stepCampaign("second"));
      const arrivedOf = (campaignId: string) =>
        smtp!.messages.filter((m) => m.messageId.startsWith(`<${campaignId.slice(0, 8)}`)).length;
      const kills: string[] = [];
      for (const [campaignId, label] of [
        [firstId, "first"],
        [secondId, "second"],
      ] as const) {
        for (let i = 0; i < 1200 && arrivedOf(campaignId) < KILL_AT; i++) await new Promise((r) => setTimeout(r, 25));
        expect(arrivedOf(campaignId)).toBeGreaterThanOrEqual(KILL_AT);
        kills.push(`${label}: ${arrivedOf(campaignId)} of its messages arrived`);
        servers.kill(server);
        await new Promise((r) => setTimeout(r, 500));
        server = start();
        await waitUp();
      }

      // Everyone done and every message out (lost leases run out after 5 s, a delivery row's, and 15 s, a flow entry's).
      const left = async () =>
        Number(
          await sqlValue<number>(
            db,
            `SELECT (SELECT count(*) FROM "FlowEntry" WHERE "flowId" = ? AND "state" = 'active')
                + (SELECT coalesce(sum("pendingCount"), 0) FROM "Campaign" WHERE "flowId" = ?) AS "n"`,
            [flowId, flowId],
          ),
        );
      for (let i = 0; i < 1800 && (await left()) > 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(await left()).toBe(0);

      const passages = await sqlRows<{ stepId: string; n: number }>(
        db,
        `SELECT "stepId", count(*) AS "n" FROM "FlowPassage" WHERE "flowId" = ? GROUP BY "stepId" ORDER BY "stepId"`,
        [flowId],
      );
      expect(passages.map((p) => [p.stepId, Number(p.n)])).toEqual([
        ["first", PEOPLE],
        ["pause", PEOPLE],
        ["second", PEOPLE],
      ]);
      const rows = await sqlRows<{ campaignId: string; seq: number; email: string; status: string }>(
        db,
        `SELECT "campaignId", "seq", "email", "status" FROM "Delivery" WHERE "campaignId" IN (?, ?)`,
        [firstId, secondId],
      );
      await closeConnection(db);
      expect(rows).toHaveLength(2 * PEOPLE);
      expect(new Set(rows.map((r) => `${r.campaignId}:${r.email}`)).size).toBe(2 * PEOPLE);
      expect(rows.filter((r) => r.status !== "delivered")).toEqual([]);
      // Each row's message arrived under its own Message-ID; a repeat only with the same one.
      const expected = new Set(rows.map((r) => `<${deliveryId(r.campaignId, Number(r.seq))}@shop.example>`));
      const received = smtp.messages.map((m) => m.messageId);
      expect(new Set(received)).toEqual(expected);
      const twice = received.length - expected.size;
      expect(twice).toBeLessThanOrEqual(2 * POOL);
      test.info().annotations.push({ type: "crash", description: `${kills.join("; ")}; received twice ${twice}` });
    },
  );
});
