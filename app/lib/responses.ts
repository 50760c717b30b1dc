// The one way a loader or action says "not found", "not yours" or "bad id": it stops with a thrown
// answer instead of carrying on. On a page that answer is `data(message, { status })`, which the
// screen's error boundary (app/components/error-boundary.tsx) renders with a Back button, with or
// without JavaScript; nothing about the failure beyond that message reaches the browser. On /api it
// is the ApiError itself, which withApi() turns into the JSON error shape.
//
// - A fact the route checks itself: `invariantResponse(condition, message)`.
// - A fact a service checks (services throw ApiError for a record that is missing or belongs to
//   another tenant, both "not found", and for a change they refuse): `await orRespond(work, message)`.
import { data } from "@remix-run/react";
import { ApiError } from "~/lib/api.server";

/**
 * Stops the loader or action when `condition` is false, so it reads as a list of facts it needs:
 * `invariantResponse(isId(id), "Failed to load order data.")` on a page (404 unless told; a null
 * message is the shell's own 'Page not found'), `invariantResponse(isId(id), () => notFound("Order"))`
 * on /api (the error made only when it is thrown).
 */
export function invariantResponse(
  condition: unknown,
  message: string | null | (() => ApiError),
  init: { status: number } = { status: 404 },
): asserts condition {
  if (condition) return;
  if (typeof message === "function") throw message();
  throw data(message, init);
}

/**
 * Awaits a service call for a page; an ApiError it throws stops the loader or action as
 * invariantResponse does, with the error's status (404 for a record that is gone or another
 * tenant's) and `message`, or what `message` makes of the error (`(e) => \`Delete failed: ${e.message}\``).
 * Any other error is a fault and goes on to the error boundary and the server log.
 */
export async function orRespond<T>(work: Promise<T>, message: string | ((error: ApiError) => string)): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    throw data(typeof message === "string" ? message : message(error), { status: error.status });
  }
}

/** The message of a delete form whose record is gone: `{prefix}: {the service's message}`. */
export const refusedWith =
  (prefix: string) =>
  (error: ApiError): string =>
    `${prefix}: ${error.message}`;
