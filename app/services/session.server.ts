// The browser's credential: an httpOnly, SameSite=Lax cookie session (Secure in production).
// Also carries one-time flash messages (toasts and snackbars) from an action to the next page.
// A session names the user, when it was opened and the user's session version then: the server
// refuses it once TOKEN_TTL_HOURS have passed (whatever the cookie's own expiry says) or once the
// user's version moved on (logout, a password change).
import { createCookie, createCookieSessionStorage, redirect, type Session } from "@remix-run/node";
import { getEnv } from "~/env.server";
import { issueToken } from "~/services/token.server";
import { currentSessionVersion, getUser, type User } from "~/services/users.server";

import type { FlashMessage } from "~/lib/flash";

export type { FlashMessage };

type SessionData = { userId: string; issuedAt: number; version: number };
type SessionFlash = { flash: FlashMessage };

let storage: ReturnType<typeof createCookieSessionStorage<SessionData, SessionFlash>> | undefined;

export function sessionStorage() {
  if (!storage) {
    const env = getEnv();
    storage = createCookieSessionStorage<SessionData, SessionFlash>({
      cookie: {
        name: "__crm_session",
        httpOnly: true,
        sameSite: "lax",
        path: "/",
        secure: env.NODE_ENV === "production" && env.publicUrl.startsWith("https:"),
        secrets: [env.sessionSecret],
        maxAge: env.TOKEN_TTL_HOURS * 3600,
      },
    });
  }
  return storage;
}

export function getSession(request: Request) {
  return sessionStorage().getSession(request.headers.get("Cookie"));
}

/** What a request's cookie says: no session, one that no longer holds, or the signed-in user. */
export type SessionState = { kind: "none" } | { kind: "ended" } | { kind: "user"; user: User };

export async function readSession(request: Request): Promise<SessionState> {
  const session = await getSession(request);
  const userId = session.get("userId");
  if (typeof userId !== "string") return { kind: "none" };
  const issuedAt = session.get("issuedAt");
  const version = session.get("version");
  // Sessions opened before they carried these (or tampered with under a leaked secret) end here.
  if (typeof issuedAt !== "number" || typeof version !== "number") return { kind: "ended" };
  const now = Date.now();
  if (issuedAt > now + 60_000 || now - issuedAt >= getEnv().TOKEN_TTL_HOURS * 3_600_000) return { kind: "ended" };
  const user = await getUser(userId);
  if (!user || user.sessionVersion !== version) return { kind: "ended" };
  return { kind: "user", user };
}

/** The signed-in user's id, or null for no session or one that expired or was ended. */
export async function sessionUserId(request: Request): Promise<string | null> {
  const state = await readSession(request);
  return state.kind === "user" ? state.user.id : null;
}

/** Puts the user in the session with the issue time and their current session version. */
export async function openSession(session: Session<SessionData, SessionFlash>, userId: string) {
  const version = await currentSessionVersion(userId);
  if (version === null) throw new Error(`No user ${userId} to open a session for`);
  session.set("userId", userId);
  session.set("issuedAt", Date.now());
  session.set("version", version);
}

/** Opens a session for the user and redirects, carrying the Set-Cookie header. */
export async function signInAndRedirect(request: Request, userId: string, to: string) {
  const session = await getSession(request);
  await openSession(session, userId);
  return redirect(to, { headers: { "Set-Cookie": await sessionStorage().commitSession(session) } });
}

/**
 * A browser's sign-in: the session cookie is set, and the page's bearer token travels to
 * /auth/callback in a short-lived httpOnly cookie scoped to that path, never in the address (where
 * it would stay in the history, the server logs and the next page's Referer). /auth/callback's
 * loader takes it out of the cookie once (takeHandedOffToken). Programs that read the token from
 * the Location instead use signInAndRedirect with the token in the query, as the specification has it.
 */
export async function signInAndHandOff(request: Request, userId: string) {
  const session = await getSession(request);
  await openSession(session, userId);
  const headers = new Headers();
  headers.append("Set-Cookie", await sessionStorage().commitSession(session));
  headers.append("Set-Cookie", await handoffCookie().serialize(await issueToken(userId)));
  return redirect("/auth/callback?auth=success", { headers });
}

/** The token handed off at sign-in, once: the cookie is cleared by the header returned with it. */
export async function takeHandedOffToken(request: Request): Promise<{ token: string | null; clear: string }> {
  const cookie = handoffCookie();
  const value: unknown = await cookie.parse(request.headers.get("Cookie"));
  return {
    token: typeof value === "string" && value !== "" ? value : null,
    clear: await cookie.serialize("", { maxAge: 0, expires: new Date(0) }),
  };
}

let handoff: ReturnType<typeof createCookie> | undefined;

function handoffCookie() {
  if (!handoff) {
    const env = getEnv();
    handoff = createCookie("__crm_handoff", {
      httpOnly: true,
      sameSite: "lax",
      // "/auth", not "/auth/callback": Remix's client asks /auth/callback.data for the page's
      // data, which a cookie scoped to /auth/callback would not reach.
      path: "/auth",
      secure: env.NODE_ENV === "production" && env.publicUrl.startsWith("https:"),
      secrets: [env.sessionSecret],
      maxAge: 300,
    });
  }
  return handoff;
}

export async function destroySessionHeader(request: Request) {
  const session = await getSession(request);
  return sessionStorage().destroySession(session);
}

/** Takes the user out of the session, keeping the rest (a flash message set after). */
export function closeSession(session: Session<SessionData, SessionFlash>) {
  session.unset("userId");
  session.unset("issuedAt");
  session.unset("version");
}

/** Sets a one-time message shown by the next page the browser renders. */
export async function flashHeader(request: Request, message: FlashMessage) {
  const session = await getSession(request);
  session.flash("flash", message);
  return sessionStorage().commitSession(session);
}

export async function redirectWithFlash(request: Request, to: string, message: FlashMessage) {
  return redirect(to, { headers: { "Set-Cookie": await flashHeader(request, message) } });
}

export async function readFlash(request: Request) {
  const session = await getSession(request);
  const flash = session.get("flash");
  return {
    flash: flash ?? null,
    headers: flash ? { "Set-Cookie": await sessionStorage().commitSession(session) } : undefined,
  };
}
