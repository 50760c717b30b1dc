// @engines sqlite postgres
// The delivery engine (engine.server.ts) sending whole campaigns on a real database (SQLite, and
// PostgreSQL in its project): through the built-in vendor over HTTP with its receipts, the same
// message sent again under its key, transient failures retried then failed, and a database outage
// while sending. The delivery rows it works on: delivery-rows.server.test.ts.
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { TEST_ENGINE, useTestConnection, useTestDatabase } from "../../../tests/helpers/db";
import { startSmtpCapture } from "../../../tests/helpers/smtp";
import { message as outgoingMessage } from "../../../tests/helpers/smtp-servers";
import { conditionsTree as tree, everyone } from "../../../tests/helpers/campaign-launch";
import { seededTenant, sendingTenants } from "../../../tests/helpers/seeded-tenants";
import { sqlRun, sqlValue } from "../../../tests/helpers/sql";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { closeConnection } from "~/db/connection.server";
import { openPostgres, postgresSettings } from "~/db/postgres.server";
import { deliveryId, deliveryStats } from "~/lib/campaigns";
import type { DeliveryChannel } from "~/services/sending/channel.server";
import { campaigns } from "~/models/campaigns/store.server";
import { deliveryReceipts } from "~/models/deliveries/receipts/store.server";
import type { Receipt } from "~/models/deliveries/receipts/rows";
import { createDeliveryEngine } from "~/services/sending/engine.server";
import { verifyReceipts } from "~/services/sending/receipt-signature.server";
import { simulatedChannel } from "~/services/sending/simulated-channel.server";
import { smtpChannel } from "~/services/sending/smtp-channel.server";
import { startSimulatedVendor } from "~/services/sending/simulated-vendor.server";

const { tenant, other, campaign, rows, expectCountersAddUp, launch } = sendingTenants(connection);

async function receiptsServer(secret: string) {
  let signedWrong = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const body = Buffer.concat(chunks);
      if (!verifyReceipts(body, secret, (req.headers["x-signature"] as string | undefined) ?? null)) {
        signedWrong += 1;
        res.writeHead(401).end();
        return;
      }
      // As the endpoint does: queued, for the engine to apply between its rounds.
      await deliveryReceipts.queueReceipts(
        connection(),
        (JSON.parse(body.toString()) as { receipts: Receipt[] }).receipts,
      );
      res.writeHead(200).end("{}");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/receipts`,
    server,
    signedWrong: () => signedWrong,
  };
}

/** The built-in vendor, its API key `apiKey`, posting its receipts signed with `secret` to a receipts server of the test. */
async function vendorWithReceipts(apiKey: string, secret: string) {
  const receipts = await receiptsServer(secret);
  const vendor = await startSimulatedVendor({
    apiKey,
    receiptsUrl: receipts.url,
    receiptsSecret: secret,
    delayFactor: 0.01,
  });
  return { receipts, vendor };
}

describe("a whole campaign through the built-in vendor", () => {
  it("sends every recipient once, personalised, and every row ends final with the counters adding up", async () => {
    const { receipts, vendor } = await vendorWithReceipts("vendor-key", "receipts-secret-for-tests");
    const { id, size } = await launch(tenant.id);
    const events: string[] = [];
    const engine = createDeliveryEngine({
      connection: connection(),
      channel: simulatedChannel({ url: vendor.url, apiKey: "vendor-key" }),
      settings: { batchSize: 50, concurrency: 3, idleMs: 20, receiptWaitMs: 60_000 },
      onEvent: (e) => {
        if (e.type !== "progress") events.push(`${e.type}:${"campaign" in e ? e.campaign.id : e.message}`);
      },
    });
    const running = engine.run();
    // Other campaigns launched above are active too: wait for this one.
    for (let i = 0; i < 400 && (await campaign(id)).status !== "Completed"; i++)
      await new Promise((r) => setTimeout(r, 50));
    await engine.stop();
    await running;
    await vendor.close();
    receipts.server.close();

    const c = await campaign(id);
    expect(c.status).toBe("Completed");
    expect(events).toContain(`completed:${id}`);
    const final = await rows(id);
    expect(final).toHaveLength(size);
    expect(final.filter((r) => r.status === "pending" || r.status === "sent")).toEqual([]);
    await expectCountersAddUp(id);
    // The tenant's other campaigns send alongside this one to the same customers: an address one
    // of them bounced is suppressed, and this campaign's row for it ends Suppressed, never sent.
    const accepted = vendor.accepted();
    const suppressed = final.filter((r) => r.status === "suppressed");
    for (const r of suppressed) {
      expect(r.details).toMatch(/^Not sent: the address hard-bounced on /);
      expect(accepted.has(deliveryId(id, r.seq))).toBe(false);
    }
    const sentTo = final.filter((r) => r.status !== "suppressed");
    const stats = deliveryStats(c);
    expect(stats.suppressed).toBe(suppressed.length);
    expect(stats.delivered / sentTo.length).toBeGreaterThan(0.8);
    expect(stats.failed + stats.bounced).toBeGreaterThan(0);
    expect(stats.opened).toBeGreaterThan(0);
    expect(receipts.signedWrong()).toBe(0);

    // Every other key was accepted once, and the message carries the recipient's name.
    const keys = sentTo.map((r) => deliveryId(id, r.seq));
    expect(keys.every((k) => accepted.has(k))).toBe(true);
    const first = await sqlValue<string>(connection(), `SELECT "name" FROM "Delivery" WHERE "seq" = ?`, [
      sentTo[0].seq,
    ]);
    expect(accepted.get(keys[0])).toMatchObject({
      subject: `Hello ${first}`,
      // The text part, with the unsubscribe footer (app/lib/email-body.ts) after the message.
      text: expect.stringContaining(`Hi ${first}, 10% off`),
    });
  }, 60_000);

  it("a message sent again under its key is accepted once; transient failures are retried, then failed", async () => {
    const { receipts, vendor } = await vendorWithReceipts("k", "s");
    const channel = simulatedChannel({ url: vendor.url, apiKey: "k" });
    const message = outgoingMessage(1);
    expect((await channel.send([message]))[0]).toMatchObject({ status: "accepted", details: "" });
    expect((await channel.send([message]))[0]).toMatchObject({
      status: "accepted",
      details: "Accepted earlier under the same key",
    });
    expect(vendor.stats()).toMatchObject({ accepted: 1, duplicates: 1 });
    expect((await simulatedChannel({ url: vendor.url, apiKey: "wrong" }).send([message]))[0]).toMatchObject({
      status: "retry",
      countsAsError: true,
    });
    await vendor.close();
    receipts.server.close();

    // A channel that never answers: every attempt is retried with a delay until the last fails,
    // and the error cap pauses the campaign.
    const down: DeliveryChannel = {
      name: "simulated",
      receipts: true,
      // One call a batch, like the built-in vendor.
      concurrency: Number.POSITIVE_INFINITY,
      send: async (batch) =>
        batch.map((m) => ({ key: m.key, status: "retry", details: "connection refused", countsAsError: true })),
      close: async () => {},
    };
    const { id, size } = await launch(other.id, tree({ visits: { $gte: 0 } }));
    // Only this campaign is active now.
    await sqlRun(connection(), `UPDATE "Campaign" SET "status" = 'Completed' WHERE "status" = 'Active' AND "id" <> ?`, [
      id,
    ]);
    const engine = createDeliveryEngine({
      connection: connection(),
      channel: down,
      settings: { batchSize: 100, retryBaseMs: 1, maxAttempts: 3, errorCap: 10_000, idleMs: 5 },
    });
    const running = engine.run();
    for (let i = 0; i < 200 && (await campaign(id)).pendingCount > 0; i++) await new Promise((r) => setTimeout(r, 20));
    await engine.stop();
    await running;
    const final = await rows(id);
    expect(
      final.every(
        (r) =>
          r.status === "failed" &&
          r.attempts === 3 &&
          r.details.startsWith("Gave up after 3 attempts: connection refused"),
      ),
    ).toBe(true);
    expect((await campaign(id)).failedCount).toBe(size);
    // Each failed call to the channel is one send error, however many messages it carried: one
    // batch of up to 100, tried three times.
    expect(size).toBeLessThanOrEqual(100);
    expect((await campaign(id)).sendErrors).toBe(3);

    await campaigns.requeueFailedDeliveries(other.id, id, connection());
    const capped = createDeliveryEngine({
      connection: connection(),
      channel: down,
      settings: { batchSize: 10, retryBaseMs: 1, maxAttempts: 3, errorCap: 4, idleMs: 5 },
    });
    const run2 = capped.run();
    for (let i = 0; i < 200 && (await campaign(id)).status === "Active"; i++)
      await new Promise((r) => setTimeout(r, 20));
    await capped.stop();
    await run2;
    expect(await campaign(id)).toMatchObject({ status: "Paused" });
    expect((await campaign(id)).statusDetail).toMatch(/^Paused after \d+ send errors/);
    await expectCountersAddUp(id);
  }, 60_000);
});

/**
 * A TCP proxy in front of the test's PostgreSQL server: `cut()` drops every connection through it
 * and refuses new ones until `restore()`, as a database that went away would (the machine's shared
 * server itself is never stopped).
 */
async function databaseProxy(target: URL) {
  const sockets = new Set<net.Socket>();
  let down = false;
  const server = net.createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("error", () => undefined);
      s.on("close", () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(target);
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    cut() {
      down = true;
      for (const s of sockets) s.destroy();
    },
    restore() {
      down = false;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("a database outage while sending", () => {
  const POOL = 3;
  const AUDIENCE = 1_200;
  /**
   * Two instances (each its pool through the proxy, and its SMTP pool) send a campaign; the
   * database is cut off for `outageMs` once a quarter has arrived. Returns how many messages
   * arrived twice.
   */
  async function sendThroughAnOutage(name: string, leaseMs: number, outageMs: number): Promise<number> {
    const sender = await seededTenant(name, AUDIENCE, 17);
    const { id, size } = await launch(sender.id, everyone, name);
    expect(size).toBe(AUDIENCE);
    const smtp = await startSmtpCapture({ delayMs: 2 });
    const proxy = await databaseProxy(new URL(process.env.DATABASE_URL ?? ""));
    const instances = [0, 1].map(() => {
      const pg = openPostgres(proxy.url, postgresSettings({ poolSize: 4 }));
      const channel = smtpChannel({ url: `smtp://127.0.0.1:${smtp.port}`, maxConnections: POOL });
      const engine = createDeliveryEngine({
        connection: pg,
        channel,
        settings: { batchSize: 100, concurrency: 2, idleMs: 20, leaseMs, retryBaseMs: 100 },
      });
      return { pg, channel, engine, running: engine.run() };
    });
    try {
      for (let i = 0; i < 1_000 && smtp.messages.length < AUDIENCE / 4; i++)
        await new Promise((r) => setTimeout(r, 10));
      proxy.cut();
      await new Promise((r) => setTimeout(r, outageMs));
      proxy.restore();
      for (let i = 0; i < 3_000 && (await campaign(id)).status === "Active"; i++)
        await new Promise((r) => setTimeout(r, 20));
      expect((await campaign(id)).status).toBe("Completed");
    } finally {
      for (const instance of instances) {
        await instance.engine.stop();
        await instance.running;
        await instance.channel.close();
        await closeConnection(instance.pg);
      }
      await proxy.close();
      await smtp.close();
    }
    const ids = smtp.messages.map((m) => m.messageId);
    expect(new Set(ids).size).toBe(AUDIENCE);
    expect((await campaign(id)).deliveredCount).toBe(AUDIENCE);
    await expectCountersAddUp(id);
    return ids.length - new Set(ids).size;
  }

  it.runIf(TEST_ENGINE === "postgres")(
    "shorter than the claims' lease: nothing is sent twice, the answers had are written once it is back",
    async () => {
      expect(await sendThroughAnOutage("Short outage", 10_000, 3_000)).toBe(0);
    },
    90_000,
  );

  it.runIf(TEST_ENGINE === "postgres")(
    "longer than the lease: at most the messages out when it began are sent again, per instance, as after a crash",
    async () => {
      expect(await sendThroughAnOutage("Long outage", 2_000, 3_000)).toBeLessThanOrEqual(2 * POOL);
    },
    90_000,
  );
});
