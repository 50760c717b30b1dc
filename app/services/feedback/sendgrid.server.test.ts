// @engines sqlite postgres
// POST /api/webhooks/sendgrid with real Requests from a fake SendGrid that signs as SendGrid does
// (tests/fakes/sendgrid.ts), on a real database with a launched campaign: bounces, blocks, drops
// and spam reports of our messages are applied (row, counters, suppression list); unsigned,
// wrongly signed, altered and stale posts are 401 and queue nothing; the same event twice changes
// nothing; a body that is not a batch of events is a 400; the key setting is checked at start.
import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestConnection, useTestDatabase } from "../../../tests/helpers/db";
import { fakeSendgrid } from "../../../tests/fakes/sendgrid";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { deliveryLogRow, launchDeliveredCampaign, messageId } from "../../../tests/helpers/feedback-campaign";
import { getEnv, resetEnvCache } from "~/env.server";
import { deliveryReceipts } from "~/models/deliveries/receipts/store.server";
import { action } from "~/routes/api/webhooks-sendgrid";
import { getCampaign } from "~/services/campaigns/views.server";
import { suppressionOf } from "~/services/suppressions.server";

const ENDPOINT = "http://localhost/api/webhooks/sendgrid";
const sendgrid = fakeSendgrid();
let userId: string;
let campaignId: string;
let rows: { id: string; email: string }[];

async function send(request: Request) {
  const response = (await action({ request, params: {}, context: {} })) as Response;
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
const post = (events: unknown, options?: Parameters<typeof sendgrid.request>[2]) =>
  send(sendgrid.request(ENDPOINT, events, options));
const queued = () => deliveryReceipts.queuedReceiptBatches(connection());
const apply = () => deliveryReceipts.applyQueuedReceipts(connection());

const row = (id: string) => deliveryLogRow(userId, campaignId, id);

beforeAll(async () => {
  process.env.SENDGRID_WEBHOOK_PUBLIC_KEY = sendgrid.publicKey;
  resetEnvCache();
  ({ userId, campaignId, rows } = await launchDeliveredCampaign(connection(), {
    sender: "SendGrid sender",
    seed: 7,
    name: "Sale",
  }));
});

afterAll(() => {
  delete process.env.SENDGRID_WEBHOOK_PUBLIC_KEY;
  resetEnvCache();
});

describe("signed events", () => {
  it("a bounce bounces the row with SendGrid's reason, counts it and suppresses the address", async () => {
    const [r] = rows;
    const bounce = sendgrid.event("bounce", messageId(r.id), r.email, {
      type: "bounce",
      status: "5.1.1",
      reason: "550 5.1.1 The email account that you tried to reach does not exist.",
      bounce_classification: "Invalid Address",
    });
    const answer = await post([bounce, sendgrid.event("delivered", messageId(rows[5].id), rows[5].email)]);
    expect(answer).toEqual({ status: 200, body: { received: 2, matched: 1, ignored: 1 } });
    expect(await queued()).toBe(1);
    await apply();
    expect(await row(r.id)).toMatchObject({
      status: "bounced",
      details: "550 5.1.1 The email account that you tried to reach does not exist. (SendGrid, bounce)",
    });
    expect((await getCampaign(userId, campaignId)).bouncedCount).toBe(1);
    expect(await suppressionOf(userId, r.email)).toMatchObject({ reason: "hard-bounced" });
  });

  it("a spam report marks the row complained and suppresses the address", async () => {
    const r = rows[1];
    const answer = await post([sendgrid.event("spamreport", messageId(r.id), r.email)]);
    expect(answer.body).toEqual({ received: 1, matched: 1, ignored: 0 });
    await apply();
    expect(await row(r.id)).toMatchObject({ status: "complained", details: "Marked as spam (SendGrid, spam report)" });
    expect((await getCampaign(userId, campaignId)).complainedCount).toBe(1);
    expect(await suppressionOf(userId, r.email)).toMatchObject({ reason: "complained" });
  });

  it("a block is a soft bounce, counted once however often the event is posted", async () => {
    const r = rows[2];
    const blocked = sendgrid.event("bounce", messageId(r.id), r.email, {
      type: "blocked",
      status: "4.7.1",
      reason: "421 4.7.1 Try again later, closing connection.",
    });
    expect((await post([blocked])).body).toEqual({ received: 1, matched: 1, ignored: 0 });
    // SendGrid retries a post it thinks failed: a new signature, the same sg_event_id.
    expect((await post([blocked])).status).toBe(200);
    await apply();
    expect((await getCampaign(userId, campaignId)).softBounceCount).toBe(1);
    expect((await row(r.id)).status).toBe("delivered");
    expect(await suppressionOf(userId, r.email)).toBeNull();
  });

  it("a drop for a bounced address bounces the row; other drops, opens, clicks and other systems' messages are ignored", async () => {
    const r = rows[3];
    const answer = await post([
      sendgrid.event("dropped", messageId(r.id), r.email, { reason: "Bounced Address" }),
      sendgrid.event("dropped", messageId(rows[4].id), rows[4].email, { reason: "Unsubscribed Address" }),
      sendgrid.event("deferred", messageId(rows[4].id), rows[4].email, { response: "400 try again", attempt: "1" }),
      sendgrid.event("open", messageId(rows[4].id), rows[4].email, { useragent: "Mozilla/5.0" }),
      sendgrid.event("click", messageId(rows[4].id), rows[4].email, { url: "https://shop.example/" }),
      sendgrid.event("bounce", "<14c5d75ce93.dfd.64b469@ismtpd-555>", rows[4].email, { type: "bounce" }),
    ]);
    expect(answer.body).toEqual({ received: 6, matched: 1, ignored: 5 });
    await apply();
    expect((await row(r.id)).status).toBe("bounced");
    expect((await row(rows[4].id)).status).toBe("delivered");
  });
});

describe("the reported address", () => {
  it("a report about another address than the row's is not applied", async () => {
    const r = rows[4];
    expect((await post([sendgrid.event("spamreport", messageId(r.id), "someone.else@example.com")])).status).toBe(200);
    await apply();
    expect((await row(r.id)).status).toBe("delivered");
    expect(await suppressionOf(userId, "someone.else@example.com")).toBeNull();
  });
});

describe("refused posts queue nothing", () => {
  const events = () => [sendgrid.event("spamreport", messageId(rows[5].id), rows[5].email)];

  it("unsigned, signed with another key, altered after signing: 401", async () => {
    const body = JSON.stringify(events());
    const other = generateKeyPairSync("ec", { namedCurve: "prime256v1" }).privateKey;
    const requests = [
      new Request(ENDPOINT, { method: "POST", headers: { "Content-Type": "application/json" }, body }),
      new Request(ENDPOINT, { method: "POST", headers: sendgrid.sign(body, undefined, other), body }),
      new Request(ENDPOINT, {
        method: "POST",
        headers: sendgrid.sign(body),
        body: body.replace("spamreport", "delivered"),
      }),
      new Request(ENDPOINT, {
        method: "POST",
        headers: { ...sendgrid.sign(body), "X-Twilio-Email-Event-Webhook-Signature": "%%%" },
        body,
      }),
    ];
    for (const request of requests) {
      const answer = await send(request);
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ error: { code: "unauthorized" } });
    }
    expect(await queued()).toBe(0);
  });

  it("a post signed more than 10 minutes ago is a replay: 401 that says so", async () => {
    const answer = await post(events(), { timestamp: Math.floor(Date.now() / 1000) - 11 * 60 });
    expect(answer).toMatchObject({ status: 401, body: { error: { message: expect.stringMatching(/10 minutes/) } } });
    expect((await post([], { timestamp: Math.floor(Date.now() / 1000) - 9 * 60 })).status).toBe(200);
    expect(await queued()).toBe(0);
  });

  it("a body streamed without a length past 1 MB: 413, and the rest is left unread", async () => {
    let pulled = 0;
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.byteLength;
        if (pulled > 20_000_000) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const request = new Request(ENDPOINT, {
      method: "POST",
      headers: sendgrid.sign("[]"),
      body,
      duplex: "half",
    } as RequestInit);
    const answer = await send(request);
    expect(answer).toMatchObject({ status: 413, body: { error: { code: "payload_too_large" } } });
    expect(pulled).toBeLessThan(2_000_000);
    expect(await queued()).toBe(0);
  });

  it("a signed body that is not a batch of events: 400, never a 500", async () => {
    for (const body of ["{not json", "{}", JSON.stringify([{ email: "a@b.c" }]), "[".repeat(100)]) {
      const answer = await post(body);
      expect(answer.status, body).toBe(400);
      expect(answer.body).toMatchObject({ error: { code: "bad_request" } });
    }
    expect(await queued()).toBe(0);
  });
});

describe("the setting", () => {
  it("the feed is off (404) while SENDGRID_WEBHOOK_PUBLIC_KEY is not set", async () => {
    delete process.env.SENDGRID_WEBHOOK_PUBLIC_KEY;
    resetEnvCache();
    try {
      const answer = await post([]);
      expect(answer).toMatchObject({
        status: 404,
        body: { error: { message: expect.stringMatching(/SENDGRID_WEBHOOK_PUBLIC_KEY/) } },
      });
    } finally {
      process.env.SENDGRID_WEBHOOK_PUBLIC_KEY = sendgrid.publicKey;
      resetEnvCache();
    }
  });

  it("a key that is not a P-256 public key stops the server with a message naming the variable", () => {
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 })
      .publicKey.export({ format: "der", type: "spki" })
      .toString("base64");
    for (const bad of ["not-a-key", rsa, sendgrid.publicKey.slice(0, 40)]) {
      process.env.SENDGRID_WEBHOOK_PUBLIC_KEY = bad;
      resetEnvCache();
      expect(() => getEnv()).toThrow(/SENDGRID_WEBHOOK_PUBLIC_KEY: .*verification key/);
    }
    process.env.SENDGRID_WEBHOOK_PUBLIC_KEY = sendgrid.publicKey;
    resetEnvCache();
    expect(getEnv().SENDGRID_WEBHOOK_PUBLIC_KEY).toBe(sendgrid.publicKey);
  });
});
