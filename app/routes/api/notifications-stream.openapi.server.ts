// The OpenAPI operations of /api/notifications/stream (./notifications-stream.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/notifications/stream",
    method: "get",
    operationId: "streamNotifications",
    summary: "Server-Sent Events: `event: notification` with { kind, notification } as data",
    tag: "Notifications",
    answers: { 200: { description: "An event stream", media: "text/event-stream", headers: ["X-User-Id"] } },
  },
];
