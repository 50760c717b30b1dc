import { afterEach, describe, expect, it, vi } from "vitest";
import {
  AUTH_URL_PARAMS,
  LOGIN_ERRORS,
  TOKEN_KEY,
  callbackOutcome,
  clearToken,
  isWellFormedToken,
  readToken,
  storeToken,
  tokenUserId,
} from "./auth-token";

const b64url = (value: string) => Buffer.from(value).toString("base64url");
const tokenWith = (payload: unknown) =>
  `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(JSON.stringify(payload))}.signature`;

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
}

afterEach(() => vi.restoreAllMocks());

describe("the token key", () => {
  it("is the product prefix followed by auth_token", () => {
    expect(TOKEN_KEY).toBe("crm_auth_token");
  });
});

describe("tokenUserId", () => {
  it("reads the id from the payload", () => {
    expect(tokenUserId(tokenWith({ id: "507f1f77bcf86cd799439011", iat: 1 }))).toBe("507f1f77bcf86cd799439011");
  });

  it("reads payloads that need base64url characters and padding", () => {
    const id = "ÿÿ>>??~~ id with odd bytes";
    expect(tokenUserId(tokenWith({ id }))).toBe(id);
    expect(tokenUserId(tokenWith({ id: "a" }))).toBe("a");
    expect(tokenUserId(tokenWith({ id: "ab" }))).toBe("ab");
  });

  it("returns null for anything that is not a readable three-part token with a string id", () => {
    expect(tokenUserId("")).toBeNull();
    expect(tokenUserId("only.two")).toBeNull();
    expect(tokenUserId("a.b.c.d")).toBeNull();
    expect(tokenUserId("a.%%%.c")).toBeNull();
    expect(tokenUserId(`a.${b64url("not json")}.c`)).toBeNull();
    expect(tokenUserId(tokenWith({ sub: "x" }))).toBeNull();
    expect(tokenUserId(tokenWith({ id: 42 }))).toBeNull();
    expect(tokenUserId(tokenWith(null))).toBeNull();
  });
});

describe("storing the token", () => {
  it("stores under crm_auth_token, reads it back and clears it", () => {
    const storage = memoryStorage();
    expect(storeToken("a.b.c", storage)).toBe(true);
    expect(storage.map.get("crm_auth_token")).toBe("a.b.c");
    expect(readToken(storage)).toBe("a.b.c");
    clearToken(storage);
    expect(readToken(storage)).toBeNull();
  });

  it("refuses an empty token", () => {
    const storage = memoryStorage();
    expect(storeToken("", storage)).toBe(false);
    expect(storage.map.size).toBe(0);
  });

  it("warns about a token without three parts but still stores it", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const storage = memoryStorage();
    expect(isWellFormedToken("opaque")).toBe(false);
    expect(storeToken("opaque", storage)).toBe(true);
    expect(storage.map.get(TOKEN_KEY)).toBe("opaque");
    expect(warn).toHaveBeenCalledOnce();
    expect(isWellFormedToken("a.b.c")).toBe(true);
  });
});

describe("callbackOutcome (/auth/callback)", () => {
  const outcome = (query: string) => callbackOutcome(new URLSearchParams(query));

  it("succeeds with a token and auth=success", () => {
    expect(outcome("token=a.b.c&auth=success")).toEqual({ ok: true, token: "a.b.c" });
  });

  it("fails without a token, whatever auth says", () => {
    expect(outcome("auth=success")).toEqual({ ok: false, reason: "No authentication token received" });
    expect(outcome("token=&auth=success")).toEqual({ ok: false, reason: "No authentication token received" });
    expect(outcome("")).toEqual({ ok: false, reason: "No authentication token received" });
  });

  it("fails when auth is not exactly success", () => {
    for (const q of ["token=a.b.c", "token=a.b.c&auth=failed", "token=a.b.c&auth=SUCCESS"]) {
      expect(outcome(q)).toEqual({ ok: false, reason: "Authentication was not successful" });
    }
  });

  it("takes the token handed off by the sign-in over one in the address (a link someone sent cannot swap it)", () => {
    const params = new URLSearchParams("token=their.token.here&auth=success");
    expect(callbackOutcome(params, "mine.handed.off")).toEqual({ ok: true, token: "mine.handed.off" });
    expect(callbackOutcome(new URLSearchParams("auth=success"), "mine.handed.off")).toEqual({
      ok: true,
      token: "mine.handed.off",
    });
  });
});

describe("messages", () => {
  it("has the login page's error texts: the three session errors, the refused Google link and closed sign-up", () => {
    expect(Object.keys(LOGIN_ERRORS).sort()).toEqual([
      "access_denied",
      "email_not_verified",
      "session_expired",
      "sign_up_closed",
      "tenant_isolation_error",
    ]);
    expect(LOGIN_ERRORS.sign_up_closed).toMatch(
      /^This server does not take new accounts: ask its owner to add your e-mail/,
    );
    expect(LOGIN_ERRORS.email_not_verified).toMatch(
      /^An account with this e-mail already exists, but its address was never verified/,
    );
    expect(LOGIN_ERRORS.session_expired).toBe("Session expired. Please sign in again.");
    expect(LOGIN_ERRORS.access_denied).toMatch(/^Access denied - possible tenant isolation issue/);
    expect(LOGIN_ERRORS.tenant_isolation_error).toMatch(/^Authentication error: User context mismatch/);
  });

  it("strips the four auth parameters from the dashboard address", () => {
    expect([...AUTH_URL_PARAMS]).toEqual(["token", "auth", "t", "user"]);
  });
});
