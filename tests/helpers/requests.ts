// Builds the Requests a route module's loader or action receives, for route tests without a server.
import { SignJWT } from "jose";
import { getEnv } from "~/env.server";
import { openSession, readFlash, sessionStorage } from "~/services/session.server";
import { issueToken } from "~/services/token.server";

export const ORIGIN = "http://localhost:3000";

export type Credentials = { bearer?: string; cookie?: string };

export async function bearerFor(userId: string) {
  return issueToken(userId);
}

/** The session cookie the browser would hold after signing in as this user. */
export async function cookieFor(userId: string) {
  const session = await sessionStorage().getSession();
  await openSession(session, userId);
  const setCookie = await sessionStorage().commitSession(session);
  return setCookie.split(";")[0];
}

/** The flash message (the toast) the next page shows after this answer, read from the session cookie it sets. */
export async function flashOf(res: Response) {
  const cookie = (res.headers.get("Set-Cookie") ?? "").split(";")[0];
  const { flash } = await readFlash(new Request(ORIGIN, { headers: { Cookie: cookie } }));
  return flash;
}

/** A token signed with our secret whose expiry has passed. */
export async function expiredTokenFor(userId: string) {
  const past = Math.floor(Date.now() / 1000) - 3600;
  return new SignJWT({ id: userId })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuedAt(past - 60)
    .setExpirationTime(past)
    .sign(new TextEncoder().encode(getEnv().sessionSecret));
}

/** A well-formed token for this user signed with someone else's secret. */
export async function forgedTokenFor(userId: string) {
  return new SignJWT({ id: userId })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode("an-attacker-secret-that-is-long-enough-too"));
}

export function makeRequest(
  path: string,
  options: {
    method?: string;
    auth?: Credentials;
    json?: unknown;
    body?: BodyInit;
    headers?: Record<string, string>;
  } = {},
) {
  const headers = new Headers(options.headers);
  if (options.auth?.bearer !== undefined) headers.set("Authorization", `Bearer ${options.auth.bearer}`);
  if (options.auth?.cookie) headers.set("Cookie", options.auth.cookie);
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers.set("Content-Type", "application/json");
  }
  return new Request(new URL(path, ORIGIN), { method: options.method ?? "GET", headers, body });
}

/** A form post as a browser sends it from our own page. */
export function formRequest(path: string, fields: Record<string, string>, auth?: Credentials, origin = ORIGIN) {
  return makeRequest(path, {
    method: "POST",
    auth,
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin },
  });
}

/** The arguments object Remix hands to loaders and actions. */
export function args(request: Request, params: Record<string, string> = {}) {
  return { request, params, context: {} };
}

/** An /api answer read back: status, headers and the JSON body (an object, or a list of them). */
export type ApiJson = Record<string, unknown> & {
  error?: { code: string; message: string; fields?: Record<string, string> };
};

/** Calls a route's loader or action with a Request to `url` and reads its JSON answer. */
export async function callRoute(
  handler: (args: {
    request: Request;
    params: Record<string, string>;
    context: Record<string, never>;
  }) => Promise<unknown>,
  url: string,
  init: RequestInit & { params?: Record<string, string> } = {},
) {
  const { params = {}, ...rest } = init;
  const response = (await handler({
    request: new Request(`http://localhost${url}`, rest),
    params,
    context: {},
  })) as Response;
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text ? JSON.parse(text) : null) as ApiJson & ApiJson[],
  };
}
