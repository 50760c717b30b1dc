// Tokens in public URLs (the unsubscribe link; the open pixel and tracked links; view in browser; uploaded images): they carry what the URL
// acts on, reveal none of it and cannot be made or altered without the server's secret.
//
// A token is a synthetic-IV seal (the construction of RFC 5297, with HMAC-SHA256 as the PRF):
//   iv = HMAC-SHA256(macKey, purpose || payload)[0..16]
//   token = base64url(iv || AES-256-CTR(encKey, iv, payload))
// Opening decrypts and recomputes the HMAC over the plaintext; a token whose HMAC differs (altered,
// forged, made for another purpose or under another secret) opens to null. The same payload always
// seals to the same token, so a recipient's link is stable and nothing needs storing. The keys are
// derived from the session secret with HKDF, one pair per purpose.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { getEnv } from "~/env.server";

export type TokenPurpose = "unsubscribe" | "open" | "click" | "set-password" | "view" | "image";

const IV_BYTES = 16;
/** The longest token opened: a few ids and an e-mail address, or a tracked link's address (up to 2,000 characters). */
const MAX_TOKEN_CHARS = 12_000;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]+$/;

type Keys = { enc: Buffer; mac: Buffer; secret: string };
const keysByPurpose = new Map<TokenPurpose, Keys>();

function keys(purpose: TokenPurpose): Keys {
  const secret = getEnv().sessionSecret;
  const known = keysByPurpose.get(purpose);
  if (known && known.secret === secret) return known;
  const derive = (use: string) => Buffer.from(hkdfSync("sha256", secret, "crm-public-token", `${purpose}:${use}`, 32));
  const made = { enc: derive("enc"), mac: derive("mac"), secret };
  keysByPurpose.set(purpose, made);
  return made;
}

function syntheticIv(k: Keys, purpose: TokenPurpose, payload: Buffer): Buffer {
  return createHmac("sha256", k.mac).update(purpose).update("\0").update(payload).digest().subarray(0, IV_BYTES);
}

/** Seals `payload` for use in a public URL. */
export function sealToken(purpose: TokenPurpose, payload: Buffer): string {
  const k = keys(purpose);
  const iv = syntheticIv(k, purpose, payload);
  const cipher = createCipheriv("aes-256-ctr", k.enc, iv);
  return Buffer.concat([iv, cipher.update(payload), cipher.final()]).toString("base64url");
}

/** The payload of a token this server sealed for `purpose`, or null for anything else. */
export function openToken(purpose: TokenPurpose, token: string): Buffer | null {
  if (token.length > MAX_TOKEN_CHARS || !TOKEN_SHAPE.test(token)) return null;
  const raw = Buffer.from(token, "base64url");
  // One spelling per token: base64url decoders ignore spare bits of the last character.
  if (raw.length <= IV_BYTES || raw.toString("base64url") !== token) return null;
  const k = keys(purpose);
  const iv = raw.subarray(0, IV_BYTES);
  const decipher = createDecipheriv("aes-256-ctr", k.enc, iv);
  const payload = Buffer.concat([decipher.update(raw.subarray(IV_BYTES)), decipher.final()]);
  return timingSafeEqual(syntheticIv(k, purpose, payload), iv) ? payload : null;
}
