import { describe, expect, it, vi } from "vitest";
import { AUTH_RECHECK_MS, REQUEST_TIMEOUT_MS, checkSession } from "./session-check";

const PAGE_USER = "507f1f77bcf86cd799439011";
const OTHER_USER = "507f1f77bcf86cd799439099";
const b64url = (value: string) => Buffer.from(value).toString("base64url");
const tokenFor = (id: string) => `${b64url('{"alg":"HS256"}')}.${b64url(JSON.stringify({ id }))}.sig`;

function answering(status: number, body: unknown, headers: Record<string, string> = {}) {
  const fetchImpl = vi.fn(
    async (_url: string | URL | Request, _init?: RequestInit) =>
      new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers }),
  );
  return fetchImpl;
}

const authenticated = { isAuthenticated: true, user: { _id: PAGE_USER } };

describe("checkSession", () => {
  it("re-checks every 5 minutes with a 10-second time-out", () => {
    expect(AUTH_RECHECK_MS).toBe(300_000);
    expect(REQUEST_TIMEOUT_MS).toBe(10_000);
  });

  it("is ok when the server answers as the page's user, and sends the token as a bearer with no-cache", async () => {
    const fetchImpl = answering(200, authenticated, { "X-User-Id": PAGE_USER });
    const token = tokenFor(PAGE_USER);
    expect(await checkSession(fetchImpl as unknown as typeof fetch, token, PAGE_USER)).toEqual({ kind: "ok" });
    const [url, init] = fetchImpl.mock.calls[0];
    expect(String(url)).toMatch(/^\/api\/auth\/current_user\?_t=\d+$/);
    expect(init?.credentials).toBe("include");
    expect(init?.cache).toBe("no-store");
    expect((init?.headers as Record<string, string>).Authorization).toBe(`Bearer ${token}`);
    expect((init?.headers as Record<string, string>)["Cache-Control"]).toBe("no-cache");
  });

  it("sends no Authorization header without a token", async () => {
    const fetchImpl = answering(200, authenticated, { "X-User-Id": PAGE_USER });
    expect(await checkSession(fetchImpl as unknown as typeof fetch, null, PAGE_USER)).toEqual({ kind: "ok" });
    expect((fetchImpl.mock.calls[0][1]?.headers as Record<string, string>).Authorization).toBeUndefined();
  });

  it("401 signs out with session_expired, 403 with access_denied", async () => {
    expect(await checkSession(answering(401, { error: {} }) as unknown as typeof fetch, "t", PAGE_USER)).toEqual({
      kind: "signout",
      reason: "session_expired",
    });
    expect(await checkSession(answering(403, { error: {} }) as unknown as typeof fetch, "t", PAGE_USER)).toEqual({
      kind: "signout",
      reason: "access_denied",
    });
  });

  it("signs out with tenant_isolation_error when the server answers as someone else than the token", async () => {
    const fetchImpl = answering(200, authenticated, { "X-User-Id": OTHER_USER });
    expect(await checkSession(fetchImpl as unknown as typeof fetch, tokenFor(PAGE_USER), PAGE_USER)).toEqual({
      kind: "signout",
      reason: "tenant_isolation_error",
    });
  });

  it("signs out with tenant_isolation_error when the token and the answer name another user than the page's", async () => {
    const fetchImpl = answering(200, authenticated, { "X-User-Id": OTHER_USER });
    expect(await checkSession(fetchImpl as unknown as typeof fetch, tokenFor(OTHER_USER), PAGE_USER)).toEqual({
      kind: "signout",
      reason: "tenant_isolation_error",
    });
  });

  it("compares with the page's user when the token cannot be read", async () => {
    const ok = answering(200, authenticated, { "X-User-Id": PAGE_USER });
    expect(await checkSession(ok as unknown as typeof fetch, "opaque", PAGE_USER)).toEqual({ kind: "ok" });
    const mismatch = answering(200, authenticated, { "X-User-Id": OTHER_USER });
    expect((await checkSession(mismatch as unknown as typeof fetch, "opaque", PAGE_USER)).kind).toBe("signout");
  });

  it("signs out when the server says the user is not authenticated", async () => {
    const fetchImpl = answering(200, { isAuthenticated: false, user: null });
    expect(await checkSession(fetchImpl as unknown as typeof fetch, null, PAGE_USER)).toEqual({
      kind: "signout",
      reason: "",
    });
  });

  it("reports other failures as an error (clears the token), not a network issue", async () => {
    expect(await checkSession(answering(500, "oops") as unknown as typeof fetch, "t", PAGE_USER)).toEqual({
      kind: "error",
    });
    const notJson = answering(200, "<html>", { "X-User-Id": PAGE_USER });
    expect(await checkSession(notJson as unknown as typeof fetch, null, PAGE_USER)).toEqual({ kind: "error" });
  });

  it("keeps the token on a network failure", async () => {
    const failing = vi.fn(async () => {
      throw new TypeError("Failed to fetch");
    });
    expect(await checkSession(failing as unknown as typeof fetch, "t", PAGE_USER)).toEqual({ kind: "network" });
  });

  it("gives up after the time-out and reports a network issue", async () => {
    const hanging = vi.fn(
      (_url: string, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
        }),
    );
    const started = Date.now();
    expect(await checkSession(hanging as unknown as typeof fetch, "t", PAGE_USER, 50)).toEqual({ kind: "network" });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe("checkSession, cut off while reading the answer", () => {
  it("is a network issue (token kept), not an error", async () => {
    const fetchImpl = vi.fn(async () => {
      const response = new Response("{}", { status: 200, headers: { "X-User-Id": PAGE_USER } });
      Object.defineProperty(response, "json", {
        value: () => Promise.reject(new DOMException("aborted", "AbortError")),
      });
      return response;
    });
    expect(await checkSession(fetchImpl as unknown as typeof fetch, null, PAGE_USER)).toEqual({ kind: "network" });
  });
});
