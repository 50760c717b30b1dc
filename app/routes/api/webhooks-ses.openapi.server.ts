// The OpenAPI operations of /api/webhooks/ses (./webhooks-ses.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/webhooks/ses",
    method: "post",
    operationId: "receiveSesNotification",
    summary: "Amazon SES bounce and complaint notifications over Amazon SNS",
    description:
      "One SNS message as SNS posts it to an HTTPS subscription, signed by SNS (SignatureVersion 1 or 2, the certificate at SigningCertURL on an sns.<region>.amazonaws.com host). A SubscriptionConfirmation's SubscribeURL is visited once. A Notification's SES Bounce (Permanent: bounced; Transient or Undetermined: soft-bounced) or Complaint becomes a receipt of the message its Message-ID names; Delivery and messages of other systems are ignored. The same notification twice changes nothing. Off (404) while SES_SNS_TOPIC_ARNS is empty; a topic not listed there is a 403.",
    tag: "Webhooks",
    auth: "none",
    body: { media: "text/plain", description: "The SNS message (JSON text, as SNS sends it)" },
    answers: { 200: { description: "Checked and queued", json: "FeedbackReceived" } },
    errors: [400, 401, 403, 404, 413, 422],
  },
];
