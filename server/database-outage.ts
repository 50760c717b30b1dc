// Every loader and action of a build, answering the database's outage the one way: an error that
// says the database is out of reach (isDatabaseUnavailable, app/models/unavailable/store.server.ts)
// becomes the thrown 503 of unavailableAnswer() (app/lib/api.server.ts), with Retry-After and a
// message saying so. Remix hands a thrown Response to the route's error boundary, which shows its
// text, and keeps its status for the document and its single-fetch data; a resource route's
// answer is the Response itself. Without this, Remix answers 500 "Something went wrong". /api
// routes that run through withApi answer the same 503 themselves (app/services/auth.server.ts).
import type { ServerBuild } from "@remix-run/node";
import type { Logger } from "../app/lib/logger.server.ts";

type Answer = (error: unknown, request: Request) => Response | null;
type RouteFunction = (args: { request: Request }) => unknown;

const wrapped = new WeakMap<ServerBuild, ServerBuild>();

function answering(fn: RouteFunction, answer: Answer, log: Logger): RouteFunction {
  return async (args) => {
    try {
      return await fn(args);
    } catch (error) {
      const unavailable = answer(error, args.request);
      if (!unavailable) throw error;
      log.warn({ err: error }, "The database is unavailable: a request was answered 503");
      throw unavailable;
    }
  };
}

/** The build with every route's loader and action answering an outage with a 503 (the same build object gives the same copy). */
export function answeringOutages(build: ServerBuild, answer: Answer, log: Logger): ServerBuild {
  const known = wrapped.get(build);
  if (known) return known;
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    if (!route) continue;
    const module = route.module as typeof route.module & { loader?: RouteFunction; action?: RouteFunction };
    routes[id] = {
      ...route,
      module: {
        ...module,
        ...(module.loader ? { loader: answering(module.loader, answer, log) } : {}),
        ...(module.action ? { action: answering(module.action, answer, log) } : {}),
      } as typeof route.module,
    };
  }
  const copy = { ...build, routes };
  wrapped.set(build, copy);
  return copy;
}
