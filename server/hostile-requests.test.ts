// @engines sqlite postgres
// Requests built to hurt, over real sockets against the server's own request listener and its
// clientError listener (server/index.ts mounts both), with the app read through Vite's module
// graph and a real migrated SQLite database, /api through Remix's handler and through the /api
// server alike: header values Node's parser refuses (answered in the /api error shape), signature
// headers that reach the receipts webhook with stray characters (its JSON 401), JSON bodies nested
// hundreds of thousands deep (a 400 found before parsing, while /healthz keeps answering) or too
// large (413), sign-out by GET (405), and a page write from another site carrying only a Referer.
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRequestServers } from "../tests/helpers/dev-server-build";
import { createTestUser, useTestDatabase as setUpTestDatabase } from "../tests/helpers/db";
import { bearerFor, cookieFor } from "../tests/helpers/requests";

setUpTestDatabase();

const { getEnv } = await import("~/env.server");
const { signReceipts } = await import("~/services/sending/receipt-signature.server");
const { JSON_TOO_DEEP } = await import("~/lib/api.server");

let servers: Awaited<ReturnType<typeof startRequestServers>>;

beforeAll(async () => {
  servers = await startRequestServers();
}, 120_000);

afterAll(async () => {
  await servers.close();
});

type RawAnswer = { status: number; headers: Record<string, string>; body: string };

/** Writes the bytes as they are (no client library checks them) and reads the answer until the server closes. */
function rawRequest(port: number, bytes: Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const split = text.indexOf("\r\n\r\n");
      const [statusLine = "", ...lines] = text.slice(0, split).split("\r\n");
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
      );
      let body = text.slice(split + 4);
      if (headers["transfer-encoding"] === "chunked") {
        let out = "";
        for (let rest = body; ;) {
          const size = Number.parseInt(rest, 16);
          if (!size) break;
          const start = rest.indexOf("\r\n") + 2;
          out += rest.slice(start, start + size);
          rest = rest.slice(start + size + 2);
        }
        body = out;
      }
      resolve({
        status: Number(statusLine.split(" ")[1]),
        headers,
        body: Buffer.from(body, "latin1").toString("utf8"),
      });
    });
    // Written, not ended: Node's server drops a half-closed connection before an answer that takes
    // a moment (the webhook's worker thread), and a real client waits for the answer anyway.
    socket.write(bytes);
  });
}

/** A receipts post whose X-Signature header is exactly these bytes. */
function receiptsPost(signature: Buffer, body: string): Buffer {
  return Buffer.concat([
    Buffer.from("POST /api/webhooks/delivery-receipts HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"),
    Buffer.from("Content-Type: application/json\r\nX-Signature: "),
    signature,
    Buffer.from(`\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`),
  ]);
}

const EMPTY_BATCH = JSON.stringify({ receipts: [] });

describe("what Node's HTTP parser refuses before our code runs", () => {
  it.each([
    ["NUL", "\u0000"],
    ["SOH", "\u0001"],
    ["ESC", "\u001b"],
    ["DEL", "\u007f"],
    ["a lone LF", "\n"],
    ["a lone CR", "\r"],
  ])("an X-Signature holding %s is a 400 in the /api error shape, not Node's bare status line", async (_name, char) => {
    const good = signReceipts(EMPTY_BATCH, getEnv().receiptsSecret);
    const signature = Buffer.from(`${good.slice(0, 20)}${char}${good.slice(20)}`, "latin1");
    for (const port of Object.values(servers.ports)) {
      const answer = await rawRequest(port, receiptsPost(signature, EMPTY_BATCH));
      expect(answer.status).toBe(400);
      expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(answer.headers["x-content-type-options"]).toBe("nosniff");
      expect(JSON.parse(answer.body)).toEqual({
        error: {
          code: "bad_request",
          message:
            "The request is malformed: its request line or a header holds a character HTTP does not allow (a control character, a lone CR or LF).",
        },
      });
    }
  });

  it("headers over Node's limit keep Node's 431", async () => {
    const bytes = Buffer.from(`GET /api/customers HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect((await rawRequest(Object.values(servers.ports)[0]!, bytes)).status).toBe(431);
  });
});

describe.each(["Remix's handler", "the /api server"] as const)("through %s", (name) => {
  let port = 0;
  let base = "";
  beforeAll(() => {
    port = servers.ports[name];
    base = `http://127.0.0.1:${port}`;
  });

  it("a signature header that reaches the webhook with a stray character is its JSON 401, like any bad signature", async () => {
    const good = signReceipts(EMPTY_BATCH, getEnv().receiptsSecret);
    const refused = [
      Buffer.from(`${good}\u0085`, "latin1"), // a C1 control (obs-text to HTTP) after the real signature
      Buffer.from(`${good}\u00ff`, "latin1"),
      Buffer.from(`${good}zz`),
      Buffer.from(`${good.slice(0, 20)}\t${good.slice(20)}`), // a tab inside
      Buffer.from(`${good}00`),
      Buffer.from(`sha256=${"0".repeat(64)}`),
      Buffer.from("sha1=abc"),
    ];
    for (const signature of refused) {
      const answer = await rawRequest(port, receiptsPost(signature, EMPTY_BATCH));
      expect(answer.status, JSON.stringify(signature.toString("latin1"))).toBe(401);
      expect(JSON.parse(answer.body)).toEqual({
        error: { code: "unauthorized", message: "The receipts are not signed with this server's RECEIPTS_SECRET" },
      });
    }
    const accepted = await rawRequest(port, receiptsPost(Buffer.from(good), EMPTY_BATCH));
    expect(accepted.status).toBe(202);
    expect(JSON.parse(accepted.body)).toEqual({ accepted: 0 });
  });

  it("JSON nested deeper than 32 levels is a 400 found before parsing, while /healthz keeps answering", async () => {
    const user = await createTestUser();
    const token = await bearerFor(user.id);
    // About 0.9 MB each, under the 1 MB body limit: arrays and objects nested 450,000 and 160,000 deep.
    const bodies = [
      "[".repeat(450_000) + "]".repeat(450_000),
      '{"a":'.repeat(160_000) + "1" + "}".repeat(160_000),
      JSON.stringify({ firstName: "x", lastName: "y", email: "z@example.com", notes: "[[[[" }).replace(
        /}$/,
        `,"extra":${"[".repeat(33)}${"]".repeat(33)}}`,
      ),
    ];
    const send = (body: string) =>
      fetch(`${base}/api/customers`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body,
      });
    const health: number[] = [];
    let sending = true;
    const probe = (async () => {
      while (sending) {
        health.push((await fetch(`${base}/healthz`)).status);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => send(bodies[i % bodies.length]!)));
    sending = false;
    await probe;
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      // The depth message, not zod's or JSON.parse's: nothing was parsed.
      expect(await answer.json()).toEqual({ error: { code: "bad_request", message: JSON_TOO_DEEP } });
    }
    expect(health.length).toBeGreaterThan(0);
    expect(health.every((status) => status === 200)).toBe(true);
    // 32 levels is still fine (brackets inside strings do not count).
    const deepEnough = JSON.stringify({
      firstName: "x",
      lastName: "y",
      email: "deep@example.com",
      notes: "[[[[",
    }).replace(/}$/, `,"extra":${"[".repeat(31)}${"]".repeat(31)}}`);
    expect((await send(deepEnough)).status).toBe(201);
  });

  it("a JSON body over 1,000,000 bytes is a 413, declared or counted as it arrives", async () => {
    const user = await createTestUser();
    const token = await bearerFor(user.id);
    const body = JSON.stringify({
      firstName: "x",
      lastName: "y",
      email: "big@example.com",
      notes: "a".repeat(1_000_000),
    });
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        `${base}/api/customers`,
        {
          method: "POST",
          headers: {
            Authorization: `Bearer ${token}`,
            "Content-Type": "application/json",
            "Transfer-Encoding": "chunked",
          },
        },
        (res) => {
          let text = "";
          res.on("data", (c: Buffer) => (text += c.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body)).toMatchObject({ error: { code: "payload_too_large" } });
  });

  it("GET /api/auth/logout is a 405 with Allow: POST and signs nobody out", async () => {
    const user = await createTestUser();
    const cookie = await cookieFor(user.id);
    const res = await fetch(`${base}/api/auth/logout`, { headers: { Cookie: cookie } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(await res.json()).toEqual({
      error: { code: "method_not_allowed", message: "Use POST for /api/auth/logout" },
    });
    const me = await fetch(`${base}/api/auth/current_user`, { headers: { Cookie: cookie } });
    expect(((await me.json()) as { isAuthenticated: boolean }).isAuthenticated).toBe(true);
  });

  it("a multipart body to a page whose form is URL-encoded is a 415, never the 500 of a malformed one", async () => {
    const user = await createTestUser();
    const cookie = await cookieFor(user.id);
    for (const type of ["multipart/form-data; boundary=x", "multipart/form-data"]) {
      const res = await fetch(`${base}/customers/new`, {
        method: "POST",
        headers: { Cookie: cookie, Origin: getEnv().publicUrl, "Content-Type": type },
        body: '--x\r\nContent-Disposition: form-data; name="firstName"\r\n\r\nAsha',
        redirect: "manual",
      });
      expect(res.status, type).toBe(415);
      expect(await res.text()).toBe("Send this form as application/x-www-form-urlencoded, as the page does.");
    }
    // The upload's own page takes it, also at the address Remix's client posts to (".data").
    const publicUrl = new URL(getEnv().publicUrl);
    for (const path of ["/customers/import", "/customers/import.data"]) {
      const body = "--x--\r\n";
      const answer = await rawRequest(
        port,
        Buffer.from(
          `POST ${path} HTTP/1.1\r\nHost: ${publicUrl.host}\r\nOrigin: ${publicUrl.origin}\r\nCookie: ${cookie}\r\n` +
            `Connection: close\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
        ),
      );
      expect(answer.status, path).not.toBe(415);
      expect(answer.status, path).toBeLessThan(500);
    }
  });

  it("a page write with no Origin and another site's Referer is refused (403) before the app reads it", async () => {
    const res = await fetch(`${base}/auth/local`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Referer: "https://evil.example/login" },
      body: new URLSearchParams({ name: "Mallory", email: "mallory@example.com", password: "a-long-password-1" }),
      redirect: "manual",
    });
    expect(res.status).toBe(403);
    // It names where the form came from and which address this server is at.
    expect(await res.text()).toMatch(
      /^This form was sent from another site \(https:\/\/evil\.example\), so it was refused\. This server's address is http:\/\/\S+: open the page there and try again\.$/,
    );
  });
});
