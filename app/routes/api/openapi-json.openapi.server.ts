// The OpenAPI operations of /api/openapi.json (./openapi-json.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/openapi.json",
    method: "get",
    operationId: "getOpenApiDocument",
    summary: "This document",
    tag: "Meta",
    auth: "none",
    withoutDatabase: true,
    answers: { 200: { description: "The OpenAPI 3.1 document of /api", media: "application/json" } },
  },
];
