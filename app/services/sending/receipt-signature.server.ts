// Receipts are signed the way e-mail providers sign webhooks: an HMAC-SHA256 of the raw request
// body with a shared secret, sent as `X-Signature: sha256=<hex>`. The endpoint checks it before
// reading anything, in constant time.
import { createHmac, timingSafeEqual } from "node:crypto";

export const SIGNATURE_HEADER = "x-signature";

export function signReceipts(body: string | Uint8Array, secret: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/**
 * `sha256=` and exactly 64 hex digits, nothing before, after or between: Buffer's hex decoder stops
 * quietly at the first character that is not a digit, so `sha256=<the signature>` followed by
 * anything at all would otherwise pass.
 */
const SIGNATURE = /^sha256=[0-9a-fA-F]{64}$/;

/**
 * Whether the header is the body's signature. Anything else — missing, another scheme, a wrong
 * length, a control character or any other stray character — is simply not the signature.
 */
export function verifyReceipts(body: Uint8Array, secret: string, header: string | null): boolean {
  if (!header || !SIGNATURE.test(header)) return false;
  const given = Buffer.from(header.slice("sha256=".length), "hex");
  const expected = createHmac("sha256", secret).update(body).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}
