// The receipts webhook's body: `{ receipts: [{ id, event, at, details? }] }`, checked once the
// signature has been. Parsed in the import/export worker thread (queueReceiptsOffThread), so the
// thread that answers requests spends only the signature check on a batch of a thousand receipts
// several times a second while a campaign sends. A bad body is a 400 naming the first problem.
import { ApiError } from "~/lib/api.server";
import type { Receipt } from "~/models/deliveries/receipts/rows";
import { ReceiptsBodySchema } from "~/schemas/api-inputs.server";

export function parseReceiptsBody(body: Uint8Array): Receipt[] {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("utf8"));
  } catch {
    throw new ApiError("bad_request", "The body is not JSON");
  }
  const parsed = ReceiptsBodySchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ApiError("bad_request", `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`);
  }
  return parsed.data.receipts;
}
