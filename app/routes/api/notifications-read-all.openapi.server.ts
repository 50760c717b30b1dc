// The OpenAPI operations of /api/notifications/read-all (./notifications-read-all.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation, withPostTwin } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  ...withPostTwin({
    path: "/api/notifications/read-all",
    method: "put",
    operationId: "markAllNotificationsRead",
    summary: "Marks every notification of the caller read",
    tag: "Notifications",
    answers: { 200: { description: "How many were unread", json: "ReadAll" } },
  }),
];
