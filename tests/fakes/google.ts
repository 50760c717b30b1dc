// A local stand-in for Google's OAuth 2.0 endpoints, for the e2e suite: nothing leaves the machine.
//
//   GET  /o/oauth2/v2/auth        the "Choose an account" page (e-mail and name, prefilled)
//   POST /o/oauth2/v2/approve     the Continue button: redirects to redirect_uri?code=…&state=…
//   POST /token                   exchanges the code (checks client id, secret, code, redirect_uri)
//   GET  /oauth2/v3/userinfo      the profile of a bearer access token
//   GET  /avatar/<sub>.svg        the profile picture the userinfo points to
//
// The app reaches it through GOOGLE_OAUTH_BASE_URL (see app/services/auth.server.ts).
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type FakeGoogleOptions = { clientId: string; clientSecret: string };

export type FakeAccount = { sub: string; email: string; name: string; givenName: string; familyName: string };

export type FakeGoogle = {
  url: string;
  server: Server;
  /** The codes and tokens handed out so far (for tests of the fake itself). */
  stats: () => { codes: number; tokens: number };
  close: () => Promise<void>;
};

type Grant = { account: FakeAccount; clientId: string; redirectUri: string; used: boolean };

const DEFAULT_EMAIL = "ada.lovelace@example.com";
const DEFAULT_NAME = "Ada Lovelace";

export function accountFor(email: string, name: string): FakeAccount {
  const trimmed = name.trim() || email.split("@")[0];
  const [givenName, ...rest] = trimmed.split(/\s+/);
  // Google's subject ids are long decimal strings, stable per account.
  const digits = BigInt(`0x${createHash("sha256").update(email.toLowerCase()).digest("hex").slice(0, 15)}`).toString();
  return { sub: `1${digits.padStart(20, "0")}`, email, name: trimmed, givenName, familyName: rest.join(" ") };
}

export async function startFakeGoogle(options: FakeGoogleOptions, port = 0, host = "127.0.0.1"): Promise<FakeGoogle> {
  const grants = new Map<string, Grant>();
  const tokens = new Map<string, FakeAccount>();
  let base = "";

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error("[fake-google]", error);
      if (!res.headersSent) json(res, 500, { error: "server_error" });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", base);
    if (req.method === "GET" && url.pathname === "/o/oauth2/v2/auth") return consentPage(url, res);
    if (req.method === "POST" && url.pathname === "/o/oauth2/v2/approve") return approve(await readForm(req), res);
    if (req.method === "POST" && url.pathname === "/token") return exchange(req, await readForm(req), res);
    if (req.method === "GET" && url.pathname === "/oauth2/v3/userinfo") return userinfo(req, res);
    if (req.method === "GET" && url.pathname.startsWith("/avatar/")) return avatar(url, res);
    json(res, 404, { error: "not_found" });
  }

  function consentPage(url: URL, res: ServerResponse) {
    const q = url.searchParams;
    const clientId = q.get("client_id") ?? "";
    const redirectUri = q.get("redirect_uri") ?? "";
    if (clientId !== options.clientId)
      return html(res, 400, page("Error 401: invalid_client", "<p>The OAuth client was not found.</p>"));
    if (q.get("response_type") !== "code" || !isHttpUrl(redirectUri)) {
      return html(res, 400, page("Error 400: invalid_request", "<p>Missing response_type=code or redirect_uri.</p>"));
    }
    const hidden = ["client_id", "redirect_uri", "state", "scope"]
      .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(q.get(k) ?? "")}">`)
      .join("");
    const email = q.get("login_hint") || DEFAULT_EMAIL;
    const body = `
      <p>to continue to the CRM (fake Google, local)</p>
      <form method="post" action="/o/oauth2/v2/approve">
        ${hidden}
        <label>Email <input name="email" type="email" value="${escapeHtml(email)}" required></label>
        <label>Name <input name="name" value="${escapeHtml(DEFAULT_NAME)}" required></label>
        <button type="submit" name="decision" value="allow">Continue</button>
        <button type="submit" name="decision" value="deny">Cancel</button>
      </form>`;
    html(res, 200, page("Choose an account", body));
  }

  function approve(form: URLSearchParams, res: ServerResponse) {
    const redirectUri = form.get("redirect_uri") ?? "";
    const clientId = form.get("client_id") ?? "";
    if (clientId !== options.clientId || !isHttpUrl(redirectUri))
      return html(res, 400, page("Error 400: invalid_request", ""));
    const target = new URL(redirectUri);
    const state = form.get("state");
    if (state !== null) target.searchParams.set("state", state);
    if (form.get("decision") === "deny") {
      target.searchParams.set("error", "access_denied");
      return redirectTo(res, target.toString());
    }
    const email = (form.get("email") ?? "").trim() || DEFAULT_EMAIL;
    const code = `4/${randomBytes(24).toString("base64url")}`;
    grants.set(code, { account: accountFor(email, form.get("name") ?? ""), clientId, redirectUri, used: false });
    target.searchParams.set("code", code);
    target.searchParams.set("scope", form.get("scope") ?? "");
    redirectTo(res, target.toString());
  }

  function exchange(req: IncomingMessage, form: URLSearchParams, res: ServerResponse) {
    let clientId = form.get("client_id");
    let clientSecret = form.get("client_secret");
    const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? "");
    if (basic) [clientId, clientSecret] = Buffer.from(basic[1], "base64").toString().split(":");
    if (clientId !== options.clientId || clientSecret !== options.clientSecret) {
      return json(res, 401, { error: "invalid_client", error_description: "The OAuth client was not found." });
    }
    if (form.get("grant_type") !== "authorization_code") return json(res, 400, { error: "unsupported_grant_type" });
    const grant = grants.get(form.get("code") ?? "");
    if (!grant || grant.used || grant.clientId !== clientId || grant.redirectUri !== form.get("redirect_uri")) {
      return json(res, 400, { error: "invalid_grant", error_description: "Bad Request" });
    }
    grant.used = true;
    const accessToken = `ya29.${randomBytes(32).toString("base64url")}`;
    tokens.set(accessToken, grant.account);
    json(res, 200, {
      access_token: accessToken,
      expires_in: 3599,
      token_type: "Bearer",
      scope: "openid https://www.googleapis.com/auth/userinfo.profile https://www.googleapis.com/auth/userinfo.email",
    });
  }

  function userinfo(req: IncomingMessage, res: ServerResponse) {
    const token = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1];
    const account = token ? tokens.get(token) : undefined;
    if (!account) return json(res, 401, { error: "invalid_request", error_description: "Invalid Credentials" });
    json(res, 200, {
      sub: account.sub,
      name: account.name,
      given_name: account.givenName,
      family_name: account.familyName,
      picture: `${base}/avatar/${account.sub}.svg`,
      email: account.email,
      email_verified: true,
    });
  }

  function avatar(url: URL, res: ServerResponse) {
    const hue = Number.parseInt(url.pathname.replace(/\D/g, "").slice(-3) || "0", 10) % 360;
    res.writeHead(200, { "Content-Type": "image/svg+xml", "Cache-Control": "max-age=3600" });
    res.end(
      `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96"><rect width="96" height="96" fill="hsl(${hue},60%,50%)"/></svg>`,
    );
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  base = `http://${host}:${address.port}`;
  return {
    url: base,
    server,
    stats: () => ({ codes: grants.size, tokens: tokens.size }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function isHttpUrl(value: string) {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
  res.end(JSON.stringify(body));
}

function html(res: ServerResponse, status: number, body: string) {
  res.writeHead(status, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
  res.end(body);
}

function redirectTo(res: ServerResponse, location: string) {
  res.writeHead(302, { Location: location, "Cache-Control": "no-store" });
  res.end();
}

function page(title: string, body: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} - Google Accounts</title>
<style>body{font-family:sans-serif;max-width:420px;margin:48px auto}label{display:block;margin:12px 0}input{display:block;width:100%;padding:6px}</style>
</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

function escapeHtml(value: string) {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
}
