// Remix's server entry: renders documents (as Remix's default entry does), logs unexpected errors,
// and hands server/index.ts the app code it needs at start. The server reads those exports from
// the build (or, in development, from Vite's module graph) rather than importing app/ itself, so
// the server and the routes share one copy of every module: one database client, one process bus.
import { randomBytes } from "node:crypto";
import { PassThrough } from "node:stream";
import type { ActionFunctionArgs, EntryContext, LoaderFunctionArgs } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer, isRouteErrorResponse } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { db, tuneDatabase } from "~/db/prisma.server";
import { openNotifyChannel } from "~/db/listen.server";
import { migrateDatabase } from "~/db/migrate.server";
import { migratePostgres } from "~/db/migrate-postgres.server";
import { ensureCustomerStatistics } from "~/db/planner-statistics.server";
import { openSqlite } from "~/db/sqlite.server";
import { getEnv } from "~/env.server";
import { isBodyTooLarge } from "~/lib/api.server";
import { logger } from "~/lib/logger.server";
import { NonceProvider, contentSecurityPolicy } from "~/lib/nonce";
import { linkInstances as linkBus } from "~/services/process-bus.server";

export { getEnv } from "~/env.server";
export { JSON_TEXT, unavailableAnswer } from "~/lib/api.server";
export { crossOriginMessage, isOwnOrigin, originOf } from "~/lib/own-origin";
export { awaitingOwner } from "~/services/sign-up.server";
export { logger, withRequestLogState } from "~/lib/logger.server";
export { hearBusMessage, isBusMessage } from "~/services/process-bus.server";
export { startBackgroundJobs } from "~/services/job-scheduler.server";

const ABORT_DELAY = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  // Crawlers and SPA mode get the whole document at once; browsers get it streamed.
  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode;
  // A fresh nonce per page: the only inline scripts that run are the ones rendered with it.
  const nonce = randomBytes(16).toString("base64");
  responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(nonce, getEnv().NODE_ENV === "development"));
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider nonce={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        // React's own inline scripts (those that reveal streamed Suspense content) carry it too:
        // without it a browser, unlike a bot, got every page with two scripts the policy blocked.
        nonce,
        [waitForAll ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html");
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // An error before the shell rejects above and reaches handleError; only later ones are logged here.
          if (shellRendered) logger().error({ err: error }, "Error while streaming a page");
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}

/** Remix calls this for every unexpected error a loader, an action or a render throws. */
export function handleError(error: unknown, { request }: LoaderFunctionArgs | ActionFunctionArgs) {
  // A client that went away mid-request is not the server's error, nor is a request Remix answers
  // with a 4xx of its own (a method a route has no loader or action for).
  // Nor a body the server stopped at its size limit (it answered 413 itself).
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500) || isBodyTooLarge(error)) return;
  logger().error({ err: error }, "Unexpected error while serving a request");
}

/**
 * Once per server, before any worker opens the database: migrations, then (SQLite) the planner's
 * statistics. On PostgreSQL several instances may start at once: migratePostgres() holds an
 * advisory lock, so each migration is applied once, and the server gathers statistics itself
 * (autovacuum's ANALYZE), so there is no step of ours after it.
 */
export async function prepareDatabase() {
  const env = getEnv();
  const log = logger();
  const onApply = (name: string) => log.info({ migration: name }, `Applied migration ${name}`);
  if (env.databaseEngine === "postgres") {
    const { applied, total } = await migratePostgres(env.databaseUrl, { onApply });
    log.info(`Database ${shownUrl(env.databaseUrl)}: ${total} migrations, ${applied.length} applied now.`);
    return;
  }
  const { applied, total } = migrateDatabase(env.databaseFile, { onApply });
  log.info(`Database ${env.databaseFile}: ${total} migrations, ${applied.length} applied now.`);
  const sqlite = openSqlite(env.databaseFile);
  try {
    if (ensureCustomerStatistics(sqlite)) log.info("Gathered the query planner's statistics of the customer table.");
  } finally {
    sqlite.close();
  }
}

/** A database URL for the log: its password left out. */
function shownUrl(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = "***";
  return u.toString();
}

/**
 * On PostgreSQL, links this instance's process bus to every other instance's through the database
 * (docs/decisions/0034-many-instances.md); null on SQLite, where one machine is the whole server.
 * Called once by the primary, or the only process, which relays for its workers.
 */
export function linkInstances() {
  const env = getEnv();
  if (env.databaseEngine !== "postgres") return null;
  return linkBus(openNotifyChannel, { url: env.databaseUrl, log: logger() });
}

/** Once per serving process, before it listens: the pragmas the Prisma connection must hold (SQLite). */
export async function prepareWorker() {
  await tuneDatabase(db());
}
