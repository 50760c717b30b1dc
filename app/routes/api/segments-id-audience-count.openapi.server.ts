// The OpenAPI operations of /api/segments/{id}/audience-count (./segments-id-audience-count.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/segments/{id}/audience-count",
    method: "get",
    operationId: "countSegmentAudience",
    summary: "How many customers the segment holds",
    tag: "Segments",
    answers: { 200: { description: "The count", json: "AudienceCount" } },
    errors: [404],
  },
];
