// @engines sqlite postgres
// Every route of app/routes.ts, every method: a method the route takes is answered by it (whatever
// the answer: without credentials a 401 or a redirect to /login), and a method it does not take is
// a 405 whose Allow header lists the ones it does, in the /api error shape on /api and as plain
// text on a page. Remix sends GET (and HEAD) to the module's loader and every other method to its
// action; a module without the function Remix wants answers Remix's own 405, without Allow, which
// this counts as a failure.
//
// Then the same over Remix's request handler, signed in: a page's 405 reaches the browser with its
// Allow header, as a document and as single-fetch data. Remix keeps only the Set-Cookie of a page's
// loaders and actions unless the route exports `headers` (keepAllowHeader), and sends a write to /
// without ?index to the root, not to the dashboard.
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createRequestHandler } from "@remix-run/node";
import { pino } from "pino";
import type { ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDevServerBuild } from "../helpers/dev-server-build";
import { createTestUser, useTestDatabase as setUpTestDatabase } from "../helpers/db";
import { ORIGIN, args, cookieFor, makeRequest } from "../helpers/requests";
import routes from "~/routes";
import { appOf, createRequestListener } from "../../server/app";

setUpTestDatabase();

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
const METHODS: Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
type Handler = (a: ReturnType<typeof args>) => unknown;
type RouteModule = { loader?: Handler; action?: Handler };
type Entry = { id?: string; path?: string; index?: boolean; file: string; children?: Entry[] };

/** What each route takes, by its path in app/routes.ts ("/" for the index). "any": it answers every method itself. */
const TAKES: Record<string, Method[] | "any"> = {
  login: ["GET", "POST"],
  "set-password/:token": ["GET", "POST"],
  "auth/callback": ["GET"],
  "auth/local": ["GET", "POST"],
  "auth/signout": ["POST"],
  healthz: ["GET"],
  "u/:token": ["GET", "POST"],
  "o/:token": ["GET"],
  "c/:token": ["GET"],
  "v/:token": ["GET"],
  "images/:file": ["GET"],
  "api/auth/google": ["GET", "POST", "PUT", "PATCH", "DELETE"],
  "api/auth/google/callback": ["GET"],
  "api/auth/current_user": ["GET"],
  "api/auth/logout": ["POST"],
  "api/auth/profile": ["GET", "PUT", "PATCH"],
  "api/users/:id": ["GET", "PUT", "PATCH"],
  "api/notifications": ["GET"],
  "api/notifications/read-all": ["PUT", "POST"],
  "api/notifications/stream": ["GET"],
  "api/notifications/:id": ["DELETE"],
  "api/notifications/:id/read": ["PUT", "POST"],
  "api/orders": ["GET", "POST"],
  "api/orders/:id": ["GET", "PUT", "PATCH", "DELETE"],
  "api/customers": ["GET", "POST"],
  "api/customers/import": ["POST"],
  "api/customers/export": ["GET"],
  "api/customers/:id": ["GET", "PUT", "PATCH", "DELETE"],
  "api/customers/:id/story": ["GET"],
  "api/customers/:id/tags": ["GET", "POST"],
  "api/customers/:id/tags/:tag": ["DELETE"],
  "api/fields": ["GET", "POST"],
  "api/fields/:name": ["GET", "PATCH", "DELETE"],
  "api/tags": ["GET"],
  "api/tags/:tag": ["PATCH", "DELETE"],
  "api/tags/:tag/customers": ["POST", "DELETE"],
  "api/templates": ["GET", "POST"],
  "api/templates/:id": ["GET", "PUT", "DELETE"],
  "api/templates/:id/render": ["POST"],
  "api/templates/:id/duplicate": ["POST"],
  "api/templates/:id/test": ["POST"],
  "api/templates/:id/check": ["GET"],
  "api/templates/:id/draft": ["PUT", "DELETE"],
  "api/images": ["GET", "POST"],
  "api/images/:id": ["GET", "DELETE"],
  "api/brand": ["GET", "PUT"],
  "api/events": ["GET", "POST"],
  "api/flows": ["GET", "POST"],
  "api/flows/:id": ["GET", "PUT", "DELETE"],
  "api/flows/:id/people": ["GET"],
  "api/suppressions": ["GET", "POST"],
  "api/suppressions/import": ["POST"],
  "api/suppressions/export": ["GET"],
  "api/suppressions/:email": ["GET", "DELETE"],
  "api/segments": ["GET", "POST"],
  "api/segments/preview": ["POST"],
  "api/segments/describe": ["POST"],
  "api/segments/:id": ["GET", "PUT", "DELETE"],
  "api/segments/:id/audience-count": ["GET"],
  "api/segments/:id/audience": ["GET"],
  "api/campaigns": ["GET", "POST"],
  "api/campaigns/:id": ["GET", "PUT", "DELETE"],
  "api/campaigns/:id/logs": ["GET"],
  "api/campaigns/:id/links": ["GET"],
  "api/campaigns/:id/resend-non-openers": ["POST"],
  "api/campaigns/:id/:control": ["POST"],
  "api/webhooks/delivery-receipts": ["POST"],
  "api/webhooks/ses": ["POST"],
  "api/webhooks/sendgrid": ["POST"],
  "api/ai/message-suggestions": ["POST"],
  "api/ai/insights": ["GET"],
  "api/stats/historical": ["GET"],
  "api/openapi.json": ["GET"],
  // An /api path the contract does not name is a 404 whatever the method.
  "api/*": "any",
  "customers/export": ["GET"],
  "customers/import/progress": ["GET"],
  "orders/customer-options": ["GET"],
  "suppressions/export": ["GET"],
  "campaigns/reach": ["GET"],
  "campaigns/:id/export": ["GET"],
  "/": ["GET"],
  dashboard: ["GET"],
  profile: ["GET", "POST"],
  users: ["GET", "POST"],
  notifications: ["GET", "POST"],
  customers: ["GET", "POST"],
  "customers/new": ["GET", "POST"],
  "customers/edit/:id": ["GET", "POST"],
  "customers/import": ["GET", "POST"],
  "customers/:id": ["GET", "POST"],
  fields: ["GET", "POST"],
  tags: ["GET", "POST"],
  templates: ["GET", "POST"],
  "templates/:id": ["GET", "POST"],
  "templates/brand": ["GET", "POST"],
  "templates/:id/thumbnail": ["GET"],
  flows: ["GET", "POST"],
  "flows/:id": ["GET", "POST"],
  orders: ["GET", "POST"],
  "orders/new": ["GET", "POST"],
  "orders/edit/:id": ["GET", "POST"],
  "orders/:id": ["GET"],
  segments: ["GET", "POST"],
  "segments/new": ["GET", "POST"],
  "segments/edit/:id": ["GET", "POST"],
  "segments/:id": ["GET", "POST"],
  campaigns: ["GET", "POST"],
  "campaigns/new": ["GET", "POST"],
  "campaigns/edit/:id": ["GET", "POST"],
  "campaigns/:id": ["GET", "POST"],
  "campaigns/:id/resend": ["GET", "POST"],
  suppressions: ["GET", "POST"],
  "suppressions/import": ["GET", "POST"],
  "customers/edit": ["GET"],
  "orders/edit": ["GET"],
  "segments/edit": ["GET"],
  "*": ["GET"],
};

/** The routes that answer requests: every entry with a path (or the index); the layout only wraps them. */
function leafRoutes(): { key: string; file: string }[] {
  const found: { key: string; file: string }[] = [];
  const walk = (entries: Entry[]) => {
    for (const entry of entries) {
      if (entry.path !== undefined || entry.index)
        found.push({ key: entry.index ? "/" : (entry.path ?? ""), file: entry.file });
      if (entry.children) walk(entry.children);
    }
  };
  walk(routes as unknown as Entry[]);
  return found;
}

/** An address for a route path: ids filled in, a splat given a segment. */
const addressOf = (key: string) =>
  key === "/"
    ? "/"
    : `/${key
        .replace(/:id\b/g, "0123456789abcdef01234567")
        .replace(/:control\b/, "pause")
        .replace("*", "no-such-page")}`;

/** A loader or action's answer, returned or thrown: a Response, a data() result or plain data. */
async function settle(run: () => unknown): Promise<{ status: number; headers: Headers; text: string }> {
  let value: unknown;
  try {
    value = await run();
  } catch (thrown) {
    value = thrown;
  }
  if (value instanceof Response)
    return { status: value.status, headers: value.headers, text: value.body ? await value.text() : "" };
  const result = value as { type?: string; data?: unknown; init?: { status?: number } | null };
  if (result && typeof result === "object" && result.type === "DataWithResponseInit")
    return { status: result.init?.status ?? 200, headers: new Headers(), text: String(result.data) };
  if (value instanceof Error) throw value;
  return { status: 200, headers: new Headers(), text: "" };
}

const leaves = leafRoutes();

describe("the methods of every route", () => {
  it("every route of app/routes.ts is listed here with the methods it takes", () => {
    expect(leaves.map((r) => r.key).filter((key) => !(key in TAKES))).toEqual([]);
  });

  it("no route outside /api takes PUT, PATCH or DELETE (the server asks such a route for its Allow with a PUT: server/route-methods.ts)", () => {
    const writes = Object.entries(TAKES).filter(
      ([key, takes]) =>
        !key.startsWith("api/") && (takes === "any" || takes.some((m) => ["PUT", "PATCH", "DELETE"].includes(m))),
    );
    expect(writes).toEqual([]);
  });

  for (const { key, file } of leaves) {
    const takes = TAKES[key] ?? [];
    if (takes === "any") continue;
    const api = key.startsWith("api/");
    const url = addressOf(key);
    const params = Object.fromEntries(
      [...key.matchAll(/:(\w+)/g)].map(([, name]) => [name, name === "control" ? "pause" : "0123456789abcdef01234567"]),
    );

    it(`${url} (${file}) takes ${takes.join(", ")} and answers anything else 405 with Allow: ${takes.join(", ")}`, async () => {
      const module = (await import(/* @vite-ignore */ path.resolve("app", file))) as RouteModule;
      for (const method of METHODS) {
        const handler = method === "GET" ? module.loader : module.action;
        const what = `${method} ${url}`;
        if (takes.includes(method)) {
          // A page without a loader (the sign-in callback) is rendered as it is.
          if (method === "GET" && !handler) continue;
          // Without credentials: what the route says (a 401, a redirect to /login), never a 405.
          expect(handler, `${what}: the module has no action`).toBeDefined();
          if (key === "api/auth/google") continue; // starts a sign-in with Google
          const answer = await settle(() => handler?.(args(makeRequest(url, { method }), params)));
          expect(answer.status, what).not.toBe(405);
          continue;
        }
        // Remix's own 405 for a missing function has no Allow: the module must answer it.
        expect(handler, `${what}: the module has no ${method === "GET" ? "loader" : "action"}`).toBeDefined();
        const answer = await settle(() =>
          handler?.(
            args(
              makeRequest(url, {
                method,
                ...(method === "GET" ? {} : { body: "{}", headers: { "Content-Type": "application/json" } }),
              }),
              params,
            ),
          ),
        );
        expect(answer.status, what).toBe(405);
        expect(answer.headers.get("Allow"), what).toBe(takes.join(", "));
        if (api) {
          expect(answer.headers.get("Content-Type"), what).toMatch(/^application\/json/);
          expect(JSON.parse(answer.text), what).toMatchObject({ error: { code: "method_not_allowed" } });
        } else {
          expect(answer.headers.get("Content-Type"), what).toMatch(/^text\/plain/);
        }
      }
    });
  }
});

describe("over HTTP, through Remix's request handler", () => {
  let vite: ViteDevServer | undefined;
  let handle: (request: Request) => Promise<Response>;
  let cookie = "";
  const servers: http.Server[] = [];
  /** The server's own request listener (server/app.ts), pages through Express and Remix, /api through the /api server. */
  let base = "";

  beforeAll(async () => {
    const loaded = await loadDevServerBuild();
    vite = loaded.vite;
    handle = createRequestHandler(loaded.build, "production");
    cookie = await cookieFor((await createTestUser("Method Prober")).id);
    const server = http.createServer(
      createRequestListener({
        build: loaded.build,
        app: appOf(loaded.build),
        log: pino({ level: "silent" }),
        mode: "production",
        fastApi: loaded.build,
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
    await vite?.close();
  });

  it("every method a route does not take is a 405 with its Allow header, pages included", async () => {
    const wrong: string[] = [];
    for (const { key, file } of leaves) {
      const takes = TAKES[key] ?? [];
      if (takes === "any") continue;
      const url = addressOf(key);
      // A page answers a document and, for the client router, single-fetch data (`.data`).
      const targets = file.endsWith(".tsx") && url !== "/" ? [url, `${url}.data`] : [url];
      for (const method of METHODS.filter((m) => !takes.includes(m)))
        for (const target of targets) {
          const response = await handle(
            new Request(new URL(target, ORIGIN), {
              method,
              headers: {
                Host: new URL(ORIGIN).host,
                Cookie: cookie,
                ...(method === "GET" ? {} : { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" }),
              },
              body: method === "GET" ? undefined : "intent=probe",
            }),
          );
          await response.text();
          const allow = response.headers.get("Allow");
          if (response.status !== 405 || allow !== takes.join(", "))
            wrong.push(`${method} ${target}: ${response.status}, Allow: ${allow}`);
        }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it("over the server, a method a route does not take is a 405 with its Allow whatever the body: none, a form, JSON or an upload", async () => {
    /** The request as a client sends it over a socket: a body-less one has no Content-Type or Content-Length. */
    const send = (method: string, target: string, body?: { type: string; text: string }) =>
      new Promise<{ status: number; allow: string | undefined }>((resolve, reject) => {
        const req = http.request(`${base}${target}`, {
          method,
          headers: {
            // As a browser at the server's own address sends it (Remix refuses an action whose Origin is not its Host).
            Host: new URL(ORIGIN).host,
            Cookie: cookie,
            ...(method === "GET" || method === "OPTIONS" ? {} : { Origin: ORIGIN }),
            ...(body ? { "Content-Type": body.type, "Content-Length": Buffer.byteLength(body.text) } : {}),
          },
        });
        req.on("response", (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow }));
        });
        req.on("error", reject);
        req.end(body?.text);
      });
    const bodies = [
      undefined,
      { type: "application/x-www-form-urlencoded", text: "intent=probe" },
      { type: "application/json", text: "{}" },
      { type: "text/plain", text: "probe" },
      {
        type: "multipart/form-data; boundary=x",
        text: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n',
      },
    ];
    const wrong: string[] = [];
    for (const { key, file } of leaves) {
      const takes = TAKES[key] ?? [];
      if (takes === "any") continue;
      const url = addressOf(key);
      const targets = file.endsWith(".tsx") && url !== "/" ? [url, `${url}.data`] : [url];
      for (const method of [...METHODS, "OPTIONS"].filter((m) => !(takes as string[]).includes(m)))
        for (const target of targets)
          for (const body of method === "GET" ? [undefined] : bodies) {
            const answer = await send(method, target, body);
            if (answer.status !== 405 || answer.allow !== takes.join(", "))
              wrong.push(`${method} ${target} (${body?.type ?? "no body"}): ${answer.status}, Allow: ${answer.allow}`);
          }
    }
    expect(wrong).toEqual([]);
  }, 240_000);
});
