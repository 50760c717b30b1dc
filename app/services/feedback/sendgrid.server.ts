// SendGrid's Event Webhook (POST /api/webhooks/sendgrid; docs/rules.md#bounce-and-complaint-feeds,
// docs/decisions/0026). The feed is on when SENDGRID_WEBHOOK_PUBLIC_KEY holds the verification key
// SendGrid shows for its signed webhook (base64 DER of an ECDSA P-256 public key).
//
// SendGrid signs each post: X-Twilio-Email-Event-Webhook-Signature is the base64 DER ECDSA
// signature, with SHA-256, of the X-Twilio-Email-Event-Webhook-Timestamp header's text followed by
// the raw body. A post without a good signature is refused (401), and so is a signed one whose
// timestamp is more than REPLAY_WINDOW_SECONDS away from now: a post copied from the wire cannot be
// played back later (SendGrid does not say how old a post may be; it retries for up to 24 hours
// with a new signature and timestamp each time, so a short window loses nothing).
//
// The body is a JSON array of events. A bounce of type "bounce" is "bounced", of type "blocked"
// "soft-bounced" (the receiver refused it for now: reputation, content, a full mailbox); a
// spamreport is "complained"; a dropped event whose reason is "Bounced Address" is "bounced";
// deferred, delivered, processed, open, click, unsubscribe and the rest are ignored (opens and
// clicks are counted by our own pixel and links). An event names its message by smtp-id, our
// Message-ID; its eventId is sg_event_id, so the same event posted again changes nothing.
import { createPublicKey, type KeyObject, verify } from "node:crypto";
import { getEnv } from "~/env.server";
import { ApiError } from "~/lib/api.server";
import type { Receipt } from "~/models/deliveries/receipts/rows";
import { type SendgridEvent, SendgridEventsSchema } from "~/schemas/feedback-webhooks";
import { type FeedResult, feedDetails, ourDeliveryKey, parseFeedJson } from "~/services/feedback/webhook-body.server";

export const SENDGRID_SIGNATURE_HEADER = "x-twilio-email-event-webhook-signature";
export const SENDGRID_TIMESTAMP_HEADER = "x-twilio-email-event-webhook-timestamp";
/** How far a post's signed timestamp may be from now, either way. */
export const REPLAY_WINDOW_SECONDS = 600;

export const SENDGRID_FEED_OFF =
  'The SendGrid feed is off: set SENDGRID_WEBHOOK_PUBLIC_KEY to the Event Webhook\'s verification key (docs/email.md, "Amazon SES and SendGrid")';

export type SendgridFeedResult = FeedResult;

let cachedKey: { text: string; key: KeyObject } | undefined;

/** The verification key; 404 while the feed is off. The setting was checked at start (app/env.server.ts). */
export function sendgridKey(): KeyObject {
  const text = getEnv().SENDGRID_WEBHOOK_PUBLIC_KEY?.trim();
  if (!text) throw new ApiError("not_found", SENDGRID_FEED_OFF);
  if (cachedKey?.text !== text) {
    cachedKey = { text, key: createPublicKey({ key: Buffer.from(text, "base64"), format: "der", type: "spki" }) };
  }
  return cachedKey.key;
}

export type SendgridVerdict = { ok: true } | { ok: false; reason: string };

/** Whether SendGrid signed this body at this timestamp, within the replay window. */
export function verifySendgridSignature(
  key: KeyObject,
  body: Uint8Array,
  signature: string | null,
  timestamp: string | null,
  now = Date.now(),
): SendgridVerdict {
  if (!signature || !timestamp) {
    return { ok: false, reason: "The post is not signed (no Event Webhook signature and timestamp headers)" };
  }
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: "The signed timestamp is not a number of seconds" };
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) return { ok: false, reason: "The signature is not base64" };
  const good = verify(
    "sha256",
    Buffer.concat([Buffer.from(timestamp, "utf8"), body]),
    { key, dsaEncoding: "der" },
    Buffer.from(signature, "base64"),
  );
  if (!good) return { ok: false, reason: "The signature does not match the body" };
  if (Math.abs(now / 1000 - Number(timestamp)) > REPLAY_WINDOW_SECONDS) {
    return {
      ok: false,
      reason: `The signed timestamp is more than ${REPLAY_WINDOW_SECONDS / 60} minutes from now (a replayed post)`,
    };
  }
  return { ok: true };
}

/** The receipt an event makes, or null for one this feed ignores. */
function receiptOf(e: SendgridEvent, now: number): Receipt | null {
  const key = ourDeliveryKey(e["smtp-id"]);
  if (!key || !e.sg_event_id) return null;
  const at = typeof e.timestamp === "number" && Number.isFinite(e.timestamp) ? Math.round(e.timestamp * 1000) : now;
  // SendGrid's reason usually quotes the server's answer, enhanced status included ("550 5.1.1 …"):
  // its status goes first only when the reason does not say it already.
  const reason = e.status && e.reason?.includes(e.status) ? e.reason : [e.status, e.reason].filter(Boolean).join(" ");
  const base = {
    id: key,
    at,
    source: "sendgrid" as const,
    eventId: e.sg_event_id,
    ...(e.email ? { email: e.email } : {}),
  };
  if (e.event === "bounce") {
    const blocked = e.type === "blocked";
    return {
      ...base,
      event: blocked ? "soft-bounced" : "bounced",
      details: feedDetails(`${reason || "Bounced"} (SendGrid, ${blocked ? "blocked" : "bounce"})`),
    };
  }
  if (e.event === "spamreport")
    return { ...base, event: "complained", details: "Marked as spam (SendGrid, spam report)" };
  if (e.event === "dropped" && /^bounced address$/i.test((e.reason ?? "").trim())) {
    return {
      ...base,
      event: "bounced",
      details: "Dropped by SendGrid: the address bounced before (SendGrid, dropped)",
    };
  }
  return null;
}

/**
 * One signed post: checked, parsed and turned into receipts. Throws ApiError: 400 bad body, 401
 * not signed by SendGrid or outside the replay window, 404 feed off.
 */
export function receiveSendgridPost(
  body: Uint8Array,
  headers: { signature: string | null; timestamp: string | null },
  now = Date.now(),
): SendgridFeedResult {
  const verdict = verifySendgridSignature(sendgridKey(), body, headers.signature, headers.timestamp, now);
  if (!verdict.ok) throw new ApiError("unauthorized", `Not signed by SendGrid: ${verdict.reason}`);
  const events = parseFeedJson(body, SendgridEventsSchema);
  const receipts = events.map((e) => receiptOf(e, now)).filter((r): r is Receipt => r !== null);
  return {
    answer: { received: events.length, matched: receipts.length, ignored: events.length - receipts.length },
    receipts,
  };
}
