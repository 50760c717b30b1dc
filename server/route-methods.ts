// Which methods a page or resource route takes, asked of the route itself: the server needs it to
// answer a method before looking at the body (server/app.ts). Remix refuses OPTIONS on a page with
// a 405 of its own, without Allow, before any route code runs; and the server refuses a page write
// whose body is not a form (415) before the route can say it takes no write at all.
//
// Every route outside /api takes GET, or GET and POST, never PUT (tests/routes/methods.test.ts),
// and every action answers a method it does not take first, before credentials or the body
// (allowMethods/methodNotAllowed in app/lib/api.server.ts). So the route's action, called with a
// bodyless PUT, answers 405 with its Allow header and does nothing else. The action called is the
// one Remix would call for the path: the deepest route that adds to the path, the parent of an
// index route unless `?index` is given.
import type { ServerBuild } from "@remix-run/node";
import { type AgnosticRouteObject, matchRoutes } from "@remix-run/router";

type RouteFunction = (args: {
  request: Request;
  params: Record<string, string | undefined>;
  context: object;
}) => unknown;
type Route = AgnosticRouteObject & { id: string; children?: Route[] };

/** The build's routes as a tree for Remix's router (as @remix-run/server-runtime builds it). */
function routeTree(build: ServerBuild, parentId?: string): Route[] {
  return Object.values(build.routes)
    .filter((route) => route?.parentId === parentId)
    .map((route) => {
      const children = routeTree(build, route?.id);
      const base = { id: route?.id ?? "", path: route?.path, caseSensitive: route?.caseSensitive };
      return (route?.index ? { ...base, index: true } : { ...base, children }) as Route;
    });
}

const trees = new WeakMap<ServerBuild, Route[]>();

/** A route's answer to a method it does not take: its Allow header ("GET, POST") and its message. */
export type AllowedMethods = { allow: string[]; message: string };

/**
 * The methods the route at `url` takes, with the words of its 405, or null when no route answers
 * the path or its action did not answer a PUT with a 405.
 */
export async function allowedMethodsOf(build: ServerBuild, url: URL): Promise<AllowedMethods | null> {
  let tree = trees.get(build);
  if (!tree) {
    tree = routeTree(build);
    trees.set(build, tree);
  }
  // A page's single-fetch data is at its address with ".data" after it; the root's at /_root.data.
  const pathname = url.pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/");
  const matches = matchRoutes(tree, pathname);
  if (!matches?.length) return null;
  // Remix's target of a write: the deepest route that adds to the path (the root counts).
  const contributing = matches.filter((m, i) => i === 0 || m.route.index || (m.route.path ?? "").length > 0);
  let target = contributing.at(-1);
  if (target?.route.index && !url.searchParams.getAll("index").some((v) => v === "")) target = contributing.at(-2);
  const action = target && (build.routes[target.route.id]?.module as { action?: RouteFunction } | undefined)?.action;
  if (!target || !action) return null;
  let answer: unknown;
  try {
    answer = await action({
      request: new Request(new URL(pathname, url), { method: "PUT" }),
      params: target.params,
      context: {},
    });
  } catch (thrown) {
    answer = thrown;
  }
  if (!(answer instanceof Response) || answer.status !== 405) return null;
  const allow = answer.headers.get("Allow");
  if (!allow) return null;
  // The page's plain text, or the message of the /api error shape.
  const text = await answer.text();
  let message = text;
  try {
    message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
  } catch {
    // plain text
  }
  return { allow: allow.split(",").map((m) => m.trim()), message };
}
