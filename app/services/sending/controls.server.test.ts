// @engines sqlite postgres
// Pause stops, cancel ends, and a relay's acceptance is a delivery: the delivery engine on a real
// database (SQLite, and PostgreSQL in its project) sending through the SMTP channel to a real SMTP server process (smtp-server on a
// loopback port) that takes a few milliseconds over each message, the controls called as a
// marketer's request would call them (the campaign service, on the server's writer).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestUser, useTestConnection, useTestDatabase } from "../../../tests/helpers/db";
import { type SmtpCapture, startSmtpCapture } from "../../../tests/helpers/smtp";
import { sqlRows, sqlValue } from "../../../tests/helpers/sql";
import { everyone, launchWithoutSegment } from "../../../tests/helpers/campaign-launch";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { deliveryStats } from "~/lib/campaigns";
import { CANCELLED_DETAILS } from "~/models/deliveries/receipts/rows";
import { cancelCampaign, pauseCampaign, resumeCampaign } from "~/services/campaigns/controls.server";
import { deliveryLogs } from "~/services/campaigns/delivery-log.server";
import { getCampaign } from "~/services/campaigns/views.server";
import { createDeliveryEngine } from "~/services/sending/engine.server";
import type { DeliveryEngine, EngineSettings } from "~/services/sending/engine-settings.server";
import { smtpChannel } from "~/services/sending/smtp-channel.server";
import { seedTenant } from "~/services/seed.server";

const POOL = 3;
/**
 * What may still arrive after a pause or cancel has answered: the messages already handed over. On
 * each connection that is the one whose text is on the wire and the next, whose envelope went
 * ahead in the same write (pipelining) on a check made before the answer.
 */
const IN_FLIGHT = 2 * POOL;
const AUDIENCE = 400;
let smtp: SmtpCapture;
const receivedIds = () => smtp.messages.map((m) => m.messageId);
let tenant: { id: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await sleep(10);
  }
}

beforeAll(async () => {
  smtp = await startSmtpCapture({ delayMs: 3 });
  tenant = await createTestUser("Controls");
  await seedTenant(tenant.id, { customers: AUDIENCE, orders: 0, seed: 11 });
});
afterAll(async () => {
  await Promise.all(channels.map((c) => c.close()));
  await smtp.close();
});

async function launch(): Promise<string> {
  const { id, size } = await launchWithoutSegment(connection(), tenant.id, everyone, "Controls");
  expect(size).toBe(AUDIENCE);
  return id;
}

const channels: { close(): Promise<void> }[] = [];

function engine(settings: Partial<EngineSettings> = {}, pool = POOL): DeliveryEngine {
  const channel = smtpChannel({
    url: `smtp://127.0.0.1:${smtp.port}`,
    maxConnections: pool,
  });
  channels.push(channel);
  return createDeliveryEngine({
    connection: connection(),
    channel,
    settings: { batchSize: 100, concurrency: 2, idleMs: 20, ...settings },
  });
}

/** A campaign launched afresh and an engine sending it, once `arrived` of its messages have reached the server. */
async function sendingUntil(arrived: number) {
  smtp.messages.length = 0;
  const id = await launch();
  const running = engine();
  const loop = running.run();
  await until(() => smtp.messages.length >= arrived, `${arrived} messages arrived`);
  return { id, running, loop };
}

async function figuresAddUp(id: string) {
  const c = await getCampaign(tenant.id, id);
  const s = c.deliveryStats;
  expect(s.sent + s.failed + s.cancelled + s.pending).toBe(c.audienceSize);
  const byStatus = await sqlRows<{ status: string; n: number }>(
    connection(),
    `SELECT "status", count(*) AS "n" FROM "Delivery" WHERE "campaignId" = ? GROUP BY "status"`,
    [id],
  );
  const rows = Object.fromEntries(byStatus.map((r) => [r.status, Number(r.n)]));
  expect({ pending: s.pending, delivered: s.delivered, cancelled: s.cancelled }).toEqual({
    pending: rows.pending ?? 0,
    delivered: rows.delivered ?? 0,
    cancelled: rows.cancelled ?? 0,
  });
  return c;
}

describe("controls while sending through SMTP", () => {
  it("pause: no message is handed over after the answer; resume sends the rest, each once", async () => {
    const { id, running, loop } = await sendingUntil(60);
    const paused = await pauseCampaign(tenant.id, id);
    expect(paused.campaign.status).toBe("Paused");
    const atAnswer = smtp.messages.length;
    await sleep(400);
    // Only messages already handed over may still arrive.
    expect(smtp.messages.length - atAnswer).toBeLessThanOrEqual(IN_FLIGHT);
    const stopped = smtp.messages.length;
    await sleep(300);
    expect(smtp.messages.length).toBe(stopped);
    const whilePaused = await figuresAddUp(id);
    // A relay's acceptance is the delivery: the rates mean something for real mail.
    expect(whilePaused.deliveryStats.delivered).toBe(stopped);
    expect(whilePaused.deliveryStats.attempted).toBe(stopped);
    expect(whilePaused.deliveryStats.successRate).toBe("100.0%");
    expect(whilePaused.deliveryStats.pending).toBe(AUDIENCE - stopped);

    await resumeCampaign(tenant.id, id);
    running.wake();
    await until(() => smtp.messages.length >= AUDIENCE, "every message arrived");
    await until(
      async () =>
        (await sqlValue(connection(), `SELECT "status" FROM "Campaign" WHERE "id" = ?`, [id])) === "Completed",
      "completed",
    );
    await running.stop();
    await loop;
    expect(receivedIds()).toHaveLength(AUDIENCE);
    expect(new Set(receivedIds()).size).toBe(AUDIENCE);
    const done = await figuresAddUp(id);
    expect(done.deliveryStats).toMatchObject({ sent: AUDIENCE, delivered: AUDIENCE, pending: 0, cancelled: 0 });
  });

  it("cancel: the rows never handed over end Cancelled, in the log, its filter and the counts", async () => {
    const { id, running, loop } = await sendingUntil(50);
    await cancelCampaign(tenant.id, id);
    const atAnswer = smtp.messages.length;
    await until(async () => deliveryStats(await readCounters(id)).pending === 0, "no row left pending");
    await running.stop();
    await loop;
    expect(smtp.messages.length - atAnswer).toBeLessThanOrEqual(IN_FLIGHT);
    const c = await figuresAddUp(id);
    expect(c.status).toBe("Cancelled");
    expect(c.deliveryStats.delivered).toBe(smtp.messages.length);
    expect(c.deliveryStats.cancelled).toBe(AUDIENCE - smtp.messages.length);
    const cancelled = await deliveryLogs(tenant.id, id, { limit: 5, status: "cancelled" });
    expect(cancelled.total).toBe(AUDIENCE - smtp.messages.length);
    expect(cancelled.logs).toHaveLength(5);
    expect(cancelled.logs.every((l) => l.status === "cancelled" && l.details === CANCELLED_DETAILS)).toBe(true);
  });
});

describe("a slow relay", () => {
  it("never sends a message twice when claims run out while their rows wait for a connection", async () => {
    smtp.messages.length = 0;
    smtp.delayMs = 15;
    try {
      const id = await launch();
      // One connection, 15 ms a message, claims of 200 ms: most rows of a batch outlive their claim
      // before a connection is free; they are left to the next claim instead of going out twice.
      const running = engine({ leaseMs: 200, concurrency: 3 }, 1);
      const loop = running.run();
      await until(async () => deliveryStats(await readCounters(id)).pending === 0, "every row sent", 60_000);
      await running.stop();
      await loop;
      expect(new Set(receivedIds()).size).toBe(AUDIENCE);
      expect(receivedIds()).toHaveLength(AUDIENCE);
      const c = await figuresAddUp(id);
      expect(c.deliveryStats.delivered).toBe(AUDIENCE);
    } finally {
      smtp.delayMs = 3;
    }
  }, 90_000);
});

async function readCounters(id: string) {
  const [row] = await sqlRows<Parameters<typeof deliveryStats>[0]>(
    connection(),
    `SELECT "audienceSize", "pendingCount", "sentCount", "deliveredCount", "failedCount", "bouncedCount",
      "cancelledCount", "suppressedCount", "openedCount", "clickedCount" FROM "Campaign" WHERE "id" = ?`,
    [id],
  );
  return row;
}
