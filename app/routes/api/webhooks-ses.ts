// POST /api/webhooks/ses: Amazon SES bounce and complaint notifications over Amazon SNS
// (app/services/feedback/ses.server.ts; docs/rules.md#bounce-and-complaint-feeds). No session: SNS's
// signature is the credential. A notification's receipts are queued in the worker thread (one small
// write) for the delivery job to apply, and the post is answered { received, matched, ignored }.
import type { ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/lib/api.server";
import { receiveSnsPost, sesTopics } from "~/services/feedback/ses.server";
import { answerFeedPost } from "~/services/feedback/webhook-body.server";

export async function action({ request }: ActionFunctionArgs) {
  return answerFeedPost(request, sesTopics, (body) => receiveSnsPost(body));
}

export const loader = methodNotAllowed("POST");
