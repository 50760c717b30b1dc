// @engines sqlite postgres
// GET /api/openapi.json against the code it describes: the document is sound OpenAPI 3.1, it names
// every /api route of app/routes.ts and every method each one serves (and nothing else), and real
// answers of every operation, on a real database, validate against it (status, media type, body),
// refusals of bad input included. The document's inputs are the very schemas the routes validate
// with (app/schemas/*, app/schemas/api-inputs.server.ts for the routes without a schema module), so
// there is no copy of a route's rules here to keep in step.
import http from "node:http";
import net from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { answerClientError } from "../../server/app";
import { createTestUser, useTestConnection, useTestDatabase } from "../helpers/db";
import { sqlRun } from "../helpers/sql";
import { AnswerValidator, type ApiRoute, apiRoutes, routeModule, structuralProblems } from "../helpers/openapi";
import { cookieFor } from "../helpers/requests";
import { withBuiltInVendor } from "../helpers/built-in-vendor";
import { fakeSendgrid } from "../fakes/sendgrid";
import { startFakeSns, trustFakeSns } from "../fakes/sns";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { getEnv, resetEnvCache } from "~/env.server";
import { deliveryId } from "~/lib/campaigns";
import { campaigns } from "~/models/campaigns/store.server";
import type { OpenApiDocument } from "~/lib/openapi/document.server";
import { HTTP_METHODS, type HttpMethod } from "~/lib/openapi/operation";
import { loader as openApiLoader } from "~/routes/api/openapi-json";
import { ReceiptsBodySchema } from "~/schemas/api-inputs.server";
import { signReceipts } from "~/services/sending/receipt-signature.server";
import { notify } from "~/services/notifications.server";
import { seedTenant } from "~/services/seed.server";
import { issueToken } from "~/services/token.server";

let document: OpenApiDocument;
let validator: AnswerValidator;
const routes = apiRoutes();

type Auth = "bearer" | "cookie" | "none" | { bearer: string } | { cookie: string };
type CallOptions = {
  params?: Record<string, string>;
  query?: Record<string, string>;
  json?: unknown;
  body?: string | Blob;
  headers?: Record<string, string>;
  auth?: Auth;
};

let userId: string;
let bearer: string;
let cookie: string;

/** Every (operation, status) answered during the file, to check each operation was seen succeeding. */
const answered = new Map<string, Set<number>>();

function routeFor(template: string): ApiRoute {
  const route = routes.find((r) => r.template === template);
  if (!route) throw new Error(`No route in app/routes.ts for ${template}`);
  return route;
}

function fill(template: string, params: Record<string, string>) {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
}

/** Calls the route module of `METHOD /api/path/{param}` and reads its answer, thrown Responses included. */
async function invoke(spec: string, options: CallOptions = {}) {
  const [METHOD, template] = spec.split(" ");
  const method = METHOD.toLowerCase() as HttpMethod;
  const route = routeFor(template);
  const module = await routeModule(route);
  const handler = method === "get" ? module.loader : module.action;
  if (!handler) throw new Error(`${spec}: the route module has no ${method === "get" ? "loader" : "action"}`);
  const url = new URL(fill(template, options.params ?? {}), "http://localhost");
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
  const headers = new Headers(options.headers);
  const auth = options.auth ?? "bearer";
  if (auth === "bearer") headers.set("Authorization", `Bearer ${bearer}`);
  else if (auth === "cookie") headers.set("Cookie", cookie);
  else if (typeof auth === "object" && "bearer" in auth) headers.set("Authorization", `Bearer ${auth.bearer}`);
  else if (typeof auth === "object" && "cookie" in auth) headers.set("Cookie", auth.cookie);
  // A cookie-carried write comes from our own pages unless the test says otherwise.
  if (
    (auth === "cookie" || (typeof auth === "object" && "cookie" in auth)) &&
    method !== "get" &&
    !headers.has("Origin")
  )
    headers.set("Origin", getEnv().publicUrl);
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers.set("Content-Type", "application/json");
  }
  const abort = new AbortController();
  let response: Response;
  try {
    response = (await handler({
      request: new Request(url, { method: METHOD, headers, body, signal: abort.signal }),
      params: Object.fromEntries(
        [...template.matchAll(/\{([^}]+)\}/g)].map((m) => [m[1], options.params?.[m[1]] ?? ""]),
      ),
      context: {},
    })) as Response;
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    response = thrown;
  }
  const contentType = response.headers.get("Content-Type") ?? "";
  let parsed: unknown = null;
  if (contentType.startsWith("text/event-stream")) {
    abort.abort();
    await response.body?.cancel();
  } else {
    const text = await response.text();
    parsed = text && contentType.includes("json") ? JSON.parse(text) : text || null;
  }
  return { method, template, status: response.status, headers: response.headers, contentType, body: parsed };
}

/** invoke(), then the answer must be one the document describes; `status` pins the expected status. */
async function call(spec: string, options: CallOptions = {}, status?: number) {
  const answer = await invoke(spec, options);
  expect(validator.problems(answer.method, answer.template, answer), `${spec} → ${answer.status}`).toEqual([]);
  if (status !== undefined) expect(answer.status, `${spec}: ${JSON.stringify(answer.body)}`).toBe(status);
  const key = `${answer.method} ${answer.template}`;
  if (!answered.has(key)) answered.set(key, new Set());
  answered.get(key)?.add(answer.status);
  // The body as the tests read it: an object (or a list of them).
  return answer as typeof answer & { body: Record<string, never> & Record<string, unknown>[] };
}

/** Each query, answered by the route and checked against the document: a 400 for those in `refused`, else a success. */
async function answers(
  spec: string,
  refused: Record<string, string>[],
  accepted: Record<string, string>[],
  params: Record<string, string> = {},
) {
  for (const query of refused) await call(spec, { query, params }, 400);
  for (const query of accepted)
    expect((await call(spec, { query, params })).status, JSON.stringify(query)).toBeLessThan(400);
}

beforeAll(async () => {
  const user = await createTestUser("Documented");
  userId = user.id;
  bearer = await issueToken(user.id);
  cookie = await cookieFor(user.id);
  await seedTenant(user.id, { customers: 40, orders: 15, seed: 7 });
  const served = await invoke("GET /api/openapi.json", { auth: "none" });
  document = served.body as OpenApiDocument;
  validator = new AnswerValidator(document);
});

describe("the document", () => {
  it("is served publicly, cacheable, as the document the builder makes", async () => {
    const response = await openApiLoader({
      request: new Request("http://localhost/api/openapi.json"),
      params: {},
      context: {},
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(response.headers.get("Cache-Control")).toMatch(/public/);
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
  });

  it("is sound OpenAPI 3.1: structure, every $ref resolving, every operation answering", () => {
    expect(structuralProblems(document)).toEqual([]);
  });

  it("declares bearer and cookie sign-in, the receipts signature and the Idempotency-Key header", async () => {
    const schemes = document.components.securitySchemes as Record<string, Record<string, string>>;
    expect(schemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer", bearerFormat: "JWT" });
    expect(schemes.cookieAuth).toMatchObject({ type: "apiKey", in: "cookie", name: cookie.split("=")[0] });
    expect(schemes.receiptSignature).toMatchObject({ type: "apiKey", in: "header", name: "x-signature" });
    const launch = validator.operation("post", "/api/campaigns");
    expect(launch.parameters).toContainEqual(expect.objectContaining({ name: "Idempotency-Key", in: "header" }));
    expect(validator.operation("post", "/api/webhooks/delivery-receipts").security).toEqual([{ receiptSignature: [] }]);
    expect(validator.operation("get", "/api/openapi.json").security).toEqual([]);
  });
});

describe("what the server answers before any route", () => {
  it("a header holding a control character is a 400 every operation documents (the server's clientError answer)", async () => {
    // The listener the server mounts (server/index.ts); no request reaches a route.
    const server = http.createServer((_req, res) => res.end("reached a route"));
    server.on("clientError", answerClientError);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as net.AddressInfo).port;
    const problems: string[] = [];
    try {
      for (const [template, item] of Object.entries(document.paths)) {
        for (const method of HTTP_METHODS) {
          if (!item[method]) continue;
          const path = template.replace(/\{([^}]+)\}/g, (_, name: string) =>
            name === "control" ? "pause" : name === "email" ? "a%40example.com" : "0123456789abcdef01234567",
          );
          const text = await new Promise<string>((resolve, reject) => {
            let got = "";
            const socket = net.connect(port, "127.0.0.1", () =>
              socket.write(`${method.toUpperCase()} ${path} HTTP/1.1\r\nHost: x\r\nX-Signature: a\x01b\r\n\r\n`),
            );
            socket.on("data", (chunk: Buffer) => (got += chunk.toString()));
            socket.on("close", () => resolve(got));
            socket.on("error", reject);
          });
          const [head = "", body = ""] = text.split("\r\n\r\n");
          const status = Number(head.split(" ")[1]);
          const contentType = /content-type: ([^\r]+)/i.exec(head)?.[1] ?? "";
          const answer = {
            method,
            template,
            status,
            headers: new Headers(),
            contentType,
            body: JSON.parse(body) as unknown,
          };
          expect(status, `${method} ${template}`).toBe(400);
          problems.push(...validator.problems(method, template, answer));
        }
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(problems).toEqual([]);
  });

  it("every operation documents the database's outage (503 with Retry-After) but the document itself, which needs none", () => {
    const missing: string[] = [];
    for (const [template, item] of Object.entries(document.paths))
      for (const method of HTTP_METHODS) {
        const responses = item[method]?.responses as Record<string, unknown> | undefined;
        if (responses && template !== "/api/openapi.json" && !responses["503"])
          missing.push(`${method.toUpperCase()} ${template}`);
      }
    expect(missing).toEqual([]);
    const { responses } = document.components as { responses?: Record<string, { headers: Record<string, unknown> }> };
    const unavailable = responses?.ServiceUnavailable ?? { headers: {} };
    expect(Object.keys(unavailable.headers)).toContain("Retry-After");
  });
});

describe("the checks themselves", () => {
  it("catch a broken document: an unresolved $ref, an operation without answers, a wrong version", () => {
    const broken = structuredClone(document);
    delete broken.components.schemas.Order;
    broken.openapi = "3.0.3";
    delete (broken.paths["/api/ai/insights"].get as Record<string, unknown>).responses;
    const problems = structuralProblems(broken).join("\n");
    expect(problems).toMatch(/#\/components\/schemas\/Order does not resolve/);
    expect(problems).toMatch(/\/openapi must match pattern/);
    expect(problems).toMatch(/insights\/get must have required property 'responses'/);
  });

  it("catch an answer that drifted from its schema or status", () => {
    const answer = (status: number, body: unknown) => ({
      status,
      headers: new Headers(),
      contentType: "application/json",
      body,
    });
    expect(validator.problems("get", "/api/segments/{id}/audience-count", answer(200, { count: 3 }))).toEqual([]);
    expect(
      validator.problems("get", "/api/segments/{id}/audience-count", answer(200, { count: 3, extra: 1 })),
    ).not.toEqual([]);
    expect(validator.problems("get", "/api/segments/{id}/audience-count", answer(418, {}))).not.toEqual([]);
    const notFound = { error: { code: "not_found", message: "Segment not found" } };
    expect(validator.problems("get", "/api/segments/{id}/audience-count", answer(404, notFound))).toEqual([]);
    const wrongCode = { error: { code: "conflict", message: "Segment not found" } };
    expect(validator.problems("get", "/api/segments/{id}/audience-count", answer(404, wrongCode))).not.toEqual([]);
  });
});

describe("the document and app/routes.ts", () => {
  it("name the same /api paths", () => {
    expect(Object.keys(document.paths).sort()).toEqual(routes.map((r) => r.template).sort());
  });

  // Methods a route serves whatever they are called, which the contract leaves out.
  const UNDOCUMENTED: Record<string, HttpMethod[]> = {
    // The action is the loader: any method starts the sign-in; GET (a link) and POST (a form) are the contract.
    "/api/auth/google": ["put", "patch", "delete"],
  };

  it("agree on the methods each path serves, probed on the route modules", async () => {
    const probe = await createTestUser("Prober");
    const mismatches: string[] = [];
    for (const route of routes) {
      const served: HttpMethod[] = [];
      for (const method of HTTP_METHODS) {
        const module = await routeModule(route);
        if (!(method === "get" ? module.loader : module.action)) continue;
        // A fresh token each time: a logout ends the probe's earlier ones.
        const answer = await invoke(`${method.toUpperCase()} ${route.template}`, {
          params: { id: "0123456789abcdef01234567", control: "pause" },
          json: method === "get" ? undefined : {},
          auth: { bearer: await issueToken(probe.id) },
        });
        const error = (answer.body as { error?: { message?: string } } | null)?.error;
        const refused = answer.status === 405 || (answer.status === 400 && /^Use /.test(error?.message ?? ""));
        if (!refused) served.push(method);
      }
      const documented = HTTP_METHODS.filter((m) => document.paths[route.template]?.[m]);
      const expected = served.filter((m) => !UNDOCUMENTED[route.template]?.includes(m));
      if (documented.join() !== expected.join())
        mismatches.push(`${route.template}: serves ${expected.join()}, documented ${documented.join()}`);
    }
    expect(mismatches).toEqual([]);
  });
});

describe("refusals of bad input validate against the document", () => {
  const tooLong = (n: number) => "x".repeat(n);

  it("query parameters", async () => {
    await answers(
      "GET /api/campaigns",
      [{ limit: "0" }, { limit: "abc" }, { limit: "1.5" }, { limit: "1001" }, { cursor: tooLong(41) }],
      [{ limit: "5", _t: "1" }],
    );
    await answers(
      "GET /api/customers",
      [
        { q: "a\u0001" },
        { q: tooLong(201) },
        { limit: "0" },
        { limit: "1001" },
        { limit: "x" },
        { sort: "height" },
        { order: "up" },
        { cursor: tooLong(1001) },
      ],
      [{ sort: "name", order: "asc", limit: "3" }],
    );
    await answers("GET /api/customers/export", [{ q: "a\u0001" }], [{ q: "a" }]);
    await answers(
      "GET /api/notifications",
      [{ type: "bad" }, { limit: "0" }, { limit: "51" }],
      [{ type: "campaign" }, { type: "SYSTEM", limit: "3" }],
    );
    await answers(
      "GET /api/segments",
      [{ q: tooLong(201) }, { sort: "x" }, { dir: "up" }, { limit: "0" }, { limit: "501" }],
      [{ sort: "size", dir: "asc", limit: "2" }],
    );
  });

  it("the message suggestions body", async () => {
    const segment = await call("POST /api/segments", {
      json: { name: "Input check", conditions: { visits: { $gte: 0 } } },
    });
    for (const json of [
      {},
      { segmentId: "x" },
      { segmentId: 5 },
      { segmentId: segment.body.id, campaignObjective: tooLong(501) },
      { segmentId: segment.body.id, campaignObjective: 5 },
    ])
      await call("POST /api/ai/message-suggestions", { json }, 400);
  });
});

describe("real answers validate against the document", () => {
  let customerId: string;
  let orderId: string;
  let segmentId: string;
  let emptySegmentId: string;
  let campaignId: string;
  let draftId: string;
  let notificationId: string;
  const missing = "0123456789abcdef01234567";

  it("auth and profile", async () => {
    await call("GET /api/auth/current_user", { auth: "none" }, 200);
    await call("GET /api/auth/current_user", {}, 200);
    await call("GET /api/auth/current_user", { auth: "cookie" }, 200);
    await call("GET /api/auth/current_user", { auth: { bearer: "not.a.token" } }, 401);
    await call("GET /api/auth/profile", {}, 200);
    await call("GET /api/auth/profile", { auth: "none" }, 401);
    await call("PUT /api/auth/profile", { json: { email: "documented@example.com", company: "Acme" } }, 200);
    await call("PATCH /api/auth/profile", { json: { email: "documented@example.com", position: "Lead" } }, 200);
    await call("PUT /api/auth/profile", { json: { email: "not an address" } }, 400);
    await call("PUT /api/auth/profile", { auth: "cookie", json: { email: "documented@example.com" } }, 200);
    await call("GET /api/users/{id}", { params: { id: userId } }, 200);
    await call("GET /api/users/{id}", { params: { id: missing } }, 404);
    await call("PUT /api/users/{id}", { params: { id: userId }, json: { email: "documented@example.com" } }, 200);
    await call("PATCH /api/users/{id}", { params: { id: userId }, json: { email: "documented@example.com" } }, 200);
    await call("GET /api/auth/google", { auth: "none" }, 302);
    await call("POST /api/auth/google", { auth: "none" }, 302);
    await call("GET /api/auth/google/callback", { auth: "none" }, 302);
  });

  it("a write carried by the cookie from another site is a 403; no credentials is a 401", async () => {
    await call(
      "DELETE /api/orders/{id}",
      { auth: "cookie", params: { id: missing }, headers: { Origin: "https://elsewhere.example" } },
      403,
    );
    await call("DELETE /api/orders/{id}", { auth: "none", params: { id: missing } }, 401);
    await call("DELETE /api/orders/{id}", { auth: { bearer: "a.b.c" }, params: { id: missing } }, 401);
  });

  it("customers", async () => {
    const list = await call("GET /api/customers", { query: { limit: "5" } }, 200);
    expect(list.headers.get("X-Total-Count")).toBe("40");
    await call("GET /api/customers", { query: { q: "a", sort: "totalSpend" } }, 200);
    await call("GET /api/customers", { query: { limit: "0" } }, 400);
    await call("GET /api/customers", { auth: "none" }, 401);
    const created = await call(
      "POST /api/customers",
      { json: { firstName: "Asha", lastName: "Rao", email: "asha.rao@example.com", totalSpend: 1200, visits: 3 } },
      201,
    );
    customerId = created.body.id as unknown as string;
    await call(
      "POST /api/customers",
      { json: { firstName: "Asha", lastName: "Rao", email: "asha.rao@example.com" } },
      409,
    );
    await call("POST /api/customers", { json: { firstName: "", email: "nope" } }, 400);
    await call("POST /api/customers", { body: "{not json", headers: { "Content-Type": "application/json" } }, 400);
    await call("GET /api/customers/{id}", { params: { id: customerId } }, 200);
    await call("GET /api/customers/{id}", { params: { id: missing } }, 404);
    await call(
      "PUT /api/customers/{id}",
      { params: { id: customerId }, json: { firstName: "Asha", lastName: "R", email: "asha.rao@example.com" } },
      200,
    );
    await call(
      "PATCH /api/customers/{id}",
      { params: { id: customerId }, json: { firstName: "Asha", lastName: "Rao", email: "asha.rao@example.com" } },
      200,
    );
    await call(
      "PUT /api/customers/{id}",
      { params: { id: missing }, json: { firstName: "A", lastName: "B", email: "a@b.co" } },
      404,
    );
    await call("GET /api/customers/export", { query: { q: "a" } }, 200);
    await call(
      "POST /api/customers/import",
      {
        body: "First Name,Last Name,Email,Total Spend\nRavi,Kumar,ravi.k@example.com,500\nBad,Row,not-an-email,1\n",
        headers: { "Content-Type": "text/csv" },
      },
      200,
    );
    await call("POST /api/customers/import", { body: "{}", headers: { "Content-Type": "application/json" } }, 400);
    await call("POST /api/customers/import", {
      body: "just one line without anything else\n",
      headers: { "Content-Type": "text/csv" },
    }).then((answer) => expect([200, 422]).toContain(answer.status));
  });

  it("suppressions", async () => {
    await call("POST /api/suppressions", { json: { emails: ["Listed@Example.com", "second@example.com"] } }, 200);
    await call("POST /api/suppressions", { json: { emails: ["not an address"] } }, 400);
    await call("POST /api/suppressions", { json: { emails: [] } }, 400);
    await call("POST /api/suppressions", { json: {} }, 400);
    const list = await call("GET /api/suppressions", { query: { limit: "1" } }, 200);
    expect(list.headers.get("X-Total-Count")).toBe("2");
    await call(
      "GET /api/suppressions",
      { query: { q: "listed", cursor: list.headers.get("X-Next-Cursor") ?? "" } },
      200,
    );
    await call("GET /api/suppressions", { query: { cursor: "nope" } }, 400);
    await call("GET /api/suppressions", { query: { limit: "0" } }, 400);
    await call("GET /api/suppressions/{email}", { params: { email: "listed@example.com" } }, 200);
    await call("GET /api/suppressions/{email}", { params: { email: "nobody@example.com" } }, 404);
    await call("DELETE /api/suppressions/{email}", { params: { email: "LISTED@example.com" } }, 200);
    await call("DELETE /api/suppressions/{email}", { params: { email: "listed@example.com" } }, 404);
    // The customer's story tells what happened to their address.
    await call("POST /api/suppressions", { json: { emails: ["asha.rao@example.com"] } }, 200);
    await call("DELETE /api/suppressions/{email}", { params: { email: "asha.rao@example.com" } }, 200);
    const story = await call(
      "GET /api/customers/{id}/story",
      { params: { id: customerId }, query: { limit: "1" } },
      200,
    );
    expect(story.body).toMatchObject([{ kind: "resubscribed", text: "Resubscribed" }]);
    const older = await call(
      "GET /api/customers/{id}/story",
      { params: { id: customerId }, query: { cursor: story.headers.get("X-Next-Cursor") ?? "" } },
      200,
    );
    expect(older.body).toMatchObject([{ kind: "suppressed", reason: "manual", text: "Suppressed by hand" }]);
    await call("GET /api/customers/{id}/story", { params: { id: customerId }, query: { cursor: "nope" } }, 400);
    await call("GET /api/customers/{id}/story", { params: { id: "0".repeat(24) } }, 404);
    const events = {
      events: [{ id: "cart-9", name: "cart_abandoned", customerId, properties: { total: 1299 } }],
    };
    await call("POST /api/events", { json: events }, 200);
    await call("POST /api/events", { json: { events: [] } }, 400);
    await call(
      "POST /api/events",
      { json: { events: [{ id: "x", name: "viewed", customerId: "0".repeat(24) }] } },
      422,
    );
    const listedEvents = await call("GET /api/events", { query: { name: "cart_abandoned" } }, 200);
    expect(JSON.stringify(listedEvents.body)).toContain("cart-9");
    await call("GET /api/events", { query: { limit: "0" } }, 400);
    // A flow from a starter template: made, read with its figures, its people, changed, deleted.
    const flowInput = {
      name: "Welcome",
      trigger: { type: "event", event: "customer_created" },
      steps: [
        { id: "hello", type: "send", templateId: "starter-welcome" },
        { id: "later", type: "wait", seconds: 86_400 },
        { id: "check", type: "condition", if: { ordered: true }, then: "bye", else: "tag" },
        { id: "tag", type: "tag", add: "no order yet" },
        { id: "bye", type: "exit" },
      ],
      goal: { ordered: true },
      status: "live",
    };
    const flow = await call("POST /api/flows", { json: flowInput }, 200);
    const flowId = String(flow.body.id);
    await call("POST /api/flows", { json: { ...flowInput, steps: [{ id: "w", type: "wait", seconds: -1 }] } }, 400);
    await call(
      "POST /api/flows",
      { json: { ...flowInput, steps: [{ id: "c", type: "condition", if: { ordered: true }, then: "c", else: "c" }] } },
      422,
    );
    await call("GET /api/flows", {}, 200);
    await call("GET /api/flows/{id}", { params: { id: flowId } }, 200);
    await call("GET /api/flows/{id}", { params: { id: "0".repeat(24) } }, 404);
    await call("GET /api/flows/{id}/people", { params: { id: flowId } }, 200);
    await call("GET /api/flows/{id}/people", { params: { id: flowId }, query: { state: "lost" } }, 400);
    await call("PUT /api/flows/{id}", { params: { id: flowId }, json: { ...flowInput, status: "paused" } }, 200);
    await call("PUT /api/flows/{id}", { params: { id: flowId }, json: { name: "" } }, 400);
    await call("DELETE /api/flows/{id}", { params: { id: flowId } }, 200);
    await call("DELETE /api/flows/{id}", { params: { id: flowId } }, 404);
    await call(
      "POST /api/suppressions/import",
      {
        body: "Email Address,Reason\nimported@example.com,unsubscribed\nnot-an-address,\n",
        headers: { "Content-Type": "text/csv" },
      },
      200,
    );
    await call("POST /api/suppressions/import", { body: "name\nA\n", headers: { "Content-Type": "text/csv" } }, 422);
    await call("POST /api/suppressions/import", { body: "{}", headers: { "Content-Type": "application/json" } }, 400);
    await call("GET /api/suppressions/export", {}, 200);
  });

  it("orders", async () => {
    const list = await call("GET /api/orders", { query: { limit: "3" } }, 200);
    expect(list.body).toHaveLength(3);
    await call("GET /api/orders", { query: { cursor: "zz" } }, 400);
    const created = await call(
      "POST /api/orders",
      {
        json: {
          customerId,
          status: "Pending",
          tax: 10,
          items: [{ name: "Tea", description: "Assam", quantity: 2, price: 120.5 }],
        },
      },
      201,
    );
    orderId = created.body.id as unknown as string;
    await call("POST /api/orders", { json: { customerId, items: [] } }, 400);
    await call("POST /api/orders", { json: { customerId: missing, items: [{ name: "x", quantity: 1, price: 1 }] } });
    await call("GET /api/orders/{id}", { params: { id: orderId } }, 200);
    await call("GET /api/orders/{id}", { params: { id: "nope" } }, 404);
    const item = { name: "Tea", quantity: 3, price: 120 };
    await call("PUT /api/orders/{id}", { params: { id: orderId }, json: { status: "Completed", items: [item] } }, 200);
    await call("PATCH /api/orders/{id}", { params: { id: orderId }, json: { items: [item] } }, 200);
    await call("PUT /api/orders/{id}", { params: { id: orderId }, json: { items: [{ name: "" }] } }, 400);
    await call("DELETE /api/orders/{id}", { params: { id: orderId } }, 200);
    await call("DELETE /api/orders/{id}", { params: { id: orderId } }, 404);
  });

  it("segments", async () => {
    const created = await call(
      "POST /api/segments",
      { json: { name: "Everyone", description: "All of them", conditions: { visits: { $gte: 0 } } } },
      201,
    );
    segmentId = created.body.id as unknown as string;
    emptySegmentId = (
      await call("POST /api/segments", { json: { name: "Nobody", conditions: { visits: { $gt: 1_000_000 } } } }, 201)
    ).body.id as unknown as string;
    await call("POST /api/segments", { json: { name: "Bad", conditions: { height: { $gt: 1 } } } }, 400);
    await call("GET /api/segments", {}, 200);
    await call("GET /api/segments", { query: { sort: "size", dir: "asc" } }, 200);
    await call("POST /api/segments/preview", { json: { conditions: { totalSpend: { $gt: 100 } } } }, 200);
    await call("POST /api/segments/preview", { json: {} }, 400);
    await call("POST /api/segments/describe", { json: { description: "customers who spent more than 5000" } }, 200);
    await call("POST /api/segments/describe", { json: { description: "" } }, 400);
    await call("POST /api/segments/describe", { json: { description: "12345 !!!" } }, 422);
    await call("GET /api/segments/{id}", { params: { id: segmentId } }, 200);
    await call("GET /api/segments/{id}", { params: { id: missing } }, 404);
    await call(
      "PUT /api/segments/{id}",
      { params: { id: segmentId }, json: { name: "Everyone", conditions: { visits: { $gte: 0 } }, logicType: "AND" } },
      200,
    );
    await call("GET /api/segments/{id}/audience-count", { params: { id: segmentId } }, 200);
    await call("GET /api/segments/{id}/audience-count", { params: { id: missing } }, 404);
    const page = await call(
      "GET /api/segments/{id}/audience",
      { params: { id: segmentId }, query: { limit: "5" } },
      200,
    );
    expect(page.headers.get("X-Next-Cursor")).toBeTruthy();
    await call("GET /api/segments/{id}/audience", { params: { id: segmentId }, query: { cursor: "x" } }, 400);
  });

  it("templates", async () => {
    const list = await call("GET /api/templates", { query: { search: "offer" } }, 200);
    expect(list.body.templates).toHaveLength(1);
    const input = { name: "Weekly", subject: "Hi {{ customer.first_name }}", format: "markdown", content: "# Hello" };
    const made = await call("POST /api/templates", { json: input }, 201);
    const id = made.body.id as unknown as string;
    await call("POST /api/templates", { json: { ...input, content: "{{ customer.first_name" } }, 422);
    await call("POST /api/templates", { json: { ...input, format: "mjml" } }, 400);
    await call("GET /api/templates/{id}", { params: { id } }, 200);
    await call("GET /api/templates/{id}", { params: { id: "0".repeat(24) } }, 404);
    await call("PUT /api/templates/{id}", { params: { id }, json: { ...input, name: "Weekly news", version: 1 } }, 200);
    await call("PUT /api/templates/{id}", { params: { id }, json: { ...input, version: 1 } }, 409);
    await call("PUT /api/templates/{id}", { params: { id: "starter-offer" }, json: input }, 400);
    await call("POST /api/templates/{id}/render", { params: { id }, json: { sample: { customer: {} } } }, 200);
    await call("POST /api/templates/{id}/render", { params: { id }, json: {} }, 400);
    const check = await call("GET /api/templates/{id}/check", { params: { id: "starter-offer" } }, 200);
    expect(JSON.stringify(check.body)).toContain("It is an example address: put your own");
    await call("GET /api/templates/{id}/check", { params: { id: "0".repeat(24) } }, 404);
    const typed = { name: "Weekly", subject: "Hi {{ customer.", preheader: "", content: "# Hel", text: "", version: 2 };
    await call("PUT /api/templates/{id}/draft", { params: { id }, json: typed }, 200);
    await call("PUT /api/templates/{id}/draft", { params: { id }, json: { ...typed, version: "x" } }, 400);
    await call("PUT /api/templates/{id}/draft", { params: { id: "0".repeat(24) }, json: typed }, 404);
    await call("DELETE /api/templates/{id}/draft", { params: { id } }, 200);
    // A test through the built-in vendor, running here as the server runs it.
    await withBuiltInVendor(async (vendor) => {
      const tested = await call(
        "POST /api/templates/{id}/test",
        { params: { id }, json: { to: ["me@shop.example"] } },
        200,
      );
      expect(tested.body).toMatchObject({ sent: [{ to: "me@shop.example", status: "accepted" }] });
      expect([...vendor.accepted().values()][0]).toMatchObject({ subject: "[Test] Hi" });
    });
    await call("POST /api/templates/{id}/test", { params: { id }, json: { to: [] } }, 400);
    await call("POST /api/templates/{id}/test", { params: { id: "0".repeat(24) }, json: { to: ["a@b.example"] } }, 404);
    const copy = await call("POST /api/templates/{id}/duplicate", { params: { id } }, 201);
    await call("DELETE /api/templates/{id}", { params: { id: copy.body.id as unknown as string } }, 200);
    await call("DELETE /api/templates/{id}", { params: { id: "starter-offer" } }, 400);
  });

  it("images and the brand", async () => {
    // The smallest GIF header that says 2 × 1 pixels.
    const gif = Buffer.from("474946383961020001000000003b", "hex");
    const made = await call(
      "POST /api/images",
      { query: { name: "dot.gif" }, body: new Blob([gif]), headers: { "Content-Type": "image/gif" } },
      201,
    );
    const id = made.body.id as unknown as string;
    await call("POST /api/images", { body: new Blob([gif]), headers: { "Content-Type": "image/gif" } }, 200);
    await call("POST /api/images", { body: "not an image", headers: { "Content-Type": "image/png" } }, 422);
    await call("POST /api/images", { body: "a,b", headers: { "Content-Type": "text/csv" } }, 400);
    await call(
      "POST /api/images",
      {
        body: new Blob([new Uint8Array(1_000_001)]),
        headers: { "Content-Type": "image/png", "Content-Length": "1000001" },
      },
      413,
    );
    const listed = await call("GET /api/images", {}, 200);
    expect(JSON.stringify(listed.body)).toContain("dot.gif");
    await call("GET /api/images/{id}", { params: { id } }, 200);
    await call("GET /api/images/{id}", { params: { id: "0".repeat(24) } }, 404);
    await call(
      "POST /api/templates",
      {
        json: {
          name: "Dot",
          subject: "Dot",
          format: "blocks",
          content: [{ type: "image", src: made.body.url, alt: "A dot", align: "left" }],
        },
      },
      201,
    );
    await call("DELETE /api/images/{id}", { params: { id } }, 409);
    await call("DELETE /api/images/{id}", { params: { id: "0".repeat(24) } }, 404);
    const other = await call(
      "POST /api/images",
      {
        body: new Blob([Buffer.from("474946383961030001000000003b", "hex")]),
        headers: { "Content-Type": "image/gif" },
      },
      201,
    );
    await call("DELETE /api/images/{id}", { params: { id: other.body.id as unknown as string } }, 200);
    await call("GET /api/brand", {}, 200);
    await call("PUT /api/brand", { json: { buttonColor: "#0f766e", postalAddress: "1 Main Road, Pune" } }, 200);
    await call("PUT /api/brand", { json: { font: "comic" } }, 400);
  });

  it("fields and tags", async () => {
    const fields = await call("GET /api/fields", {}, 200);
    expect((fields.body as unknown as { name: string }[]).map((f) => f.name)).toContain("birthday");
    await call(
      "POST /api/fields",
      {
        json: {
          name: "tier",
          label: "Loyalty tier",
          type: "choice",
          choices: ["Gold", "Silver"],
          defaultValue: "silver",
        },
      },
      201,
    );
    await call("POST /api/fields", { json: { name: "tier", label: "Again", type: "text" } }, 409);
    await call("POST /api/fields", { json: { name: "Bad Name", label: "x", type: "text" } }, 400);
    await call("POST /api/fields", { json: { name: "email", label: "x", type: "text" } }, 400);
    await call("POST /api/fields", { json: { name: "size", label: "Size", type: "choice" } }, 400);
    const field = await call("GET /api/fields/{name}", { params: { name: "tier" } }, 200);
    expect(field.body).toMatchObject({ label: "Loyalty tier", defaultValue: "Silver", builtIn: false });
    await call("GET /api/fields/{name}", { params: { name: "nothing" } }, 404);
    await call("PATCH /api/fields/{name}", { params: { name: "tier" }, json: { label: "Tier" } }, 200);
    await call("PATCH /api/fields/{name}", { params: { name: "city" }, json: { label: "Town" } }, 400);
    await call("PATCH /api/fields/{name}", { params: { name: "tier" }, json: { defaultValue: "bronze" } }, 400);

    const created = await call(
      "POST /api/customers",
      {
        json: {
          firstName: "Meera",
          lastName: "Iyer",
          email: "meera.iyer@example.com",
          fields: { city: "Pune", birthday: "1990-12-02" },
          tags: ["VIP", "Trade fair 2026", "vip"],
        },
      },
      201,
    );
    expect(created.body).toMatchObject({
      fields: { city: "Pune", birthday: "1990-12-02", tier: "Silver" },
      tags: ["Trade fair 2026", "VIP"],
    });
    const id = created.body.id as unknown as string;
    await call(
      "POST /api/customers",
      { json: { firstName: "X", lastName: "Y", email: "x.y@example.com", fields: { tier: "platinum" } } },
      400,
    );
    await call(
      "POST /api/customers",
      { json: { firstName: "X", lastName: "Y", email: "x.y@example.com", tags: ["x".repeat(200)] } },
      400,
    );
    // A PUT without fields or tags leaves them as they are.
    const put = await call(
      "PUT /api/customers/{id}",
      { params: { id }, json: { firstName: "Meera", lastName: "Iyer", email: "meera.iyer@example.com" } },
      200,
    );
    expect(put.body).toMatchObject({ fields: { city: "Pune", tier: "Silver" }, tags: ["Trade fair 2026", "VIP"] });

    await call("GET /api/customers/{id}/tags", { params: { id } }, 200);
    await call("GET /api/customers/{id}/tags", { params: { id: missing } }, 404);
    const added = await call("POST /api/customers/{id}/tags", { params: { id }, json: { tags: ["Diwali"] } }, 200);
    expect(added.body).toEqual({ tags: ["Diwali", "Trade fair 2026", "VIP"] });
    await call("POST /api/customers/{id}/tags", { params: { id }, json: { tags: [""] } }, 400);
    await call("DELETE /api/customers/{id}/tags/{tag}", { params: { id, tag: "diwali" } }, 200);
    await call("DELETE /api/customers/{id}/tags/{tag}", { params: { id, tag: "diwali" } }, 404);

    const everyone = Number((await call("GET /api/customers", {}, 200)).headers.get("X-Total-Count"));
    const bulk = await call(
      "POST /api/tags/{tag}/customers",
      { params: { tag: "Everyone" }, json: { segmentId } },
      200,
    );
    expect(bulk.body).toEqual({ tag: "Everyone", tagged: everyone });
    await call("POST /api/tags/{tag}/customers", { params: { tag: "Some" }, json: { customerIds: [id] } }, 200);
    await call("POST /api/tags/{tag}/customers", { params: { tag: "Some" }, json: { segmentId: missing } }, 404);
    await call("POST /api/tags/{tag}/customers", { params: { tag: "Some" }, json: {} }, 400);
    await call("DELETE /api/tags/{tag}/customers", { params: { tag: "some" }, json: { customerIds: [id] } }, 200);
    const tags = await call("GET /api/tags", {}, 200);
    expect(tags.body).toContainEqual({ name: "Everyone", customers: everyone });
    const renamed = await call("PATCH /api/tags/{tag}", { params: { tag: "everyone" }, json: { name: "All" } }, 200);
    expect(renamed.body).toEqual({ name: "All", customers: everyone });
    await call("PATCH /api/tags/{tag}", { params: { tag: "nothing" }, json: { name: "All" } }, 404);
    await call("DELETE /api/tags/{tag}", { params: { tag: "all" } }, 200);
    await call("DELETE /api/tags/{tag}", { params: { tag: "all" } }, 404);
    const deleted = await call("DELETE /api/fields/{name}", { params: { name: "tier" } }, 200);
    expect(deleted.body).toMatchObject({ valuesDeleted: 1 });
    await call("DELETE /api/fields/{name}", { params: { name: "city" } }, 400);
  });

  it("campaigns, their log, their controls and the receipts webhook", async () => {
    const content = { name: "Diwali", subject: "Hi {NAME}", message: "Hello {NAME}", segmentId };
    const launched = await call(
      "POST /api/campaigns",
      { json: content, headers: { "Idempotency-Key": "launch-1" } },
      201,
    );
    campaignId = launched.body.id as unknown as string;
    const replay = await call(
      "POST /api/campaigns",
      { json: content, headers: { "Idempotency-Key": "launch-1" } },
      201,
    );
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    await call(
      "POST /api/campaigns",
      { json: { ...content, name: "Other" }, headers: { "Idempotency-Key": "launch-1" } },
      422,
    );
    await call("POST /api/campaigns", { json: content, headers: { "Idempotency-Key": "has space" } }, 400);
    await call("POST /api/campaigns", { json: { ...content, segmentId: emptySegmentId } }, 422);
    await call("POST /api/campaigns", { json: { ...content, name: "" } }, 400);
    draftId = (await call("POST /api/campaigns", { json: { ...content, status: "Draft" } }, 201)).body
      .id as unknown as string;
    await call("GET /api/campaigns", { query: { limit: "2" } }, 200);
    await call("GET /api/campaigns/{id}", { params: { id: campaignId } }, 200);
    await call("GET /api/campaigns/{id}", { params: { id: missing } }, 404);
    await call("PUT /api/campaigns/{id}", { params: { id: draftId }, json: { ...content, status: "Draft" } }, 200);
    await call("PUT /api/campaigns/{id}", { params: { id: campaignId }, json: { ...content, status: "Draft" } }).then(
      (answer) => expect([404, 409]).toContain(answer.status),
    );
    const logs = await call("GET /api/campaigns/{id}/logs", { params: { id: campaignId }, query: { limit: "5" } }, 200);
    expect(logs.headers.get("X-Total-Count")).toBeTruthy();
    await call("GET /api/campaigns/{id}/logs", { params: { id: campaignId }, query: { status: "nope" } }, 400);
    await call("GET /api/campaigns/{id}/links", { params: { id: campaignId } }, 200);
    await call("GET /api/campaigns/{id}/links", { params: { id: missing } }, 404);
    await answers(
      "GET /api/campaigns/{id}/logs",
      [{ status: "nope" }, { limit: "0" }, { limit: "1001" }, { limit: "x" }, { cursor: "x".repeat(41) }],
      [{ status: " SENT " }],
      { id: campaignId },
    );

    const body = JSON.stringify({
      receipts: [
        { id: deliveryId(campaignId, 1), event: "delivered", at: Date.now() },
        { id: deliveryId(campaignId, 2), event: "failed", at: Date.now(), details: "mailbox full" },
      ],
    });
    const secret = getEnv().receiptsSecret;
    await call(
      "POST /api/webhooks/delivery-receipts",
      {
        auth: "none",
        body,
        headers: { "Content-Type": "application/json", "X-Signature": signReceipts(body, secret) },
      },
      202,
    );
    await call(
      "POST /api/webhooks/delivery-receipts",
      { auth: "none", body, headers: { "X-Signature": "sha256=00" } },
      401,
    );
    for (const bad of [
      { receipts: [{ id: "x", event: "exploded", at: 1 }] },
      { receipts: "x" },
      { receipts: [{ id: tooLongId(), event: "opened", at: 1 }] },
    ]) {
      const raw = JSON.stringify(bad);
      const answer = await call(
        "POST /api/webhooks/delivery-receipts",
        { auth: "none", body: raw, headers: { "X-Signature": signReceipts(raw, secret) } },
        400,
      );
      // The message of the worker's parse, made from the same schema's first issue.
      const issue = ReceiptsBodySchema.safeParse(bad).error?.issues[0];
      expect((answer.body as unknown as { error: { message: string } }).error.message).toBe(
        `${issue?.path.join(".") || "body"}: ${issue?.message}`,
      );
    }

    for (const control of ["pause", "resume", "retry-failed", "cancel"]) {
      const answer = await call("POST /api/campaigns/{id}/{control}", { params: { id: campaignId, control } });
      expect([200, 409], `${control}: ${JSON.stringify(answer.body)}`).toContain(answer.status);
    }
    await call("POST /api/campaigns/{id}/{control}", { params: { id: campaignId, control: "resume" } }, 409);
    await call("POST /api/campaigns/{id}/{control}", { params: { id: campaignId, control: "explode" } }, 404);
    await call("POST /api/campaigns/{id}/{control}", { params: { id: missing, control: "pause" } }, 404);
    await call("DELETE /api/campaigns/{id}", { params: { id: campaignId } }, 200);
    await call("DELETE /api/campaigns/{id}", { params: { id: campaignId } }, 404);
  });

  it("the controls answer 200 on a campaign that allows them", async () => {
    const content = { name: "Controls", subject: "Hi", message: "Hello", segmentId };
    const id = (await call("POST /api/campaigns", { json: content }, 201)).body.id as unknown as string;
    const paused = await call("POST /api/campaigns/{id}/{control}", { params: { id, control: "pause" } });
    if (paused.status === 200)
      await call("POST /api/campaigns/{id}/{control}", { params: { id, control: "resume" } }, 200);
    await call("POST /api/campaigns/{id}/{control}", { params: { id, control: "cancel" } });
    await call("POST /api/campaigns/{id}/{control}", { params: { id, control: "retry-failed" } });
    expect(answered.get("post /api/campaigns/{id}/{control}")?.has(200)).toBe(true);
  });

  it("resend to non-openers", async () => {
    const content = { name: "Resent", subject: "Hi", message: "Hello", segmentId };
    const id = (await call("POST /api/campaigns", { json: content }, 201)).body.id as unknown as string;
    const resend = "POST /api/campaigns/{id}/resend-non-openers";
    await call(resend, { params: { id }, json: { subject: "Again" } }, 409);
    // Sent and finished: the delivery job's part, done here by hand.
    await sqlRun(connection(), `UPDATE "Delivery" SET "status" = 'delivered' WHERE "campaignId" = ?`, [id]);
    await sqlRun(connection(), `UPDATE "Campaign" SET "status" = 'Completed' WHERE "id" = ?`, [id]);
    await campaigns.recountCampaign(connection(), id);
    await call(resend, { params: { id }, json: { subject: " " } }, 400);
    await call(resend, { params: { id: missing }, json: { subject: "Again" } }, 404);
    const draft = await call(resend, { params: { id }, json: { subject: "Again" } }, 201);
    expect(draft.body).toMatchObject({ status: "Draft", resendOfId: id, name: "Resent — non-openers" });
  });

  it("notifications", async () => {
    notificationId = (await notify(userId, { type: "SYSTEM", title: "Documented", details: "Hello" })).id;
    await notify(userId, { type: "SYSTEM", title: "Another" });
    await call("GET /api/notifications", {}, 200);
    await call("GET /api/notifications", { query: { type: "campaign", limit: "5" } }, 200);
    await call("PUT /api/notifications/{id}/read", { params: { id: notificationId } }, 200);
    await call("POST /api/notifications/{id}/read", { params: { id: notificationId } }, 200);
    await call("PUT /api/notifications/{id}/read", { params: { id: missing } }, 404);
    await call("PUT /api/notifications/read-all", {}, 200);
    await call("POST /api/notifications/read-all", {}, 200);
    await call("DELETE /api/notifications/{id}", { params: { id: notificationId } }, 200);
    await call("DELETE /api/notifications/{id}", { params: { id: notificationId } }, 404);
    await call("GET /api/notifications/stream", {}, 200);
    await call("GET /api/notifications/stream", { auth: "none" }, 401);
  });

  it("segment delete, naming the drafts it leaves without a segment", async () => {
    const id = (
      await call("POST /api/segments", { json: { name: "To delete", conditions: { visits: { $gte: 0 } } } }, 201)
    ).body.id as unknown as string;
    const draft = { name: "Orphan", subject: "Hi", message: "Hello", segmentId: id, status: "Draft" };
    await call("POST /api/campaigns", { json: draft }, 201);
    const answer = await call("DELETE /api/segments/{id}", { params: { id } }, 200);
    expect(answer.body).toMatchObject({ success: true, warnings: [expect.stringContaining("Orphan")] });
    await call("DELETE /api/segments/{id}", { params: { id } }, 404);
  });

  it("the bounce and complaint feeds, with fakes that sign as SNS and SendGrid do", async () => {
    const sns = await startFakeSns();
    trustFakeSns(sns);
    const sendgrid = fakeSendgrid();
    process.env.SES_SNS_TOPIC_ARNS = sns.topicArn;
    process.env.SNS_CERT_HOST_PATTERN = String.raw`^127\.0\.0\.1$`;
    process.env.SENDGRID_WEBHOOK_PUBLIC_KEY = sendgrid.publicKey;
    resetEnvCache();
    try {
      const snsPost = (message: unknown) => ({
        auth: "none" as const,
        body: JSON.stringify(message),
        headers: { "Content-Type": "text/plain; charset=UTF-8" },
      });
      const delivery = { notificationType: "Delivery", mail: { commonHeaders: { messageId: "<a@b.c>" } } };
      await call("POST /api/webhooks/ses", snsPost(sns.notification(delivery)), 200);
      await call("POST /api/webhooks/ses", snsPost({ ...sns.notification(delivery), Signature: "AAAA" }), 401);
      const otherTopic = sns.notification(delivery, { topicArn: "arn:aws:sns:us-east-1:123456789012:x" });
      await call("POST /api/webhooks/ses", snsPost(otherTopic), 403);
      await call("POST /api/webhooks/ses", { auth: "none", body: "{" }, 400);
      const body = JSON.stringify([]);
      await call("POST /api/webhooks/sendgrid", { auth: "none", body, headers: sendgrid.sign(body) }, 200);
      await call("POST /api/webhooks/sendgrid", { auth: "none", body }, 401);
      await call("POST /api/webhooks/sendgrid", { auth: "none", body: "{", headers: sendgrid.sign("{") }, 400);
      delete process.env.SES_SNS_TOPIC_ARNS;
      delete process.env.SENDGRID_WEBHOOK_PUBLIC_KEY;
      resetEnvCache();
      await call("POST /api/webhooks/ses", snsPost(sns.notification(delivery)), 404);
      await call("POST /api/webhooks/sendgrid", { auth: "none", body, headers: sendgrid.sign(body) }, 404);
    } finally {
      delete process.env.SES_SNS_TOPIC_ARNS;
      delete process.env.SNS_CERT_HOST_PATTERN;
      delete process.env.SENDGRID_WEBHOOK_PUBLIC_KEY;
      resetEnvCache();
      await sns.close();
    }
  });

  it("AI, dashboard, and last the logout", async () => {
    await call("POST /api/ai/message-suggestions", { json: { segmentId, campaignObjective: "Festive sale" } }, 200);
    await call("POST /api/ai/message-suggestions", { json: { segmentId: emptySegmentId } }, 422);
    await call("POST /api/ai/message-suggestions", { json: { segmentId: missing } }, 404);
    await call("GET /api/ai/insights", {}, 200);
    await call("GET /api/stats/historical", {}, 200);
    await call("DELETE /api/customers/{id}", { params: { id: customerId } }, 200);
    await call("POST /api/auth/logout", { auth: "none" }, 200);
    await call("POST /api/auth/logout", {}, 200);
    await call("GET /api/auth/profile", {}, 401);
    await call("GET /api/openapi.json", { auth: "none" }, 200);
  });

  it("every operation of the document was seen succeeding", () => {
    const missed: string[] = [];
    for (const [template, item] of Object.entries(document.paths)) {
      for (const method of HTTP_METHODS) {
        if (!item[method]) continue;
        const statuses = [...(answered.get(`${method} ${template}`) ?? [])];
        if (!statuses.some((s) => s >= 200 && s < 400)) missed.push(`${method.toUpperCase()} ${template}`);
      }
    }
    expect(missed).toEqual([]);
  });
});

function tooLongId() {
  return "x".repeat(65);
}
