// The production server: migrate the database, then serve the Remix build with Express, from
// WEB_CONCURRENCY worker processes (server/cluster.ts) or, with 1, from this process.
// `npm start` builds first; the container runs this directly.
import cluster from "node:cluster";
import compression from "compression";
import express from "express";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import { getEnv } from "../app/env.server.ts";
import { migrateDatabase } from "../app/db/migrate.server.ts";
import { tuneDatabase, db } from "../app/db.server.ts";
import { ensureCustomerStatistics } from "../app/db/planner-statistics.server.ts";
import { openSqlite } from "../app/db/sqlite.server.ts";
import { type ApiRoute, type ApiRouteModule, createApiServer } from "./api-server.ts";
import { READY_MESSAGE, runCluster } from "./cluster.ts";

const env = getEnv();
const started = Date.now();
const workers = cluster.isWorker ? 1 : env.WEB_CONCURRENCY;
const mode = [env.googleEnabled ? "Google sign-in" : null, env.localAuthEnabled ? "local sign-in" : null].filter(Boolean).join(" + ");
const readyLine = () =>
  `CRM ready on ${env.publicUrl} (${mode || "no sign-in method configured"}${workers > 1 ? `, ${workers} workers` : ""}) in ${Date.now() - started} ms`;

if (cluster.isPrimary) {
  // Once, before any worker opens the database.
  const { applied, total } = migrateDatabase(env.databaseFile, {
    onApply: (name) => console.log(`Applied migration ${name}`),
  });
  console.log(`Database ${env.databaseFile}: ${total} migrations, ${applied.length} applied now.`);
  const sqlite = openSqlite(env.databaseFile);
  try {
    if (ensureCustomerStatistics(sqlite)) console.log("Gathered the query planner's statistics of the customer table.");
  } finally {
    sqlite.close();
  }
}

if (cluster.isPrimary && workers > 1) {
  runCluster({ workers, onReady: () => console.log(readyLine()) });
} else {
  await serve();
}

async function serve() {
  await tuneDatabase(db());

  const root = path.resolve(import.meta.dirname, "..");
  const buildPath = path.join(root, "build/server/index.js");
  const build = (await import(buildPath)) as ServerBuild;

  // Believe X-Forwarded-For only from proxies on loopback or private networks (a container's
  // reverse proxy), so clients cannot choose their own address for the sign-in rate limit.
  const trustProxy = "loopback, linklocal, uniquelocal";
  const securityHeaders = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
  };

  // The /api resource routes, served without Express and Remix's router (see server/api-server.ts).
  const apiRoutes: ApiRoute[] = Object.values(build.routes)
    .filter((r) => r.path?.startsWith("api/") || r.path === "api")
    .map((r) => ({ id: r.id, path: r.path ?? "", module: r.module as ApiRouteModule }));
  const api = createApiServer({ routes: apiRoutes, trustProxy, headers: securityHeaders });

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", trustProxy);
  // Server-Sent Events must not be buffered by compression. The fastest levels (gzip 1, brotli 1):
  // zlib was 6-8% of the server's CPU in the bench profile; measured on the 149 KB /customers page,
  // brotli 1 takes 0.5 ms against 1.3 ms at the default 4 (gzip 1 vs 6: 0.4 vs 1.3 ms), for output
  // 14% larger (17 KB instead of 15 KB).
  app.use(
    compression({
      level: 1,
      brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } },
      filter: (req, res) => !req.path.endsWith("/stream") && compression.filter(req, res),
    }),
  );
  app.use("/assets", express.static(path.join(root, "build/client/assets"), { immutable: true, maxAge: "1y" }));
  // Public files all have an extension (favicon.ico, robots.txt): pages and /api paths skip the
  // file-system lookup express.static would otherwise make for every request.
  const publicFiles = express.static(path.join(root, "build/client"), { maxAge: "1h" });
  app.use((req, res, next) => (path.extname(req.path) ? publicFiles(req, res, next) : next()));
  app.use((_req, res, next) => {
    for (const [name, value] of Object.entries(securityHeaders)) res.setHeader(name, value);
    next();
  });
  app.all(
    "*",
    createRequestHandler({
      build,
      mode: env.NODE_ENV === "production" ? "production" : "development",
      getLoadContext: (req) => ({ clientIp: req.ip }),
    }),
  );

  const server = http.createServer((req, res) => {
    if (!api(req, res)) app(req, res);
  });
  server.listen(env.PORT, env.HOST, () => {
    if (cluster.isWorker) process.send?.(READY_MESSAGE);
    else console.log(readyLine());
  });

  function shutdown(signal: string) {
    if (cluster.isPrimary) console.log(`${signal}: closing`);
    server.close(() => process.exit(0));
    // Open event streams keep connections up: give answers in flight a moment, then go.
    setTimeout(() => process.exit(0), 5000).unref();
  }
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}
