// The per-recipient tokens of open and click tracking (docs/decisions/0025-open-and-click-tracking.md):
//
// - /o/TOKEN, the open pixel: {userId, campaignId, seq, retries}, sealed for "open".
// - /c/TOKEN, one per tracked link of one recipient's message: the same ids, the link's index
//   among the message's links and its address, sealed for "click". The address travels in the
//   token, so the redirect needs no lookup, works after the campaign is deleted, and goes only to
//   an address this server sealed (an address that was in the message): no open redirect, and a
//   token altered in any character (index or address included) opens to nothing.
//
// The seal is app/services/public-token.server.ts (synthetic IV, AES-CTR, HMAC-SHA256): the token
// reveals neither the ids nor the address, and one purpose's token is refused as another's.
import { getEnv } from "~/env.server";
import { deliveryKey } from "~/lib/campaigns";
import { isId } from "~/lib/id";
import { openToken, sealToken } from "~/services/public-token.server";

/** One message of one campaign: the delivery row (seq) and its retry (a retried row's key changes). */
export type TrackedMessage = { userId: string; campaignId: string; seq: number; retries: number };
export type TrackedOpen = TrackedMessage & { deliveryId: string };
export type TrackedClick = TrackedOpen & { link: number; url: string };

const ID_BYTES = 12;
/** userId, campaignId, seq (48 bits, little-endian as an unsigned 6-byte integer), retries (16 bits). */
const MESSAGE_BYTES = 2 * ID_BYTES + 6 + 2;
/** The longest address a link may have and still be tracked (a longer one is left as it is). */
export const MAX_TRACKED_URL_CHARS = 2_048;

function messageBytes(m: TrackedMessage, extra: number): Buffer {
  const buf = Buffer.allocUnsafe(MESSAGE_BYTES + extra);
  buf.write(m.userId, 0, ID_BYTES, "hex");
  buf.write(m.campaignId, ID_BYTES, ID_BYTES, "hex");
  buf.writeUIntLE(m.seq, 2 * ID_BYTES, 6);
  buf.writeUInt16LE(m.retries, 2 * ID_BYTES + 6);
  return buf;
}

function readMessage(payload: Buffer): TrackedOpen | null {
  const userId = payload.subarray(0, ID_BYTES).toString("hex");
  const campaignId = payload.subarray(ID_BYTES, 2 * ID_BYTES).toString("hex");
  const seq = payload.readUIntLE(2 * ID_BYTES, 6);
  const retries = payload.readUInt16LE(2 * ID_BYTES + 6);
  if (!isId(userId) || !isId(campaignId) || seq < 1) return null;
  return { userId, campaignId, seq, retries, deliveryId: deliveryKey(campaignId, seq, retries) };
}

/** The open pixel's token of one message. */
export function openTrackingToken(m: TrackedMessage): string {
  return sealToken("open", messageBytes(m, 0));
}

/** What an open token names, or null when it is not one this server sealed. */
export function readOpenToken(token: string): TrackedOpen | null {
  const payload = openToken("open", token);
  if (!payload || payload.length !== MESSAGE_BYTES) return null;
  return readMessage(payload);
}

/** The token of link `link` (its index among the message's links), whose address is `url`, in one message. */
export function clickTrackingToken(m: TrackedMessage, link: number, url: string): string {
  const urlBytes = Buffer.from(url, "utf8");
  const buf = messageBytes(m, 2 + urlBytes.length);
  buf.writeUInt16LE(link, MESSAGE_BYTES);
  urlBytes.copy(buf, MESSAGE_BYTES + 2);
  return sealToken("click", buf);
}

/** What a click token names, or null when it is not one this server sealed (or its address is not http(s)). */
export function readClickToken(token: string): TrackedClick | null {
  const payload = openToken("click", token);
  if (!payload || payload.length <= MESSAGE_BYTES + 2) return null;
  const message = readMessage(payload);
  if (!message) return null;
  const link = payload.readUInt16LE(MESSAGE_BYTES);
  const url = payload.subarray(MESSAGE_BYTES + 2).toString("utf8");
  // Only what the renderer tracks was sealed; checked again all the same, so no token ever redirects elsewhere.
  if (!/^https?:\/\/[^\s<>"]+$/i.test(url)) return null;
  return { ...message, link, url };
}

/**
 * One message's tracking addresses: the pixel's, and a function giving each link's (PUBLIC_URL as
 * the base, as the unsubscribe link).
 */
export function trackingUrls(m: TrackedMessage): { openUrl: string; clickUrl: (link: number, url: string) => string } {
  const base = getEnv().publicUrl;
  return {
    openUrl: `${base}/o/${openTrackingToken(m)}`,
    clickUrl: (link, url) => `${base}/c/${clickTrackingToken(m, link, url)}`,
  };
}
