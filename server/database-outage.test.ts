// A real outage of PostgreSQL, through the server's request listener (server/app.ts, the app read
// through Vite): the app reaches the database through a TCP proxy the test cuts (every connection
// dropped, new ones refused) and restores, never touching the machine's shared server. While it
// is cut, a write or a read answers 503 with Retry-After and says the database is unavailable: on
// /api in its error shape ("unavailable", as the OpenAPI document describes it), through Remix's
// handler and through the /api server alike, and on pages as the page's error view, as a document
// and as single-fetch data. Once the proxy is back, the same requests succeed.
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RequestServerName, startRequestServers } from "../tests/helpers/dev-server-build";
import { AnswerValidator } from "../tests/helpers/openapi";
import { createMigratedPostgresDatabase, type PostgresDatabase } from "../tests/helpers/postgres";
import { ORIGIN, bearerFor, cookieFor } from "../tests/helpers/requests";
import { startTcpProxy, type TcpProxy, throughProxy } from "../tests/helpers/tcp-proxy";
import { closePostgres } from "~/db/postgres.server";
import { db } from "~/db/prisma.server";
import { resetEnvCache } from "~/env.server";
import { DATABASE_UNAVAILABLE, RETRY_AFTER_SECONDS } from "~/lib/api.server";
import { buildOpenApiDocument } from "~/lib/openapi/document.server";
import { API_OPERATIONS } from "~/routes/api/operations.server";
import { upsertLocalUser } from "~/services/users.server";

const dir = mkdtempSync(path.join(tmpdir(), "crm-outage-"));
let database: PostgresDatabase;
let proxy: TcpProxy;
let servers: Awaited<ReturnType<typeof startRequestServers>>;
let bearer = "";
let cookie = "";
let validator: AnswerValidator;

beforeAll(async () => {
  database = await createMigratedPostgresDatabase("crm_outage");
  proxy = await startTcpProxy({
    host: new URL(database.url).hostname,
    port: Number(new URL(database.url).port || 5432),
  });
  process.env.DATABASE_URL = throughProxy(database.url, proxy.port);
  process.env.DATA_DIR = dir;
  process.env.SESSION_SECRET ??= "test-secret-that-is-at-least-32-characters-long";
  resetEnvCache();
  const user = await upsertLocalUser({ name: "Outage Watcher", email: "outage@example.com" });
  bearer = await bearerFor(user.id);
  cookie = await cookieFor(user.id);
  validator = new AnswerValidator(await buildOpenApiDocument(API_OPERATIONS));
  servers = await startRequestServers();
}, 120_000);

afterAll(async () => {
  await servers?.close();
  await db().$disconnect();
  await closePostgres();
  await proxy?.close();
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

type Answer = { status: number; headers: Headers; text: string };

async function send(
  name: RequestServerName,
  pathname: string,
  init: { method?: string; bearer?: boolean; json?: unknown; form?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { Host: new URL(ORIGIN).host };
  if (init.bearer) headers.Authorization = `Bearer ${bearer}`;
  else headers.Cookie = cookie;
  if (init.json !== undefined) headers["Content-Type"] = "application/json";
  if (init.form !== undefined) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    headers.Origin = ORIGIN;
  }
  const body = init.json !== undefined ? JSON.stringify(init.json) : init.form;
  if (body !== undefined) headers["Content-Length"] = String(Buffer.byteLength(body));
  // node:http, not fetch: the Host header is the page's (fetch sends the address it connects to).
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: servers.ports[name], path: pathname, method: init.method ?? "GET", headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const answerHeaders = new Headers();
          for (const [key, value] of Object.entries(res.headers))
            if (typeof value === "string") answerHeaders.set(key, value);
          resolve({
            status: res.statusCode ?? 0,
            headers: answerHeaders,
            text: Buffer.concat(chunks).toString("utf8"),
          });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

let added = 0;
const customer = () => {
  added += 1;
  return { firstName: "Asha", lastName: `Outage ${added}`, email: `asha-${added}@example.com` };
};
const customerForm = () => {
  const c = customer();
  return new URLSearchParams({ firstName: c.firstName, lastName: c.lastName, email: c.email }).toString();
};

function expectUnavailableApi(answer: Answer, what: string, method: "get" | "post", template: string) {
  expect(answer.status, `${what}: ${answer.text}`).toBe(503);
  expect(answer.headers.get("Retry-After"), what).toBe(String(RETRY_AFTER_SECONDS));
  const body = JSON.parse(answer.text) as unknown;
  expect(body, what).toEqual({ error: { code: "unavailable", message: DATABASE_UNAVAILABLE } });
  const contentType = answer.headers.get("Content-Type") ?? "";
  expect(validator.problems(method, template, { ...answer, contentType, body }), what).toEqual([]);
}

function expectUnavailablePage(answer: Answer, what: string) {
  expect(answer.status, `${what}: ${answer.text.slice(0, 300)}`).toBe(503);
  expect(answer.headers.get("Retry-After"), what).toBe(String(RETRY_AFTER_SECONDS));
  // The page's error view (or the single-fetch data it is rendered from) carries the message.
  expect(answer.text, what).toContain(DATABASE_UNAVAILABLE);
}

describe.each(["Remix's handler", "the /api server"] as const)("PostgreSQL out of reach, /api through %s", (name) => {
  it("writes and reads answer 503 with Retry-After saying the database is unavailable, and work again once it is back", async () => {
    // Up: the same requests succeed (and the pools hold connections, which the cut then drops).
    expect((await send(name, "/api/customers", { method: "POST", bearer: true, json: customer() })).status).toBe(201);
    expect((await send(name, "/api/customers", { bearer: true })).status).toBe(200);
    expect((await send(name, "/customers/new", { method: "POST", form: customerForm() })).status).toBe(302);

    await proxy.cut();
    try {
      expectUnavailableApi(
        await send(name, "/api/customers", { method: "POST", bearer: true, json: customer() }),
        "POST /api/customers",
        "post",
        "/api/customers",
      );
      expectUnavailableApi(
        await send(name, "/api/customers", { bearer: true }),
        "GET /api/customers",
        "get",
        "/api/customers",
      );
      // Signed in by the cookie, as the pages are.
      expectUnavailableApi(await send(name, "/api/customers"), "GET /api/customers (cookie)", "get", "/api/customers");
      expectUnavailablePage(
        await send(name, "/customers/new", { method: "POST", form: customerForm() }),
        "the customer form",
      );
      expectUnavailablePage(
        await send(name, "/customers/new.data", { method: "POST", form: customerForm() }),
        "the customer form, posted by Remix's client",
      );
      expectUnavailablePage(await send(name, "/customers"), "the customer list");
      const health = await send(name, "/healthz");
      expect(health.status).toBe(503);
    } finally {
      await proxy.restore();
    }

    expect((await send(name, "/api/customers", { method: "POST", bearer: true, json: customer() })).status).toBe(201);
    expect((await send(name, "/customers/new", { method: "POST", form: customerForm() })).status).toBe(302);
    expect((await send(name, "/customers")).status).toBe(200);
  }, 60_000);
});
