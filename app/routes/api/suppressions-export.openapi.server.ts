// The OpenAPI operations of /api/suppressions/export (./suppressions-export.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/suppressions/export",
    method: "get",
    operationId: "exportSuppressions",
    summary: "The caller's whole suppression list as a CSV download: email, reason, campaign, created_at",
    tag: "Suppressions",
    answers: { 200: { description: "A CSV file", media: "text/csv" } },
  },
];
