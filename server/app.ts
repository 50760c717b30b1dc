// The Express application every request goes through, in development and production alike:
// a log line per request, compression, security headers, static files (the build's, or Vite's
// middleware in development) and Remix's request handler for pages and /api, with the caller's
// address in the load context. server/index.ts mounts it; server/app.test.ts drives it over HTTP.
import type { IncomingMessage, ServerResponse } from "node:http";
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

/** What the server reads from the app's server entry (app/entry.server.tsx). */
export type AppEntryModule = typeof AppEntry;

/** The app's server entry out of a build, checked: the server cannot start without it. */
export function appOf(build: ServerBuild): AppEntryModule {
  const entry = build.entry.module as Partial<AppEntryModule>;
  if (typeof entry.prepareDatabase !== "function" || typeof entry.logger !== "function" || typeof entry.withRequestLogState !== "function") {
    throw new Error("The server build's entry (app/entry.server.tsx) does not export what the server needs; rebuild with `npm run build`.");
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
};

// Believe X-Forwarded-For only from proxies on loopback or private networks (a container's
// reverse proxy), so clients cannot choose their own address for the sign-in rate limit.
export const TRUST_PROXY = "loopback, linklocal, uniquelocal";

export const SECURITY_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
};

/**
 * The listener of the HTTP server: every request is logged, /api requests go to the /api server
 * (server/api-server.ts) when `fastApi` is given a build, everything else (and /api in
 * development) to the Express application.
 */
export function createRequestListener(options: ServerAppOptions & { fastApi?: ServerBuild }) {
  const { app, log, fastApi } = options;
  const server = createServerApp(options);
  const api = fastApi
    ? createApiServer({
        routes: Object.values(fastApi.routes)
          .filter((r) => r.path?.startsWith("api/") || r.path === "api")
          .map((r): ApiRoute => ({ id: r.id, path: r.path ?? "", module: r.module as ApiRouteModule })),
        trustProxy: TRUST_PROXY,
        headers: SECURITY_HEADERS,
        jsonText: app.JSON_TEXT,
        log,
      })
    : null;
  return (req: IncomingMessage, res: ServerResponse) => {
    const state = logRequest(log, req, res);
    app.withRequestLogState(state, () => {
      if (!api?.(req, res)) server(req, res);
    });
  };
}

function createServerApp({ build, log, mode, vite, clientDir }: ServerAppOptions) {
  const server = express();
  server.disable("x-powered-by");
  server.set("trust proxy", TRUST_PROXY);
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
  server.use((_req, res, next) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
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
    if (error instanceof Error) vite?.ssrFixStacktrace(error);
    log.error({ err: error, method: req.method, path: req.path }, "Unexpected error while serving a request");
    if (res.headersSent) res.destroy();
    else res.status(500).type("text/plain").send("Something went wrong on our side. Please try again.");
  });
  return server;
}

/**
 * One log line per request, written when its answer is finished or abandoned: method, path (never
 * the query string, which can carry a token), status, duration and the caller's user id when the
 * request resolved one. Pages and /api at info; files (assets, Vite's modules) at debug; 5xx at error.
 * Returns the state the request is served in (the auth code fills in the user id).
 */
function logRequest(log: Logger, req: IncomingMessage, res: ServerResponse): RequestLogState {
  const start = performance.now();
  const url = req.url ?? "/";
  const queryAt = url.indexOf("?");
  const state: RequestLogState = { method: req.method ?? "GET", path: queryAt < 0 ? url : url.slice(0, queryAt) };
  res.once("close", () => {
    const status = res.statusCode;
    // Express marks what reached Remix; the /api server's answers are all the app's too.
    const served = (res as ServerResponse & { locals?: { app?: boolean } }).locals?.app === true || /^\/api(\/|$)/i.test(state.path);
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
