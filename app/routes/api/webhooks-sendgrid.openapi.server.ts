// The OpenAPI operations of /api/webhooks/sendgrid (./webhooks-sendgrid.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";
import {
  REPLAY_WINDOW_SECONDS,
  SENDGRID_SIGNATURE_HEADER,
  SENDGRID_TIMESTAMP_HEADER,
} from "~/services/feedback/sendgrid.server";

export const operations: Operation[] = [
  {
    path: "/api/webhooks/sendgrid",
    method: "post",
    operationId: "receiveSendgridEvents",
    summary: "SendGrid's Event Webhook: bounces, blocks, drops and spam reports",
    description: `Signed by SendGrid: ${SENDGRID_SIGNATURE_HEADER} is the base64 ECDSA P-256/SHA-256 signature of the ${SENDGRID_TIMESTAMP_HEADER} text followed by the raw body, checked with SENDGRID_WEBHOOK_PUBLIC_KEY; a timestamp more than ${REPLAY_WINDOW_SECONDS / 60} minutes from now is refused as a replay. bounce (type bounce): bounced; bounce (type blocked): soft-bounced; spamreport: complained; dropped for a bounced address: bounced; other events are ignored. Events name their message by smtp-id (our Message-ID); the same sg_event_id twice changes nothing. Off (404) while SENDGRID_WEBHOOK_PUBLIC_KEY is not set.`,
    tag: "Webhooks",
    auth: "none",
    extraParameters: [
      {
        name: SENDGRID_SIGNATURE_HEADER,
        in: "header",
        required: true,
        description: "base64 DER ECDSA signature of timestamp + raw body",
        schema: { type: "string" },
      },
      {
        name: SENDGRID_TIMESTAMP_HEADER,
        in: "header",
        required: true,
        description: "Unix time in seconds, as signed",
        schema: { type: "string", pattern: "^[0-9]{1,12}$" },
      },
    ],
    body: "SendgridEvents",
    answers: { 200: { description: "Checked and queued", json: "FeedbackReceived" } },
    errors: [400, 401, 404, 413],
  },
];
