// @engines sqlite postgres
// The /api server that bypasses Express and Remix's router: it must pick the same route Remix
// would for every path, and answer over real HTTP exactly as the route modules answer, with the
// headers Express would have added. Real route modules, a real migrated SQLite database.
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import zlib from "node:zlib";
import { type AgnosticRouteObject, matchRoutes } from "@remix-run/router";
import type { RouteConfigEntry } from "@remix-run/route-config";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JSON_TEXT } from "~/lib/api.server";
import { createTestUser, useTestDatabase as setUpTestDatabase } from "../tests/helpers/db";
import { bearerFor, cookieFor, forgedTokenFor } from "../tests/helpers/requests";
import {
  type ApiRoute,
  type ApiRouteModule,
  ServerRequest,
  chooseEncoding,
  compileApiRoutes,
  createApiServer,
  matchApiRoute,
} from "./api-server";

setUpTestDatabase();

const appDir = path.resolve(import.meta.dirname, "../app");
const routeConfig = (await import("../app/routes")).default as RouteConfigEntry[];
const apiEntries = routeConfig.filter((r) => r.path?.startsWith("api/"));
const customers = await import("~/services/customers.server");
const createCustomer = (userId: string, fields: { firstName: string; lastName: string; email: string }) =>
  customers.createCustomer(userId, { phone: "", address: "", company: "", notes: "", ...fields });

function flatten(entries: RouteConfigEntry[]): AgnosticRouteObject[] {
  return entries.map(
    (e, i) =>
      ({
        id: e.id ?? `${e.file}#${i}`,
        path: e.path,
        index: e.index,
        children: e.children ? flatten(e.children) : undefined,
      }) as AgnosticRouteObject,
  );
}

describe("matchApiRoute", () => {
  const compiled = compileApiRoutes(
    apiEntries.map((e, i) => ({ id: e.id ?? `${e.file}#${i}`, path: e.path ?? "", module: {} })),
  );
  const remixRoutes = flatten(apiEntries);

  it.each([
    "/api/customers",
    "/api/customers/",
    "/api/customers/import",
    "/api/customers/export",
    "/api/customers/65a1b2c3d4e5f60718293a4b",
    "/api/Customers/Import",
    "/api/segments/preview",
    "/api/segments/describe",
    "/api/segments/abc/audience-count",
    "/api/segments/abc/audience",
    "/api/segments/abc/unknown",
    "/api/notifications/read-all",
    "/api/notifications/stream",
    "/api/notifications/n1/read",
    "/api/auth/google/callback",
    "/api/users/u%201",
    "/api/nothing/here/at/all",
    "/api",
  ])("picks the route Remix picks for %s", (pathname) => {
    const ours = matchApiRoute(compiled, pathname);
    const theirs = matchRoutes(remixRoutes, pathname)?.at(-1);
    expect(ours?.route.id).toBe(theirs?.route.id);
    if (theirs) expect(ours?.params).toEqual(theirs.params);
  });

  it("ranks a static segment above a parameter whatever the order of the table", () => {
    const routes = compileApiRoutes([
      { id: "by-id", path: "api/customers/:id", module: {} },
      { id: "import", path: "api/customers/import", module: {} },
      { id: "rest", path: "api/*", module: {} },
    ]);
    expect(matchApiRoute(routes, "/api/customers/import")?.route.id).toBe("import");
    expect(matchApiRoute(routes, "/api/customers/42")).toMatchObject({ route: { id: "by-id" }, params: { id: "42" } });
    expect(matchApiRoute(routes, "/api/customers/42/orders")).toMatchObject({
      route: { id: "rest" },
      params: { "*": "customers/42/orders" },
    });
    expect(matchApiRoute(routes, "/api/customers//")?.route.id).toBe("rest");
  });
});

describe("chooseEncoding", () => {
  it.each([
    [undefined, null],
    ["", null],
    ["identity", null],
    ["gzip, deflate", "gzip"],
    ["gzip, deflate, br", "br"],
    ["br;q=0, gzip", "gzip"],
    ["*", "br"],
    ["*, br;q=0", "gzip"],
    ["gzip;q=0, br;q=0", null],
  ] as const)("Accept-Encoding %j → %j", (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });
});

describe("ServerRequest", () => {
  it("is a Request whose signal aborts when the client goes, whether asked for before or after", async () => {
    const early = new ServerRequest("http://localhost/api/notifications/stream", {
      headers: { Authorization: "Bearer t" },
    });
    expect(early).toBeInstanceOf(Request);
    expect(early.headers.get("authorization")).toBe("Bearer t");
    const signal = early.signal;
    expect(signal.aborted).toBe(false);
    expect(early.signal).toBe(signal);
    let heard = false;
    signal.addEventListener("abort", () => (heard = true));
    early.clientGone();
    expect(signal.aborted).toBe(true);
    expect(heard).toBe(true);

    const late = new ServerRequest("http://localhost/api/customers", {
      method: "POST",
      body: '{"a":1}',
      headers: { "Content-Type": "application/json" },
    });
    late.clientGone();
    expect(late.signal.aborted).toBe(true);
    expect(await late.json()).toEqual({ a: 1 });
  });
});

describe("over HTTP", () => {
  let base = "";
  let server: http.Server;
  const fellThrough: string[] = [];

  beforeAll(async () => {
    const routes: ApiRoute[] = await Promise.all(
      apiEntries.map(async (e, i) => ({
        id: e.id ?? `${e.file}#${i}`,
        path: e.path ?? "",
        module: (await import(path.join(appDir, e.file))) as ApiRouteModule,
      })),
    );
    const api = createApiServer({
      routes,
      trustProxy: "loopback",
      headers: { "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY" },
      jsonText: JSON_TEXT,
      log: pino({ level: "silent" }),
    });
    server = http.createServer((req, res) => {
      if (api(req, res)) return;
      fellThrough.push(`${req.method} ${req.url}`);
      res.statusCode = 299;
      res.end("handed on");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

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
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await res.json()) as { id: string; email: string; orders: unknown[] };
    expect(body).toMatchObject({ id: customer.id, email: "ravi@example.com", orders: [] });
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

  it("hands the route a streamed POST body and answers its 201", async () => {
    const user = await createTestUser();
    const res = await fetch(`${base}/api/customers`, {
      method: "POST",
      headers: { Authorization: `Bearer ${await bearerFor(user.id)}`, "Content-Type": "application/json" },
      body: JSON.stringify({ firstName: "Lata", lastName: "Shah", email: "lata@example.com" }),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ firstName: "Lata", email: "lata@example.com" });
  });

  it("400 with field messages for a bad body", async () => {
    const user = await createTestUser();
    const res = await fetch(`${base}/api/customers`, {
      method: "POST",
      headers: { Authorization: `Bearer ${await bearerFor(user.id)}`, "Content-Type": "application/json" },
      body: JSON.stringify({ firstName: "", email: "not-an-email" }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { fields: Record<string, string> } };
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
    const raw = await new Promise<{ encoding?: string; vary?: string; body: Buffer }>((resolve, reject) => {
      http
        .get(
          `${base}/api/customers?limit=30`,
          { headers: { Authorization: auth, "Accept-Encoding": "gzip" } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () =>
              resolve({
                encoding: res.headers["content-encoding"],
                vary: res.headers.vary,
                body: Buffer.concat(chunks),
              }),
            );
          },
        )
        .on("error", reject);
    });
    expect(raw.encoding).toBe("gzip");
    expect(raw.vary).toBe("Accept-Encoding");
    const list = JSON.parse(zlib.gunzipSync(raw.body).toString("utf8")) as unknown;
    expect(Array.isArray(list) ? list.length : (list as { customers: unknown[] }).customers.length).toBe(30);

    const small = await fetch(`${base}/api/auth/current_user`, {
      headers: { Authorization: auth, "Accept-Encoding": "gzip" },
    });
    expect(small.headers.get("content-encoding")).toBeNull();
  });

  it("answers unknown /api paths with the JSON 404 route, and hands pages and HEAD on", async () => {
    const res = await fetch(`${base}/api/no/such/thing`);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect((await fetch(`${base}/customers`)).status).toBe(299);
    expect((await fetch(`${base}/apiary`)).status).toBe(299);
    expect((await fetch(`${base}/api/customers`, { method: "HEAD" })).status).toBe(299);
    expect(fellThrough).toEqual(["GET /customers", "GET /apiary", "HEAD /api/customers"]);
  });
});
