// The SNS signature rules on their own (the whole check against a fake SNS is in ses.server.test.ts):
// the string SNS signs for each message type, and which certificate and SubscribeURL addresses are
// fetched under the default SNS_CERT_HOST_PATTERN, the real AWS one.
import { describe, expect, it } from "vitest";
import { getEnv, resetEnvCache } from "~/env.server";
import type { SnsMessage } from "~/schemas/feedback-webhooks";
import { snsStringToSign, snsUrlProblem, verifySnsMessage } from "~/services/feedback/sns-signature.server";

const base = {
  MessageId: "22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324",
  TopicArn: "arn:aws:sns:us-west-2:123456789012:MyTopic",
  Message: "line one\nline two",
  Timestamp: "2012-05-02T00:54:06.655Z",
};

describe("the string to sign", () => {
  it("a Notification: Message, MessageId, Subject only when present, Timestamp, TopicArn, Type", () => {
    const n: SnsMessage = { ...base, Type: "Notification" };
    expect(snsStringToSign(n)).toBe(
      `Message\nline one\nline two\nMessageId\n${base.MessageId}\nTimestamp\n${base.Timestamp}\nTopicArn\n${base.TopicArn}\nType\nNotification\n`,
    );
    expect(snsStringToSign({ ...n, Subject: "Hi" })).toContain(
      `MessageId\n${base.MessageId}\nSubject\nHi\nTimestamp\n`,
    );
    expect(snsStringToSign({ ...n, Subject: null })).not.toContain("Subject");
  });

  it("a SubscriptionConfirmation signs SubscribeURL and Token, and is not one without them", () => {
    const c: SnsMessage = { ...base, Type: "SubscriptionConfirmation", SubscribeURL: "https://x", Token: "t" };
    expect(snsStringToSign(c)).toBe(
      `Message\nline one\nline two\nMessageId\n${base.MessageId}\nSubscribeURL\nhttps://x\nTimestamp\n${base.Timestamp}\nToken\nt\nTopicArn\n${base.TopicArn}\nType\nSubscriptionConfirmation\n`,
    );
    expect(snsStringToSign({ ...c, Token: undefined })).toBeNull();
  });
});

describe("the certificate's address (the default pattern)", () => {
  resetEnvCache();
  const pattern = new RegExp(getEnv().SNS_CERT_HOST_PATTERN);

  it("takes https on sns.<region>.amazonaws.com (and .com.cn) only", () => {
    const ok = "https://sns.us-east-1.amazonaws.com/SimpleNotificationService-0000000000000000000000.pem";
    expect(snsUrlProblem(ok, pattern)).toBeNull();
    expect(snsUrlProblem("https://sns.cn-north-1.amazonaws.com.cn/a.pem", pattern)).toBeNull();
    for (const bad of [
      ok.replace("https:", "http:"),
      "https://sns.us-east-1.amazonaws.com.evil.example/a.pem",
      "https://evil.example/sns.us-east-1.amazonaws.com/a.pem",
      "https://s3.amazonaws.com/a.pem",
      "https://user@sns.us-east-1.amazonaws.com/a.pem",
      "not a url",
    ]) {
      expect(snsUrlProblem(bad, pattern), bad).not.toBeNull();
    }
  });

  it("refuses a message whose certificate is elsewhere without fetching it", async () => {
    const n: SnsMessage = {
      ...base,
      Type: "Notification",
      SignatureVersion: "1",
      Signature: "AAAA",
      SigningCertURL: "https://attacker.example/cert.pem",
    };
    expect(await verifySnsMessage(n, pattern)).toEqual({
      ok: false,
      reason: "SigningCertURL is on attacker.example, which is not an Amazon SNS host",
    });
    expect(
      await verifySnsMessage({ ...n, SigningCertURL: "https://sns.us-east-1.amazonaws.com/cert.txt" }, pattern),
    ).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/\.pem/),
    });
  });
});
