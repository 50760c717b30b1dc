// @engines sqlite postgres
// Production answers /api from server/api-server.ts instead of Remix's request handler (see there
// for why). This sends requests to every /api route of the app through both — the same build, read
// through Vite's module graph, on a real migrated database (SQLite, or PostgreSQL with
// TEST_DATABASE_ENGINE=postgres) — and requires the same status, headers and body from each. Each
// side has its own user with the same data, made through the API itself, so writes on one side
// cannot change what the other answers; the user's ids, e-mail and the clock are the only
// differences allowed.
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import type { ServerBuild } from "@remix-run/node";
import { pino } from "pino";
import type { ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDevServerBuild } from "../tests/helpers/dev-server-build";
import { useTestDatabase as setUpTestDatabase } from "../tests/helpers/db";
import { bearerFor, cookieFor } from "../tests/helpers/requests";
import { appOf, createRequestListener } from "./app";

setUpTestDatabase();

const { upsertLocalUser } = await import("~/services/users.server");

type Side = { name: "remix" | "fast"; base: string; token: string; cookie: string; ids: Record<string, string> };
type Answer = { status: number; headers: Record<string, string>; body: string };
type Case = {
  method: string;
  /** `{customer}` and the like are the side's own ids (learned from earlier answers). */
  path: string;
  auth?: "bearer" | "cookie" | "none";
  headers?: Record<string, string>;
  body?: string;
  /** Keep the new record's id from the answer under this name. */
  keep?: string;
  /** An endless answer (the event stream): compare status and headers only. */
  headOnly?: boolean;
};

let vite: ViteDevServer;
let build: ServerBuild;
const servers: http.Server[] = [];
const sides: Side[] = [];

beforeAll(async () => {
  ({ vite, build } = await loadDevServerBuild());
  const log = pino({ level: "silent" });
  for (const name of ["remix", "fast"] as const) {
    const listener = createRequestListener({
      build,
      app: appOf(build),
      log,
      mode: "production",
      vite,
      fastApi: name === "fast" ? build : undefined,
    });
    const server = http.createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    const user = await upsertLocalUser({ name: "Parity Tester", email: `parity-${name}@example.com` });
    sides.push({
      name,
      base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      token: await bearerFor(user.id),
      cookie: await cookieFor(user.id),
      ids: { user: user.id, unknown: "0123456789abcdef01234567" },
    });
  }
}, 120_000);

afterAll(async () => {
  for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
  await vite.close();
});

function send(side: Side, c: Case): Promise<Answer> {
  const url = new URL(
    c.path.replace(/\{(\w+)\}/g, (_m, key: string) => side.ids[key] ?? side.ids.unknown),
    side.base,
  );
  const headers: Record<string, string> = { "Accept-Encoding": "gzip", ...c.headers };
  if ((c.auth ?? "bearer") === "bearer") headers.Authorization = `Bearer ${side.token}`;
  if (c.auth === "cookie") headers.Cookie = side.cookie;
  if (c.body !== undefined) {
    headers["Content-Type"] ??= "application/json";
    // Framed by its length: Node's client sends a DELETE's body unframed (no Content-Length, not
    // chunked), so the server would read it as the start of another request and answer that one
    // 400 while the DELETE itself still ran, a race with the next case.
    headers["Content-Length"] = String(Buffer.byteLength(c.body));
  }
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: c.method, headers, agent: false }, (res) => {
      const answer = (body: string): Answer => ({
        status: res.statusCode ?? 0,
        headers: res.headers as Record<string, string>,
        body,
      });
      if (c.headOnly) {
        resolve(answer(""));
        req.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const raw = Buffer.concat(chunks);
        resolve(answer((res.headers["content-encoding"] === "gzip" ? zlib.gunzipSync(raw) : raw).toString("utf8")));
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(c.body);
  });
}

// What may differ between the sides: each side's own ids, e-mail and user, and the clock.
// Framing headers differ by design: the /api server writes a buffered body with its length,
// Express streams it; small bodies without a known length are compressed by Express only.
const TRANSPORT = new Set([
  "date",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "content-encoding",
  "vary",
]);
function normalise(side: Side, answer: Answer) {
  const text = (value: string) => {
    let out = value.replaceAll(`parity-${side.name}@`, "parity-@");
    for (const [key, id] of Object.entries(side.ids)) out = out.replaceAll(id, `{${key}}`);
    return out
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)/g, "{time}")
      .replace(/"durationMs":\d+/g, '"durationMs":0')
      .replace(/\b[0-9a-f]{24}\b/g, "{id}");
  };
  const headers = Object.fromEntries(
    Object.entries(answer.headers)
      .filter(([name]) => !TRANSPORT.has(name))
      .map(([name, value]) => [name, text(String(value))]),
  );
  // Whether compression applies must agree for what the /api server compresses (JSON of 1 KB or more).
  const compressed = answer.headers["content-encoding"] === "gzip" && Buffer.byteLength(answer.body) >= 1024;
  return { status: answer.status, headers, body: text(answer.body), compressed };
}

const customer = JSON.stringify({
  firstName: "Ravi",
  lastName: "Kumar",
  email: "ravi@example.com",
  phone: "+91 98765 43210",
  totalSpend: 1250.5,
  visits: 3,
});
const segment = JSON.stringify({
  name: "Big spenders",
  description: "Over ₹1,000",
  conditions: { totalSpend: { $gt: 1000 } },
});
const csv =
  "firstName,lastName,email,totalSpend\nLata,Shah,lata@example.com,500\nAnil,Das,anil@example.com,2500\nbad,row,not-an-email,x\n";

/** Requests every /api route is sent, in order; the first ones make each side's records. */
function cases(): Case[] {
  const made: Case[] = [
    { method: "POST", path: "/api/customers", body: customer, keep: "customer" },
    { method: "POST", path: "/api/customers/import", headers: { "Content-Type": "text/csv" }, body: csv },
    {
      method: "POST",
      path: "/api/orders",
      body: JSON.stringify({ customerId: "{customer}", items: [{ name: "Kurta", quantity: 2, price: 799 }] }),
      keep: "order",
    },
    { method: "POST", path: "/api/segments", body: segment, keep: "segment" },
  ];
  const fixed: Case[] = [
    { method: "POST", path: "/api/customers", body: customer },
    { method: "POST", path: "/api/customers", body: JSON.stringify({ firstName: "", email: "nope" }) },
    { method: "POST", path: "/api/customers", body: "{not json" },
    { method: "POST", path: "/api/customers", body: "[".repeat(100_000) + "]".repeat(100_000) },
    {
      method: "POST",
      path: "/api/customers",
      auth: "cookie",
      headers: { Referer: "https://evil.example/page" },
      body: customer,
    },
    {
      method: "POST",
      path: "/api/customers",
      auth: "cookie",
      headers: { Origin: "https://evil.example" },
      body: customer,
    },
    { method: "GET", path: "/api/customers?limit=2&q=kumar" },
    { method: "GET", path: "/api/customers?limit=abc" },
    { method: "GET", path: "/api/customers?sort=totalSpend&order=asc" },
    { method: "GET", path: "/api/customers?sort=name" },
    { method: "GET", path: "/api/customers?sort=email" },
    { method: "GET", path: "/api/customers?sort=visits&cursor=visits.bm9wZQ" },
    { method: "GET", path: "/api/customers/export" },
    {
      method: "PUT",
      path: "/api/customers/{customer}",
      body: JSON.stringify({ firstName: "Ravi", lastName: "K", email: "ravi.k@example.com" }),
    },
    { method: "GET", path: "/api/orders?limit=5" },
    { method: "PUT", path: "/api/orders/{order}", body: JSON.stringify({ status: "Completed" }) },
    { method: "POST", path: "/api/segments/preview", body: JSON.stringify({ conditions: { visits: { $gte: 1 } } }) },
    { method: "PUT", path: "/api/segments/{segment}", body: segment },
    { method: "GET", path: "/api/notifications?type=system" },
    { method: "PUT", path: "/api/notifications/read-all" },
    {
      method: "PUT",
      path: "/api/auth/profile",
      body: JSON.stringify({ firstName: "Parity", lastName: "Tester", company: "Shah & Co" }),
    },
    { method: "GET", path: "/api/auth/current_user", auth: "none" },
    { method: "GET", path: "/api/auth/current_user", auth: "cookie" },
    { method: "GET", path: "/api/notifications/stream", headOnly: true },
    { method: "GET", path: "/api/no/such/thing" },
    { method: "GET", path: "/API/Customers/{customer}" },
    { method: "GET", path: "/api/customers/{customer}/" },
  ];
  // Then every route, whatever it is, with each method, signed in and not; sign-out comes last.
  const routes = apiRoutes().sort((a, b) => Number(a.includes("logout")) - Number(b.includes("logout")));
  const every: Case[] = routes.flatMap((route) => {
    const url = `/${route.replace(/:(\w+)/g, (_m, name: string) => `{${idFor(route, name)}}`).replace("*", "anything/else")}`;
    return ["GET", "POST", "PUT", "DELETE"].flatMap((method): Case[] => [
      { method, path: url, auth: "none", body: method === "GET" ? undefined : "{}" },
      { method, path: url, body: method === "GET" ? undefined : "{}", headOnly: url.endsWith("/stream") },
    ]);
  });
  return [...made, ...fixed, ...every];
}

function apiRoutes(): string[] {
  return Object.values(build.routes)
    .map((r) => r.path ?? "")
    .filter((p) => p.startsWith("api/"));
}

/** Which of a side's records a route's `:id` names (a made-up id where the test makes none). */
function idFor(route: string, param: string): string {
  if (param !== "id") return param === "control" ? "pause" : "unknown";
  const family = route.split("/")[1] ?? "";
  return { customers: "customer", orders: "order", segments: "segment", users: "user" }[family] ?? "unknown";
}

describe("every /api route answers the same through Remix's handler and the /api server", () => {
  it("status, headers and body", async () => {
    const covered = new Set<string>();
    for (const c of cases()) {
      const [remix, fast] = sides as [Side, Side];
      const a = await send(remix, c);
      const b = await send(fast, c);
      if (c.keep) {
        for (const [side, answer] of [
          [remix, a],
          [fast, b],
        ] as const) {
          side.ids[c.keep] =
            (JSON.parse(answer.body) as { id?: string; _id?: string }).id ??
            (JSON.parse(answer.body) as { _id: string })._id;
        }
      }
      expect(normalise(fast, b), `${c.method} ${c.path} (${c.auth ?? "bearer"})`).toEqual(normalise(remix, a));
      covered.add(c.path);
    }
    // Every route of the app was asked something.
    for (const route of apiRoutes()) {
      const pattern = new RegExp(`^/${route.replace(/:\w+/g, "[^/]+").replace("*", ".*")}$`, "i");
      expect(
        [...covered].some((p) => pattern.test(p.replace(/\{\w+\}/g, "x"))),
        route,
      ).toBe(true);
    }
  }, 120_000);
});
