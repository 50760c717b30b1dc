// The Express application every request goes through, in development and production alike:
// a log line per request, compression, security headers, static files (the build's, or Vite's
// middleware in development) and Remix's request handler for pages and /api, with the caller's
// address in the load context. server/index.ts mounts it; server/app.test.ts drives it over HTTP.
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import path from "node:path";
import zlib from "node:zlib";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import type { ViteDevServer } from "vite";
import type * as AppEntry from "../app/entry.server.tsx";
import type { Logger, RequestLogState } from "../app/lib/logger.server.ts";
import { type ApiRoute, type ApiRouteModule, createApiServer } from "./api-server.ts";
import { answeringOutages } from "./database-outage.ts";
import { allowedMethodsOf } from "./route-methods.ts";

/** What the server reads from the app's server entry (app/entry.server.tsx). */
export type AppEntryModule = typeof AppEntry;

/** The app's server entry out of a build, checked: the server cannot start without it. */
export function appOf(build: ServerBuild): AppEntryModule {
  const entry = build.entry.module as Partial<AppEntryModule>;
  if (
    typeof entry.prepareDatabase !== "function" ||
    typeof entry.logger !== "function" ||
    typeof entry.withRequestLogState !== "function" ||
    typeof entry.unavailableAnswer !== "function"
  ) {
    throw new Error(
      "The server build's entry (app/entry.server.tsx) does not export what the server needs; rebuild with `npm run build`.",
    );
  }
  return entry as AppEntryModule;
}

export type ServerAppOptions = {
  /** The build, or (development) a function that reads the current one on every request. */
  build: ServerBuild | (() => Promise<ServerBuild>);
  app: AppEntryModule;
  log: Logger;
  mode: "development" | "production";
  /** Development: Vite serves the client modules and fixes the stacks of server errors. */
  vite?: ViteDevServer;
  /** Production: the build's client files (build/client). */
  clientDir?: string;
  /** The proxies whose X-Forwarded-* headers are believed; TRUST_PROXY from the environment by default. */
  trustProxy?: string;
};

// Believe X-Forwarded-For only from the proxies TRUST_PROXY names (app/env.server.ts; loopback by
// default), so clients cannot choose their own address for the sign-in rate limit.
export const DEFAULT_TRUST_PROXY = "loopback";

/** The most a request body may hold, by route (docs/settings.md). */
export const BODY_LIMITS = {
  /** Sign-in and page forms. */
  form: 64 * 1024,
  /** /api JSON bodies. */
  json: 1_000_000,
  /** An image upload (POST /api/images, the Brand and images screen's form): far above the image limit, so a phone photo is refused by the route with a message saying what to do, not by a bare 413. */
  image: 16 * 1024 * 1024,
  /** A CSV import (the pages' uploads, POST /api/customers/import and /api/suppressions/import), streamed. */
  import: 512 * 1024 * 1024,
} as const;

export function bodyLimitOf(pathname: string): number {
  // A page's form posted by Remix's client goes to the page's address with ".data" after it.
  const path = pathname
    .toLowerCase()
    .replace(/\.data$/, "")
    .replace(/\/+$/, "");
  if (path === "/customers/import" || path === "/api/customers/import") return BODY_LIMITS.import;
  if (path === "/suppressions/import" || path === "/api/suppressions/import") return BODY_LIMITS.import;
  if (path === "/api/images" || path === "/templates/brand") return BODY_LIMITS.image;
  if (path === "/api" || path.startsWith("/api/")) return BODY_LIMITS.json;
  return BODY_LIMITS.form;
}

/** What the routes' body reads fail with once the server has cut a body at its limit. */
export class BodyTooLargeError extends Error {
  readonly code = "ERR_BODY_TOO_LARGE";
  readonly status = 413;
  constructor(readonly limit: number) {
    super(`The request body is larger than ${limit} bytes`);
    this.name = "BodyTooLargeError";
  }
}

const ANSWERED_EARLY = Symbol("crm.answered-early");

/** The server answered this request itself (413, 405) before or while the app read it: the app's own answer is dropped. */
export function answeredEarly(res: ServerResponse): boolean {
  return (res as ServerResponse & { [ANSWERED_EARLY]?: boolean })[ANSWERED_EARLY] === true;
}

/** Methods no route serves that would echo or tunnel: TRACE reflects the request, CONNECT opens a tunnel. */
const REFUSED_METHODS = new Set(["TRACE", "TRACK", "CONNECT"]);

export const SECURITY_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
};

/**
 * An early answer of the server's own, in the shape of the path's answers (the /api JSON error, or
 * text), closing the connection: the rest of a refused body is never read.
 */
function answerEarly(
  req: IncomingMessage,
  res: ServerResponse,
  status: 400 | 403 | 405 | 413 | 415 | 500,
  message: string,
  extra: Record<string, string> = {},
) {
  (res as ServerResponse & { [ANSWERED_EARLY]?: boolean })[ANSWERED_EARLY] = true;
  if (res.headersSent) {
    req.socket.destroy();
    return;
  }
  const api = /^\/api(\/|\?|$)/i.test(req.url ?? "/");
  const body = api ? JSON.stringify({ error: { code: API_CODES[status], message } }) : message;
  res.statusCode = status;
  for (const [name, value] of Object.entries({ ...SECURITY_HEADERS, ...extra })) res.setHeader(name, value);
  res.setHeader("Content-Type", api ? "application/json; charset=utf-8" : "text/plain; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Content-Length", Buffer.byteLength(body));
  res.setHeader("Connection", "close");
  res.end(body);
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const API_CODES = {
  400: "bad_request",
  403: "forbidden",
  405: "method_not_allowed",
  413: "payload_too_large",
  415: "bad_request",
  500: "internal",
} as const;

/** How a page write from another origin is judged and answered (app/lib/own-origin.ts). */
type OriginRule = Pick<AppEntryModule, "crossOriginMessage" | "isOwnOrigin" | "originOf"> & {
  ownOrigins: string[];
  publicUrl: string;
};

/**
 * The public unsubscribe page, /u/TOKEN (app/routes/unsubscribe.tsx), and its single-fetch data.
 * RFC 8058's one-click POST reaches it from mailbox providers: no cookie, no CSRF token, another
 * site's Origin, a form URL-encoded or multipart. The token is its only credential (it acts on the
 * one address sealed in it), so the cross-site check does not apply; and the token is never logged.
 */
const UNSUBSCRIBE_PAGE = /^\/u\/[^/]+?(\.data)?\/?$/i;

/** A path as the log writes it: an unsubscribe token is a credential, logged as /u/[token]; so are /o and /c's (tracking), /v's (view in browser) and a password link's. */
export function loggedPath(pathname: string): string {
  return pathname.replace(
    /^\/([uocv]|set-password)\/[^/]+?(\.data)?(?=\/|$)/i,
    (_, page: string, data: string | undefined) => `/${page}/[token]${data ?? ""}`,
  );
}

/** The open pixel and tracked links (app/routes/track-open.ts, track-click.ts): they send their own Referrer-Policy. */
const TRACKING_PATH = /^\/[oc]\/[^/]+\/?$/i;

/** The pages whose writes may be multipart: the CSV uploads, and the sign-in (which reads either kind). */
const MULTIPART_PAGES = new Set([
  "/customers/import",
  "/suppressions/import",
  "/templates/brand",
  "/login",
  "/auth/local",
]);

/**
 * What is refused before the app sees it: an address that does not decode, and (pages only; /api
 * answers for itself) a write from a page of another origin than PUBLIC_URL, by its Origin or,
 * without one, its Referer (CSRF: only the configured address counts, not the request's own Host
 * or X-Forwarded-Host; with neither header it goes on). Then a method the route does not take
 * (checkPageMethod) and a body that is not a form (refusePageBody).
 */
function refusePageRequest(
  req: IncomingMessage,
  pathname: string,
  rule: OriginRule,
): { status: 400 | 403; message: string } | null {
  try {
    decodeURIComponent(pathname);
  } catch {
    return { status: 400, message: "This address is not valid." };
  }
  if (/^\/api(\/|$)/i.test(pathname) || SAFE_METHODS.has(req.method ?? "GET")) return null;
  if (UNSUBSCRIBE_PAGE.test(pathname)) {
    // Remix refuses an action whose Origin names another host than Host (a 500): dropped here, for
    // this page only, whose POSTs carry no cookie and need no origin (see UNSUBSCRIBE_PAGE).
    delete req.headers.origin;
    return null;
  }
  // The rule of checkOrigin() (app/services/auth.server.ts): the Origin, or without one the Referer's origin.
  const origin = req.headers.origin;
  if (origin !== undefined && !rule.isOwnOrigin(origin, rule.ownOrigins))
    return { status: 403, message: rule.crossOriginMessage(origin, rule.publicUrl) };
  const referer = req.headers.referer;
  if (origin === undefined && referer !== undefined) {
    const from = rule.originOf(referer);
    if (!rule.isOwnOrigin(from, rule.ownOrigins))
      return { status: 403, message: rule.crossOriginMessage(from, rule.publicUrl) };
  }
  return null;
}

/**
 * A page write whose body is not a form (pages only take forms; /auth/local takes JSON too;
 * multipart only where a page reads it, MULTIPART_PAGES), asked once the route takes the method.
 */
function refusePageBody(req: IncomingMessage, pathname: string): { status: 415; message: string } | null {
  // RFC 8058's one-click POST comes as a mailbox provider sends it (see UNSUBSCRIBE_PAGE).
  if (UNSUBSCRIBE_PAGE.test(pathname)) return null;
  const type = (req.headers["content-type"] ?? "").toLowerCase();
  // A page's form posted by Remix's client goes to the page's address with ".data" after it.
  const path = pathname
    .toLowerCase()
    .replace(/\.data$/, "")
    .replace(/\/+$/, "");
  if (/^multipart\/form-data\b/.test(type)) {
    // Only the uploads and the sign-in read a multipart body in a way that refuses a malformed one
    // (400); every other page's form is URL-encoded, and a malformed multipart body would make
    // its action's request.formData() throw (a 500).
    if (MULTIPART_PAGES.has(path)) return null;
    return { status: 415, message: "Send this form as application/x-www-form-urlencoded, as the page does." };
  }
  const form = /^application\/x-www-form-urlencoded\b/.test(type);
  if (!form && !(path === "/auth/local" && type.startsWith("application/json"))) {
    return { status: 415, message: "Send this as a form (application/x-www-form-urlencoded or multipart/form-data)." };
  }
  return null;
}

/**
 * The server's `clientError` listener: a request Node's HTTP parser refuses before any listener
 * sees it. llhttp refuses a header value holding a control character other than a tab (NUL, a
 * lone CR or LF, ESC, DEL: the X-Signature of a forged receipt, say), a malformed request line or
 * chunk; those are answered 400 in the /api error shape instead of Node's bare status line.
 * Headers over Node's limit (431), a request that took too long (408) and an oversized chunk
 * extension (413) keep Node's own answer. Nothing is written once an answer on this connection
 * has begun; the connection closes either way.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex) {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const plain = { HPE_HEADER_OVERFLOW: 431, ERR_HTTP_REQUEST_TIMEOUT: 408, HPE_CHUNK_EXTENSIONS_OVERFLOW: 413 }[
    error.code ?? ""
  ];
  const status = plain ?? 400;
  const body = plain
    ? ""
    : JSON.stringify({
        error: {
          code: "bad_request",
          message:
            "The request is malformed: its request line or a header holds a character HTTP does not allow (a control character, a lone CR or LF).",
        },
      });
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}`,
    ...Object.entries(SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}`),
    ...(body ? ["Content-Type: application/json; charset=utf-8", "Cache-Control: no-store"] : []),
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: close",
  ];
  socket.end(`${head.join("\r\n")}\r\n\r\n${body}`, () => socket.destroy());
}

/**
 * Holds a request body to its route's limit: a Content-Length over it is refused before anything is
 * read; otherwise bytes are counted as the parser hands them over, and at the limit the request is
 * answered 413 and the rest dropped unread (its reader fails with BodyTooLargeError). Returns false
 * when the request was answered.
 */
export function limitBody(req: IncomingMessage, res: ServerResponse, limit: number): boolean {
  const tooLarge = () =>
    answerEarly(req, res, 413, `The request body is larger than the ${limit.toLocaleString("en")} bytes allowed here.`);
  const declared = req.headers["content-length"];
  if (declared !== undefined && Number(declared) > limit) {
    tooLarge();
    // Nobody reads this body: drop what the client still sends until the connection closes.
    req.resume();
    return false;
  }
  if (declared === undefined && req.headers["transfer-encoding"] === undefined) return true;
  let received = 0;
  let cut = false;
  const push = req.push.bind(req);
  // The HTTP parser hands every piece of the body to push(): counted there, a body is stopped at
  // the limit however it is read (Remix's stream, the /api server's, or nobody at all).
  req.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (cut) return true;
    if (chunk !== null && chunk !== undefined) {
      received += (chunk as Buffer).length;
      if (received > limit) {
        cut = true;
        tooLarge();
        if (req.listenerCount("error") > 0) req.emit("error", new BodyTooLargeError(limit));
        return true;
      }
    }
    return push(chunk, encoding);
  };
  return true;
}

/**
 * The listener of the HTTP server: every request is logged, /api requests go to the /api server
 * (server/api-server.ts) when `fastApi` is given a build, everything else (and /api in
 * development) to the Express application.
 */
export function createRequestListener(given: ServerAppOptions & { fastApi?: ServerBuild }) {
  const { app, log } = given;
  // Every route answers the database's outage with a 503 (server/database-outage.ts).
  const outages = (build: ServerBuild) => answeringOutages(build, app.unavailableAnswer, log);
  const { build: givenBuild } = given;
  const options = {
    ...given,
    build: typeof givenBuild === "function" ? async () => outages(await givenBuild()) : outages(givenBuild),
    fastApi: given.fastApi && outages(given.fastApi),
  };
  // API_FAST_PATH=off sends /api through Express and Remix in production too: how the two paths
  // are compared on the bench (docs/decisions/0010-api-fast-path.md).
  const fastApi = app.getEnv().API_FAST_PATH === "off" ? undefined : options.fastApi;
  const trustProxy = options.trustProxy ?? app.getEnv().TRUST_PROXY;
  const originRule: OriginRule = {
    ownOrigins: app.getEnv().ownOrigins,
    publicUrl: app.getEnv().publicUrl,
    crossOriginMessage: app.crossOriginMessage,
    isOwnOrigin: app.isOwnOrigin,
    originOf: app.originOf,
  };
  const server = createServerApp({ ...options, trustProxy });
  const api = fastApi
    ? createApiServer({
        routes: Object.values(fastApi.routes)
          .filter((r) => r.path?.startsWith("api/") || r.path === "api")
          .map((r): ApiRoute => ({ id: r.id, path: r.path ?? "", module: r.module as ApiRouteModule })),
        trustProxy,
        headers: SECURITY_HEADERS,
        jsonText: app.JSON_TEXT,
        log,
      })
    : null;
  return (req: IncomingMessage, res: ServerResponse) => {
    const state = logRequest(log, req, res);
    const method = req.method ?? "GET";
    if (REFUSED_METHODS.has(method)) {
      answerEarly(req, res, 405, `${method} is not allowed.`, { Allow: "GET, HEAD, POST, PUT, PATCH, DELETE" });
      req.resume();
      return;
    }
    // The path itself: the log's (state.path) hides an unsubscribe token.
    const pathname = (req.url ?? "/").split("?", 1)[0] ?? "/";
    if (!limitBody(req, res, bodyLimitOf(pathname))) return;
    const refusal = refusePageRequest(req, pathname, originRule);
    if (refusal) {
      answerEarly(req, res, refusal.status, refusal.message);
      req.resume();
      return;
    }
    const serve = () =>
      app.withRequestLogState(state, () => {
        if (!api?.(req, res)) server(req, res);
      });
    if (method === "GET" || method === "HEAD" || /^\/api(\/|$)/i.test(pathname)) return serve();
    void checkPageMethod(req, res, pathname).then(
      (answered) => answered || serve(),
      (error: unknown) => {
        log.error({ err: error, method, path: state.path }, "Unexpected error while checking a request's method");
        answerEarly(req, res, 500, "Something went wrong on our side. Please try again.");
        req.resume();
      },
    );
  };

  /**
   * A write (or OPTIONS) outside /api: a method the route does not take is a 405 with its Allow,
   * whatever the body (Remix answers OPTIONS on a page with a 405 of its own, without Allow); then a
   * body that is not a form is a 415. True when the request was answered.
   */
  async function checkPageMethod(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> {
    const method = req.method ?? "GET";
    const build = typeof options.build === "function" ? await options.build() : options.build;
    const allowed = await allowedMethodsOf(build, new URL(req.url ?? "/", "http://server.invalid"));
    if (allowed && !allowed.allow.includes(method)) {
      answerEarly(req, res, 405, allowed.message, { Allow: allowed.allow.join(", ") });
      req.resume();
      return true;
    }
    const refusal = refusePageBody(req, pathname);
    if (!refusal) return false;
    answerEarly(req, res, refusal.status, refusal.message);
    req.resume();
    return true;
  }
}

function createServerApp({ build, log, mode, vite, clientDir, trustProxy }: ServerAppOptions & { trustProxy: string }) {
  const server = express();
  server.disable("x-powered-by");
  server.set("trust proxy", trustProxy);
  // Server-Sent Events must not be buffered by compression. The fastest levels (gzip 1, brotli 1):
  // zlib was 6-8% of the server's CPU in the bench profile; measured on the 149 KB /customers page,
  // brotli 1 takes 0.5 ms against 1.3 ms at the default 4 (gzip 1 vs 6: 0.4 vs 1.3 ms), for output
  // 14% larger (17 KB instead of 15 KB).
  server.use(
    compression({
      level: 1,
      brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } },
      filter: (req, res) => !req.path.endsWith("/stream") && compression.filter(req, res),
    }),
  );
  server.use((req, res, next) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    // The unsubscribe page sends no Referer at all (Referrer-Policy: no-referrer, its own header).
    if (UNSUBSCRIBE_PAGE.test(req.path) || TRACKING_PATH.test(req.path)) res.removeHeader("Referrer-Policy");
    next();
  });
  if (vite) {
    server.use(vite.middlewares);
  } else if (clientDir) {
    server.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y" }));
    // Public files all have an extension (favicon.ico, robots.txt): pages and /api paths skip the
    // file-system lookup express.static would otherwise make for every request.
    const publicFiles = express.static(clientDir, { maxAge: "1h" });
    server.use((req, res, next) => (path.extname(req.path) ? publicFiles(req, res, next) : next()));
  }
  const remix = createRequestHandler({ build, mode, getLoadContext: (req) => ({ clientIp: req.ip }) });
  server.all("*", (req, res, next) => {
    res.locals.app = true;
    return remix(req, res, next);
  });
  // What escaped Remix (in development, a module Vite could not load).
  server.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    // The server answered already (a body cut at its limit): Remix's late answer has nowhere to go.
    if (answeredEarly(res)) return;
    if (error instanceof Error) vite?.ssrFixStacktrace(error);
    log.error(
      { err: error, method: req.method, path: loggedPath(req.path) },
      "Unexpected error while serving a request",
    );
    if (res.headersSent) res.destroy();
    else res.status(500).type("text/plain").send("Something went wrong on our side. Please try again.");
  });
  return server;
}

/**
 * One log line per request, written when its answer is finished or abandoned: method, path (never
 * the query string, which can carry a token; an unsubscribe token is written as /u/[token]),
 * status, duration and the caller's user id when the request resolved one. Pages and /api at
 * info; files (assets, Vite's modules) at debug; 5xx at error. Returns the state the request is served in (the auth code fills in the user id).
 */
function logRequest(log: Logger, req: IncomingMessage, res: ServerResponse): RequestLogState {
  const start = performance.now();
  const url = req.url ?? "/";
  const queryAt = url.indexOf("?");
  const state: RequestLogState = {
    method: req.method ?? "GET",
    path: loggedPath(queryAt < 0 ? url : url.slice(0, queryAt)),
  };
  res.once("close", () => {
    const status = res.statusCode;
    // Express marks what reached Remix; the /api server's answers are all the app's too.
    const served =
      (res as ServerResponse & { locals?: { app?: boolean } }).locals?.app === true || /^\/api(\/|$)/i.test(state.path);
    const level = status >= 500 ? "error" : served ? "info" : "debug";
    if (!log.isLevelEnabled(level)) return;
    log[level](
      {
        method: state.method,
        path: state.path,
        status,
        ms: Math.round((performance.now() - start) * 10) / 10,
        ...(state.userId ? { userId: state.userId } : {}),
        ...(res.writableFinished ? {} : { aborted: true }),
      },
      "request",
    );
  });
  return state;
}
