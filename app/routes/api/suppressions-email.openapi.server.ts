// The OpenAPI operations of /api/suppressions/{email} (./suppressions-email.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/suppressions/{email}",
    method: "get",
    operationId: "getSuppression",
    summary: "One address's entry on the caller's suppression list",
    tag: "Suppressions",
    answers: { 200: { description: "The entry", json: "Suppression" } },
    errors: [404],
  },
  {
    path: "/api/suppressions/{email}",
    method: "delete",
    operationId: "deleteSuppression",
    summary:
      "Takes an address off the suppression list (it gets campaigns again); the history keeps the resubscription",
    tag: "Suppressions",
    answers: { 200: { description: "Removed", json: "SuccessMessage" } },
    errors: [404],
  },
];
