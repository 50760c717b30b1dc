// The receipts webhook's body: `{ receipts: [{ id, event, at, details? }] }`, checked once the
// signature has been. Parsed in the import/export worker thread (queueReceiptsOffThread), so the
// thread that answers requests spends only the signature check on a batch of a thousand receipts
// several times a second while a campaign sends. A bad body is a 400 naming the first problem.
import { z } from "zod";
import { ApiError } from "~/lib/api.server";
import { RECEIPT_EVENTS, type Receipt } from "~/models/deliveries/receipts.server";

export const MAX_RECEIPTS = 5000;

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
    .max(MAX_RECEIPTS, "at most 5,000 receipts a request"),
});

export function parseReceiptsBody(body: Uint8Array): Receipt[] {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("utf8"));
  } catch {
    throw new ApiError("bad_request", "The body is not JSON");
  }
  const parsed = ReceiptsSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ApiError("bad_request", `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`);
  }
  return parsed.data.receipts;
}
