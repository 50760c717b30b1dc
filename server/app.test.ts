// @engines sqlite postgres
// The server's request listener (server/app.ts) over real HTTP, with the app read through Vite's
// module graph and a real migrated SQLite database, in both its forms: /api through Remix's
// request handler (as `npm run dev` serves it) and through the /api server (as production does).
// Either way the answers carry the shared headers, compression and the caller's address, and
// every request leaves one log line without its query string or credentials.
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import type { ServerBuild } from "@remix-run/node";
import { pino } from "pino";
import type { ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDevServerBuild } from "../tests/helpers/dev-server-build";
import { createTestUser, useTestDatabase as setUpTestDatabase } from "../tests/helpers/db";
import { bearerFor, cookieFor, forgedTokenFor } from "../tests/helpers/requests";
import { appOf, createRequestListener } from "./app";

setUpTestDatabase();
process.env.SIGN_IN_RATE_LIMIT = "2";

const customers = await import("~/services/customers.server");
const createCustomer = (userId: string, fields: { firstName: string; lastName: string; email: string }) =>
  customers.createCustomer(userId, { phone: "", address: "", company: "", notes: "", ...fields });

type Line = Record<string, unknown>;
const lines: Line[] = [];
const bases: Record<string, string> = {};
const servers: http.Server[] = [];
let vite: ViteDevServer;

beforeAll(async () => {
  const loaded = await loadDevServerBuild();
  vite = loaded.vite;
  const build = loaded.build;
  const log = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line) as Line) });
  for (const [name, fastApi] of [
    ["Remix's handler", undefined],
    ["the /api server", build],
  ] as const) {
    const server = http.createServer(
      createRequestListener({ build, app: appOf(build), log, mode: "production", vite, fastApi }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    bases[name] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
}, 120_000);

afterAll(async () => {
  for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
  await vite.close();
});

/** The log lines of `send`'s request (written when its answer closed). */
async function logOf(send: () => Promise<unknown>): Promise<Line[]> {
  lines.length = 0;
  await send();
  await expect.poll(() => lines.some((l) => l.msg === "request")).toBe(true);
  return [...lines];
}

describe.each(["Remix's handler", "the /api server"])("/api through %s", (name) => {
  let base = "";
  beforeAll(() => {
    base = bases[name] ?? "";
  });

  it("answers an authenticated GET with the route's JSON, X-User-Id and the shared headers", async () => {
    const user = await createTestUser("Meera Iyer");
    const customer = await createCustomer(user.id, { firstName: "Ravi", lastName: "Kumar", email: "ravi@example.com" });
    const res = await fetch(`${base}/api/customers/${customer.id}`, {
      headers: { Authorization: `Bearer ${await bearerFor(user.id)}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-user-id")).toBe(user.id);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("x-powered-by")).toBeNull();
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toMatchObject({ id: customer.id, email: "ravi@example.com", orders: [] });
  });

  it("401 JSON for a forged token, 404 for another tenant's customer", async () => {
    const owner = await createTestUser();
    const other = await createTestUser();
    const customer = await createCustomer(owner.id, { firstName: "Anil", lastName: "Das", email: "anil@example.com" });
    const forged = await fetch(`${base}/api/customers/${customer.id}`, {
      headers: { Authorization: `Bearer ${await forgedTokenFor(owner.id)}` },
    });
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    const foreign = await fetch(`${base}/api/customers/${customer.id}`, {
      headers: { Authorization: `Bearer ${await bearerFor(other.id)}` },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.headers.get("x-user-id")).toBe(other.id);
  });

  it("hands the route the POST body: 201 for a good one, 400 with field messages for a bad one", async () => {
    const user = await createTestUser();
    const auth = `Bearer ${await bearerFor(user.id)}`;
    const good = await fetch(`${base}/api/customers`, {
      method: "POST",
      headers: { Authorization: auth, "Content-Type": "application/json" },
      body: JSON.stringify({ firstName: "Lata", lastName: "Shah", email: "lata@example.com" }),
    });
    expect(good.status).toBe(201);
    expect(await good.json()).toMatchObject({ firstName: "Lata", email: "lata@example.com" });
    const bad = await fetch(`${base}/api/customers`, {
      method: "POST",
      headers: { Authorization: auth, "Content-Type": "application/json" },
      body: JSON.stringify({ firstName: "", email: "not-an-email" }),
    });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { error: { fields: Record<string, string> } };
    expect(Object.keys(body.error.fields)).toEqual(expect.arrayContaining(["firstName", "email"]));
  });

  it("refuses a cookie-authenticated mutation from another origin", async () => {
    const user = await createTestUser();
    const res = await fetch(`${base}/api/customers`, {
      method: "POST",
      headers: { Cookie: await cookieFor(user.id), Origin: "https://evil.example", "Content-Type": "application/json" },
      body: JSON.stringify({ firstName: "X", lastName: "Y", email: "x@example.com" }),
    });
    expect(res.status).toBe(403);
  });

  it("passes Set-Cookie through (sign-out clears the session)", async () => {
    const user = await createTestUser();
    const res = await fetch(`${base}/api/auth/logout`, {
      method: "POST",
      headers: { Cookie: await cookieFor(user.id) },
      redirect: "manual",
    });
    expect(res.headers.getSetCookie().join("\n")).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);
  });

  it("compresses a large JSON answer when asked, and not a small one", async () => {
    const user = await createTestUser();
    for (let i = 0; i < 30; i++)
      await createCustomer(user.id, { firstName: `Name${i}`, lastName: "Verma", email: `v${i}@example.com` });
    const auth = `Bearer ${await bearerFor(user.id)}`;
    const raw = await new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
      http
        .get(
          `${base}/api/customers?limit=30`,
          { headers: { Authorization: auth, "Accept-Encoding": "gzip" } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () => resolve({ encoding: res.headers["content-encoding"], body: Buffer.concat(chunks) }));
          },
        )
        .on("error", reject);
    });
    expect(raw.encoding).toBe("gzip");
    const list = JSON.parse(zlib.gunzipSync(raw.body).toString("utf8")) as unknown;
    expect(Array.isArray(list) ? list.length : (list as { customers: unknown[] }).customers.length).toBe(30);

    const one = await createCustomer(user.id, { firstName: "Small", lastName: "Answer", email: "small@example.com" });
    const small = await fetch(`${base}/api/customers/${one.id}`, {
      headers: { Authorization: auth, "Accept-Encoding": "gzip" },
    });
    expect(small.status).toBe(200);
    expect(small.headers.get("content-encoding")).toBeNull();
    expect(await small.json()).toMatchObject({ id: one.id });
  });

  it("answers unknown /api paths with the JSON 404, a method a route does not serve with a JSON 405, and HEAD without a body", async () => {
    const missing = await fetch(`${base}/api/no/such/thing`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toMatch(/^application\/json/);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("not_found");

    const user = await createTestUser();
    const auth = `Bearer ${await bearerFor(user.id)}`;
    const wrong = await fetch(`${base}/api/notifications/read-all`, { headers: { Authorization: auth } });
    expect(wrong.status).toBe(405);
    expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe("method_not_allowed");

    const head = await fetch(`${base}/api/customers`, { method: "HEAD", headers: { Authorization: auth } });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("counts sign-in attempts per client address from the load context, behind a trusted proxy too", async () => {
    // Every attempt counts, whatever the form holds; past the limit (2 here) the answer is 429.
    const attempt = async (forwardedFor: string) =>
      (
        await fetch(`${base}/auth/local`, {
          method: "POST",
          headers: { "X-Forwarded-For": forwardedFor, "Content-Type": "application/x-www-form-urlencoded" },
          body: "",
        })
      ).status;
    // Addresses of this block's own (the limit is counted per process, across both servers).
    const [first, second] =
      name === "Remix's handler" ? ["203.0.113.7", "198.51.100.7"] : ["203.0.113.8", "198.51.100.8"];
    const statuses = [await attempt(first), await attempt(first), await attempt(first)];
    expect(statuses.slice(0, 2)).not.toContain(429);
    expect(statuses[2]).toBe(429);
    // Another address (the loopback peer is a trusted proxy, so its X-Forwarded-For is believed) has its own budget.
    expect(await attempt(second)).not.toBe(429);
  });
});

describe.each(["Remix's handler", "the /api server"])("request log, /api through %s", (name) => {
  let base = "";
  beforeAll(() => {
    base = bases[name] ?? "";
  });

  it("writes one line per request with method, path, status, duration and user id, never the query string or credentials", async () => {
    const user = await createTestUser();
    const token = await bearerFor(user.id);
    const logged = await logOf(async () => {
      const res = await fetch(`${base}/api/customers?q=secret-term&token=${token}`, {
        headers: { Authorization: `Bearer ${token}`, Cookie: "a=b" },
      });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      level: 30,
      msg: "request",
      method: "GET",
      path: "/api/customers",
      status: 200,
      userId: user.id,
    });
    expect(typeof logged[0]?.ms).toBe("number");
    const text = JSON.stringify(logged);
    expect(text).not.toContain(token);
    expect(text).not.toContain("secret-term");
    expect(text).not.toContain("a=b");

    const anonymous = await logOf(() => fetch(`${base}/healthz`).then((r) => r.arrayBuffer()));
    expect(anonymous).toHaveLength(1);
    expect(anonymous[0]).toMatchObject({ method: "GET", path: "/healthz", status: 200 });
    expect(anonymous[0]?.userId).toBeUndefined();
  });
});

/** A raw request (node:http), for bodies and methods fetch will not send; resolves with status and text. */
function raw(
  base: string,
  options: {
    method: string;
    path: string;
    headers?: Record<string, string | number>;
    body?: (req: http.ClientRequest) => void;
  },
): Promise<{ status: number; text: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${options.path}`, { method: options.method, headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          text: Buffer.concat(chunks).toString("utf8"),
          ms: performance.now() - started,
        }),
      );
    });
    // The server may close the connection while the client still writes: the answer has come.
    req.on("error", (error) =>
      (error as { code?: string }).code === "EPIPE" || (error as { code?: string }).code === "ECONNRESET"
        ? undefined
        : reject(error),
    );
    if (options.body) options.body(req);
    else req.end();
  });
}

const STACK = /\n\s+at |\(\/[^)]*:\d+:\d+\)|\/work\/main\//;

describe.each(["Remix's handler", "the /api server"])("hostile requests, /api through %s", (name) => {
  let base = "";
  beforeAll(() => {
    base = bases[name] ?? "";
  });

  it("cuts a 300 MB chunked POST to /login at the form limit with a 413, while /healthz keeps answering", async () => {
    const piece = Buffer.alloc(64 * 1024, "a");
    let sent = 0;
    const upload = raw(base, {
      method: "POST",
      path: "/login",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Transfer-Encoding": "chunked" },
      body: (req) => {
        const write = () => {
          while (sent < 300 * 1024 * 1024) {
            sent += piece.length;
            if (!req.write(piece)) return void req.once("drain", write);
          }
          req.end();
        };
        req.on("response", () => req.destroy());
        write();
      },
    });
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    const answer = await upload;
    expect(answer.status).toBe(413);
    expect(answer.ms).toBeLessThan(5000);
    // Cut near the limit (64 KB), not read whole.
    expect(sent).toBeLessThan(50 * 1024 * 1024);
  });

  it("refuses a Content-Length over the limit before reading: 413 JSON on /api, 413 text on pages", async () => {
    const user = await createTestUser();
    const api = await raw(base, {
      method: "POST",
      path: "/api/customers",
      headers: {
        Authorization: `Bearer ${await bearerFor(user.id)}`,
        "Content-Type": "application/json",
        "Content-Length": 5_000_000,
      },
      body: (req) => req.write("{"),
    });
    expect(api.status).toBe(413);
    expect(JSON.parse(api.text)).toMatchObject({ error: { code: "payload_too_large" } });
    const page = await raw(base, {
      method: "POST",
      path: "/auth/local",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": 100_000 },
      body: (req) => req.write("a="),
    });
    expect(page.status).toBe(413);
  });

  it("cuts a chunked JSON body over 1 MB on /api with the JSON 413 and writes nothing", async () => {
    const user = await createTestUser();
    const body = JSON.stringify({
      firstName: "Big",
      lastName: "Body",
      email: "big@example.com",
      notes: "x".repeat(2_000_000),
    });
    const res = await raw(base, {
      method: "POST",
      path: "/api/customers",
      headers: {
        Authorization: `Bearer ${await bearerFor(user.id)}`,
        "Content-Type": "application/json",
        "Transfer-Encoding": "chunked",
      },
      body: (req) => {
        for (let at = 0; at < body.length; at += 100_000) req.write(body.slice(at, at + 100_000));
        req.end();
      },
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toMatchObject({ error: { code: "payload_too_large" } });
    const list = await fetch(`${base}/api/customers`, {
      headers: { Authorization: `Bearer ${await bearerFor(user.id)}` },
    });
    expect(await list.json()).toEqual([]);
  });

  it("answers TRACE with 405 and TRACK (which Node's parser refuses) with a 4xx, never a stack", async () => {
    for (const path of ["/", "/customers", "/api/customers"]) {
      const trace = await raw(base, { method: "TRACE", path });
      expect(trace.status, `TRACE ${path}`).toBe(405);
      expect(trace.text).not.toMatch(STACK);
      const track = await raw(base, { method: "TRACK", path });
      expect([400, 405], `TRACK ${path}`).toContain(track.status);
      expect(track.text).not.toMatch(STACK);
    }
  });

  it("answers a control character in a search term with a 400 and its message, never a 500 or a stack", async () => {
    const user = await createTestUser();
    const cookie = await cookieFor(user.id);
    const auth = `Bearer ${await bearerFor(user.id)}`;
    for (const path of ["/customers?q=abc%00", "/orders?q=abc%01", "/customers/export?q=a%1Bb"]) {
      const res = await fetch(`${base}${path}`, { headers: { Cookie: cookie } });
      const text = await res.text();
      expect(res.status, path).toBe(400);
      expect(text).toContain("Search terms cannot contain control characters");
      expect(text).not.toMatch(STACK);
    }
    for (const path of ["/api/customers?q=abc%00", "/api/orders?q=%7F", "/api/customers/export?q=abc%00"]) {
      const res = await fetch(`${base}${path}`, { headers: { Authorization: auth } });
      expect(res.status, path).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain(
        "Search terms cannot contain control characters",
      );
    }
  });

  it("refuses a cookie-authenticated page action from a foreign Origin with a 403 and its message, and writes nothing", async () => {
    const user = await createTestUser();
    const cookie = await cookieFor(user.id);
    const form = new URLSearchParams({ firstName: "Evil", lastName: "Post", email: "evil@example.com" });
    const host = new URL(base).host;
    // The request's own Host (and a forged X-Forwarded-Host) is no excuse: only PUBLIC_URL counts.
    for (const origin of ["https://evil.example", `http://${host}`]) {
      const res = await fetch(`${base}/customers/new`, {
        method: "POST",
        headers: {
          Cookie: cookie,
          Origin: origin,
          "X-Forwarded-Host": new URL(origin).host,
          "Content-Type": "application/x-www-form-urlencoded",
        },
        body: form,
        redirect: "manual",
      });
      expect(res.status, origin).toBe(403);
      expect(await res.text()).toContain("This form was sent from another site");
    }
    const list = await fetch(`${base}/api/customers`, {
      headers: { Authorization: `Bearer ${await bearerFor(user.id)}` },
    });
    expect(await list.json()).toEqual([]);
  });
});

describe.each(["Remix's handler", "the /api server"])(
  "page requests refused before the app, /api through %s",
  (name) => {
    it("a page write that is not a form is a 415 (a method the page does not take a 405 first), an address that does not decode a 400, a foreign Origin a 403 even without X-Forwarded-Host", async () => {
      const base = bases[name] ?? "";
      const user = await createTestUser();
      const cookie = await cookieFor(user.id);
      for (const type of [undefined, "application/json", "text/plain"]) {
        const res = await raw(base, {
          method: "POST",
          path: "/customers/new",
          headers: { Cookie: cookie, ...(type ? { "Content-Type": type } : {}) },
          body: (req) => req.end(type ? "{}" : undefined),
        });
        expect(res.status, type).toBe(415);
      }
      for (const method of ["PATCH", "PUT", "DELETE", "OPTIONS"]) {
        const res = await raw(base, { method, path: "/customers/new", headers: { Cookie: cookie } });
        expect(res.status, method).toBe(405);
        expect(res.text, method).toBe("Use GET or POST for /customers/new");
      }
      for (const path of ["/customers/%", "/%E0%A4%A"])
        expect((await raw(base, { method: "GET", path })).status, path).toBe(400);
      for (const origin of ["https://evil.example", "null"]) {
        const res = await raw(base, {
          method: "POST",
          path: "/profile",
          headers: { Cookie: cookie, Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
          body: (req) => req.end("firstName=Evil"),
        });
        expect(res.status, origin).toBe(403);
        expect(res.text).toContain("This form was sent from another site");
      }
    });
  },
);

describe("proxy trust", () => {
  it("believes X-Forwarded-For from loopback only by default (TRUST_PROXY), not from private networks", async () => {
    const { getEnv } = await import("~/env.server");
    expect(getEnv().TRUST_PROXY).toBe("loopback");
  });

  it("ignores X-Forwarded-For from a peer TRUST_PROXY does not name: every attempt counts against the peer", async () => {
    const build = (await vite.ssrLoadModule("virtual:remix/server-build")) as ServerBuild;
    const log = pino({ level: "silent" });
    for (const fastApi of [undefined, build]) {
      const server = http.createServer(
        createRequestListener({
          build,
          app: appOf(build),
          log,
          mode: "production",
          vite,
          fastApi,
          trustProxy: "10.0.0.0/8",
        }),
      );
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      try {
        const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const statuses: number[] = [];
        // Three different claimed addresses: all the one untrusted peer's, so the third is over the limit (2).
        for (const forwardedFor of ["192.0.2.1", "192.0.2.2", "192.0.2.3"]) {
          statuses.push(
            (
              await fetch(`${base}/auth/local`, {
                method: "POST",
                headers: { "X-Forwarded-For": forwardedFor, "Content-Type": "application/x-www-form-urlencoded" },
                body: "",
              })
            ).status,
          );
        }
        expect(statuses).toContain(429);
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    }
  });
});

describe("Content-Security-Policy", () => {
  it("gives every page a policy with a fresh nonce that each of its inline scripts carries", async () => {
    const user = await createTestUser();
    const nonces: string[] = [];
    for (const path of ["/login", "/customers"]) {
      const res = await fetch(`${bases["the /api server"]}${path}`, { headers: { Cookie: await cookieFor(user.id) } });
      const policy = res.headers.get("content-security-policy") ?? "";
      const nonce = /script-src 'self' 'nonce-([^']+)'/.exec(policy)?.[1];
      expect(nonce, path).toBeTruthy();
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      nonces.push(nonce ?? "");
      const html = await res.text();
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) if (!/\bsrc=/.test(tag)) expect(tag).toContain(`nonce="${nonce}"`);
    }
    expect(nonces[0]).not.toBe(nonces[1]);
  });
});
