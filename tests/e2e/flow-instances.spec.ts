// Flows on three instances sharing one PostgreSQL: each production server runs its own flow clock
// and delivery job (one SMTP server each, so the test sees who sent what). 600 people enter a
// two-message flow through /api/events posted to different instances (a batch posted twice, to
// another instance); once the first step's messages are going out, one instance is killed with
// SIGKILL. The two left finish: every person passed each step once, has one delivery row per step,
// and received each step's message under its one Message-ID; a message received twice is one the
// killed instance had in flight (at most its SMTP pool), with the same Message-ID.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { deliveryId } from "../../app/lib/campaigns.ts";
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

const PEOPLE = 600;
const INSTANCES = 3;
const POOL = 4;

test.describe("flows on three instances", () => {
  test.setTimeout(300_000);
  let dataDir = "";
  let database: PostgresDatabase | undefined;
  let relays: SmtpCapture[] = [];
  const servers = crashableServers();

  test.afterEach(async () => {
    servers.killAll();
    await Promise.all(relays.map((r) => r.close()));
    relays = [];
    await database?.drop();
    database = undefined;
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test("three clocks move each person through each step once; a SIGKILL of one loses and doubles nothing", async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "crm-flow-instances-"));
    database = await createPostgresDatabase("crm_flow_instances");
    relays = await Promise.all(Array.from({ length: INSTANCES }, () => startSmtpCapture({ delayMs: 10 })));
    const ports = await Promise.all(Array.from({ length: INSTANCES }, () => freePort()));
    const envOf = (i: number) =>
      productionServerEnv({
        port: ports[i],
        publicUrl: `http://127.0.0.1:${ports[0]}`,
        dataDir,
        extra: {
          DATABASE_URL: database?.url ?? "",
          SESSION_SECRET: "flow-instances-session-secret-0123456789abcdef",
          WEB_CONCURRENCY: "1",
          DATABASE_POOL_SIZE: "6",
          DELIVERY_LEASE_SECONDS: "5",
          DELIVERY_CHANNEL: "smtp",
          SMTP_URL: `smtp://127.0.0.1:${relays[i].port}`,
          SMTP_POOL: String(POOL),
          MAIL_FROM: "Flow Instances <news@shop.example>",
        },
      });
    const cli = (...argv: string[]) =>
      execFileSync(process.execPath, [path.join(root, "bin/crm.mjs"), ...argv], {
        cwd: root,
        env: envOf(0),
      }).toString();
    cli("db", "migrate");
    cli("users", "create", "--email", "instances@flows.example", "--name", "Flow Instances");
    const token = cli("users", "token", "instances@flows.example").trim().split("\n").pop() ?? "";
    const instances = ports.map((_, i) => servers.start(envOf(i)));
    await Promise.all(ports.map((port) => waitUntilUp(`http://127.0.0.1:${port}`)));
    const api = async (i: number, pathname: string, body: unknown) => {
      const r = await fetch(`http://127.0.0.1:${ports[i]}${pathname}`, {
        method: "POST",
        body: JSON.stringify(body),
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      });
      expect(r.status, await r.clone().text()).toBe(200);
      return (await r.json()) as Record<string, unknown>;
    };

    const flow = await api(1, "/api/flows", TWO_MESSAGE_FLOW);
    const flowId = String(flow.id);
    await api(0, "/api/events", joinedBatch(0, 200));
    await api(1, "/api/events", joinedBatch(200, 400));
    await api(2, "/api/events", joinedBatch(400, PEOPLE));
    expect(await api(2, "/api/events", joinedBatch(0, 200))).toMatchObject({ accepted: 0, duplicates: 200 });

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const one = async <T>(sql: string, params: unknown[]) => (await client.query(sql, params)).rows[0] as T;
      const received = () => relays.flatMap((r) => r.messages);
      // Kill the first instance once a third of the first step's messages are out.
      for (let i = 0; i < 1200 && received().length < PEOPLE / 3; i++) await new Promise((r) => setTimeout(r, 25));
      servers.kill(instances[0]);
      const atKill = received().length;

      const left = async () =>
        Number(
          (
            await one<{ n: string }>(
              `SELECT (SELECT count(*) FROM "FlowEntry" WHERE "flowId" = $1 AND "state" = 'active')
                    + (SELECT coalesce(sum("pendingCount"), 0) FROM "Campaign" WHERE "flowId" = $1) AS "n"`,
              [flowId],
            )
          ).n,
        );
      for (let i = 0; i < 1800 && (await left()) > 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(await left()).toBe(0);

      const passages = (
        await client.query<{ stepId: string; n: string }>(
          `SELECT "stepId", count(*) AS "n" FROM "FlowPassage" WHERE "flowId" = $1 GROUP BY "stepId" ORDER BY "stepId"`,
          [flowId],
        )
      ).rows.map((r) => [r.stepId, Number(r.n)]);
      expect(passages).toEqual([
        ["first", PEOPLE],
        ["pause", PEOPLE],
        ["second", PEOPLE],
      ]);
      const rows = (
        await client.query<{ campaignId: string; seq: number; email: string; status: string }>(
          `SELECT d."campaignId", d."seq", d."email", d."status" FROM "Delivery" d
           JOIN "Campaign" c ON c."id" = d."campaignId" WHERE c."flowId" = $1`,
          [flowId],
        )
      ).rows;
      expect(rows).toHaveLength(2 * PEOPLE);
      expect(new Set(rows.map((r) => `${r.campaignId}:${r.email}`)).size).toBe(2 * PEOPLE);
      expect(rows.filter((r) => r.status !== "delivered")).toEqual([]);
      const expected = new Set(rows.map((r) => `<${deliveryId(r.campaignId, Number(r.seq))}@shop.example>`));
      const ids = received().map((m) => m.messageId);
      expect(new Set(ids)).toEqual(expected);
      expect(ids.length - expected.size).toBeLessThanOrEqual(POOL);
      // The two left sent too: the work was shared.
      expect(relays[1].messages.length + relays[2].messages.length).toBeGreaterThan(0);
      test.info().annotations.push({
        type: "instances",
        description: `killed after ${atKill} messages; per relay ${relays.map((r) => r.messages.length).join(", ")}; received twice ${ids.length - expected.size}`,
      });
    } finally {
      await client.end();
    }
  });
});
