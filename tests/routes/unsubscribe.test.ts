// @engines sqlite postgres
// /u/TOKEN (app/routes/unsubscribe.tsx), first as its loader and action, then over real HTTP
// through the server's request listener (server/app.ts) with the app read through Vite: a one-click
// POST (RFC 8058) from a mailbox provider (no cookie, another site's Origin, URL-encoded or
// multipart) unsubscribes at once and a second one changes nothing; GET and HEAD never do; an
// altered token is a 404 that changes nothing; the page's own forms work as plain HTML forms; the
// answers are never cached, indexed or sent on as a Referer; the log never holds the token.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { ServerBuild } from "@remix-run/node";
import { pino } from "pino";
import type { ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appOf, createRequestListener } from "../../server/app";
import { loadDevServerBuild } from "../helpers/dev-server-build";
import { createTestUser, useTestDatabase as setUpTestDatabase } from "../helpers/db";
import { args, makeRequest } from "../helpers/requests";

setUpTestDatabase();

const route = await import("~/routes/unsubscribe");
const { unsubscribeToken } = await import("~/services/unsubscribe-token.server");
const { suppressions } = await import("~/models/suppressions/store.server");
const { newId, isId } = await import("~/lib/id");

const ONE_CLICK = "List-Unsubscribe=One-Click";

/** A fresh tenant and the token of one of its recipients (a campaign id that names no campaign). */
async function recipient(email = `ravi-${newId()}@example.com`, name = "Asha Traders") {
  const user = await createTestUser(name);
  const token = unsubscribeToken({ userId: user.id, campaignId: newId(), email });
  return { user, email: email.toLowerCase(), token };
}

/** A token with its character at `at` changed to another base64url character. */
function altered(token: string, at: number): string {
  const c = token[at] === "A" ? "B" : "A";
  return `${token.slice(0, at)}${c}${token.slice(at + 1)}`;
}

/** A loader's or action's answer, returned or thrown: its status and its data. */
async function settle(run: () => Promise<unknown>): Promise<{ status: number; data: unknown }> {
  let value: unknown;
  try {
    value = await run();
  } catch (thrown) {
    value = thrown;
  }
  if (value instanceof Response) return { status: value.status, data: await value.text() };
  const result = value as { type?: string; data?: unknown; init?: { status?: number } | null };
  if (result && typeof result === "object" && result.type === "DataWithResponseInit")
    return { status: result.init?.status ?? 200, data: result.data };
  if (value instanceof Error) throw value;
  return { status: 200, data: value };
}

const get = (token: string) => settle(() => route.loader(args(makeRequest(`/u/${token}`), { token })));
const post = (token: string, body: BodyInit, headers: Record<string, string> = {}) =>
  settle(() => route.action(args(makeRequest(`/u/${token}`, { method: "POST", body, headers }), { token })));
const oneClick = (token: string) => post(token, ONE_CLICK, { "Content-Type": "application/x-www-form-urlencoded" });

describe("the route module", () => {
  it("GET shows the sender and the masked address and never suppresses", async () => {
    const { user, email, token } = await recipient("meera@example.com", "Meera's Kitchen");
    for (let i = 0; i < 3; i++) {
      expect(await get(token)).toEqual({
        status: 200,
        data: { senderName: "Meera's Kitchen", maskedEmail: "m•••@example.com", state: "subscribed", reason: null },
      });
    }
    expect(await suppressions.findSuppression(user.id, email)).toBeNull();
  });

  it("a one-click POST without cookie suppresses at once; a second changes nothing and writes no second event", async () => {
    const { user, email, token } = await recipient();
    expect(await oneClick(token)).toEqual({ status: 200, data: { done: "unsubscribed" } });
    const entry = await suppressions.findSuppression(user.id, email);
    expect(entry).toMatchObject({ reason: "unsubscribed", campaignName: "" });
    expect(await oneClick(token)).toEqual({ status: 200, data: { done: "unsubscribed" } });
    expect(await suppressions.findSuppression(user.id, email)).toEqual(entry);
    expect(await suppressions.suppressionEventsOf(user.id, email)).toHaveLength(1);
    expect((await get(token)).data).toMatchObject({ state: "unsubscribed" });
  });

  it("takes the one-click body as multipart/form-data too", async () => {
    const { user, email, token } = await recipient();
    const form = new FormData();
    form.set("List-Unsubscribe", "One-Click");
    expect(await post(token, form)).toEqual({ status: 200, data: { done: "unsubscribed" } });
    expect(await suppressions.findSuppression(user.id, email)).toMatchObject({ reason: "unsubscribed" });
  });

  it("the page's buttons unsubscribe and resubscribe; a bounced address cannot be resubscribed", async () => {
    const { user, email, token } = await recipient();
    const form = (intent: string) =>
      post(token, new URLSearchParams({ intent }), { "Content-Type": "application/x-www-form-urlencoded" });
    expect(await form("unsubscribe")).toEqual({ status: 200, data: { done: "unsubscribed" } });
    expect(await form("resubscribe")).toEqual({ status: 200, data: { done: "resubscribed" } });
    expect(await suppressions.findSuppression(user.id, email)).toBeNull();
    expect(await form("resubscribe")).toEqual({ status: 200, data: { done: "not-suppressed" } });
    await suppressions.addSuppressions(user.id, [{ email, reason: "hard-bounced" }]);
    expect(await form("resubscribe")).toEqual({ status: 200, data: { done: "refused" } });
    expect(await suppressions.findSuppression(user.id, email)).toMatchObject({ reason: "hard-bounced" });
    expect((await get(token)).data).toMatchObject({ state: "blocked", reason: "hard-bounced" });
  });

  it("an altered token (any one character) is a 404 on GET and POST, and nothing changes", async () => {
    const { user, email, token } = await recipient();
    for (const at of [0, 5, Math.floor(token.length / 2), token.length - 2, token.length - 1]) {
      const bad = altered(token, at);
      expect(await get(bad), `GET, character ${at}`).toMatchObject({ status: 404 });
      expect(await oneClick(bad), `POST, character ${at}`).toMatchObject({ status: 404 });
    }
    for (const bad of ["", "not-a-token", `${token}x`, token.slice(0, -1), "A".repeat(2000)])
      expect(await oneClick(bad)).toMatchObject({ status: 404 });
    expect(await suppressions.findSuppression(user.id, email)).toBeNull();
    expect(await suppressions.suppressionEventsOf(user.id, email)).toEqual([]);
  });

  it("a body that asks for nothing is a 400 with a good token and a 404 with a bad one; no body is not read as a click", async () => {
    const { user, email, token } = await recipient();
    const bodies: [BodyInit, Record<string, string>][] = [
      ["List-Unsubscribe=Yes", { "Content-Type": "application/x-www-form-urlencoded" }],
      ["intent=delete", { "Content-Type": "application/x-www-form-urlencoded" }],
      ['{"List-Unsubscribe":"One-Click"}', { "Content-Type": "application/json" }],
      ["--x\r\nbroken", { "Content-Type": "multipart/form-data; boundary=x" }],
      ["", {}],
    ];
    for (const [body, headers] of bodies) {
      const answer = await post(token, body, headers);
      expect(answer.status, String(body)).toBe(400);
      expect(answer.data).toContain("List-Unsubscribe=One-Click");
      expect((await post(altered(token, 3), body, headers)).status).toBe(404);
    }
    expect(await suppressions.findSuppression(user.id, email)).toBeNull();
  });

  it("a token of tenant A never touches tenant B's list", async () => {
    const a = await recipient("shared@example.com", "Tenant A");
    const b = await recipient("shared@example.com", "Tenant B");
    await oneClick(a.token);
    expect(await suppressions.findSuppression(a.user.id, "shared@example.com")).toMatchObject({
      reason: "unsubscribed",
    });
    expect(await suppressions.findSuppression(b.user.id, "shared@example.com")).toBeNull();
    expect((await get(b.token)).data).toMatchObject({ senderName: "Tenant B", state: "subscribed" });
  });

  it("the token reveals nothing: its bytes hold neither the address nor the ids in clear", async () => {
    const { user } = await recipient();
    const campaignId = newId();
    const email = "ravi.kumar@example.com";
    const token = unsubscribeToken({ userId: user.id, campaignId, email });
    const bytes = Buffer.from(token, "base64url");
    const latin = bytes.toString("latin1");
    for (const clear of [email, "ravi", "example.com", user.id, campaignId]) expect(latin).not.toContain(clear);
    for (const id of [user.id, campaignId]) {
      expect(isId(id)).toBe(true);
      expect(bytes.includes(Buffer.from(id, "hex"))).toBe(false);
    }
    expect(token).not.toContain(user.id);
    expect(token).not.toContain(campaignId);
  });
});

describe("over HTTP, through the server's request listener", () => {
  type Line = Record<string, unknown>;
  const lines: Line[] = [];
  let vite: ViteDevServer;
  let server: http.Server;
  let base = "";

  beforeAll(async () => {
    const loaded = await loadDevServerBuild();
    vite = loaded.vite;
    const build: ServerBuild = loaded.build;
    const log = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line) as Line) });
    server = http.createServer(createRequestListener({ build, app: appOf(build), log, mode: "production", vite }));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await vite.close();
  });

  const expectPublicHeaders = (res: Response) => {
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("Referrer-Policy")).toBe("no-referrer");
    expect(res.headers.get("X-Robots-Tag")).toBe("noindex");
  };

  it("GET renders the page outside the app shell with the Unsubscribe form; GET and HEAD never suppress", async () => {
    const { user, email, token } = await recipient("asha@example.com", "Asha Traders");
    const res = await fetch(`${base}/u/${token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
    expectPublicHeaders(res);
    const html = await res.text();
    expect(html).toContain("Unsubscribe from Asha Traders?");
    expect(html).toContain("a•••@example.com");
    expect(html).not.toContain("asha@example.com");
    // A plain form posting to this address: it works before (or without) any JavaScript.
    const form = /<form\b[^>]*>/.exec(html)?.[0] ?? "";
    expect(form).toContain('method="post"');
    expect(form).toContain(`action="/u/${token}"`);
    expect(html).toMatch(/<button[^>]*name="intent" value="unsubscribe"[^>]*>Unsubscribe<\/button>/);
    expect(html).not.toContain('aria-label="Main navigation"');
    const head = await fetch(`${base}/u/${token}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    expect(await suppressions.findSuppression(user.id, email)).toBeNull();
  });

  it("a one-click POST from a mailbox provider (no cookie, another site's Origin) unsubscribes: URL-encoded and multipart", async () => {
    const first = await recipient();
    const res = await fetch(`${base}/u/${first.token}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://mail.example" },
      body: ONE_CLICK,
      redirect: "manual",
    });
    expect(res.status).toBe(200);
    expectPublicHeaders(res);
    expect(await res.text()).toContain("You are unsubscribed");
    expect(await suppressions.findSuppression(first.user.id, first.email)).toMatchObject({ reason: "unsubscribed" });

    const again = await fetch(`${base}/u/${first.token}`, { method: "POST", body: new URLSearchParams(ONE_CLICK) });
    expect(again.status).toBe(200);
    await again.arrayBuffer();
    expect(await suppressions.suppressionEventsOf(first.user.id, first.email)).toHaveLength(1);

    const second = await recipient();
    const form = new FormData();
    form.set("List-Unsubscribe", "One-Click");
    const multipart = await fetch(`${base}/u/${second.token}`, {
      method: "POST",
      headers: { Origin: "null", Referer: "https://mail.example/inbox" },
      body: form,
    });
    expect(multipart.status).toBe(200);
    await multipart.arrayBuffer();
    expect(await suppressions.findSuppression(second.user.id, second.email)).toMatchObject({ reason: "unsubscribed" });
  });

  it("the page's forms posted without JavaScript answer the page in its new state", async () => {
    const { user, email, token } = await recipient("meera@example.com", "Meera's Kitchen");
    const send = async (intent: string) => {
      const res = await fetch(`${base}/u/${token}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
        body: new URLSearchParams({ intent }),
        redirect: "manual",
      });
      expect(res.status, intent).toBe(200);
      return res.text();
    };
    const unsubscribed = await send("unsubscribe");
    expect(unsubscribed).toContain("You are unsubscribed");
    // React puts a comment between the text and the name it renders into it.
    expect(unsubscribed).toMatch(/You will not get more e-mail from (<!-- -->)?Meera&#x27;s Kitchen/);
    expect(unsubscribed).toMatch(/name="intent" value="resubscribe"/);
    const resubscribed = await send("resubscribe");
    expect(resubscribed).toContain("You are subscribed again");
    expect(await suppressions.findSuppression(user.id, email)).toBeNull();
  });

  it("an altered token is a 404 page that changes nothing; other methods are 405 with Allow", async () => {
    const { user, email, token } = await recipient();
    const bad = altered(token, 7);
    const page = await fetch(`${base}/u/${bad}`);
    expect(page.status).toBe(404);
    expectPublicHeaders(page);
    expect(await page.text()).toContain("This unsubscribe link is not valid");
    const click = await fetch(`${base}/u/${bad}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://mail.example" },
      body: ONE_CLICK,
    });
    expect(click.status).toBe(404);
    await click.arrayBuffer();
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      const res = await fetch(`${base}/u/${token}`, { method });
      expect(res.status, method).toBe(405);
      expect(res.headers.get("Allow"), method).toBe("GET, POST");
      await res.arrayBuffer();
    }
    expect(await suppressions.findSuppression(user.id, email)).toBeNull();
  });

  it("logs the path as /u/[token], never the token", async () => {
    const { token } = await recipient();
    lines.length = 0;
    await (await fetch(`${base}/u/${token}`)).arrayBuffer();
    await (await fetch(`${base}/u/${token}`, { method: "POST", body: new URLSearchParams(ONE_CLICK) })).arrayBuffer();
    await (await fetch(`${base}/u/${altered(token, 4)}.data`)).arrayBuffer();
    await expect.poll(() => lines.filter((l) => l.msg === "request").length).toBe(3);
    expect(lines.filter((l) => l.msg === "request").map((l) => [l.method, l.path])).toEqual([
      ["GET", "/u/[token]"],
      ["POST", "/u/[token]"],
      ["GET", "/u/[token].data"],
    ]);
    expect(JSON.stringify(lines)).not.toContain(token.slice(0, 12));
  });

  it("other pages still refuse a form from another site", async () => {
    const res = await fetch(`${base}/login`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://mail.example" },
      body: "email=a%40example.com&password=x",
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
    await res.arrayBuffer();
  });
});
