// The OpenAPI operations of /api/segments (./segments.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";
import { SegmentListQuerySchema } from "~/schemas/api-inputs.server";

export const operations: Operation[] = [
  {
    path: "/api/segments",
    method: "get",
    operationId: "listSegments",
    summary: "The caller's segments with their audience sizes",
    tag: "Segments",
    query: SegmentListQuerySchema,
    answers: { 200: { description: "Segments", json: ["SegmentWithCount"] } },
    errors: [400],
  },
  {
    path: "/api/segments",
    method: "post",
    operationId: "createSegment",
    summary: "Creates a segment",
    tag: "Segments",
    body: "SegmentInput",
    answers: { 201: { description: "The segment", json: "SavedSegment" } },
    errors: [400, 413],
  },
];
