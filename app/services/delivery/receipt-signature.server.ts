// Receipts are signed the way e-mail providers sign webhooks: an HMAC-SHA256 of the raw request
// body with a shared secret, sent as `X-Signature: sha256=<hex>`. The endpoint checks it before
// reading anything, in constant time.
import { createHmac, timingSafeEqual } from "node:crypto";

export const SIGNATURE_HEADER = "x-signature";

export function signReceipts(body: string | Uint8Array, secret: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

export function verifyReceipts(body: Uint8Array, secret: string, header: string | null): boolean {
  if (!header || !header.startsWith("sha256=")) return false;
  const given = Buffer.from(header.slice("sha256=".length), "hex");
  const expected = createHmac("sha256", secret).update(body).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}
