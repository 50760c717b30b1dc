// @engines sqlite postgres
// POST /api/webhooks/ses with real Requests from a fake SNS that signs as SNS does and serves its
// certificate over HTTPS (tests/fakes/sns.ts), on a real database with a launched campaign:
// signed bounces and complaints become receipts of our messages and are applied (row, counters,
// suppression list); unsigned, wrongly signed, altered, another topic, another certificate host
// are refused and queue nothing; the same notification twice changes nothing; a subscription is
// confirmed once; a body that is not an SNS message is a 400.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestConnection, useTestDatabase } from "../../../tests/helpers/db";
import {
  type FakeSns,
  sesBounce,
  sesComplaint,
  sesDelivery,
  startFakeSns,
  trustFakeSns,
} from "../../../tests/fakes/sns";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { generateKeyPairSync } from "node:crypto";
import { deliveryLogRow, launchDeliveredCampaign, messageId } from "../../../tests/helpers/feedback-campaign";
import { getEnv, resetEnvCache } from "~/env.server";
import { deliveryReceipts } from "~/models/deliveries/receipts/store.server";
import { action, loader } from "~/routes/api/webhooks-ses";
import { getCampaign } from "~/services/campaigns/views.server";
import { sesReceipts } from "~/services/feedback/ses.server";
import { forgetSnsCertificates, snsStringToSign } from "~/services/feedback/sns-signature.server";
import { suppressionOf } from "~/services/suppressions.server";

const ENDPOINT = "http://localhost/api/webhooks/ses";
let sns: FakeSns;
let userId: string;
let campaignId: string;
/** The first rows of the campaign: their delivery key and address. */
let rows: { id: string; email: string }[];

async function post(message: unknown) {
  const response = (await action({ request: sns.request(ENDPOINT, message), params: {}, context: {} })) as Response;
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const queued = () => deliveryReceipts.queuedReceiptBatches(connection());

const row = (id: string) => deliveryLogRow(userId, campaignId, id);

beforeAll(async () => {
  sns = await startFakeSns();
  trustFakeSns(sns);
  process.env.SES_SNS_TOPIC_ARNS = `arn:aws:sns:eu-west-1:123456789012:other, ${sns.topicArn}`;
  process.env.SNS_CERT_HOST_PATTERN = String.raw`^127\.0\.0\.1$`;
  resetEnvCache();
  ({ userId, campaignId, rows } = await launchDeliveredCampaign(connection(), {
    sender: "SES sender",
    seed: 5,
    name: "Diwali",
  }));
});

afterAll(async () => {
  delete process.env.SES_SNS_TOPIC_ARNS;
  delete process.env.SNS_CERT_HOST_PATTERN;
  resetEnvCache();
  await sns.close();
});

describe("signed notifications", () => {
  it("a Permanent bounce (SignatureVersion 1) bounces the row, counts it and suppresses the address", async () => {
    const [r] = rows;
    const answer = await post(sns.notification(sesBounce(messageId(r.id), r.email)));
    expect(answer).toEqual({ status: 200, body: { received: 1, matched: 1, ignored: 0 } });
    expect(await queued()).toBe(1);
    expect((await deliveryReceipts.applyQueuedReceipts(connection())).applied).toBe(1);
    expect(await row(r.id)).toMatchObject({
      status: "bounced",
      details: `550 5.1.1 <${r.email}>: user unknown (SES, Permanent/General)`,
    });
    expect((await getCampaign(userId, campaignId)).bouncedCount).toBe(1);
    expect(await suppressionOf(userId, r.email)).toMatchObject({ reason: "hard-bounced" });
  });

  it("a Complaint (SignatureVersion 2) marks the row complained and suppresses the address", async () => {
    const r = rows[1];
    const answer = await post(sns.notification(sesComplaint(messageId(r.id), r.email), { version: 2 }));
    expect(answer.body).toEqual({ received: 1, matched: 1, ignored: 0 });
    await deliveryReceipts.applyQueuedReceipts(connection());
    expect(await row(r.id)).toMatchObject({ status: "complained", details: "Marked as spam (SES, abuse)" });
    expect((await getCampaign(userId, campaignId)).complainedCount).toBe(1);
    expect(await suppressionOf(userId, r.email)).toMatchObject({ reason: "complained" });
  });

  it("the same notification posted again changes nothing", async () => {
    const r = rows[2];
    const signed = sns.notification(sesComplaint(messageId(r.id), r.email), { subject: "Complaint" });
    expect((await post(signed)).status).toBe(200);
    expect((await post(signed)).status).toBe(200);
    await deliveryReceipts.applyQueuedReceipts(connection());
    expect((await getCampaign(userId, campaignId)).complainedCount).toBe(2);
  });

  it("a Transient bounce is a soft bounce: counted, the row not bounced, the address not suppressed", async () => {
    const r = rows[3];
    const signed = sns.notification(sesBounce(messageId(r.id), r.email, { bounceType: "Transient" }));
    const answer = await post(signed);
    expect(answer.body).toEqual({ received: 1, matched: 1, ignored: 0 });
    // Posted again (SNS retries): the same event, counted once.
    expect((await post(signed)).status).toBe(200);
    await deliveryReceipts.applyQueuedReceipts(connection());
    expect((await row(r.id)).status).not.toBe("bounced");
    expect((await getCampaign(userId, campaignId)).softBounceCount).toBe(1);
    expect(await suppressionOf(userId, r.email)).toBeNull();
  });

  it("Delivery notifications and other systems' messages are ignored and counted", async () => {
    const r = rows[4];
    expect((await post(sns.notification(sesDelivery(messageId(r.id), r.email)))).body).toEqual({
      received: 1,
      matched: 0,
      ignored: 1,
    });
    const foreign = sesBounce("<CAF=abc123@mail.gmail.com>", r.email);
    expect((await post(sns.notification(foreign))).body).toEqual({ received: 1, matched: 0, ignored: 1 });
    // SES's own id is not ours: without the headers the message is not matched.
    const noHeaders = sesBounce(messageId(r.id), r.email) as { mail: Record<string, unknown> };
    delete noHeaders.mail.headers;
    delete noHeaders.mail.commonHeaders;
    expect((await post(sns.notification(noHeaders))).body).toEqual({ received: 1, matched: 0, ignored: 1 });
    // A signed message that is not an SES notification at all (SES's test message).
    expect(
      (await post(sns.notification("Successfully validated SNS topic for Amazon SES event publishing."))).body,
    ).toEqual({ received: 1, matched: 0, ignored: 1 });
    expect(await queued()).toBe(0);
  });

  it("builds one receipt per recipient with the SNS MessageId and address as its event id", () => {
    const r = rows[5];
    const signed = sns.notification(
      sesBounce(messageId(r.id), r.email, { bounceType: "Undetermined", subType: "Undetermined" }),
    );
    const { receipts } = sesReceipts({ ...signed, Type: "Notification" });
    expect(receipts).toEqual([
      {
        id: r.id,
        event: "soft-bounced",
        at: expect.any(Number),
        details: "452 4.2.2 mailbox full (SES, Undetermined/Undetermined)",
        source: "ses",
        eventId: `${signed.MessageId}:${r.email.toLowerCase()}`,
        email: r.email,
      },
    ]);
  });
});

describe("refused posts queue nothing", () => {
  const r = () => rows[5];
  const bounce = () => sesBounce(messageId(r().id), r().email);

  it("unsigned, wrongly signed, altered, unknown SignatureVersion: 401", async () => {
    const signed = sns.notification(bounce());
    const { Signature: _s, ...unsigned } = signed;
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
    const cases = [
      unsigned,
      sns.sign(signed, other),
      { ...signed, Message: signed.Message.replace("Permanent", "Transient") },
      { ...signed, Signature: "not base64!" },
      { ...signed, SignatureVersion: "3" },
    ];
    for (const message of cases) {
      const answer = await post(message);
      expect(answer.status, JSON.stringify(answer.body)).toBe(401);
      expect(answer.body).toMatchObject({ error: { code: "unauthorized" } });
    }
    expect(await queued()).toBe(0);
  });

  it("a certificate URL that is not https or not an SNS host: 401", async () => {
    const signed = sns.notification(bounce());
    for (const url of [
      signed.SigningCertURL.replace("https:", "http:"),
      signed.SigningCertURL.replace("127.0.0.1", "localhost"),
      "https://sns.us-east-1.amazonaws.com.evil.example/cert.pem",
    ]) {
      const answer = await post(sns.sign({ ...signed, SigningCertURL: url }));
      expect(answer.status).toBe(401);
      expect(String((answer.body.error as { message: string }).message)).toMatch(/SigningCertURL/);
    }
    expect(await queued()).toBe(0);
  });

  it("a topic not in SES_SNS_TOPIC_ARNS: 403", async () => {
    const answer = await post(
      sns.notification(bounce(), { topicArn: "arn:aws:sns:us-east-1:999999999999:someone-else" }),
    );
    expect(answer).toMatchObject({ status: 403, body: { error: { code: "forbidden" } } });
    expect(await queued()).toBe(0);
  });

  it("a body that is not an SNS message: 400, never a 500", async () => {
    for (const body of ["{not json", "[]", JSON.stringify({ Type: "Notification" }), "[".repeat(100)]) {
      const answer = await post(body);
      expect(answer.status, body).toBe(400);
    }
    expect(await queued()).toBe(0);
  });

  it("the signing certificate is fetched once and kept", async () => {
    forgetSnsCertificates();
    const before = sns.certificateFetches();
    await post(sns.notification(sesDelivery(messageId(r().id), r().email)));
    await post(sns.notification(sesDelivery(messageId(r().id), r().email), { version: 2 }));
    expect(sns.certificateFetches() - before).toBe(1);
  });
});

describe("subscription", () => {
  it("a SubscriptionConfirmation visits SubscribeURL once, however often it is posted", async () => {
    const confirmation = sns.subscriptionConfirmation();
    expect(snsStringToSign(confirmation)).toContain(`SubscribeURL\n${confirmation.SubscribeURL}\n`);
    expect((await post(confirmation)).body).toEqual({ received: 0, matched: 0, ignored: 0 });
    expect((await post(confirmation)).status).toBe(200);
    expect(sns.subscribeVisits).toEqual([confirmation.Token]);
  });

  it("a forged confirmation is not visited", async () => {
    const confirmation = sns.subscriptionConfirmation({ version: 2 });
    const forged = { ...confirmation, SubscribeURL: `${sns.url}/?Action=ConfirmSubscription&Token=forged` };
    expect((await post(forged)).status).toBe(401);
    expect(sns.subscribeVisits).not.toContain("forged");
  });

  it("an UnsubscribeConfirmation is taken and visits nothing", async () => {
    const visits = sns.subscribeVisits.length;
    expect((await post(sns.unsubscribeConfirmation())).status).toBe(200);
    expect(sns.subscribeVisits).toHaveLength(visits);
  });
});

describe("the feed switch and the method", () => {
  it("a topic list that is not ARNs stops the server with a message naming the variable", () => {
    const saved = process.env.SES_SNS_TOPIC_ARNS;
    process.env.SES_SNS_TOPIC_ARNS = "ses-feedback";
    resetEnvCache();
    try {
      expect(() => getEnv()).toThrow(/SES_SNS_TOPIC_ARNS: .*arn:aws:sns/);
    } finally {
      process.env.SES_SNS_TOPIC_ARNS = saved;
      resetEnvCache();
    }
  });

  it("is off (404) without SES_SNS_TOPIC_ARNS, and answers GET with 405", async () => {
    const saved = process.env.SES_SNS_TOPIC_ARNS;
    delete process.env.SES_SNS_TOPIC_ARNS;
    resetEnvCache();
    try {
      const answer = await post(sns.notification(sesBounce(messageId(rows[0].id), rows[0].email)));
      expect(answer).toMatchObject({
        status: 404,
        body: { error: { message: expect.stringMatching(/SES_SNS_TOPIC_ARNS/) } },
      });
    } finally {
      process.env.SES_SNS_TOPIC_ARNS = saved;
      resetEnvCache();
    }
    const response = loader({ request: new Request(ENDPOINT) });
    expect(response.status).toBe(405);
  });
});
