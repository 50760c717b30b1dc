// POST /api/webhooks/delivery-receipts: delivery receipts from the e-mail vendor (delivered,
// failed, bounced, opened, clicked), signed with HMAC-SHA256 of the raw body (RECEIPTS_SECRET,
// header X-Signature: sha256=<hex>). No session: the signature is the credential. A signed body
// is parsed, checked and queued in the import/export worker thread (one small write there, so
// this thread neither parses a thousand receipts nor waits for the write lock) and answered 202; the delivery job applies it on its own thread,
// where the same receipt twice changes nothing and nothing moves a delivery backwards.
import type { ActionFunctionArgs } from "@remix-run/node";
import { getEnv } from "~/env.server";
import { ApiError, allowMethods, errorResponse, jsonResponse, methodNotAllowed } from "~/lib/api.server";
import { SIGNATURE_HEADER, verifyReceipts } from "~/services/delivery/receipt-signature.server";
import { wakeDelivery } from "~/services/delivery/wake.server";
import { queueReceiptsOffThread } from "~/services/background-work.server";

const MAX_BODY_BYTES = 2_000_000;

async function readBody(request: Request): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES)
    throw new ApiError("payload_too_large", `Receipts must be at most ${MAX_BODY_BYTES} bytes a request`);
  const reader = request.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new ApiError("payload_too_large", `Receipts must be at most ${MAX_BODY_BYTES} bytes a request`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "POST");
  try {
    const body = await readBody(request);
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
