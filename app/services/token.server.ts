// The program's credential: a signed three-part token (JWT, HS256) whose payload carries the
// user's id and their session version, sent as `Authorization: Bearer` to /api. Every token has
// an expiry (`exp`); one without is refused. Logout and a password change bump the user's
// version, which ends the tokens issued before (see ~/services/session.server).
import { SignJWT, jwtVerify } from "jose";
import { getEnv } from "~/env.server";
import { isId } from "~/lib/id";
import { currentSessionVersion } from "~/services/users.server";

const key = () => new TextEncoder().encode(getEnv().sessionSecret);

/** A token for the user, valid for ttlHours or until their session version moves on. */
export async function issueToken(userId: string, ttlHours = getEnv().TOKEN_TTL_HOURS) {
  const version = await currentSessionVersion(userId);
  if (version === null) throw new Error(`No user ${userId} to issue a token for`);
  return new SignJWT({ id: userId, sv: version })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuedAt()
    .setExpirationTime(`${ttlHours}h`)
    .sign(key());
}

export type TokenClaims = { userId: string; version: number };

// Verified tokens, remembered for up to a minute (never past their expiry, and only under the
// secret that verified them): a program sends the same token with every request, and checking
// the signature again each time cost a fifth of GET /api/customers/{id} at 50 connections.
// Forged, malformed and expired tokens are never remembered. The version is compared with the
// user's at every request, so remembering a token never outlives a logout.
const VERIFIED_FOR_MS = 60_000;
const MAX_VERIFIED = 10_000;
const verified = new Map<string, { claims: TokenClaims; until: number; secret: string }>();

/** Three base64url parts, nothing else: no padding, no whitespace, no fourth part. */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * Whether the token is a compact JWS exactly as we issue it. Base64url decoders are lenient (they
 * skip a trailing `=` and ignore the spare low bits of the last character), so a token with `=`
 * appended, or with its last character changed in those bits, verifies with the same signature.
 * Each part must be the one spelling of its bytes.
 */
function isExactCompactJws(token: string): boolean {
  if (!COMPACT_JWS.test(token)) return false;
  return token.split(".").every((part) => Buffer.from(part, "base64url").toString("base64url") === part);
}

/** The id and session version of a valid token, or null for a missing, malformed, forged, expired or expiry-less one. */
export async function verifyTokenClaims(token: string): Promise<TokenClaims | null> {
  const secret = getEnv().sessionSecret;
  const now = Date.now();
  const known = verified.get(token);
  if (known && known.until > now && known.secret === secret) return known.claims;
  if (!isExactCompactJws(token)) return null;
  try {
    const { payload } = await jwtVerify(token, key(), { algorithms: ["HS256"], requiredClaims: ["exp"] });
    if (!isId(payload.id) || typeof payload.sv !== "number" || !Number.isInteger(payload.sv)) return null;
    if (typeof payload.exp !== "number") return null;
    const claims = { userId: payload.id, version: payload.sv };
    if (verified.size >= MAX_VERIFIED) verified.clear();
    verified.set(token, { claims, until: Math.min(payload.exp * 1000, now + VERIFIED_FOR_MS), secret });
    return claims;
  } catch {
    return null;
  }
}

/** The user id of a valid token (see verifyTokenClaims), or null. */
export async function verifyToken(token: string): Promise<string | null> {
  return (await verifyTokenClaims(token))?.userId ?? null;
}
