// POST /api/webhooks/ses: Amazon SES bounce and complaint notifications over Amazon SNS
// (app/services/feedback/ses.server.ts; docs/rules.md#bounce-and-complaint-feeds). No session: SNS's
// signature is the credential. A notification's receipts are queued in the worker thread (one small
// write) for the delivery job to apply, and the post is answered { received, matched, ignored }.
import type { ActionFunctionArgs } from "@remix-run/node";
import { ApiError, allowMethods, errorResponse, jsonResponse, methodNotAllowed } from "~/lib/api.server";
import { queueReceiptsOffThread } from "~/services/background-work.server";
import { wakeDelivery } from "~/services/delivery/wake.server";
import { receiveSnsPost, sesTopics } from "~/services/feedback/ses.server";
import { readFeedBody } from "~/services/feedback/webhook-body.server";

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "POST");
  try {
    sesTopics(); // 404 while the feed is off, before the body is read
    const { answer, receipts } = await receiveSnsPost(await readFeedBody(request));
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
