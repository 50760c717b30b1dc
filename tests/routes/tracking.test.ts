// @engines sqlite postgres
// /o/TOKEN and /c/TOKEN (app/routes/track-open.ts, track-click.ts), first as their loaders with real
// Requests, then over real HTTP through the server's request listener: the pixel is the same 43-byte
// GIF for any token, a click answers 302 to exactly the link's original address, a token altered in
// any character records nothing (and a click's redirects nowhere); HEAD, bots and Apple's privacy
// proxy are queued as machines; no cookie, no Referer, no index, and the log never holds a token.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { ServerBuild } from "@remix-run/node";
import { pino } from "pino";
import type { ViteDevServer } from "vite";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { appOf, createRequestListener } from "../../server/app";
import { loadDevServerBuild } from "../helpers/dev-server-build";
import { useTestConnection, useTestDatabase as setUpTestDatabase } from "../helpers/db";
import { makeRequest } from "../helpers/requests";

setUpTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();
const { sqlRows } = await import("../helpers/sql");

const openRoute = await import("~/routes/track-open");
const clickRoute = await import("~/routes/track-click");
const { clickTrackingToken, openTrackingToken } = await import("~/services/tracking-token.server");
const { deliveryKey } = await import("~/lib/campaigns");
const { newId } = await import("~/lib/id");

const GIF_HEX = "47494638396101000100800000ffffff00000021f90401000000002c00000000010001000002024401003b";
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

type Queued = { id: string; event: string; source?: string; machine?: boolean; link?: number; at: number };

/** Every receipt queued so far (the inbox the delivery job applies), oldest first. */
async function queued(): Promise<Queued[]> {
  const rows = await sqlRows<{ receipts: string }>(connection(), `SELECT "receipts" FROM "ReceiptInbox" ORDER BY "id"`);
  return rows.flatMap((r) => JSON.parse(r.receipts) as Queued[]);
}
let before = 0;
beforeEach(async () => {
  before = (await queued()).length;
});
const queuedSince = async () => (await queued()).slice(before);

const message = () => ({ userId: newId(), campaignId: newId(), seq: 42, retries: 1 });
const altered = (token: string, at: number) =>
  `${token.slice(0, at)}${token[at] === "A" ? "B" : "A"}${token.slice(at + 1)}`;

function hit(
  route: typeof openRoute | typeof clickRoute,
  prefix: "o" | "c",
  token: string,
  opts: { method?: string; userAgent?: string; ip?: string } = {},
) {
  const request = makeRequest(`/${prefix}/${token}`, {
    method: opts.method ?? "GET",
    headers: opts.userAgent === undefined ? { "User-Agent": CHROME } : { "User-Agent": opts.userAgent },
  });
  return route.loader({ request, params: { token }, context: { clientIp: opts.ip ?? "203.0.113.7" } });
}

describe("the open pixel's loader", () => {
  it("answers the 43-byte transparent GIF, never cached or sent on, and queues a person's open", async () => {
    const m = message();
    const res = await hit(openRoute, "o", openTrackingToken(m));
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).toString("hex")).toBe(GIF_HEX);
    expect(res.headers.get("Content-Type")).toBe("image/gif");
    expect(res.headers.get("Content-Length")).toBe("43");
    expect(res.headers.get("Cache-Control")).toBe("no-store, private");
    expect(res.headers.get("Referrer-Policy")).toBe("no-referrer");
    expect(res.headers.get("X-Robots-Tag")).toBe("noindex");
    expect(res.headers.get("Set-Cookie")).toBeNull();
    expect(await queuedSince()).toEqual([
      expect.objectContaining({
        id: deliveryKey(m.campaignId, 42, 1),
        event: "opened",
        source: "pixel",
        machine: false,
      }),
    ]);
  });

  it("answers the same GIF for a bad or altered token and queues nothing", async () => {
    const token = openTrackingToken(message());
    for (const bad of [altered(token, 5), altered(token, token.length - 1), "nonsense", ""]) {
      const res = await hit(openRoute, "o", bad);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).toString("hex")).toBe(GIF_HEX);
    }
    // A click token is not an open token.
    await hit(openRoute, "o", clickTrackingToken(message(), 0, "https://shop.in/"));
    expect(await queuedSince()).toEqual([]);
  });

  it("marks HEAD, a bot and Apple's privacy proxy (bare Mozilla/5.0, or 17.0.0.0/8) as machine opens", async () => {
    const m = message();
    const token = openTrackingToken(m);
    const head = await hit(openRoute, "o", token, { method: "HEAD" });
    expect(head.status).toBe(200);
    await hit(openRoute, "o", token, { userAgent: "Googlebot-Image/1.0" });
    await hit(openRoute, "o", token, { userAgent: "Mozilla/5.0", ip: "104.28.40.1" });
    await hit(openRoute, "o", token, { ip: "17.58.63.10" });
    await hit(openRoute, "o", token);
    expect((await queuedSince()).map((r) => r.machine)).toEqual([true, true, true, true, false]);
  });
});

describe("a tracked link's loader", () => {
  it("answers 302 to exactly the original address and queues a person's click with the link's index", async () => {
    const m = message();
    const url = "https://shop.in/sale?utm_source=mail&x=1#top";
    const res = await hit(clickRoute, "c", clickTrackingToken(m, 2, url));
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(url);
    expect(res.headers.get("Cache-Control")).toBe("no-store, private");
    expect(res.headers.get("Referrer-Policy")).toBe("no-referrer");
    expect(res.headers.get("X-Robots-Tag")).toBe("noindex");
    expect(res.headers.get("Set-Cookie")).toBeNull();
    expect(await queuedSince()).toEqual([
      expect.objectContaining({
        id: deliveryKey(m.campaignId, 42, 1),
        event: "clicked",
        source: "link",
        link: 2,
        machine: false,
      }),
    ]);
  });

  it("keeps a non-ASCII address, percent-encoded as a Location must be", async () => {
    const res = await hit(clickRoute, "c", clickTrackingToken(message(), 0, "https://shop.in/दिवाली?q=ü"));
    expect(res.headers.get("Location")).toBe(
      "https://shop.in/%E0%A4%A6%E0%A4%BF%E0%A4%B5%E0%A4%BE%E0%A4%B2%E0%A5%80?q=%C3%BC",
    );
  });

  it("an altered token is a small 404 page, redirects nowhere and queues nothing", async () => {
    const token = clickTrackingToken(message(), 0, "https://shop.in/a");
    for (const bad of [altered(token, 0), altered(token, 20), altered(token, token.length - 2), "x"]) {
      const res = await hit(clickRoute, "c", bad);
      expect(res.status).toBe(404);
      expect(res.headers.get("Location")).toBeNull();
      expect(res.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
      expect(await res.text()).toContain("This link is not valid.");
    }
    // An open token, or a crafted address in the path or query, is not a link.
    for (const crafted of [
      openTrackingToken(message()),
      "https%3A%2F%2Fevil.example",
      `${token}?url=https://evil.example`,
    ]) {
      const res = await hit(clickRoute, "c", crafted);
      expect(res.status).toBe(404);
      expect(res.headers.get("Location")).toBeNull();
    }
    expect(await queuedSince()).toEqual([]);
  });

  it("marks HEAD and a bot as machine clicks, and still redirects them", async () => {
    const token = clickTrackingToken(message(), 1, "https://shop.in/b");
    const head = await hit(clickRoute, "c", token, { method: "HEAD" });
    expect(head.status).toBe(302);
    const bot = await hit(clickRoute, "c", token, { userAgent: "Mozilla/5.0 (compatible; bingbot/2.0)" });
    expect(bot.headers.get("Location")).toBe("https://shop.in/b");
    await hit(clickRoute, "c", token);
    expect((await queuedSince()).map((r) => [r.link, r.machine])).toEqual([
      [1, true],
      [1, true],
      [1, false],
    ]);
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
    server = http.createServer(
      createRequestListener({ build, app: appOf(build), log, mode: "production", vite, trustProxy: "loopback" }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await vite.close();
  });

  it("one Referrer-Policy (no-referrer), no cookie, the client's address from a trusted proxy, and tokens out of the log", async () => {
    const open = openTrackingToken(message());
    const click = clickTrackingToken(message(), 0, "https://shop.in/x?y=1");
    lines.length = 0;
    const pixel = await fetch(`${base}/o/${open}`, {
      headers: { "User-Agent": CHROME, "X-Forwarded-For": "17.1.2.3" },
    });
    expect(pixel.status).toBe(200);
    expect(pixel.headers.get("Referrer-Policy")).toBe("no-referrer");
    expect(pixel.headers.get("Set-Cookie")).toBeNull();
    expect(Buffer.from(await pixel.arrayBuffer()).toString("hex")).toBe(GIF_HEX);
    const redirect = await fetch(`${base}/c/${click}`, { redirect: "manual", headers: { "User-Agent": CHROME } });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("Location")).toBe("https://shop.in/x?y=1");
    expect(redirect.headers.get("Referrer-Policy")).toBe("no-referrer");
    expect(redirect.headers.get("X-Robots-Tag")).toBe("noindex");
    expect(redirect.headers.get("Set-Cookie")).toBeNull();
    const refused = await fetch(`${base}/c/${altered(click, 3)}`, { redirect: "manual" });
    expect(refused.status).toBe(404);
    expect(refused.headers.get("Location")).toBeNull();
    // The pixel's hit came through a trusted proxy from Apple's network: a machine open.
    expect((await queuedSince()).map((r) => [r.event, r.machine])).toEqual([
      ["opened", true],
      ["clicked", false],
    ]);
    await expect.poll(() => lines.filter((l) => l.msg === "request").length).toBe(3);
    expect(lines.filter((l) => l.msg === "request").map((l) => [l.path, l.status])).toEqual([
      ["/o/[token]", 200],
      ["/c/[token]", 302],
      ["/c/[token]", 404],
    ]);
    expect(JSON.stringify(lines)).not.toContain(open.slice(0, 12));
    expect(JSON.stringify(lines)).not.toContain(click.slice(0, 12));
  });
});
