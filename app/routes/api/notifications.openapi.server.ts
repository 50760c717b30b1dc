// The OpenAPI operations of /api/notifications (./notifications.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";
import { NotificationListQuerySchema } from "~/schemas/api-inputs.server";

export const operations: Operation[] = [
  {
    path: "/api/notifications",
    method: "get",
    operationId: "listNotifications",
    summary: "The caller's notifications, newest first (at most 50), and the unread count",
    tag: "Notifications",
    query: NotificationListQuerySchema,
    answers: { 200: { description: "Notifications", json: "NotificationList" } },
    errors: [400],
  },
];
