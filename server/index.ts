// The one server, for development and production alike (the Express application is server/app.ts).
//
// NODE_ENV=development (`npm run dev`): Vite runs inside this server in middleware mode, serves
// the client modules with hot reload (its websocket shares this server's port) and the app is
// read through Vite's module graph on each request, so an edited route is picked up without a
// restart. Otherwise (`npm start`, the container): the production build, from WEB_CONCURRENCY
// worker processes (server/cluster.ts) or, with 1, from this process. Production runs this file
// compiled (build/node/server.mjs, by `npm run build`) on node alone, without tsx's loader.
//
// The app code the server itself needs (the environment, migrations, the logger, the process
// bus's message check) comes from the app's server entry, out of the same build or module graph
// as the routes: one copy of each module per process. Only types are imported from app/ here, and
// appRoot() (app/lib/app-root.server.ts), which holds no state, so a copy of it is harmless.
import cluster from "node:cluster";
import http from "node:http";
import path from "node:path";
import type { ServerBuild } from "@remix-run/node";
import { appRoot } from "../app/lib/app-root.server.ts";
import { answerClientError, appOf, createRequestListener } from "./app.ts";
import { READY_MESSAGE, runCluster } from "./cluster.ts";

const started = Date.now();
// The folder with package.json above this file: the repository (server/index.ts, run by tsx in
// development) or the same folder seen from the compiled copy (build/node/server.mjs).
const root = appRoot(import.meta.dirname);
// The app's own default (app/env.server.ts) is development too.
const mode = process.env.NODE_ENV ?? "development";
const dev = mode === "development";

// Vite's hot-reload websocket attaches to this server, so it exists before Vite does.
const httpServer = http.createServer();
// A client that sends its headers or body slowly cannot hold a connection open: headers within
// 20 s, the whole request (a large CSV upload included) within 10 minutes, idle keep-alive 5 s.
httpServer.headersTimeout = 20_000;
httpServer.requestTimeout = 600_000;
httpServer.keepAliveTimeout = 5_000;
// What Node's HTTP parser refuses (a control character in a header, a malformed request line)
// never reaches the request listener either: a JSON 400 instead of Node's bare one.
httpServer.on("clientError", answerClientError);
// CONNECT (a tunnel) never reaches the request listener: refused here.
httpServer.on("connect", (_req, socket) =>
  socket.end("HTTP/1.1 405 Method Not Allowed\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"),
);
const vite = dev
  ? await import("vite").then((v) =>
      v.createServer({ root, server: { middlewareMode: true, hmr: { server: httpServer } }, appType: "custom" }),
    )
  : undefined;
const loadBuild = async () =>
  vite
    ? ((await vite.ssrLoadModule("virtual:remix/server-build")) as ServerBuild)
    : ((await import(path.join(root, "build/server/index.js"))) as ServerBuild);

const build = await loadBuild();
const app = appOf(build);
const env = app.getEnv();
const log = app.logger();
const workers = dev || cluster.isWorker ? 1 : env.WEB_CONCURRENCY;
const signIn = [env.googleEnabled ? "Google sign-in" : null, env.localAuthEnabled ? "local sign-in" : null]
  .filter(Boolean)
  .join(" + ");
const readyLine = () =>
  `CRM ready on ${env.publicUrl} (${signIn || "no sign-in method configured"}${dev ? ", development with Vite" : ""}${workers > 1 ? `, ${workers} workers` : ""}) in ${Date.now() - started} ms`;

// Once, before any worker opens the database.
if (cluster.isPrimary) await app.prepareDatabase();

// On PostgreSQL, this instance's one link to the other instances sharing the database, held by the
// primary, which relays for its workers (docs/decisions/0034-many-instances.md).
const instances = cluster.isPrimary ? app.linkInstances() : null;

// The background jobs (campaign delivery) run once per server, in the primary: started when the
// server answers, since the built-in vendor posts its receipts to it.
let jobs: Awaited<ReturnType<typeof app.startBackgroundJobs>> | undefined;
const startJobs = () => {
  app
    .startBackgroundJobs({ root, log })
    .then((started) => (jobs = started))
    .catch((err: unknown) => log.error({ err }, "the background jobs did not start: campaigns will not be sent"));
};
if (cluster.isPrimary) {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    // The jobs' last messages (a campaign completed) still go to the other instances.
    process.once(signal, () => void Promise.resolve(jobs?.stop()).finally(() => instances?.close()));
  }
}

/** On a new install, what to do next: the owner's account is made on the sign-in page. */
async function tellAboutOwner() {
  if (await app.awaitingOwner().catch(() => false))
    log.info(`No account yet: open ${env.publicUrl} to create the owner's account.`);
}

if (cluster.isPrimary && workers > 1) {
  runCluster({
    workers,
    log,
    isBusMessage: app.isBusMessage,
    hearBusMessage: app.hearBusMessage,
    onReady: () => {
      log.info(readyLine());
      void tellAboutOwner();
      startJobs();
    },
  });
} else {
  await serve();
}

async function serve() {
  await app.prepareWorker();
  const listener = createRequestListener({
    // In development the build is read from Vite on every request: an edited module is picked up.
    build: vite ? loadBuild : build,
    // In production /api is served by server/api-server.ts (see there for why and the figures).
    fastApi: vite ? undefined : build,
    app,
    log,
    mode: mode === "production" ? "production" : "development",
    vite,
    clientDir: path.join(root, "build/client"),
  });
  httpServer.on("request", listener);
  httpServer.listen(env.PORT, env.HOST, () => {
    if (cluster.isWorker) process.send?.(READY_MESSAGE);
    else {
      log.info(readyLine());
      void tellAboutOwner();
      startJobs();
    }
  });

  function shutdown(signal: string) {
    if (cluster.isPrimary) log.info(`${signal}: closing`);
    void vite?.close();
    httpServer.close(() => process.exit(0));
    // Open event streams keep connections up: give answers in flight a moment, then go.
    setTimeout(() => process.exit(0), 5000).unref();
  }
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}
