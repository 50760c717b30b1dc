// The browser side of the bearer token (docs/rules.md#sign-in-and-sessions): stored in localStorage
// under the product's prefix + auth_token; three dot-separated parts expected (otherwise a warning,
// still used).
export const TOKEN_PREFIX = "crm_";
export const TOKEN_KEY = `${TOKEN_PREFIX}auth_token`;

/** The id in a token's payload, or null if the token cannot be read. Does not verify the signature. */
export function tokenUserId(token: string): string | null {
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  try {
    const base64 = parts[1].replace(/-/g, "+").replace(/_/g, "/");
    const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
    // The payload is UTF-8 JSON: decode the bytes, not atob's Latin-1 string.
    const json = new TextDecoder().decode(Uint8Array.from(atob(padded), (c) => c.charCodeAt(0)));
    const payload: unknown = JSON.parse(json);
    if (payload && typeof payload === "object" && "id" in payload && typeof payload.id === "string") {
      return payload.id;
    }
    return null;
  } catch {
    return null;
  }
}

export function isWellFormedToken(token: string): boolean {
  return token.split(".").length === 3;
}

/** Stores the token; an empty token is refused. */
export function storeToken(token: string, storage: Pick<Storage, "setItem"> = localStorage): boolean {
  if (!token) return false;
  if (!isWellFormedToken(token)) console.warn("Auth token does not have three parts; using it anyway.");
  storage.setItem(TOKEN_KEY, token);
  return true;
}

export function readToken(storage: Pick<Storage, "getItem"> = localStorage): string | null {
  return storage.getItem(TOKEN_KEY);
}

export function clearToken(storage: Pick<Storage, "removeItem"> = localStorage) {
  storage.removeItem(TOKEN_KEY);
}

/** The callback rule: a token must be present and auth must equal success. */
export function callbackOutcome(
  params: URLSearchParams,
  handedOff: string | null = null,
): { ok: true; token: string } | { ok: false; reason: string } {
  // A browser's sign-in hands the token over in a cookie the page's loader reads (the address
  // stays clean); a program's carries it in the address. The handed-off one wins: a link someone
  // sent with a token of theirs in it must not replace the token of the sign-in that just happened.
  const token = handedOff || params.get("token");
  if (!token) return { ok: false, reason: "No authentication token received" };
  if (params.get("auth") !== "success") return { ok: false, reason: "Authentication was not successful" };
  return { ok: true, token };
}

/** The query parameters the dashboard strips after saving a token from the URL. */
export const AUTH_URL_PARAMS = ["token", "auth", "t", "user"] as const;

// The spec's message for each reason ('Session expired', 'Access denied - possible tenant isolation
// issue', 'Authentication error: User context mismatch'), then what to do.
export const LOGIN_ERRORS: Record<string, string> = {
  session_expired: "Session expired. Please sign in again.",
  access_denied: "Access denied - possible tenant isolation issue. Please sign in again.",
  tenant_isolation_error: "Authentication error: User context mismatch. Please sign in again.",
  sign_up_closed:
    "This server does not take new accounts: ask its owner to add your e-mail, then sign in with Google again.",
  email_not_verified:
    "An account with this e-mail already exists, but its address was never verified, so Google sign-in cannot open it. Sign in to that account with its password instead.",
};
