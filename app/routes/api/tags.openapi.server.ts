// The OpenAPI operations of /api/tags (./tags.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/tags",
    method: "get",
    operationId: "listTags",
    summary: "The caller's tags, each with how many customers carry it",
    tag: "Tags",
    answers: { 200: { description: "Tags", json: ["Tag"] } },
  },
];
