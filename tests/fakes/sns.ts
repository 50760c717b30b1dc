// A local stand-in for Amazon SNS delivering Amazon SES notifications to an HTTPS subscription,
// speaking SNS's real protocol: nothing leaves the machine.
//
// - It makes an RSA key and a self-signed X.509 certificate for it (openssl, for 127.0.0.1), and
//   serves that certificate over HTTPS at GET /SimpleNotificationService-<id>.pem, the form of a
//   real SigningCertURL. The same certificate is the HTTPS server's, so a test trusts the fake by
//   adding `ca` to Node's HTTPS agent (trustFakeSns) and points SNS_CERT_HOST_PATTERN at 127.0.0.1.
// - It signs messages as SNS does: "Name\nValue\n" for the type's fields in SNS's order
//   (Notification: Message, MessageId, Subject when present, Timestamp, TopicArn, Type;
//   SubscriptionConfirmation: Message, MessageId, SubscribeURL, Timestamp, Token, TopicArn, Type),
//   RSA with SHA-1 (SignatureVersion 1) or SHA-256 (2), base64.
// - GET /?Action=ConfirmSubscription&TopicArn=…&Token=… is the SubscribeURL: it records each visit
//   and answers SNS's XML.
// - request() builds the POST SNS makes: the message as JSON text, Content-Type text/plain and the
//   x-amz-sns-* headers.
import { createPrivateKey, createSign, randomUUID, type KeyObject } from "node:crypto";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { selfSignedCertificate } from "../helpers/certificate";

export type SnsSigned = {
  Type: "Notification" | "SubscriptionConfirmation" | "UnsubscribeConfirmation";
  MessageId: string;
  TopicArn: string;
  Message: string;
  Timestamp: string;
  Subject?: string;
  Token?: string;
  SubscribeURL?: string;
  UnsubscribeURL?: string;
  SignatureVersion: string;
  Signature: string;
  SigningCertURL: string;
};

export type FakeSns = {
  /** https://127.0.0.1:<port> */
  url: string;
  certUrl: string;
  /** The certificate (PEM) of the signing key and of the HTTPS server. */
  ca: string;
  topicArn: string;
  notification: (message: unknown, options?: { version?: 1 | 2; subject?: string; topicArn?: string }) => SnsSigned;
  subscriptionConfirmation: (options?: { version?: 1 | 2; topicArn?: string }) => SnsSigned;
  unsubscribeConfirmation: () => SnsSigned;
  /** Signs (again) a message as it stands, with this fake's key or another. */
  sign: (message: Omit<SnsSigned, "Signature"> & { Signature?: string }, key?: KeyObject) => SnsSigned;
  /** The POST SNS makes to `endpoint` with this message. */
  request: (endpoint: string, message: unknown) => Request;
  /** The tokens of the SubscribeURL visits so far. */
  subscribeVisits: string[];
  /** Certificate downloads so far. */
  certificateFetches: () => number;
  close: () => Promise<void>;
};

const FIELDS = {
  Notification: ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"],
  SubscriptionConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
  UnsubscribeConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
} as const;

/** Adds the fake's certificate to the authorities Node's default HTTPS agent trusts (for this test process). */
export function trustFakeSns(fake: Pick<FakeSns, "ca">) {
  const options = https.globalAgent.options as { ca?: string[] };
  options.ca = [...(options.ca ?? []), fake.ca];
}

export async function startFakeSns(topicArn = "arn:aws:sns:us-east-1:123456789012:ses-feedback"): Promise<FakeSns> {
  const { key: privateKeyPem, cert: ca } = selfSignedCertificate("sns.us-east-1.amazonaws.com", [
    "IP:127.0.0.1",
    "DNS:localhost",
  ]);
  const privateKey = createPrivateKey(privateKeyPem);

  const certPath = `/SimpleNotificationService-${randomUUID().replace(/-/g, "")}.pem`;
  const subscribeVisits: string[] = [];
  let fetches = 0;
  const server = https.createServer({ key: privateKeyPem, cert: ca }, (req, res) => {
    const url = new URL(req.url ?? "/", "https://127.0.0.1");
    if (req.method === "GET" && url.pathname === certPath) {
      fetches += 1;
      res.writeHead(200, { "Content-Type": "application/x-x509-ca-cert" }).end(ca);
      return;
    }
    if (req.method === "GET" && url.pathname === "/" && url.searchParams.get("Action") === "ConfirmSubscription") {
      subscribeVisits.push(url.searchParams.get("Token") ?? "");
      const arn = `${url.searchParams.get("TopicArn") ?? ""}:${randomUUID()}`;
      res
        .writeHead(200, { "Content-Type": "text/xml" })
        .end(
          `<ConfirmSubscriptionResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><ConfirmSubscriptionResult><SubscriptionArn>${arn}</SubscriptionArn></ConfirmSubscriptionResult></ConfirmSubscriptionResponse>`,
        );
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const certUrl = `${url}${certPath}`;

  const sign: FakeSns["sign"] = (message, key = privateKey) => {
    let text = "";
    for (const field of FIELDS[message.Type]) {
      const value = message[field];
      if (value === undefined) continue;
      text += `${field}\n${value}\n`;
    }
    const algorithm = message.SignatureVersion === "1" ? "RSA-SHA1" : "RSA-SHA256";
    return { ...message, Signature: createSign(algorithm).update(text, "utf8").sign(key, "base64") };
  };
  const envelope = (type: SnsSigned["Type"], version: 1 | 2, arn: string) => ({
    Type: type,
    MessageId: randomUUID(),
    TopicArn: arn,
    Timestamp: new Date().toISOString(),
    SignatureVersion: String(version),
    SigningCertURL: certUrl,
  });
  const confirmation = (type: "SubscriptionConfirmation" | "UnsubscribeConfirmation", version: 1 | 2, arn: string) => {
    const token = randomUUID().replace(/-/g, "").repeat(4);
    return sign({
      ...envelope(type, version, arn),
      Token: token,
      Message:
        type === "SubscriptionConfirmation"
          ? `You have chosen to subscribe to the topic ${arn}.\nTo confirm the subscription, visit the SubscribeURL included in this message.`
          : `You have chosen to deactivate subscription to ${arn}.`,
      SubscribeURL: `${url}/?Action=ConfirmSubscription&TopicArn=${encodeURIComponent(arn)}&Token=${token}`,
    });
  };

  return {
    url,
    certUrl,
    ca,
    topicArn,
    notification: (message, options = {}) =>
      sign({
        ...envelope("Notification", options.version ?? 1, options.topicArn ?? topicArn),
        Message: typeof message === "string" ? message : JSON.stringify(message),
        ...(options.subject !== undefined ? { Subject: options.subject } : {}),
        UnsubscribeURL: `${url}/?Action=Unsubscribe&SubscriptionArn=${encodeURIComponent(topicArn)}:sub`,
      }),
    subscriptionConfirmation: (options = {}) =>
      confirmation("SubscriptionConfirmation", options.version ?? 1, options.topicArn ?? topicArn),
    unsubscribeConfirmation: () => confirmation("UnsubscribeConfirmation", 1, topicArn),
    sign,
    request: (endpoint, message) => {
      const m = message as Partial<SnsSigned>;
      const body = typeof message === "string" ? message : JSON.stringify(message);
      return new Request(endpoint, {
        method: "POST",
        headers: {
          "Content-Type": "text/plain; charset=UTF-8",
          "x-amz-sns-message-type": m.Type ?? "",
          "x-amz-sns-message-id": m.MessageId ?? "",
          "x-amz-sns-topic-arn": m.TopicArn ?? "",
          "User-Agent": "Amazon Simple Notification Service Agent",
        },
        body,
      });
    },
    subscribeVisits,
    certificateFetches: () => fetches,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An SES notification's mail object for a message with this Message-ID, headers included. */
function mailOf(messageId: string, to: string) {
  return {
    timestamp: new Date().toISOString(),
    source: "news@shop.example",
    sourceArn: "arn:aws:ses:us-east-1:123456789012:identity/shop.example",
    sourceIp: "127.0.0.1",
    sendingAccountId: "123456789012",
    messageId: `0100018c${randomUUID().replace(/-/g, "")}-000000`,
    destination: [to],
    headersTruncated: false,
    headers: [
      { name: "From", value: "Shop <news@shop.example>" },
      { name: "To", value: to },
      { name: "Message-ID", value: messageId },
      { name: "Subject", value: "Diwali offers" },
    ],
    commonHeaders: { from: ["Shop <news@shop.example>"], to: [to], messageId, subject: "Diwali offers" },
  };
}

/** SES's Bounce notification for one recipient of the message with this Message-ID. */
export function sesBounce(
  messageId: string,
  to: string,
  options: { bounceType?: "Permanent" | "Transient" | "Undetermined"; subType?: string; diagnosticCode?: string } = {},
) {
  const bounceType = options.bounceType ?? "Permanent";
  return {
    notificationType: "Bounce",
    bounce: {
      bounceType,
      bounceSubType: options.subType ?? (bounceType === "Transient" ? "MailboxFull" : "General"),
      bouncedRecipients: [
        {
          emailAddress: to,
          action: "failed",
          status: bounceType === "Permanent" ? "5.1.1" : "4.2.2",
          diagnosticCode:
            options.diagnosticCode ??
            (bounceType === "Permanent" ? `smtp; 550 5.1.1 <${to}>: user unknown` : "smtp; 452 4.2.2 mailbox full"),
        },
      ],
      timestamp: new Date().toISOString(),
      feedbackId: `0100018c${randomUUID()}-000000`,
      reportingMTA: "dns; a8-31.smtp-out.amazonses.com",
    },
    mail: mailOf(messageId, to),
  };
}

/** SES's Complaint notification (an abuse report) for the message with this Message-ID. */
export function sesComplaint(messageId: string, to: string) {
  return {
    notificationType: "Complaint",
    complaint: {
      userAgent: "Yahoo!-Mail-Feedback/2.0",
      complainedRecipients: [{ emailAddress: to }],
      complaintFeedbackType: "abuse",
      arrivalDate: new Date().toISOString(),
      timestamp: new Date().toISOString(),
      feedbackId: `0100018c${randomUUID()}-000000`,
    },
    mail: mailOf(messageId, to),
  };
}

/** SES's Delivery notification for the message with this Message-ID. */
export function sesDelivery(messageId: string, to: string) {
  return {
    notificationType: "Delivery",
    delivery: {
      timestamp: new Date().toISOString(),
      processingTimeMillis: 546,
      recipients: [to],
      smtpResponse: "250 ok:  Message 64111812 accepted",
      reportingMTA: "a8-70.smtp-out.amazonses.com",
      remoteMtaIp: "127.0.2.0",
    },
    mail: mailOf(messageId, to),
  };
}
