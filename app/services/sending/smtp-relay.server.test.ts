// @engines sqlite postgres
// A whole campaign through the SMTP channel to a relay that throttles: the delivery engine on a real
// SQLite database, a real SMTP server process (smtp-server on a loopback port) that answers
// "454 4.7.0 slow down" to its first 300 recipients and "550 5.1.1" to chosen ones. Nothing is lost
// and nothing goes twice: every other recipient's message arrives exactly once (counted by
// Message-ID at the server), the 5.1.1 rows end Bounced and their addresses suppressed, the
// counters add up, and the temporary answers are not send errors. And DELIVERY_RATE_PER_SECOND
// holds for the SMTP channel as for the vendor.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestUser, useTestConnection, useTestDatabase } from "../../../tests/helpers/db";
import { campaignRow } from "../../../tests/helpers/campaign-send";
import { everyone, launchWithoutSegment } from "../../../tests/helpers/campaign-launch";
import { sqlRows, sqlRun } from "../../../tests/helpers/sql";

process.env.MAIL_FROM = "Shop <news@shop.example>";
process.env.PUBLIC_URL = "https://crm.example";
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { deliveryKey } from "~/lib/campaigns";
import { suppressions } from "~/models/suppressions/store.server";
import { createDeliveryEngine } from "~/services/sending/engine.server";
import type { EngineEvent, EngineSettings } from "~/services/sending/engine-settings.server";
import { campaigns } from "~/models/campaigns/store.server";
import { notifyPaused } from "~/services/campaigns/reports.server";
import { listNotifications } from "~/services/notifications.server";
import { smtpChannel } from "~/services/sending/smtp-channel.server";
import { seedTenant } from "~/services/seed.server";

const CUSTOMERS = 400;
const THROTTLED = 300;

type Relay = {
  port: number;
  /** Message-IDs of the messages accepted, in order, with the time each arrived. */
  arrived: { messageId: string; to: string; at: number }[];
  /** Recipients answered 454, and 550 5.1.1. */
  deferred: number;
  refused: string[];
  /** Whose RCPT TO is answered 550 5.1.1. */
  unknown: Set<string>;
  /** RCPTs answered 454 before the relay takes mail. */
  throttleFirst: number;
  /** The answer to every MAIL FROM (a refused sender), or null to take it. */
  refuseSender: { code: number; text: string } | null;
  /** Recipients whose message's final answer comes this many milliseconds late (a content scan). */
  slowFor: Set<string>;
  slowMs: number;
  close(): Promise<void>;
};

async function startRelay(): Promise<Relay> {
  let rcpts = 0;
  const relay = {
    arrived: [] as Relay["arrived"],
    deferred: 0,
    refused: [] as string[],
    unknown: new Set<string>(),
    throttleFirst: 0,
    refuseSender: null as Relay["refuseSender"],
    slowFor: new Set<string>(),
    slowMs: 0,
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onMailFrom(_address, _session, callback) {
      const refusal = relay.refuseSender;
      if (refusal) return callback(Object.assign(new Error(refusal.text), { responseCode: refusal.code }));
      callback();
    },
    onRcptTo(address, _session, callback) {
      rcpts += 1;
      if (rcpts <= relay.throttleFirst) {
        relay.deferred += 1;
        return callback(
          Object.assign(new Error("4.7.0 Too many messages, slow down and try again later"), { responseCode: 454 }),
        );
      }
      if (relay.unknown.has(address.address)) {
        relay.refused.push(address.address);
        return callback(Object.assign(new Error("5.1.1 No such mailbox here"), { responseCode: 550 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        relay.arrived.push({
          messageId: /^Message-ID: (.*)$/im.exec(raw)?.[1]?.trim() ?? "",
          to: session.envelope.rcptTo[0]?.address ?? "",
          at: Date.now(),
        });
        if (relay.slowFor.has(session.envelope.rcptTo[0]?.address ?? "")) setTimeout(() => callback(), relay.slowMs);
        else callback();
      });
    },
  });
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return Object.assign(relay, {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

let tenantId: string;
let relay: Relay;

const campaign = (id: string) => campaignRow(connection(), id);
type Row = { seq: number; retries: number; email: string; status: string; attempts: number; details: string };
const rowsOf = (id: string) =>
  sqlRows<Row>(
    connection(),
    `SELECT "seq", "retries", "email", "status", "attempts", "details" FROM "Delivery" WHERE "campaignId" = ? ORDER BY "seq"`,
    [id],
  );

/** Starts a test's relay afresh: nothing arrived yet, every recipient known, the first `throttleFirst` RCPTs answered 454. */
function resetRelay(throttleFirst: number) {
  relay.arrived.length = 0;
  relay.unknown = new Set();
  relay.throttleFirst = throttleFirst;
}

async function launch(name: string): Promise<{ id: string; size: number }> {
  const { id, size } = await launchWithoutSegment(connection(), tenantId, everyone, name);
  // Only this campaign sends.
  await sqlRun(connection(), `UPDATE "Campaign" SET "status" = 'Completed' WHERE "status" = 'Active' AND "id" <> ?`, [
    id,
  ]);
  return { id, size };
}

async function sendToCompletion(id: string, settings: Partial<EngineSettings>, pool = 5, timeoutMs = 60_000) {
  const channel = smtpChannel({ url: `smtp://127.0.0.1:${relay.port}`, maxConnections: pool });
  const errors: string[] = [];
  const engine = createDeliveryEngine({
    connection: connection(),
    channel,
    settings: { batchSize: 100, concurrency: 2, idleMs: 10, ...settings },
    onEvent: (e) => {
      if (e.type === "error") errors.push(e.message);
    },
  });
  const running = engine.run();
  const deadline = Date.now() + timeoutMs;
  while ((await campaign(id)).status === "Active" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  await engine.stop();
  await running;
  await channel.close();
  expect(errors).toEqual([]);
  expect((await campaign(id)).status).toBe("Completed");
}

beforeAll(async () => {
  tenantId = (await createTestUser("Throttled sender")).id;
  await seedTenant(tenantId, { customers: CUSTOMERS, orders: 0, seed: 24 });
  relay = await startRelay();
});
afterAll(async () => {
  await relay.close();
});

describe("a relay that says 'slow down' to the first 300 recipients and 'no such user' to some", () => {
  it("delays but loses nothing: every recipient gets the message exactly once, 5.1.1 rows bounce, counters add up", async () => {
    const { id, size } = await launch("Throttled");
    expect(size).toBe(CUSTOMERS);
    const before = await rowsOf(id);
    const unknown = before.filter((_, i) => i % 50 === 7).map((r) => r.email);
    expect(unknown.length).toBe(8);
    relay.unknown = new Set(unknown);
    relay.throttleFirst = THROTTLED;

    await sendToCompletion(id, { retryBaseMs: 20, maxAttempts: 12 });

    // The relay deferred its first 300 recipients: the test went through the throttling.
    expect(relay.deferred).toBe(THROTTLED);
    const after = await rowsOf(id);
    expect(after.filter((r) => r.attempts > 1).length).toBeGreaterThanOrEqual(THROTTLED / 2);

    // Exactly once, by Message-ID at the server: the delivery id on MAIL_FROM's domain.
    const ids = relay.arrived.map((m) => m.messageId);
    expect(new Set(ids).size).toBe(ids.length);
    const delivered = after.filter((r) => r.status === "delivered");
    expect(delivered).toHaveLength(CUSTOMERS - unknown.length);
    expect(ids.sort()).toEqual(delivered.map((r) => `<${deliveryKey(id, r.seq, r.retries)}@shop.example>`).sort());
    expect(relay.arrived.map((m) => m.to).sort()).toEqual(delivered.map((r) => r.email).sort());

    // The unknown mailboxes bounced (each refused once), with the answer, and are suppressed.
    const bounced = after.filter((r) => r.status === "bounced");
    expect(bounced.map((r) => r.email).sort()).toEqual([...unknown].sort());
    expect(relay.refused.sort()).toEqual([...unknown].sort());
    for (const row of bounced) {
      expect(row.details).toMatch(/^550 5\.1\.1 No such mailbox here/);
      expect(await suppressions.findSuppression(tenantId, row.email)).toMatchObject({
        reason: "hard-bounced",
        campaignId: id,
      });
    }

    // Counters add up; temporary answers were not send errors.
    const c = await campaign(id);
    expect(c).toMatchObject({
      pendingCount: 0,
      sentCount: 0,
      failedCount: 0,
      deliveredCount: CUSTOMERS - unknown.length,
      bouncedCount: unknown.length,
      sendErrors: 0,
    });
    expect(c.deliveredCount + c.bouncedCount).toBe(c.audienceSize);
  }, 120_000);
});

describe("the retries' backoff", () => {
  it("doubles each attempt and scales by a jitter in [0.5, 1.5), one draw a batch; deferred rows wait with the answer", async () => {
    resetRelay(Number.POSITIVE_INFINITY);
    const { id, size } = await launch("Backoff");
    const waits = () =>
      sqlRows<{ wait: number; attempts: number; details: string }>(
        connection(),
        `SELECT "nextAttemptAt" - "updatedAt" AS "wait", "attempts", "details" FROM "Delivery" WHERE "campaignId" = ?`,
        [id],
      );
    // The engine's clock, moved on instead of waiting for the retries to come due.
    let ahead = 0;
    const attempt = async (random: () => number, attempts: number) => {
      const channel = smtpChannel({ url: `smtp://127.0.0.1:${relay.port}` });
      const engine = createDeliveryEngine({
        connection: connection(),
        channel,
        random,
        now: () => Date.now() + ahead,
        settings: { batchSize: 500, concurrency: 2, idleMs: 10, retryBaseMs: 10_000, maxAttempts: 5 },
      });
      const running = engine.run();
      // Until every row has the answer of this attempt (a claim counts the attempt before it is sent).
      const answered = `Attempt ${attempts} failed`;
      while (!(await waits()).every((r) => r.details.startsWith(answered))) await new Promise((r) => setTimeout(r, 10));
      await engine.stop();
      await running;
      await channel.close();
    };
    // The first try: the delay is the base (10 s) times the jitter's low end.
    await attempt(() => 0, 1);
    const first = await waits();
    expect(first).toHaveLength(size);
    for (const row of first) {
      expect(row.attempts).toBe(1);
      // The delay is set as the batch's answers are read, and the row written a moment later.
      expect(row.wait).toBeGreaterThan(4900);
      expect(row.wait).toBeLessThanOrEqual(5000);
      expect(row.details).toMatch(/^Attempt 1 failed, retrying: 454 4\.7\.0 Too many messages/);
    }
    // The second, once due: twice the base, times the jitter's high end.
    ahead += 5000;
    await attempt(() => 0.999, 2);
    for (const row of await waits()) {
      expect(row.attempts).toBe(2);
      expect(row.wait).toBeGreaterThan(29_880);
      expect(row.wait).toBeLessThanOrEqual(29_980);
    }
    expect(relay.arrived).toHaveLength(0);
    expect((await campaign(id)).sendErrors).toBe(0);
  }, 60_000);
});

describe("a relay that keeps saying 'try later'", () => {
  it("delays the rows past maxAttempts up to maxDeferrals, with delays capped, and only then gives up", async () => {
    resetRelay(Number.POSITIVE_INFINITY);
    const { id, size } = await launch("Throttled for long");
    const rows = () =>
      sqlRows<{ status: string; wait: number; attempts: number; details: string }>(
        connection(),
        `SELECT "status", "nextAttemptAt" - "updatedAt" AS "wait", "attempts", "details" FROM "Delivery" WHERE "campaignId" = ?`,
        [id],
      );
    let ahead = 0;
    const settings = { batchSize: 500, concurrency: 2, idleMs: 10, retryBaseMs: 10_000, maxRetryDelayMs: 25_000 };
    const attempt = async (attempts: number) => {
      const channel = smtpChannel({ url: `smtp://127.0.0.1:${relay.port}` });
      const engine = createDeliveryEngine({
        connection: connection(),
        channel,
        random: () => 0.5,
        now: () => Date.now() + ahead,
        settings: { ...settings, maxAttempts: 2, maxDeferrals: 4 },
      });
      const running = engine.run();
      const done = (r: { status: string; details: string }) =>
        r.status !== "pending" || r.details.startsWith(`Attempt ${attempts} failed`);
      while (!(await rows()).every(done)) await new Promise((r) => setTimeout(r, 10));
      await engine.stop();
      await running;
      await channel.close();
      ahead += 60_000;
    };
    for (const n of [1, 2, 3]) await attempt(n);
    // Past maxAttempts (2), still deferred: a temporary answer is no one's error.
    for (const row of await rows()) {
      expect(row).toMatchObject({ status: "pending", attempts: 3 });
      // 10 s doubled twice is 40 s: capped at 25 s (the jitter's middle, 1.0).
      expect(row.wait).toBeGreaterThan(24_800);
      expect(row.wait).toBeLessThanOrEqual(25_000);
    }
    await attempt(4);
    const ended = await rows();
    expect(ended).toHaveLength(size);
    for (const row of ended) {
      expect(row.status).toBe("failed");
      expect(row.details).toMatch(/^Gave up after 4 attempts: 454 /);
    }
    expect(relay.arrived).toHaveLength(0);
    expect((await campaign(id)).sendErrors).toBe(0);
  }, 60_000);
});

describe("DELIVERY_RATE_PER_SECOND with the SMTP channel", () => {
  it("holds: the relay never sees more than the rate after the first second's allowance", async () => {
    resetRelay(0);
    const { id, size } = await launch("Rate limited");
    const rate = 100;
    const started = Date.now();
    await sendToCompletion(id, { ratePerSecond: rate }, 5, 30_000);
    expect(relay.arrived).toHaveLength(size);
    // The bucket starts full (one second's worth); after that, at most `rate` a second on average.
    const times = relay.arrived.map((m) => m.at);
    const elapsed = (times[times.length - 1] - started) / 1000;
    expect(elapsed).toBeGreaterThanOrEqual(((size - rate) / rate) * 0.9);
    const afterFirstSecond = times.filter((t) => t - times[0] >= 1000);
    const span = (afterFirstSecond[afterFirstSecond.length - 1] - afterFirstSecond[0]) / 1000;
    expect(afterFirstSecond.length / Math.max(span, 1)).toBeLessThanOrEqual(rate * 1.25);
    // Loosely, second by second: the bucket hands over at most two seconds' worth in any second (a
    // full bucket and its refill; app/models/deliveries/claims/send-rate.server.test.ts checks that
    // exactly), and a batch still on its way when the next is handed over arrives beside it: on
    // PostgreSQL each answer's recording is a round trip, so the first second's batch of 100 is
    // still arriving as the next second's go out (measured up to 219 in one second).
    let busiest = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while (times[i] - times[j] >= 1000) j++;
      busiest = Math.max(busiest, i - j + 1);
    }
    expect(busiest).toBeLessThanOrEqual(rate * 2.5);
  }, 60_000);
});

describe("a relay that refuses the sender", () => {
  const refusals = [
    { code: 553, text: "5.1.8 <news@shop.example>: Sender address rejected: Domain not found" },
    { code: 550, text: "Sender not allowed" },
  ];
  for (const refusal of refusals) {
    it(`answered ${refusal.code} ${refusal.text.slice(0, 5)}…: pauses the campaign with the sender and the answer, bounces and suppresses no one, and sends everyone once resumed`, async () => {
      resetRelay(0);
      relay.refuseSender = refusal;
      const { id, size } = await launch(`Refused sender ${refusal.code}`);
      const channel = smtpChannel({ url: `smtp://127.0.0.1:${relay.port}`, maxConnections: 5 });
      const events: EngineEvent[] = [];
      const engine = createDeliveryEngine({
        connection: connection(),
        channel,
        settings: { batchSize: 100, concurrency: 2, idleMs: 10 },
        onEvent: (e) => events.push(e),
      });
      const running = engine.run();
      const deadline = Date.now() + 20_000;
      while ((await campaign(id)).status === "Active" && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 25));
      await engine.stop();
      await running;
      await channel.close();

      const c = await campaign(id);
      expect(c.status).toBe("Paused");
      expect(c.statusDetail).toContain("news@shop.example");
      expect(c.statusDetail).toContain(`${refusal.code} ${refusal.text}`);
      expect(c).toMatchObject({
        pendingCount: size,
        bouncedCount: 0,
        failedCount: 0,
        deliveredCount: 0,
        sendErrors: 0,
      });
      // Every message still queued as it was: no attempt counted, nothing said about a recipient.
      const rows = await rowsOf(id);
      expect(rows.filter((r) => r.status !== "pending")).toEqual([]);
      expect(rows.filter((r) => r.attempts !== 0)).toEqual([]);
      const suppressed = await sqlRows<{ n: number }>(
        connection(),
        `SELECT count(*) AS "n" FROM "Suppression" WHERE "campaignId" = ?`,
        [id],
      );
      expect(Number(suppressed[0].n)).toBe(0);
      expect(relay.arrived).toHaveLength(0);

      // One pause, which the delivery job turns into the owner's notification (job.server.ts).
      const paused = events.filter((e) => e.type === "paused");
      expect(paused).toHaveLength(1);
      if (paused[0].type !== "paused") throw new Error("not a pause");
      await notifyPaused(paused[0].campaign);
      const {
        notifications: [note],
      } = await listNotifications(tenantId, { take: 1 });
      expect(note).toMatchObject({ title: "Campaign paused" });
      expect(note.details).toContain("news@shop.example");
      expect(events.filter((e) => e.type === "error")).toEqual([]);

      // MAIL_FROM fixed at the relay, the campaign resumed: everyone gets it, once.
      relay.refuseSender = null;
      expect((await campaigns.setCampaignStatus(tenantId, id, "Active", ["Paused"], connection()))?.changed).toBe(true);
      await sendToCompletion(id, {});
      const ids = relay.arrived.map((m) => m.messageId);
      expect(ids).toHaveLength(size);
      expect(new Set(ids).size).toBe(size);
      expect(await campaign(id)).toMatchObject({ deliveredCount: size, bouncedCount: 0 });
    }, 60_000);
  }
});

describe("a relay that takes long to answer the end of a message (a content scan)", () => {
  it("waits for the answer as RFC 5321 asks, keeps the row's lease meanwhile, and no second sender sends it again", async () => {
    resetRelay(0);
    relay.refuseSender = null;
    const { id, size } = await launch("Slow final answer");
    const slow = (await rowsOf(id)).slice(0, 3).map((r) => r.email);
    relay.slowFor = new Set(slow);
    relay.slowMs = 2500;
    // Two engines, as two instances: each answer but the last may take 0.5 s, a lease lasts 1 s.
    const client = { socketTimeoutMs: 500, dataTimeoutMs: 10_000 };
    const channels = [0, 1].map(() =>
      smtpChannel({ url: `smtp://127.0.0.1:${relay.port}`, maxConnections: 5, client }),
    );
    const errors: string[] = [];
    const engines = channels.map((channel) =>
      createDeliveryEngine({
        connection: connection(),
        channel,
        settings: { batchSize: 100, concurrency: 2, idleMs: 10, leaseMs: 1000, retryBaseMs: 20 },
        onEvent: (e) => {
          if (e.type === "error") errors.push(e.message);
        },
      }),
    );
    const running = engines.map((e) => e.run());
    const deadline = Date.now() + 30_000;
    while ((await campaign(id)).status === "Active" && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 25));
    for (const engine of engines) await engine.stop();
    await Promise.all(running);
    for (const channel of channels) await channel.close();
    relay.slowFor = new Set();

    expect(errors).toEqual([]);
    expect((await campaign(id)).status).toBe("Completed");
    const ids = relay.arrived.map((m) => m.messageId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(size);
    const rows = await rowsOf(id);
    for (const email of slow) {
      const row = rows.find((r) => r.email === email)!;
      expect(row).toMatchObject({ status: "delivered", attempts: 1 });
    }
  }, 60_000);
});
