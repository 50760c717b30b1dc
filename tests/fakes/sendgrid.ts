// A local stand-in for SendGrid's signed Event Webhook, speaking its real protocol: an ECDSA P-256
// key pair whose public key is shown as SendGrid shows it (base64 DER SubjectPublicKeyInfo, what
// SENDGRID_WEBHOOK_PUBLIC_KEY takes), and posts signed as SendGrid signs them:
// X-Twilio-Email-Event-Webhook-Timestamp is the Unix time in seconds, and
// X-Twilio-Email-Event-Webhook-Signature the base64 DER ECDSA signature with SHA-256 of that
// timestamp's text followed by the raw body (a JSON array of events).
import { generateKeyPairSync, randomBytes, type KeyObject, sign } from "node:crypto";

export type SendgridEventFields = Record<string, unknown> & { event: string };

export type FakeSendgrid = {
  /** The verification key, as SendGrid shows it. */
  publicKey: string;
  /** An event as SendGrid posts it, for the message with this Message-ID (smtp-id). */
  event: (event: string, messageId: string, email: string, fields?: Record<string, unknown>) => SendgridEventFields;
  /** The signature headers for this body at this time (seconds), with this fake's key or another. */
  sign: (body: string, timestamp?: number, key?: KeyObject) => Record<string, string>;
  /** The POST SendGrid makes to `endpoint` with these events (or this raw body). */
  request: (
    endpoint: string,
    events: unknown,
    options?: { timestamp?: number; headers?: Record<string, string> },
  ) => Request;
};

export function fakeSendgrid(): FakeSendgrid {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const signHeaders: FakeSendgrid["sign"] = (body, timestamp = Math.floor(Date.now() / 1000), key = privateKey) => {
    const ts = String(timestamp);
    const signature = sign("sha256", Buffer.from(ts + body, "utf8"), { key, dsaEncoding: "der" }).toString("base64");
    return {
      "X-Twilio-Email-Event-Webhook-Signature": signature,
      "X-Twilio-Email-Event-Webhook-Timestamp": ts,
    };
  };
  return {
    publicKey: publicKey.export({ format: "der", type: "spki" }).toString("base64"),
    event: (event, messageId, email, fields = {}) => ({
      email,
      timestamp: Math.floor(Date.now() / 1000),
      "smtp-id": messageId,
      event,
      category: ["campaign"],
      sg_event_id: randomBytes(16).toString("base64url"),
      sg_message_id: `${randomBytes(11).toString("base64url")}.filterdrecv-p3mdw1-756b745b58-kmzbl-18-5F5FC76C-9.0`,
      ...fields,
    }),
    sign: signHeaders,
    request: (endpoint, events, options = {}) => {
      const body = typeof events === "string" ? events : JSON.stringify(events);
      return new Request(endpoint, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "User-Agent": "SendGrid Event API",
          ...signHeaders(body, options.timestamp),
          ...options.headers,
        },
        body,
      });
    },
  };
}
