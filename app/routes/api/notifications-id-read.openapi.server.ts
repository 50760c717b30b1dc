// The OpenAPI operations of /api/notifications/{id}/read (./notifications-id-read.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation, withPostTwin } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  ...withPostTwin({
    path: "/api/notifications/{id}/read",
    method: "put",
    operationId: "markNotificationRead",
    summary: "Marks one of the caller's notifications read",
    tag: "Notifications",
    answers: { 200: { description: "Marked", json: "Success" } },
    errors: [404],
  }),
];
