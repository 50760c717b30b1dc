// POST /api/webhooks/delivery-receipts: delivery receipts from the e-mail vendor (delivered,
// failed, bounced, opened, clicked), signed with HMAC-SHA256 of the raw body (RECEIPTS_SECRET,
// header X-Signature: sha256=<hex>). No session: the signature is the credential. A signed body
// is parsed, checked and queued in the import/export worker thread (one small write there, so
// this thread neither parses a thousand receipts nor waits for the write lock) and answered 202; the delivery job applies it on its own thread,
// where the same receipt twice changes nothing and nothing moves a delivery backwards.
import type { ActionFunctionArgs } from "@remix-run/node";
import { getEnv } from "~/env.server";
import { ApiError, allowMethods, errorResponse, jsonResponse, methodNotAllowed } from "~/lib/api.server";
import { SIGNATURE_HEADER, verifyReceipts } from "~/services/sending/receipt-signature.server";
import { wakeDelivery } from "~/services/sending/wake.server";
import { queueReceiptsOffThread } from "~/services/background-work.server";
import { readFeedBody } from "~/services/feedback/webhook-body.server";

/** The most one post may carry (a thousand receipts are far less). */
const MAX_BODY_BYTES = 2_000_000;

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "POST");
  try {
    const body = await readFeedBody(request, MAX_BODY_BYTES);
    if (!verifyReceipts(body, getEnv().receiptsSecret, request.headers.get(SIGNATURE_HEADER))) {
      throw new ApiError("unauthorized", "The receipts are not signed with this server's RECEIPTS_SECRET");
    }
    // Parsed, checked and queued in the worker thread (parseReceiptsBody): a 400 comes back from there.
    const accepted = await queueReceiptsOffThread(body);
    if (accepted > 0) wakeDelivery();
    return jsonResponse({ accepted }, { status: 202 });
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error);
    throw error;
  }
}

export const loader = methodNotAllowed("POST");
