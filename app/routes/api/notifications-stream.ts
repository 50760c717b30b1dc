// GET /api/notifications/stream: Server-Sent Events for the caller's notifications, so open pages
// update their bell without polling. A comment line every 25 s keeps proxies from closing it.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFailure, authenticateApi } from "~/services/auth.server";
import { subscribeNotifications, type NotificationEvent } from "~/services/notifications.server";
import { methodNotAllowed } from "~/lib/api.server";

export async function loader({ request }: LoaderFunctionArgs) {
  let userId: string;
  try {
    userId = (await authenticateApi(request)).id;
  } catch (error) {
    return apiFailure(error);
  }
  const encoder = new TextEncoder();
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      const onEvent = (event: NotificationEvent) => send(`event: notification\ndata: ${JSON.stringify(event)}\n\n`);
      const heartbeat = setInterval(() => send(": keep-alive\n\n"), 25_000);
      const unsubscribe = subscribeNotifications(userId, onEvent);
      cleanup = () => {
        clearInterval(heartbeat);
        unsubscribe();
      };
      request.signal.addEventListener("abort", () => {
        cleanup();
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      });
      send("retry: 5000\n\n");
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store, no-transform",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
      "X-User-Id": userId,
    },
  });
}

export const action = methodNotAllowed("GET");
