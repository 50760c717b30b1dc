// The OpenAPI operations of /api/segments/describe (./segments-describe.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/segments/describe",
    method: "post",
    operationId: "describeSegment",
    summary: "Writes segment conditions from a description, with the configured LLM or the local rules",
    description:
      "The conditions come from the LLM set up in AI_BASE_URL and AI_MODEL when its answer is valid conditions of your " +
      "fields; otherwise (no LLM, a failure, a timeout, an answer that is not valid) from the local keyword rules. " +
      "`writer` says which. A description the local rules cannot read is a 422.",
    tag: "Segments",
    body: "SegmentDescribeInput",
    answers: { 200: { description: "The conditions", json: "SegmentDescription" } },
    errors: [400, 413, 422],
  },
];
