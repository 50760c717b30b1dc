// What the vendor feeds (Amazon SES over SNS, SendGrid's Event Webhook) share: the raw body read
// with its limit (a signature covers the bytes as sent, so the body is kept as bytes), its JSON
// checked with a schema (400 naming the first problem, never a 500), the Message-ID test that
// tells our messages from anyone else's, and the answer { received, matched, ignored }.
import type { z } from "zod";
import {
  ApiError,
  allowMethods,
  errorResponse,
  isBodyTooLarge,
  jsonResponse,
  MAX_JSON_BYTES,
  JSON_TOO_DEEP,
  MAX_JSON_DEPTH,
  nestsDeeperThan,
} from "~/lib/api.server";
import { parseDeliveryId } from "~/lib/campaigns";
import type { Receipt } from "~/models/deliveries/receipts/rows";
import { queueReceiptsOffThread } from "~/services/background-work.server";
import { wakeDelivery } from "~/services/sending/wake.server";

/** What a feed answers: events in the post, those that named one of our messages, the rest. */
export type FeedAnswer = { received: number; matched: number; ignored: number };

/**
 * The body's bytes, at most `maxBytes` (the server also cuts /api bodies at 1 MB as they arrive,
 * BODY_LIMITS.json in server/app.ts): 413 beyond, the rest left unread. The one body read of the
 * webhooks (the vendor feeds, and POST /api/webhooks/delivery-receipts).
 */
export async function readFeedBody(request: Request, maxBytes = MAX_JSON_BYTES): Promise<Uint8Array> {
  const tooLarge = () => new ApiError("payload_too_large", `The body must be at most ${maxBytes} bytes`);
  if (Number(request.headers.get("content-length") ?? "0") > maxBytes) throw tooLarge();
  const reader = request.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
  } catch (error) {
    if (isBodyTooLarge(error)) throw tooLarge();
    throw error;
  }
  return Buffer.concat(chunks);
}

/** What a feed makes of a post: the answer, and the receipts to queue. */
export type FeedResult = { answer: FeedAnswer; receipts: Receipt[] };

/**
 * A vendor feed's POST (app/routes/api/webhooks-ses.ts, webhooks-sendgrid.ts): `feedOn` throws the
 * 404 of a feed that is off before the body is read; `receive` checks the body (400, 401, 403…)
 * and makes its receipts, queued in the worker thread (one small write) for the delivery job to
 * apply. Answers `{ received, matched, ignored }`, or the ApiError's status and message.
 */
export async function answerFeedPost(
  request: Request,
  feedOn: () => unknown,
  receive: (body: Uint8Array) => FeedResult | Promise<FeedResult>,
): Promise<Response> {
  allowMethods(request, "POST");
  try {
    feedOn();
    const { answer, receipts } = await receive(await readFeedBody(request));
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

/** The body as JSON checked by `schema`: 400 for text that is not JSON, nests too deep or does not fit. */
export function parseFeedJson<T extends z.ZodType>(body: Uint8Array, schema: T): z.infer<T> {
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("utf8");
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw new ApiError("bad_request", JSON_TOO_DEEP);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ApiError("bad_request", "The body is not valid JSON");
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join(".");
    throw new ApiError("bad_request", `${where ? `${where}: ` : ""}${issue?.message ?? "invalid"}`);
  }
  return parsed.data;
}

/**
 * The delivery key a Message-ID names when it is one of ours (`<deliveryKey@sender-domain>`, made by
 * the SMTP channel), else null: another system's message, or text that is not a Message-ID.
 */
export function ourDeliveryKey(messageId: string | null | undefined): string | null {
  const m = /^\s*<?([^<>@\s]+)@[^<>@\s]+?>?\s*$/.exec(messageId ?? "");
  if (!m) return null;
  return parseDeliveryId(m[1]) ? m[1] : null;
}

/** A reason as a row keeps it: one line, at most 500 characters. */
export function feedDetails(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 500 ? `${line.slice(0, 497)}...` : line;
}
