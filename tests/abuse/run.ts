// `npm run test:abuse`: starts the production build (run `npm run build` first) on a fresh
// database and sends it a few hundred generated malformed requests: wrong methods, content types
// and encodings, huge and chunked bodies, control characters, deep JSON, bad cookies and tokens,
// signed in and not. Fails on any 5xx, any dropped connection where an answer was due, and any
// answer that shows a stack trace or a file path of the server.
import { spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { productionServerEnv, repoRoot, serverCommand } from "../helpers/production-server.ts";

const port = 20_000 + Math.floor(Math.random() * 20_000);
const base = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(tmpdir(), "crm-abuse-"));
const started = Date.now();
// The vendor feeds on (they are 404s while off), so forged posts meet their signature checks.
const SES_TOPIC = "arn:aws:sns:us-east-1:123456789012:abuse-feedback";
const sendgridKey = generateKeyPairSync("ec", { namedCurve: "prime256v1" })
  .publicKey.export({ format: "der", type: "spki" })
  .toString("base64");

const server = spawn(serverCommand.file, serverCommand.args, {
  cwd: repoRoot,
  stdio: ["ignore", "inherit", "inherit"],
  env: productionServerEnv({
    port,
    publicUrl: base,
    dataDir,
    extra: {
      WEB_CONCURRENCY: "1",
      SIGN_IN_RATE_LIMIT: "100000",
      LOG_LEVEL: process.env.ABUSE_LOG_LEVEL ?? "silent",
      SES_SNS_TOPIC_ARNS: SES_TOPIC,
      SENDGRID_WEBHOOK_PUBLIC_KEY: sendgridKey,
    },
  }),
});

type Case = {
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string | number>;
  body?: string | Buffer | { chunks: number; size: number };
  /** The server may close the connection once it has answered (a body cut at its limit). */
  mayDrop?: boolean;
  /** The status this request must get (an edge once found answered wrongly). */
  expect?: number;
};
type Outcome = { status: number; text: string } | { dropped: string };

// A stack line, or a path of the server's files: neither may reach a client.
const LEAK = new RegExp(
  `\\n\\s+at \\S|\\(/[^)]*:\\d+:\\d+\\)|${repoRoot.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}|node_modules/|\\.tsx?:\\d+`,
);

function send(c: Case): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = http.request(`${base}${c.path}`, { method: c.method, headers: c.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        // Only the start matters for a leak; an export may be long.
        if (size < 2_000_000) chunks.push(chunk);
        size += chunk.length;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", (e) => resolve({ dropped: e.message }));
    });
    req.setTimeout(20_000, () => req.destroy(new Error("no answer in 20 s")));
    req.on("error", (e) => resolve({ dropped: e.message }));
    const body = c.body;
    if (body === undefined || typeof body === "string" || Buffer.isBuffer(body)) {
      req.end(body);
      return;
    }
    const piece = Buffer.alloc(body.size, "a");
    let sent = 0;
    const write = () => {
      while (sent < body.chunks && !req.destroyed) {
        sent++;
        if (!req.write(piece)) return void req.once("drain", write);
      }
      req.end();
    };
    req.on("response", () => {
      sent = body.chunks;
    });
    write();
  });
}

async function waitForServer() {
  for (let i = 0; i < 300; i++) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("the server did not answer /healthz within 60 s");
}

/** A local account (signed up on first sign-in): its session cookie and bearer token. */
async function signIn(): Promise<{ cookie: string; token: string; customerId: string }> {
  const res = await fetch(`${base}/auth/local`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: base },
    body: JSON.stringify({
      name: "Abuse Run",
      email: `abuse-${Date.now()}@example.com`,
      password: "Abuse-run password 7f3k9q",
    }),
    redirect: "manual",
  });
  const location = res.headers.get("location") ?? "";
  const token = new URL(location, base).searchParams.get("token");
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (!token || !cookie) throw new Error(`local sign-in failed: ${res.status} ${location} ${await res.text()}`);
  // One customer of this account, so the story's page and /api read a real record with bad queries.
  const created = await fetch(`${base}/api/customers`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ firstName: "Abuse", lastName: "Run", email: `story-${Date.now()}@example.com` }),
  });
  const customerId = ((await created.json()) as { id?: string }).id;
  if (!customerId) throw new Error(`creating a customer failed: ${created.status}`);
  return { cookie, token, customerId };
}

function cases(auth: { cookie: string; token: string; customerId: string }): Case[] {
  const bearer = { Authorization: `Bearer ${auth.token}` };
  const cookie = { Cookie: auth.cookie };
  const pages = [
    "/",
    "/login",
    "/customers",
    "/customers/new",
    "/customers/import",
    "/orders",
    "/orders/new",
    "/segments",
    "/segments/new",
    "/campaigns",
    "/profile",
    "/auth/local",
    "/auth/signout",
    "/customers/export",
    "/healthz",
    "/campaigns/000000000000000000000000/resend",
    `/customers/${auth.customerId}`,
    "/o/x",
    "/c/x",
    "/u/x",
  ];
  const apis = [
    "/api/customers",
    "/api/customers/export",
    "/api/customers/import",
    "/api/orders",
    "/api/segments",
    "/api/segments/preview",
    "/api/campaigns",
    "/api/notifications",
    "/api/notifications/read-all",
    "/api/auth/current_user",
    "/api/auth/profile",
    "/api/auth/logout",
    "/api/ai/message-suggestions",
    "/api/ai/insights",
    "/api/stats/historical",
    "/api/customers/000000000000000000000000",
    "/api/no/such",
    "/api/campaigns/000000000000000000000000/links",
    "/api/campaigns/000000000000000000000000/resend-non-openers",
    `/api/customers/${auth.customerId}/story`,
    "/api/webhooks/ses",
    "/api/webhooks/sendgrid",
  ];
  const out: Case[] = [];
  // Methods no route serves, and odd ones.
  for (const path of [...pages, ...apis]) {
    for (const method of ["TRACE", "OPTIONS", "PATCH", "PUT", "DELETE", "PROPFIND"])
      out.push({ name: `${method} ${path}`, method, path, headers: { ...cookie, Origin: base } });
  }
  // Control characters and junk in search terms and other parameters.
  const junk = [
    "%00",
    "%01",
    "%1B%5B31m",
    "%7F",
    "%C2%80",
    "%FF%FE",
    "%E0%80%80",
    "%ED%A0%80",
    "%25",
    "%",
    "%%30",
    "'%20OR%201=1--",
    "%22%2A%22",
    "NEAR(",
    "%5C",
    "a".repeat(5000),
  ];
  for (const path of [
    "/customers",
    "/orders",
    "/customers/export",
    "/api/customers",
    "/api/orders",
    "/api/customers/export",
    "/campaigns",
    `/customers/${auth.customerId}`,
    "/api/campaigns",
    `/api/customers/${auth.customerId}/story`,
  ]) {
    for (const q of junk) {
      const headers = path.startsWith("/api") ? bearer : cookie;
      out.push({ name: `GET ${path}?q=${q.slice(0, 20)}`, method: "GET", path: `${path}?q=${q}`, headers });
      out.push({
        name: `GET ${path}?cursor=${q.slice(0, 20)}`,
        method: "GET",
        path: `${path}?cursor=${q}&limit=${q}`,
        headers,
      });
      out.push({
        name: `GET ${path}?sort=${q.slice(0, 20)}`,
        method: "GET",
        path: `${path}?sort=${q}&story=${q}&cursor=${q}`,
        headers,
      });
    }
  }
  // Wrong content types and encodings on every write.
  const writes = [
    "/api/customers",
    "/api/orders",
    "/api/segments",
    "/api/segments/preview",
    "/api/campaigns",
    "/api/auth/profile",
    "/api/ai/message-suggestions",
    "/auth/local",
    "/login",
    "/customers/new",
    "/orders/new",
    "/segments/new",
    "/profile",
    "/customers/import",
    "/api/campaigns/000000000000000000000000/resend-non-openers",
    "/api/webhooks/ses",
    "/api/webhooks/sendgrid",
    "/campaigns/000000000000000000000000/resend",
  ];
  const bodies: Array<[string, string | Buffer, Record<string, string>]> = [
    ["not JSON", "{nope", { "Content-Type": "application/json" }],
    ["JSON array", "[1,2,3]", { "Content-Type": "application/json" }],
    ["JSON null", "null", { "Content-Type": "application/json" }],
    ["deep JSON", "[".repeat(100_000) + "]".repeat(100_000), { "Content-Type": "application/json" }],
    ["deep object", '{"a":'.repeat(20_000) + "1" + "}".repeat(20_000), { "Content-Type": "application/json" }],
    [
      "NUL in JSON",
      JSON.stringify({ firstName: "a\u0000b", lastName: "\u0001", email: "x\u0000@example.com" }),
      { "Content-Type": "application/json" },
    ],
    [
      "proto pollution",
      '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}',
      { "Content-Type": "application/json" },
    ],
    ["binary", Buffer.from([0, 255, 254, 1, 2, 3, 0xc3, 0x28]), { "Content-Type": "application/octet-stream" }],
    [
      "bad multipart",
      '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb',
      { "Content-Type": "multipart/form-data; boundary=x" },
    ],
    ["multipart without boundary", "abc", { "Content-Type": "multipart/form-data" }],
    ["gzip that is not", "not gzip at all", { "Content-Type": "application/json", "Content-Encoding": "gzip" }],
    ["unknown encoding", "{}", { "Content-Type": "application/json", "Content-Encoding": "br, zstd, x-nope" }],
    ["bad charset", "a=b", { "Content-Type": "application/x-www-form-urlencoded; charset=x-klingon" }],
    [
      "form with NUL",
      "email=a%00b&password=%00&firstName=%01",
      { "Content-Type": "application/x-www-form-urlencoded" },
    ],
    ["broken percent", "email=%E0%A4%A&x=%", { "Content-Type": "application/x-www-form-urlencoded" }],
    [
      "XML",
      "<?xml version='1.0'?><!DOCTYPE x [<!ENTITY e SYSTEM 'file:///etc/passwd'>]><x>&e;</x>",
      { "Content-Type": "application/xml" },
    ],
    ["no type", "{}", {}],
  ];
  for (const path of writes) {
    for (const [name, body, headers] of bodies) {
      const who = path.startsWith("/api") ? bearer : { ...cookie, Origin: base };
      out.push({ name: `POST ${path} ${name}`, method: "POST", path, headers: { ...who, ...headers }, body });
    }
  }
  // Too large: declared, and chunked without a length.
  for (const path of [
    "/login",
    "/auth/local",
    "/customers/new",
    "/api/customers",
    "/api/orders",
    "/api/customers/import",
  ]) {
    const who = path.startsWith("/api") ? bearer : cookie;
    out.push({
      name: `POST ${path} Content-Length 10 GB`,
      method: "POST",
      path,
      headers: { ...who, "Content-Type": "application/json", "Content-Length": 10_000_000_000 },
      body: "{",
      mayDrop: true,
    });
    if (path !== "/api/customers/import") {
      out.push({
        name: `POST ${path} chunked 20 MB`,
        method: "POST",
        path,
        headers: { ...who, "Content-Type": "application/x-www-form-urlencoded", "Transfer-Encoding": "chunked" },
        body: { chunks: 320, size: 64 * 1024 },
        mayDrop: true,
      });
    }
  }
  // Bad cookies and tokens.
  const tokens = [
    "",
    "x",
    "a.b.c",
    "eyJhbGciOiJub25lIn0.eyJ1c2VySWQiOiJ4In0.",
    `${auth.token}x`,
    "Bearer",
    "\u0000",
    "a".repeat(10_000),
  ];
  const cookies = [
    "session=",
    "session=%00",
    "session=a.b",
    `${auth.cookie}tampered`,
    "session=" + "a".repeat(4000),
    "=;=;=",
    'session="unterminated',
  ];
  for (const path of ["/customers", "/api/customers", "/api/auth/current_user", "/profile", "/api/notifications"]) {
    for (const token of tokens)
      out.push({
        name: `GET ${path} token ${token.slice(0, 12)}`,
        method: "GET",
        path,
        headers: { Authorization: `Bearer ${token.replaceAll("\u0000", "")}` },
      });
    for (const c of cookies)
      out.push({ name: `GET ${path} cookie ${c.slice(0, 16)}`, method: "GET", path, headers: { Cookie: c } });
    out.push({ name: `GET ${path} Basic auth`, method: "GET", path, headers: { Authorization: "Basic YTpi" } });
  }
  // Edges once answered wrongly, each with the status it must get: sign-out by GET, a token with
  // '=' appended, a foreign Referer without an Origin, a line break in a name, deep JSON.
  const json = { "Content-Type": "application/json" };
  out.push(
    { name: "GET /api/auth/logout", method: "GET", path: "/api/auth/logout", headers: cookie, expect: 405 },
    {
      name: "GET /auth/signout",
      method: "GET",
      path: "/auth/signout?error=session_expired",
      headers: cookie,
      expect: 405,
    },
    {
      name: "GET /api/customers token=",
      method: "GET",
      path: "/api/customers",
      headers: { Authorization: `Bearer ${auth.token}=` },
      expect: 401,
    },
    {
      name: "POST /api/customers foreign Referer without Origin",
      method: "POST",
      path: "/api/customers",
      headers: { ...cookie, ...json, Referer: "https://evil.example/page" },
      body: JSON.stringify({ firstName: "a", lastName: "b", email: "referer@example.com" }),
      expect: 403,
    },
    {
      name: "POST /customers/new foreign Referer without Origin",
      method: "POST",
      path: "/customers/new",
      headers: { ...cookie, "Content-Type": "application/x-www-form-urlencoded", Referer: "https://evil.example/" },
      body: "firstName=a&lastName=b&email=referer-page%40example.com",
      expect: 403,
    },
    {
      name: "POST /api/customers CR LF in a name",
      method: "POST",
      path: "/api/customers",
      headers: { ...bearer, ...json },
      body: JSON.stringify({ firstName: "a\r\nBcc: x@example.com", lastName: "b", email: "crlf@example.com" }),
      expect: 400,
    },
    {
      name: "POST /api/segments deep JSON",
      method: "POST",
      path: "/api/segments",
      headers: { ...bearer, ...json },
      body: "[".repeat(400_000) + "]".repeat(400_000),
      expect: 400,
    },
  );
  // The public tracking URLs: a token this server did not seal records nothing and redirects
  // nowhere (/c answers its 404 page; /o its pixel, whatever the token).
  for (const token of [
    "x",
    "aGVsbG8",
    "javascript:alert(1)",
    "%2F%2Fevil.example",
    "https:%2F%2Fevil.example",
    "..%2F..%2Fapi%2Fcustomers",
    "A".repeat(11_999),
    "A".repeat(12_001),
    "%00",
  ]) {
    out.push({ name: `GET /c/${token.slice(0, 24)}`, method: "GET", path: `/c/${token}`, expect: 404 });
    out.push({ name: `HEAD /c/${token.slice(0, 24)}`, method: "HEAD", path: `/c/${token}`, expect: 404 });
    out.push({ name: `GET /o/${token.slice(0, 24)}`, method: "GET", path: `/o/${token}`, expect: 200 });
  }
  // A URL longer than Node reads (16 KB of request line): refused before any route, a 4xx.
  for (const page of ["c", "o"])
    out.push({ name: `GET /${page}/ 60,000 characters`, method: "GET", path: `/${page}/${"A".repeat(60_000)}` });
  // The vendor webhooks: unsigned and forged posts are a 401 (a topic not configured a 403).
  const snsPost = (extra: Record<string, string>) =>
    JSON.stringify({
      Type: "Notification",
      MessageId: "abuse-1",
      TopicArn: SES_TOPIC,
      Message: "{}",
      Timestamp: "2026-11-26T08:00:00.000Z",
      ...extra,
    });
  out.push(
    {
      name: "POST ses unsigned",
      method: "POST",
      path: "/api/webhooks/ses",
      headers: json,
      body: snsPost({}),
      expect: 401,
    },
    {
      name: "POST ses forged certificate host",
      method: "POST",
      path: "/api/webhooks/ses",
      headers: json,
      body: snsPost({
        SignatureVersion: "1",
        Signature: "AAAA",
        SigningCertURL: "https://evil.example/sns.amazonaws.com/cert.pem",
      }),
      expect: 401,
    },
    {
      name: "POST ses forged certificate http",
      method: "POST",
      path: "/api/webhooks/ses",
      headers: json,
      body: snsPost({
        SignatureVersion: "2",
        Signature: "AAAA",
        SigningCertURL: "http://sns.us-east-1.amazonaws.com/cert.pem",
      }),
      expect: 401,
    },
    {
      name: "POST ses other topic",
      method: "POST",
      path: "/api/webhooks/ses",
      headers: json,
      body: snsPost({ TopicArn: "arn:aws:sns:us-east-1:999999999999:other" }),
      expect: 403,
    },
    {
      name: "POST sendgrid unsigned",
      method: "POST",
      path: "/api/webhooks/sendgrid",
      headers: json,
      body: JSON.stringify([{ event: "bounce", email: "a@example.com", sg_event_id: "x", timestamp: 1 }]),
      expect: 401,
    },
    {
      name: "POST sendgrid forged",
      method: "POST",
      path: "/api/webhooks/sendgrid",
      headers: {
        ...json,
        "X-Twilio-Email-Event-Webhook-Signature": "MEUCIQDabuse",
        "X-Twilio-Email-Event-Webhook-Timestamp": String(Math.floor(Date.now() / 1000)),
      },
      body: JSON.stringify([{ event: "bounce", email: "a@example.com", sg_event_id: "x", timestamp: 1 }]),
      expect: 401,
    },
    {
      name: "POST resend-non-openers of an unknown campaign",
      method: "POST",
      path: "/api/campaigns/000000000000000000000000/resend-non-openers",
      headers: { ...bearer, ...json },
      body: JSON.stringify({ subject: "Again" }),
      expect: 404,
    },
    {
      name: "GET another id's story",
      method: "GET",
      path: "/api/customers/000000000000000000000000/story",
      headers: bearer,
      expect: 404,
    },
  );
  // Foreign origins on cookie writes, and odd paths.
  for (const path of ["/customers/new", "/orders/new", "/profile", "/api/customers", "/auth/signout"]) {
    out.push({
      name: `POST ${path} foreign Origin`,
      method: "POST",
      path,
      headers: { ...cookie, Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
      body: "firstName=a&lastName=b&email=c%40example.com",
    });
    out.push({
      name: `POST ${path} Origin null`,
      method: "POST",
      path,
      headers: { ...cookie, Origin: "null", "Content-Type": "application/x-www-form-urlencoded" },
      body: "a=b",
    });
  }
  for (const path of [
    "/%00",
    "/customers/%00",
    "/api/customers/%00",
    "/api/customers/..%2F..%2Fetc%2Fpasswd",
    "/assets/..%2F..%2Fpackage.json",
    "/%E0%A4%A",
    "/api/%",
    "/customers/%",
    "/" + "a/".repeat(2000),
    "/api/customers/" + "9".repeat(300),
    "/customers?_data=root",
    "/customers?_data=%00",
    "/customers.data",
    "/api/customers?limit=-1",
    "/api/customers?limit=1e309",
    "/api/orders?cursor[]=a",
    "/api/campaigns/%00/links",
    "/api/campaigns/" + "9".repeat(300) + "/links",
    "/api/campaigns/..%2F..%2F/links",
    "/api/customers/%00/story",
    "/api/customers/" + "9".repeat(300) + "/story",
    "/campaigns/%00/resend",
    "/campaigns/" + "9".repeat(300) + "/resend",
    "/customers/" + "9".repeat(300) + "?story=%00",
  ]) {
    out.push({
      name: `GET ${path.slice(0, 40)}`,
      method: "GET",
      path,
      headers: path.startsWith("/api") ? bearer : cookie,
    });
  }
  return out;
}

async function main() {
  await waitForServer();
  const auth = await signIn();
  const all = cases(auth);
  const failures: string[] = [];
  let next = 0;
  // Meanwhile /healthz keeps answering quickly.
  let slowestHealth = 0;
  let probing = true;
  const probe = (async () => {
    while (probing) {
      const t = performance.now();
      const res = await fetch(`${base}/healthz`).catch(() => null);
      const ms = performance.now() - t;
      slowestHealth = Math.max(slowestHealth, ms);
      if (!res?.ok) failures.push(`/healthz failed during the run (${res?.status ?? "no answer"})`);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  async function worker() {
    while (next < all.length) {
      const c = all[next++];
      if (!c) break;
      const outcome = await send(c);
      if ("dropped" in outcome) {
        if (!c.mayDrop) failures.push(`${c.name}: connection dropped (${outcome.dropped})`);
      } else if (c.expect !== undefined && outcome.status !== c.expect) {
        failures.push(`${c.name}: ${outcome.status} instead of ${c.expect} ${outcome.text.slice(0, 200)}`);
      } else if (outcome.status >= 500) {
        failures.push(`${c.name}: ${outcome.status} ${outcome.text.slice(0, 200)}`);
      } else if (LEAK.test(outcome.text)) {
        failures.push(`${c.name}: ${outcome.status} shows a stack or a server path: ${LEAK.exec(outcome.text)?.[0]}`);
      }
    }
  }
  await Promise.all(Array.from({ length: 6 }, worker));
  probing = false;
  await probe;
  if (slowestHealth > 2000) failures.push(`/healthz took ${Math.round(slowestHealth)} ms at its slowest`);
  console.log(
    `abuse: ${all.length} requests in ${((Date.now() - started) / 1000).toFixed(1)} s, slowest /healthz ${Math.round(slowestHealth)} ms, ${failures.length} failures`,
  );
  for (const f of failures.slice(0, 50)) console.log(`  FAIL ${f}`);
  return failures.length === 0;
}

let ok = false;
try {
  ok = await main();
} catch (error) {
  console.error(error);
} finally {
  server.kill("SIGTERM");
  await new Promise((r) => server.once("exit", r));
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);
