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

/** The user id of a valid token, or null for a missing, malformed, forged or expired one. */
export async function verifyToken(token: string): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, key(), { algorithms: ["HS256"] });
    return isId(payload.id) ? payload.id : null;
  } catch {
    return null;
  }
}
