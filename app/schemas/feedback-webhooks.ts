// The bodies of the bounce and complaint feeds (docs/rules.md#bounce-and-complaint-feeds): an
// Amazon SNS message (POST /api/webhooks/ses) with the SES notification in its Message, and a
// batch of SendGrid Event Webhook events (POST /api/webhooks/sendgrid). Only the fields the feeds
// read are named; vendors add fields, which pass through untouched.
import { z } from "zod";

const text = (max: number) => z.string().max(max);

/**
 * An SNS message as SNS posts it to an HTTPS subscription (Notification, SubscriptionConfirmation
 * or UnsubscribeConfirmation). The signature fields are optional here: a message without them is
 * unsigned, which the route answers 401, not 400.
 */
export const SnsMessageSchema = z.looseObject({
  Type: z.enum(["Notification", "SubscriptionConfirmation", "UnsubscribeConfirmation"], {
    message: "Type must be Notification, SubscriptionConfirmation or UnsubscribeConfirmation",
  }),
  MessageId: text(200).min(1),
  TopicArn: text(400).min(1),
  Message: text(300_000),
  Timestamp: text(64).min(1),
  Subject: text(200).nullish(),
  Token: text(2_000).optional(),
  SubscribeURL: text(2_000).optional(),
  UnsubscribeURL: text(2_000).optional(),
  SignatureVersion: text(8).optional(),
  Signature: text(2_000).optional(),
  SigningCertURL: text(2_000).optional(),
});
export type SnsMessage = z.infer<typeof SnsMessageSchema>;

const SesHeaderSchema = z.looseObject({ name: z.string(), value: z.string() });

/** The SES notification a Notification's Message holds (notificationType, or eventType for event publishing). */
export const SesNotificationSchema = z.looseObject({
  notificationType: z.string().optional(),
  eventType: z.string().optional(),
  mail: z.looseObject({
    messageId: z.string().optional(),
    timestamp: z.string().optional(),
    headers: z.array(SesHeaderSchema).optional(),
    commonHeaders: z.looseObject({ messageId: z.string().optional() }).optional(),
  }),
  bounce: z
    .looseObject({
      bounceType: z.string(),
      bounceSubType: z.string().optional(),
      timestamp: z.string().optional(),
      bouncedRecipients: z.array(
        z.looseObject({
          emailAddress: z.string(),
          status: z.string().optional(),
          action: z.string().optional(),
          diagnosticCode: z.string().optional(),
        }),
      ),
    })
    .optional(),
  complaint: z
    .looseObject({
      complainedRecipients: z.array(z.looseObject({ emailAddress: z.string() })),
      complaintFeedbackType: z.string().optional(),
      complaintSubType: z.string().nullish(),
      timestamp: z.string().optional(),
    })
    .optional(),
  delivery: z.looseObject({ recipients: z.array(z.string()).optional() }).optional(),
});
export type SesNotification = z.infer<typeof SesNotificationSchema>;

/** The most events one SendGrid post may carry (SendGrid sends batches of about 768 KB). */
export const MAX_SENDGRID_EVENTS = 10_000;

/** One SendGrid Event Webhook event; `smtp-id` is the message's Message-ID. */
export const SendgridEventSchema = z.looseObject({
  event: z.string({ message: "event must be a string" }).max(64),
  email: z.string().max(400).optional(),
  timestamp: z.number().optional(),
  sg_event_id: z.string().max(200).optional(),
  sg_message_id: z.string().max(400).optional(),
  "smtp-id": z.string().max(1_000).optional(),
  type: z.string().max(64).optional(),
  reason: z.string().max(5_000).optional(),
  status: z.string().max(64).optional(),
});
export type SendgridEvent = z.infer<typeof SendgridEventSchema>;

export const SendgridEventsSchema = z
  .array(SendgridEventSchema, { message: "The body must be a JSON array of events" })
  .max(MAX_SENDGRID_EVENTS, `At most ${MAX_SENDGRID_EVENTS} events a request`);
