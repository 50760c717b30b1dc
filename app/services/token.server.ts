// The program's credential: a signed three-part token (JWT, HS256) whose payload carries the
// user's id, sent as `Authorization: Bearer` to /api.
import { SignJWT, jwtVerify } from "jose";
import { getEnv } from "~/env.server";
import { isId } from "~/lib/id";

const key = () => new TextEncoder().encode(getEnv().sessionSecret);

export async function issueToken(userId: string, ttlHours = getEnv().TOKEN_TTL_HOURS) {
  return new SignJWT({ id: userId })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuedAt()
    .setExpirationTime(`${ttlHours}h`)
    .sign(key());
}

// Verified tokens, remembered for up to a minute (never past their expiry, and only under the
// secret that verified them): a program sends the same token with every request, and checking
// the signature again each time cost a fifth of GET /api/customers/{id} at 50 connections.
// Forged, malformed and expired tokens are never remembered.
const VERIFIED_FOR_MS = 60_000;
const MAX_VERIFIED = 10_000;
const verified = new Map<string, { userId: string; until: number; secret: string }>();

/** The user id of a valid token, or null for a missing, malformed, forged or expired one. */
export async function verifyToken(token: string): Promise<string | null> {
  const secret = getEnv().sessionSecret;
  const now = Date.now();
  const known = verified.get(token);
  if (known && known.until > now && known.secret === secret) return known.userId;
  try {
    const { payload } = await jwtVerify(token, key(), { algorithms: ["HS256"] });
    if (!isId(payload.id)) return null;
    if (verified.size >= MAX_VERIFIED) verified.clear();
    const expires = typeof payload.exp === "number" ? payload.exp * 1000 : now;
    verified.set(token, { userId: payload.id, until: Math.min(expires, now + VERIFIED_FOR_MS), secret });
    return payload.id;
  } catch {
    return null;
  }
}
