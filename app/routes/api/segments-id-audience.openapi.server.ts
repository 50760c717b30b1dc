// The OpenAPI operations of /api/segments/{id}/audience (./segments-id-audience.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";
import { AudienceQuerySchema } from "~/schemas/segment";

export const operations: Operation[] = [
  {
    path: "/api/segments/{id}/audience",
    method: "get",
    operationId: "listSegmentAudience",
    summary: "A page of the segment's customers in creation order",
    tag: "Segments",
    query: AudienceQuerySchema,
    answers: { 200: { description: "Customers", json: ["AudienceCustomer"], headers: ["X-Next-Cursor"] } },
    errors: [400, 404],
  },
];
