// The browser's credential: an httpOnly, SameSite=Lax cookie session (Secure in production).
// Also carries one-time flash messages (toasts and snackbars) from an action to the next page.
import { createCookieSessionStorage, redirect } from "@remix-run/node";
import { getEnv } from "~/env.server";

import type { FlashMessage } from "~/lib/flash";

export type { FlashMessage };

type SessionData = { userId: string };
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

export async function sessionUserId(request: Request): Promise<string | null> {
  const session = await getSession(request);
  const id = session.get("userId");
  return typeof id === "string" ? id : null;
}

/** Opens a session for the user and redirects, carrying the Set-Cookie header. */
export async function signInAndRedirect(request: Request, userId: string, to: string) {
  const session = await getSession(request);
  session.set("userId", userId);
  return redirect(to, { headers: { "Set-Cookie": await sessionStorage().commitSession(session) } });
}

export async function destroySessionHeader(request: Request) {
  const session = await getSession(request);
  return sessionStorage().destroySession(session);
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
