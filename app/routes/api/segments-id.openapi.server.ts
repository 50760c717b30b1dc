// The OpenAPI operations of /api/segments/{id} (./segments-id.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/segments/{id}",
    method: "get",
    operationId: "getSegment",
    summary: "A segment with its audience size",
    tag: "Segments",
    answers: { 200: { description: "The segment", json: "SegmentWithCount" } },
    errors: [404],
  },
  {
    path: "/api/segments/{id}",
    method: "put",
    operationId: "updateSegment",
    summary: "Replaces a segment's name, description and conditions",
    tag: "Segments",
    body: "SegmentInput",
    answers: { 200: { description: "The segment", json: "SavedSegment" } },
    errors: [400, 404, 413],
  },
  {
    path: "/api/segments/{id}",
    method: "delete",
    operationId: "deleteSegment",
    summary:
      "Deletes a segment; draft campaigns that used it lose it (named in warnings). A segment other segments include is a 409 naming them",
    tag: "Segments",
    answers: { 200: { description: "Deleted", json: "SegmentDeleted" } },
    errors: [404, 409],
  },
];
