// Amazon SES bounce and complaint notifications over Amazon SNS (POST /api/webhooks/ses;
// docs/rules.md#bounce-and-complaint-feeds, docs/decisions/0026). The feed is on when
// SES_SNS_TOPIC_ARNS names the topics it may take. Each post is one SNS message:
//
// - of a topic not listed: refused (403) before anything is fetched or written;
// - not signed by SNS (sns-signature.server.ts): refused (401);
// - a SubscriptionConfirmation: its SubscribeURL is visited once (so the subscription starts);
// - an UnsubscribeConfirmation: noted in the log;
// - a Notification: its Message is SES's notification. A Permanent bounce is "bounced", a Transient
//   or Undetermined one "soft-bounced", a Complaint "complained", anything else (Delivery, and the
//   event-publishing types) is ignored. Each recipient is one receipt of the message our
//   Message-ID names (mail.commonHeaders.messageId, else the Message-ID in mail.headers; SES's own
//   mail.messageId is not ours), its eventId the SNS MessageId and the address, so the same
//   notification posted again changes nothing. Messages of other systems are ignored and counted.
import { getEnv } from "~/env.server";
import { ApiError } from "~/lib/api.server";
import { logger } from "~/lib/logger.server";
import type { Receipt } from "~/models/deliveries/receipts/rows";
import {
  type SesNotification,
  type SnsMessage,
  SesNotificationSchema,
  SnsMessageSchema,
} from "~/schemas/feedback-webhooks";
import { httpsGet, snsUrlProblem, verifySnsMessage } from "~/services/feedback/sns-signature.server";
import { type FeedResult, feedDetails, ourDeliveryKey, parseFeedJson } from "~/services/feedback/webhook-body.server";

export const SES_FEED_OFF =
  'The Amazon SES feed is off: set SES_SNS_TOPIC_ARNS to the SNS topics of your SES notifications (docs/email.md, "Amazon SES and SendGrid")';

/** What a post came to: the answer, and the receipts to queue. */
export type SesFeedResult = FeedResult;

/** Confirmations visited, by SNS MessageId: a confirmation posted again is not visited again. */
const CONFIRMED_KEPT = 100;
const confirmed = new Set<string>();

function hostPattern(): RegExp {
  return new RegExp(getEnv().SNS_CERT_HOST_PATTERN);
}

/** The topics the feed takes; 404 while none is set. */
export function sesTopics(): string[] {
  const topics = getEnv().SES_SNS_TOPIC_ARNS;
  if (topics.length === 0) throw new ApiError("not_found", SES_FEED_OFF);
  return topics;
}

/**
 * One SNS post, its raw body: checked (topic, signature), then a confirmation visited or a
 * notification turned into receipts. Throws ApiError: 400 bad body, 401 not signed by SNS, 403
 * another topic, 404 feed off, 422 a confirmation that could not be visited.
 */
export async function receiveSnsPost(body: Uint8Array, now = Date.now()): Promise<SesFeedResult> {
  const topics = sesTopics();
  const message = parseFeedJson(body, SnsMessageSchema);
  if (!topics.includes(message.TopicArn)) {
    throw new ApiError("forbidden", `Topic ${message.TopicArn} is not one of SES_SNS_TOPIC_ARNS`);
  }
  const verdict = await verifySnsMessage(message, hostPattern());
  if (!verdict.ok) throw new ApiError("unauthorized", `Not signed by Amazon SNS: ${verdict.reason}`);
  const none: SesFeedResult = { answer: { received: 0, matched: 0, ignored: 0 }, receipts: [] };
  if (message.Type === "SubscriptionConfirmation") {
    await confirmSubscription(message);
    return none;
  }
  if (message.Type === "UnsubscribeConfirmation") {
    logger().warn({ topic: message.TopicArn }, "Amazon SNS says the SES feed's subscription was removed");
    return none;
  }
  return sesReceipts(message, now);
}

async function confirmSubscription(message: SnsMessage) {
  if (confirmed.has(message.MessageId)) return;
  const url = message.SubscribeURL ?? "";
  const problem = snsUrlProblem(url, hostPattern());
  if (problem) throw new ApiError("unprocessable", `SubscribeURL ${problem}`);
  confirmed.add(message.MessageId);
  if (confirmed.size > CONFIRMED_KEPT) confirmed.delete(confirmed.values().next().value as string);
  try {
    await httpsGet(url);
  } catch (error) {
    confirmed.delete(message.MessageId);
    throw new ApiError(
      "unprocessable",
      `The subscription could not be confirmed: SubscribeURL ${(error as Error).message}`,
    );
  }
  logger().info({ topic: message.TopicArn }, "Confirmed the SES feed's subscription to Amazon SNS");
}

/** Our Message-ID in the notification's copy of the headers (SES's own mail.messageId is not it). */
function messageIdOf(mail: SesNotification["mail"]): string | undefined {
  return mail.commonHeaders?.messageId ?? mail.headers?.find((h) => h.name.toLowerCase() === "message-id")?.value;
}

function timeOf(...candidates: (string | undefined)[]): number | undefined {
  for (const c of candidates) {
    const ms = c ? Date.parse(c) : Number.NaN;
    if (Number.isFinite(ms)) return ms;
  }
  return undefined;
}

/** A Notification's receipts: one per bounced or complaining recipient of one of our messages. */
export function sesReceipts(message: SnsMessage, now = Date.now()): SesFeedResult {
  let notification: SesNotification;
  try {
    const parsed = SesNotificationSchema.safeParse(JSON.parse(message.Message));
    if (!parsed.success) throw new Error(parsed.error.issues[0]?.message);
    notification = parsed.data;
  } catch {
    // Signed by SNS, but not an SES notification (SES's "Successfully validated" test message, a
    // topic shared with something else): nothing to do, and SNS must not send it again.
    return { answer: { received: 1, matched: 0, ignored: 1 }, receipts: [] };
  }
  const type = notification.notificationType ?? notification.eventType;
  const key = ourDeliveryKey(messageIdOf(notification.mail));
  const receipts: Receipt[] = [];
  const add = (email: string, event: Receipt["event"], at: number, details: string) => {
    if (key)
      receipts.push({
        id: key,
        event,
        at,
        details: feedDetails(details),
        source: "ses",
        eventId: `${message.MessageId}:${email.toLowerCase()}`,
        email,
      });
  };
  let received = 1;
  if (type === "Bounce" && notification.bounce) {
    const b = notification.bounce;
    const at = timeOf(b.timestamp, message.Timestamp) ?? now;
    const event = b.bounceType === "Permanent" ? "bounced" : "soft-bounced";
    const kind = `${b.bounceType}${b.bounceSubType ? `/${b.bounceSubType}` : ""}`;
    received = Math.max(1, b.bouncedRecipients.length);
    for (const r of b.bouncedRecipients) {
      const said = (r.diagnosticCode ?? "").replace(/^smtp;\s*/i, "").trim() || r.status || "Bounced";
      add(r.emailAddress, event, at, `${said} (SES, ${kind})`);
    }
  } else if (type === "Complaint" && notification.complaint) {
    const c = notification.complaint;
    const at = timeOf(c.timestamp, message.Timestamp) ?? now;
    received = Math.max(1, c.complainedRecipients.length);
    const feedback = c.complaintFeedbackType ?? c.complaintSubType ?? "complaint";
    for (const r of c.complainedRecipients) add(r.emailAddress, "complained", at, `Marked as spam (SES, ${feedback})`);
  } else if (type === "Delivery") {
    received = Math.max(1, notification.delivery?.recipients?.length ?? 1);
  }
  return { answer: { received, matched: receipts.length, ignored: received - receipts.length }, receipts };
}
