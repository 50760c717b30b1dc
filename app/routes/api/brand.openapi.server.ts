// The OpenAPI operations of /api/brand (./brand.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/brand",
    method: "get",
    operationId: "getBrand",
    summary: "The caller's brand: colours, font, logo and postal address (the defaults when never set)",
    tag: "Templates",
    answers: { 200: { description: "The brand", json: "Brand" } },
  },
  {
    path: "/api/brand",
    method: "put",
    operationId: "saveBrand",
    summary: "Keeps the brand every template wears (a field left out takes its default)",
    tag: "Templates",
    body: "BrandInput",
    answers: { 200: { description: "The brand", json: "Brand" } },
    errors: [400, 413, 422],
  },
];
