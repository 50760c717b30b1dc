// The OpenAPI operations of /api/notifications/{id} (./notifications-id.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/notifications/{id}",
    method: "delete",
    operationId: "deleteNotification",
    summary: "Removes one of the caller's notifications",
    tag: "Notifications",
    answers: { 200: { description: "Removed", json: "Success" } },
    errors: [404],
  },
];
