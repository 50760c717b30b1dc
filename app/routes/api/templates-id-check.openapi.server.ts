// The OpenAPI operations of /api/templates/{id}/check (./templates-id-check.ts), assembled into GET
// /api/openapi.json by ./openapi-json.ts. Beside the route rather than exported by it: a route module's
// exports other than loader, action and headers reach the browser's bundle.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/templates/{id}/check",
    method: "get",
    operationId: "checkTemplate",
    summary: "What to fix before the template is sent, each problem with where it is (empty: nothing)",
    tag: "Templates",
    answers: { 200: { description: "The problems", json: "TemplateCheck" } },
    errors: [404],
  },
];
