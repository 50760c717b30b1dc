// Guards for loaders and actions: stop with an HTTP answer instead of carrying on. A screen's error
// boundary (app/components/error-boundary.tsx) renders the message; nothing about the failure
// beyond that message reaches the browser.
import { data } from "@remix-run/react";

/**
 * Throws a response with `message` and `status` (404 unless told) when `condition` is false, so a
 * loader reads as a list of facts it needs: `invariantResponse(order, "Failed to load order data.")`.
 */
export function invariantResponse(
  condition: unknown,
  message: string,
  init: { status: number } = { status: 404 },
): asserts condition {
  if (!condition) throw data(message, init);
}
