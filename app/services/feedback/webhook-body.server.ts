// What the vendor feeds (Amazon SES over SNS, SendGrid's Event Webhook) share: the raw body read
// with its limit (a signature covers the bytes as sent, so the body is kept as bytes), its JSON
// checked with a schema (400 naming the first problem, never a 500), the Message-ID test that
// tells our messages from anyone else's, and the answer { received, matched, ignored }.
import type { z } from "zod";
import {
  ApiError,
  isBodyTooLarge,
  MAX_JSON_BYTES,
  JSON_TOO_DEEP,
  MAX_JSON_DEPTH,
  nestsDeeperThan,
} from "~/lib/api.server";
import { parseDeliveryId } from "~/lib/campaigns";

/** What a feed answers: events in the post, those that named one of our messages, the rest. */
export type FeedAnswer = { received: number; matched: number; ignored: number };

/**
 * The body's bytes, at most `maxBytes` (the server also cuts /api bodies at 1 MB as they arrive,
 * BODY_LIMITS.json in server/app.ts): 413 beyond.
 */
export async function readFeedBody(request: Request, maxBytes = MAX_JSON_BYTES): Promise<Uint8Array> {
  const tooLarge = () => new ApiError("payload_too_large", `The body must be at most ${maxBytes} bytes`);
  if (Number(request.headers.get("content-length") ?? "0") > maxBytes) throw tooLarge();
  let body: Uint8Array;
  try {
    body = new Uint8Array(await request.arrayBuffer());
  } catch (error) {
    if (isBodyTooLarge(error)) throw tooLarge();
    throw error;
  }
  if (body.byteLength > maxBytes) throw tooLarge();
  return body;
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
