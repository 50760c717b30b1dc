// The OpenAPI operations of /api/segments/preview (./segments-preview.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/segments/preview",
    method: "post",
    operationId: "previewSegment",
    summary: "Counts an unsaved rule set's customers and shows up to 10 of them",
    tag: "Segments",
    body: "SegmentPreviewInput",
    answers: { 200: { description: "The audience", json: "AudiencePreview" } },
    errors: [400, 413],
  },
];
