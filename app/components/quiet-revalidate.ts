// The one way a screen reloads its data on its own (a push, a timer, the browser's time zone).
import { useFetchers, useNavigation, useRevalidator } from "@remix-run/react";
import { useCallback, useEffect, useRef } from "react";

/**
 * Returns a `revalidate` that never interrupts a navigation or a fetcher in flight: asked while
 * one runs, it waits until everything is idle and then reloads once.
 *
 * Why: an action leaves its toast in the session and redirects; the redirect's loaders read the
 * message and clear it. A revalidation started during that load aborts it in the browser after
 * the server may already have cleared the message, and the toast is lost. (A push arrives right
 * then when the action itself notifies, as a launch does.)
 */
export function useQuietRevalidate(): () => void {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const idle = navigation.state === "idle" && revalidator.state === "idle" && fetchers.every((f) => f.state === "idle");
  const idleNow = useRef(idle);
  idleNow.current = idle;
  const revalidateNow = useRef(revalidator.revalidate);
  revalidateNow.current = revalidator.revalidate;
  const waiting = useRef(false);

  useEffect(() => {
    if (!idle || !waiting.current) return;
    waiting.current = false;
    revalidateNow.current();
  }, [idle]);

  return useCallback(() => {
    if (idleNow.current) revalidateNow.current();
    else waiting.current = true;
  }, []);
}
