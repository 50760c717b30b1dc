// POST /api/webhooks/sendgrid: SendGrid's signed Event Webhook (app/services/feedback/sendgrid.server.ts;
// docs/rules.md#bounce-and-complaint-feeds). No session: SendGrid's ECDSA signature is the
// credential. Bounces and spam reports become receipts, queued in the worker thread (one small write)
// for the delivery job to apply; the post is answered { received, matched, ignored }.
import type { ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/lib/api.server";
import {
  SENDGRID_SIGNATURE_HEADER,
  SENDGRID_TIMESTAMP_HEADER,
  receiveSendgridPost,
  sendgridKey,
} from "~/services/feedback/sendgrid.server";
import { answerFeedPost } from "~/services/feedback/webhook-body.server";

export async function action({ request }: ActionFunctionArgs) {
  return answerFeedPost(request, sendgridKey, (body) =>
    receiveSendgridPost(body, {
      signature: request.headers.get(SENDGRID_SIGNATURE_HEADER),
      timestamp: request.headers.get(SENDGRID_TIMESTAMP_HEADER),
    }),
  );
}

export const loader = methodNotAllowed("POST");
