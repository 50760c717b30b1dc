// @engines sqlite postgres
// {NAME} is replaced literally: customers whose names hold JavaScript replacement patterns ($&, $',
// $`, $$, $1) get exactly their stored name, in the subject and the body, through both channels: a
// campaign launched by the service on a real SQLite database, sent by the delivery engine to the
// built-in vendor over HTTP and to a real SMTP server on a loopback port.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, useTestConnection, useTestDatabase } from "../helpers/db";
import { sqlRows } from "../helpers/sql";
import { startSmtpCapture } from "../helpers/smtp";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { deliveryId } from "~/lib/campaigns";
import { parseConditions } from "~/lib/segment-parse";
import { CustomerApiSchema } from "~/schemas/customer";
import { launch } from "~/services/campaigns/launch.server";
import { createCustomer } from "~/services/customers.server";
import type { DeliveryChannel } from "~/services/sending/channel.server";
import { createDeliveryEngine } from "~/services/sending/engine.server";
import { simulatedChannel } from "~/services/sending/simulated-channel.server";
import { startSimulatedVendor } from "~/services/sending/simulated-vendor.server";
import { smtpChannel } from "~/services/sending/smtp-channel.server";
import { createSegment } from "~/services/segments.server";

// Every pattern String.prototype.replace reads in a replacement string.
const PEOPLE = [
  { firstName: "Ma$&ya", lastName: "Rao$'s" },
  { firstName: "$`Zoe", lastName: "$$ Das" },
  { firstName: "Kabir$1", lastName: "$<n>Iyer" },
];
const SUBJECT = "Offer for {NAME}: $5 off";
const MESSAGE = "Hi {NAME}! Your code is {NAME}-$1.";

/** What a recipient must read: every {NAME} is their name, character for character. */
const expected = (template: string, name: string) => template.split("{NAME}").join(name);

let userId: string;
let segmentId: string;
const names = PEOPLE.map((p) => `${p.firstName} ${p.lastName}`);

beforeAll(async () => {
  const user = await createTestUser("Patterns");
  userId = user.id;
  for (const [i, p] of PEOPLE.entries()) {
    await createCustomer(
      userId,
      CustomerApiSchema.parse({ ...p, email: `patterns${i}@example.com`, phone: `98765000${i}0` }),
    );
  }
  const parsed = parseConditions({ visits: { $gte: 0 } });
  if (!parsed.ok) throw new Error(parsed.message);
  segmentId = (await createSegment(userId, { name: "Pattern people", description: "", tree: parsed.tree })).id;
});

async function launchAndSend(name: string, channel: DeliveryChannel, sent: () => number) {
  const campaign = await launch(userId, { name, subject: SUBJECT, message: MESSAGE, segmentId, description: "" });
  expect(campaign.audienceSize).toBe(PEOPLE.length);
  const engine = createDeliveryEngine({
    connection: connection(),
    channel,
    settings: { batchSize: 10, concurrency: 1, idleMs: 20, receiptWaitMs: 60_000 },
  });
  const running = engine.run();
  for (let i = 0; i < 200 && sent() < PEOPLE.length; i++) await new Promise((r) => setTimeout(r, 25));
  await engine.stop();
  await running;
  await channel.close();
  return campaign;
}

describe("{NAME} with replacement patterns in the name", () => {
  it("reaches the built-in vendor exactly as stored, in the subject and the body", async () => {
    const receipts = http.createServer((_req, res) => res.writeHead(200).end("{}"));
    await new Promise<void>((r) => receipts.listen(0, "127.0.0.1", r));
    const vendor = await startSimulatedVendor({
      apiKey: "vendor-key",
      receiptsUrl: `http://127.0.0.1:${(receipts.address() as AddressInfo).port}/receipts`,
      receiptsSecret: "secret",
      delayFactor: 0.01,
    });
    try {
      const campaign = await launchAndSend(
        "Patterns by vendor",
        simulatedChannel({ url: vendor.url, apiKey: "vendor-key" }),
        () => vendor.accepted().size,
      );
      const rows = await sqlRows<{ seq: number; name: string }>(
        connection(),
        `SELECT "seq", "name" FROM "Delivery" WHERE "campaignId" = ? ORDER BY "seq"`,
        [campaign.id],
      );
      expect(rows.map((r) => r.name).sort()).toEqual([...names].sort());
      for (const row of rows) {
        expect(vendor.accepted().get(deliveryId(campaign.id, row.seq))).toMatchObject({
          subject: expected(SUBJECT, row.name),
          // The message, then the unsubscribe footer (app/lib/email-body.ts).
          text: expect.stringContaining(expected(MESSAGE, row.name)),
        });
      }
    } finally {
      await vendor.close();
      receipts.close();
    }
  });

  it("reaches an SMTP server exactly as stored, in the Subject and the body", async () => {
    const smtp = await startSmtpCapture();
    const received = smtp.messages;
    const port = smtp.port;
    try {
      await launchAndSend("Patterns by SMTP", smtpChannel({ url: `smtp://127.0.0.1:${port}` }), () => received.length);
      expect(received).toHaveLength(PEOPLE.length);
      for (const [i, name] of names.entries()) {
        const mail = received.find((m) => m.to === `patterns${i}@example.com`);
        expect(mail, name).toBeDefined();
        const subject = /^Subject: (.*)$/im.exec(mail?.raw ?? "")?.[1]?.trim();
        expect(subject).toBe(expected(SUBJECT, name));
        expect(mail?.raw).toContain(expected(MESSAGE, name));
      }
    } finally {
      await smtp.close();
    }
  });
});
