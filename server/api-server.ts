// Serves the /api resource routes of app/routes.ts straight from Node's HTTP server, calling the
// same route modules (loader for GET, action for the other methods) that Remix would call.
//
// Why: profiled under GET /api/customers/{id} at 50 connections, the route's own work (auth, three
// indexed reads, JSON) was under a tenth of the CPU; Remix's route matching (it flattens and ranks
// the whole route tree twice per request), Express's middleware chain, compression's stream and
// writing the answer through web streams took most of the rest, about 1 ms a request. Measured
// with `npm run bench` (1,000,000 customers, two workers on two cores, 50 connections): through
// Express and Remix's handler 1,504 requests a second at p99 89.6 ms, through this 9,514 at p99
// 18.2 ms (the goal is p99 under 50 ms); measured again with API_FAST_PATH=off against on, Remix's
// handler stayed far from the goal (docs/decisions/0010-api-fast-path.md). Here the
// /api routes are ranked once at start, answers are buffered JSON written in one call, and only
// what the routes rely on is rebuilt: the Fetch Request (method, URL as Express resolves it
// behind trusted proxies, headers, streamed body, abort on disconnect) and the load context.
//
// Anything this does not serve falls through to Express and Remix unchanged: HEAD requests,
// methods a module has no function for, and every path outside /api. Production only: in
// development /api goes through Remix, which reads the edited modules on every request.
// server/api-parity.test.ts sends requests to every /api route through both and compares them.
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import zlib from "node:zlib";
import proxyAddr from "proxy-addr";
import type { AppLoadContext } from "@remix-run/node";
import type { Logger } from "../app/lib/logger.server.ts";

type RouteFunction = (args: {
  request: Request;
  params: Record<string, string | undefined>;
  context: AppLoadContext;
}) => unknown;
export type ApiRouteModule = { loader?: RouteFunction; action?: RouteFunction };
export type ApiRoute = { id: string; path: string; module: ApiRouteModule };

type Segment = { kind: "static"; value: string } | { kind: "param"; name: string } | { kind: "splat" };
type CompiledRoute = ApiRoute & { segments: Segment[]; score: number; order: number };

/** Remix's ranking (computeScore in @remix-run/router): static 10, dynamic 3, a splat costs 2. */
function score(segments: string[]): number {
  let total = segments.length;
  for (const s of segments) {
    if (s === "*") total -= 2;
    else if (s.startsWith(":")) total += 3;
    else if (s === "") total += 1;
    else total += 10;
  }
  return total;
}

export function compileApiRoutes(routes: ApiRoute[]): CompiledRoute[] {
  return routes
    .map((route, order) => {
      const parts = route.path.replace(/^\/+|\/+$/g, "").split("/");
      const segments: Segment[] = parts.map((p) =>
        p === "*"
          ? { kind: "splat" }
          : p.startsWith(":")
            ? { kind: "param", name: p.slice(1) }
            : { kind: "static", value: p.toLowerCase() },
      );
      return { ...route, segments, score: score(parts), order };
    })
    .sort((a, b) => b.score - a.score || a.order - b.order);
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The best-ranked route for a pathname, with its params decoded, or null. Case-insensitive like Remix. */
export function matchApiRoute(
  routes: CompiledRoute[],
  pathname: string,
): { route: CompiledRoute; params: Record<string, string> } | null {
  const parts = pathname.replace(/^\/+/, "").replace(/\/+$/, "").split("/");
  for (const route of routes) {
    const params: Record<string, string> = {};
    let matched = true;
    let i = 0;
    for (const segment of route.segments) {
      if (segment.kind === "splat") {
        params["*"] = parts.slice(i).map(decode).join("/");
        i = parts.length;
        break;
      }
      const part = parts[i];
      if (part === undefined || part === "") {
        matched = false;
        break;
      }
      if (segment.kind === "static" ? decode(part).toLowerCase() !== segment.value : false) {
        matched = false;
        break;
      }
      if (segment.kind === "param") params[segment.name] = decode(part);
      i++;
    }
    if (matched && i === parts.length) return { route, params };
  }
  return null;
}

export type ApiServerOptions = {
  routes: ApiRoute[];
  /** Express's "trust proxy" value, for the client address and the URL behind a proxy. */
  trustProxy: string;
  /** Headers every answer carries (the same Express sets on pages). */
  headers: Record<string, string>;
  /** Where jsonResponse keeps a JSON answer's text (app/lib/api.server.ts, read from the app's build). */
  jsonText: symbol;
  log: Logger;
};

function isDataWithResponseInit(value: unknown): value is { data: unknown; init: ResponseInit | null } {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "DataWithResponseInit";
}

/** A redirect as Remix's router tells one (isRedirectResponse): a 3xx status and a Location. */
const isRedirect = (response: Response) =>
  response.status >= 300 && response.status <= 399 && response.headers.has("Location");

/** The response with one header set: in place when its headers may change (keeping a JSON answer's text), else a copy. */
function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value);
    return response;
  } catch {
    const headers = new Headers(response.headers);
    headers.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

const COMPRESS_FROM_BYTES = 1024;

/** Express's res.set adds a charset to text and JSON types that name none (mime's charsets.lookup); so must we. */
function withCharset(type: string): string {
  return !/;\s*charset\s*=/i.test(type) && /^text\/|^application\/(javascript|json)/i.test(type)
    ? `${type}; charset=utf-8`
    : type;
}

/** br or gzip when the client takes it (q > 0), else null. */
export function chooseEncoding(acceptEncoding: string | undefined): "br" | "gzip" | null {
  if (!acceptEncoding) return null;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name = "", ...rest] = part.trim().toLowerCase().split(";");
    const q = rest.map((r) => /^\s*q=([\d.]+)/.exec(r)).find(Boolean);
    accepted.set(name.trim(), q ? Number(q[1]) : 1);
  }
  const weight = (name: string) => accepted.get(name) ?? accepted.get("*") ?? 0;
  if (weight("br") > 0) return "br";
  if (weight("gzip") > 0) return "gzip";
  return null;
}

const compressible = (type: string) => /^(text\/(?!event-stream)|application\/(json|javascript|xml))/i.test(type);

/**
 * The Fetch Request handed to a route, whose `signal` is made when a route first asks for it (the
 * event stream does; most routes never do) and aborts when the client goes away. Why: measured,
 * `new Request` with a signal of our own costs ~38 µs against ~13 µs without (undici links the two
 * signals), on every /api request.
 */
export class ServerRequest extends Request {
  #controller: AbortController | null = null;
  #gone = false;

  override get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#gone) this.#controller.abort();
    }
    return this.#controller.signal;
  }

  /** The client went away before the answer was written. */
  clientGone() {
    this.#gone = true;
    this.#controller?.abort();
  }
}

/**
 * A request listener that answers the /api routes it can and returns true, or returns false
 * (without touching the request) for the caller to hand it on.
 */
export function createApiServer(options: ApiServerOptions) {
  const routes = compileApiRoutes(options.routes);
  const trust = proxyAddr.compile(options.trustProxy.split(",").map((s) => s.trim()));
  // Whether the peer is a trusted proxy, once per connection (keep-alive clients send many requests).
  const trustedSockets = new WeakMap<object, boolean>();
  function trustsPeer(req: IncomingMessage): boolean {
    let trusted = trustedSockets.get(req.socket);
    if (trusted === undefined) {
      trusted = trust(req.socket.remoteAddress ?? "", 0);
      trustedSockets.set(req.socket, trusted);
    }
    return trusted;
  }

  function requestUrl(req: IncomingMessage): string {
    const trusted = trustsPeer(req);
    const forwarded = (name: string) => {
      const value = req.headers[name];
      return trusted && typeof value === "string" ? value.split(",")[0]?.trim() || undefined : undefined;
    };
    const protocol =
      forwarded("x-forwarded-proto") ?? ("encrypted" in req.socket && req.socket.encrypted ? "https" : "http");
    const host = forwarded("x-forwarded-host") ?? req.headers.host ?? "localhost";
    return `${protocol}://${host}${req.url ?? "/"}`;
  }

  return function handle(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url ?? "/";
    if (!/^\/api(\/|\?|$)/i.test(url)) return false;
    const method = req.method ?? "GET";
    if (method === "HEAD") return false;
    const queryAt = url.indexOf("?");
    const match = matchApiRoute(routes, queryAt < 0 ? url : url.slice(0, queryAt));
    const fn = match && (method === "GET" ? match.route.module.loader : match.route.module.action);
    if (!match || !fn) return false;
    void serve(req, res, fn, match.params).catch((error: unknown) => {
      // A client that went away mid-stream (a closed event stream, a cancelled export) is not an error,
      // nor is a body the server cut at its limit (server/app.ts answered it 413).
      const code = (error as { code?: string }).code;
      if (req.socket.destroyed && code === "ERR_STREAM_PREMATURE_CLOSE") return;
      if (code === "ERR_BODY_TOO_LARGE" || res.writableEnded) return;
      options.log.error({ err: error }, "Unexpected error while serving an /api request");
      if (!res.headersSent) {
        // What Remix answers in production for an error a resource route throws.
        res.statusCode = 500;
        for (const [name, value] of Object.entries(options.headers)) res.setHeader(name, value);
        res.setHeader("Content-Type", "text/plain; charset=utf-8");
        res.end("Unexpected Server Error");
      } else {
        res.destroy();
      }
    });
    return true;
  };

  async function serve(req: IncomingMessage, res: ServerResponse, fn: RouteFunction, params: Record<string, string>) {
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2)
      headers.append(req.rawHeaders[i] ?? "", req.rawHeaders[i + 1] ?? "");
    const method = req.method ?? "GET";
    const hasBody = method !== "GET";
    const request = new ServerRequest(requestUrl(req), {
      method,
      headers,
      ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: "half" } : {}),
    } as RequestInit);
    res.on("close", () => {
      if (!res.writableFinished) request.clientGone();
    });
    // Without X-Forwarded-For the client is the peer, as proxy-addr would answer.
    const context: AppLoadContext = {
      clientIp: req.headers["x-forwarded-for"] === undefined ? req.socket.remoteAddress : proxyAddr(req, trust),
    };

    let result: unknown;
    try {
      result = await fn({ request, params, context });
    } catch (thrown) {
      if (!(thrown instanceof Response)) throw thrown;
      // Remix marks a Response a resource route throws (a 405 from methodNotAllowed, say) with this
      // header, except a redirect, which its router answers as if returned; so must we, or the two
      // paths answer differently.
      result = isRedirect(thrown) ? thrown : withHeader(thrown, "X-Remix-Catch", "yes");
    }
    const response =
      result instanceof Response
        ? result
        : isDataWithResponseInit(result)
          ? Response.json(result.data, result.init ?? undefined)
          : Response.json(result);
    await send(req, res, response);
  }

  async function send(req: IncomingMessage, res: ServerResponse, response: Response) {
    res.statusCode = response.status;
    if (response.statusText) res.statusMessage = response.statusText;
    for (const [name, value] of Object.entries(options.headers)) res.setHeader(name, value);
    for (const [name, value] of response.headers)
      if (name !== "set-cookie") res.setHeader(name, name === "content-type" ? withCharset(value) : value);
    const cookies = response.headers.getSetCookie();
    if (cookies.length) res.setHeader("Set-Cookie", cookies);
    // A JSON answer made by jsonResponse holds its text: written as it is, its body stream never made.
    const held = (response as unknown as Record<symbol, unknown>)[options.jsonText];
    const jsonText = typeof held === "string" ? held : null;
    if (jsonText === null && !response.body) {
      res.end();
      return;
    }
    const type = response.headers.get("Content-Type") ?? "";
    const encoding =
      compressible(type) && !response.headers.has("Content-Encoding")
        ? chooseEncoding(req.headers["accept-encoding"])
        : null;
    if (compressible(type)) res.setHeader("Vary", "Accept-Encoding");

    if (jsonText !== null || /^application\/json/i.test(type)) {
      // JSON answers are bounded (lists page at 1,000 rows): one buffer, one write.
      let body = jsonText !== null ? Buffer.from(jsonText) : Buffer.from(await response.arrayBuffer());
      if (encoding && body.length >= COMPRESS_FROM_BYTES) {
        body =
          encoding === "br"
            ? zlib.brotliCompressSync(body, {
                params: {
                  [zlib.constants.BROTLI_PARAM_QUALITY]: 1,
                  [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
                },
              })
            : zlib.gzipSync(body, { level: 1 });
        res.setHeader("Content-Encoding", encoding);
      }
      res.setHeader("Content-Length", body.length);
      res.end(body);
      return;
    }
    // Streams (CSV export, Server-Sent Events): chunk by chunk, compressed on the way when asked.
    if (/^text\/event-stream/i.test(type)) res.flushHeaders();
    const source = Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>);
    if (encoding) {
      res.setHeader("Content-Encoding", encoding);
      res.removeHeader("Content-Length");
      const compressor =
        encoding === "br"
          ? zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } })
          : zlib.createGzip({ level: 1 });
      await pipeline(source, compressor, res);
    } else {
      await pipeline(source, res);
    }
  }
}
