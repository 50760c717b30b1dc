// One session check (docs/rules.md#sign-in-and-sessions), written as a pure function of fetch so it
// is unit-tested.
import { tokenUserId } from "~/lib/auth-token";

export const AUTH_RECHECK_MS = 5 * 60 * 1000;
export const REQUEST_TIMEOUT_MS = 10_000;

/**
 * Where the browser signs out: a form POST (never a GET, which any other page could make), with
 * the reason /login should explain in this field ('' for none). See app/routes/auth-signout.ts.
 */
export const SIGNOUT_PATH = "/auth/signout";
export const SIGNOUT_REASON_FIELD = "error";

export type SignoutReason = "session_expired" | "access_denied" | "tenant_isolation_error" | "";

export type SessionOutcome =
  { kind: "ok" } | { kind: "network" } | { kind: "error" } | { kind: "signout"; reason: SignoutReason };

export async function checkSession(
  fetchImpl: typeof fetch,
  token: string | null,
  pageUserId: string,
  timeoutMs = REQUEST_TIMEOUT_MS,
): Promise<SessionOutcome> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let response: Response;
  try {
    response = await fetchImpl(`/api/auth/current_user?_t=${Date.now()}`, {
      credentials: "include",
      cache: "no-store",
      headers: {
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        "Cache-Control": "no-cache",
        Pragma: "no-cache",
      },
      signal: controller.signal,
    });
  } catch {
    // Time-out or no network: keep the token and say so.
    return { kind: "network" };
  } finally {
    clearTimeout(timer);
  }
  if (response.status === 401) return { kind: "signout", reason: "session_expired" };
  if (response.status === 403) return { kind: "signout", reason: "access_denied" };
  if (!response.ok) return { kind: "error" };
  // The server must answer as the user the token names and the page was rendered for.
  const headerId = response.headers.get("X-User-Id");
  const tokenId = token ? tokenUserId(token) : null;
  if (headerId && (headerId !== pageUserId || (tokenId !== null && headerId !== tokenId))) {
    return { kind: "signout", reason: "tenant_isolation_error" };
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    // Cut off while reading (time-out, or the page navigating away) is not a verdict on the session.
    if (error instanceof Error && error.name === "AbortError") return { kind: "network" };
    return { kind: "error" };
  }
  if (!body || typeof body !== "object" || !("isAuthenticated" in body) || body.isAuthenticated !== true) {
    return { kind: "signout", reason: "" };
  }
  return { kind: "ok" };
}
