// Who is asking. Pages use the cookie session; /api accepts the cookie or a bearer token. Both
// resolve to one user id, and every service call is scoped to it.
import { redirect } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { GoogleStrategy } from "remix-auth-google";
import { getEnv } from "~/env.server";
import { crossOriginMessage, isOwnOrigin, originOf } from "~/lib/own-origin";
import { isDatabaseUnavailable } from "~/models/unavailable/store.server";
import { ApiError, DATABASE_UNAVAILABLE, errorResponse, isBodyTooLarge, jsonResponse } from "~/lib/api.server";
import { logger, noteRequestUser } from "~/lib/logger.server";
import { destroySessionHeader, readSession, sessionStorage } from "~/services/session.server";
import { verifyTokenClaims } from "~/services/token.server";
import { getUser, upsertGoogleUser, userStillExists, type User } from "~/services/users.server";

let authenticator: Authenticator<User> | undefined;

/** remix-auth with the Google strategy, pointed at a local fake when GOOGLE_OAUTH_BASE_URL is set. */
export function googleAuthenticator(): Authenticator<User> {
  if (authenticator) return authenticator;
  const env = getEnv();
  if (!env.googleEnabled) throw new ApiError("not_found", "Google sign-in is not configured");
  const auth = new Authenticator<User>(sessionStorage(), { throwOnError: true });
  const strategy = new GoogleStrategy(
    {
      clientID: env.GOOGLE_CLIENT_ID!,
      clientSecret: env.GOOGLE_CLIENT_SECRET!,
      callbackURL: `${env.publicUrl}/api/auth/google/callback`,
      prompt: "select_account",
    },
    async ({ profile }) => {
      const email = profile.emails?.[0]?.value;
      if (!email) throw new Error("Google did not share an e-mail address");
      return upsertGoogleUser({
        googleId: profile.id,
        email,
        emailVerified: profile._json.email_verified === true,
        displayName: profile.displayName,
        firstName: profile.name?.givenName,
        lastName: profile.name?.familyName,
        profileImage: profile.photos?.[0]?.value ?? null,
      });
    },
  );
  if (env.GOOGLE_OAUTH_BASE_URL) {
    const base = env.GOOGLE_OAUTH_BASE_URL.replace(/\/$/, "");
    const s = strategy as unknown as { authorizationURL: string; tokenURL: string; userInfoURL: string };
    s.authorizationURL = `${base}/o/oauth2/v2/auth`;
    s.tokenURL = `${base}/token`;
    s.userInfoURL = `${base}/oauth2/v3/userinfo`;
  }
  auth.use(strategy);
  authenticator = auth;
  return auth;
}

/** Where a page request whose session has ended goes: /login with the spec's "Session expired" message. */
export const SESSION_EXPIRED_LOGIN = "/login?error=session_expired";

/**
 * The signed-in user of a page request, or a redirect to /login. Form posts carried by the cookie
 * must come from our own pages (CSRF): a foreign Origin is a 403.
 */
export async function requireUser(request: Request): Promise<User> {
  checkPageOrigin(request);
  const state = await readSession(request);
  if (state.kind === "none") throw redirect("/login");
  // An expired session, or one ended elsewhere (a logout on another device), is dropped from the
  // browser too, and /login says why (docs/rules.md#sign-in-and-sessions).
  if (state.kind === "ended")
    throw redirect(SESSION_EXPIRED_LOGIN, { headers: { "Set-Cookie": await destroySessionHeader(request) } });
  // A page write by a user another program just deleted (still in this worker's cache) would fail
  // on a foreign key: form posts are few, so they read the row itself.
  if (!SAFE_METHODS.has(request.method) && !(await userStillExists(state.user.id)))
    throw redirect(SESSION_EXPIRED_LOGIN, { headers: { "Set-Cookie": await destroySessionHeader(request) } });
  noteRequestUser(state.user.id);
  return state.user;
}

export async function optionalUser(request: Request): Promise<User | null> {
  const state = await readSession(request);
  if (state.kind !== "user") return null;
  noteRequestUser(state.user.id);
  return state.user;
}

function bearerToken(request: Request): string | null {
  const header = request.headers.get("Authorization");
  if (!header) return null;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match ? match[1].trim() : "";
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** checkOrigin for a page's form: a refused write is a 403 page that says which address to open. */
export function checkPageOrigin(request: Request) {
  try {
    checkOrigin(request);
  } catch {
    const sentFrom = request.headers.get("Origin") ?? originOf(request.headers.get("Referer") ?? "");
    throw new Response(crossOriginMessage(sentFrom, getEnv().publicUrl), {
      status: 403,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
}

/**
 * Mutations carried by the cookie must come from our own pages (CSRF): the Origin must be one of
 * Env.ownOrigins (PUBLIC_URL's, or on a local run without it the loopback spellings of the port),
 * or, when a browser sent no Origin, the Referer must be a page of one. With
 * neither header the write goes through: that is a program (curl with a cookie), not a page of
 * another site, since browsers send at least one of them on a cross-site form or fetch.
 */
export function checkOrigin(request: Request) {
  if (SAFE_METHODS.has(request.method)) return;
  // Only the configured addresses: the request's own Host and X-Forwarded-Host are the sender's to choose.
  const { ownOrigins } = getEnv();
  const origin = request.headers.get("Origin");
  if (origin) {
    if (!isOwnOrigin(origin, ownOrigins)) throw new ApiError("forbidden", "Cross-origin request refused");
    return;
  }
  const referer = request.headers.get("Referer");
  if (referer && !isOwnOrigin(originOf(referer), ownOrigins))
    throw new ApiError("forbidden", "Cross-origin request refused");
}

/**
 * Resolves the /api caller: a bearer token if one is sent (it must be valid and carry the user's
 * current session version), else the cookie session.
 */
export async function authenticateApi(request: Request): Promise<User> {
  const token = bearerToken(request);
  let user: User;
  if (token !== null) {
    const claims = token ? await verifyTokenClaims(token) : null;
    const found = claims ? await getUser(claims.userId) : null;
    if (!claims || !found || found.sessionVersion !== claims.version)
      throw new ApiError("unauthorized", "Session expired");
    user = found;
  } else {
    const state = await readSession(request);
    if (state.kind === "none") throw new ApiError("unauthorized", "Not signed in");
    if (state.kind === "ended") throw new ApiError("unauthorized", "Session expired");
    checkOrigin(request);
    user = state.user;
  }
  noteRequestUser(user.id);
  return user;
}

/**
 * Runs an /api handler for the signed-in caller. Every answer carries X-User-Id; an ApiError
 * becomes its JSON error; anything unexpected is logged and answered as a 500 without details.
 */
export async function withApi(
  request: Request,
  handler: (user: User) => Promise<Response | unknown>,
): Promise<Response> {
  let user: User | undefined;
  try {
    user = await authenticateApi(request);
    const result = await handler(user);
    const response = result instanceof Response ? result : jsonResponse(result);
    response.headers.set("X-User-Id", user.id);
    return response;
  } catch (error) {
    // A user deleted by another program can stay cached for a moment; their write then fails on
    // a foreign key. That is an ended session, not a fault of ours.
    if (
      user &&
      !(error instanceof ApiError) &&
      !(error instanceof Response) &&
      !isDatabaseUnavailable(error) &&
      !(await userStillExists(user.id))
    ) {
      return apiFailure(new ApiError("unauthorized", "Session expired"));
    }
    return apiFailure(error, user?.id);
  }
}

export function apiFailure(error: unknown, userId?: string): Response {
  const headers = userId ? { "X-User-Id": userId } : undefined;
  if (error instanceof ApiError) return errorResponse(error, headers);
  if (error instanceof Response) return error;
  if (isBodyTooLarge(error))
    return errorResponse(new ApiError("payload_too_large", "The request body is too large"), headers);
  // The database out of reach: a 503 the client may retry, not a fault of ours (/healthz says so too).
  if (isDatabaseUnavailable(error)) {
    logger().warn({ err: error }, "The database is unavailable: an /api request was answered 503");
    return errorResponse(new ApiError("unavailable", DATABASE_UNAVAILABLE), headers);
  }
  logger().error({ err: error }, "Unexpected error in an /api route");
  return errorResponse(new ApiError("internal", "Something went wrong on our side. Please try again."), headers);
}
