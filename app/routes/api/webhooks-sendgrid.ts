// POST /api/webhooks/sendgrid: SendGrid's signed Event Webhook (app/services/feedback/sendgrid.server.ts;
// docs/rules.md#bounce-and-complaint-feeds). No session: SendGrid's ECDSA signature is the
// credential. Bounces and spam reports become receipts, queued in the worker thread (one small write)
// for the delivery job to apply; the post is answered { received, matched, ignored }.
import type { ActionFunctionArgs } from "@remix-run/node";
import { ApiError, allowMethods, errorResponse, jsonResponse, methodNotAllowed } from "~/lib/api.server";
import { queueReceiptsOffThread } from "~/services/background-work.server";
import { wakeDelivery } from "~/services/delivery/wake.server";
import {
  SENDGRID_SIGNATURE_HEADER,
  SENDGRID_TIMESTAMP_HEADER,
  receiveSendgridPost,
  sendgridKey,
} from "~/services/feedback/sendgrid.server";
import { readFeedBody } from "~/services/feedback/webhook-body.server";

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "POST");
  try {
    sendgridKey(); // 404 while the feed is off, before the body is read
    const { answer, receipts } = receiveSendgridPost(await readFeedBody(request), {
      signature: request.headers.get(SENDGRID_SIGNATURE_HEADER),
      timestamp: request.headers.get(SENDGRID_TIMESTAMP_HEADER),
    });
    if (receipts.length > 0) {
      await queueReceiptsOffThread(receipts);
      wakeDelivery();
    }
    return jsonResponse(answer);
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error);
    throw error;
  }
}

export const loader = methodNotAllowed("POST");
