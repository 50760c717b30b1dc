// POST /api/webhooks/delivery-receipts: delivery receipts from the e-mail vendor (delivered,
// failed, bounced, opened, clicked), signed with HMAC-SHA256 of the raw body (RECEIPTS_SECRET,
// header X-Signature: sha256=<hex>). No session: the signature is the credential. A checked batch
// is queued (one small write, made in the import/export worker thread so that this thread never
// waits for the write lock) and answered with 202; the delivery job applies it on its own thread,
// where the same receipt twice changes nothing and nothing moves a delivery backwards.
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { getEnv } from "~/env.server";
import { ApiError, errorResponse, jsonResponse, methodNotAllowed } from "~/lib/api.server";
import { SIGNATURE_HEADER, verifyReceipts } from "~/services/delivery/receipt-signature.server";
import { RECEIPT_EVENTS } from "~/services/delivery/store.server";
import { wakeDelivery } from "~/services/delivery/wake.server";
import { queueReceiptsOffThread } from "~/services/offthread.server";

const MAX_BODY_BYTES = 2_000_000;

const ReceiptsSchema = z.object({
  receipts: z
    .array(
      z.object({
        id: z.string().max(64),
        event: z.enum(RECEIPT_EVENTS, { message: `event must be one of ${RECEIPT_EVENTS.join(", ")}` }),
        at: z.number().int().min(0).max(8_640_000_000_000_000),
        details: z.string().max(1000).optional(),
      }),
    )
    .max(5000, "at most 5,000 receipts a request"),
});

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
  try {
    if (request.method !== "POST") throw new ApiError("method_not_allowed", "Use POST");
    const body = await readBody(request);
    if (!verifyReceipts(body, getEnv().receiptsSecret, request.headers.get(SIGNATURE_HEADER))) {
      throw new ApiError("unauthorized", "The receipts are not signed with this server's RECEIPTS_SECRET");
    }
    let json: unknown;
    try {
      json = JSON.parse(Buffer.from(body).toString("utf8"));
    } catch {
      throw new ApiError("bad_request", "The body is not JSON");
    }
    const parsed = ReceiptsSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ApiError("bad_request", `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`);
    }
    const { receipts } = parsed.data;
    if (receipts.length > 0) {
      await queueReceiptsOffThread(receipts);
      wakeDelivery();
    }
    return jsonResponse({ accepted: receipts.length }, { status: 202 });
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error);
    throw error;
  }
}

export const loader = methodNotAllowed("POST");
