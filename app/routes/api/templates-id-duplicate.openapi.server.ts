// The OpenAPI operations of /api/templates/{id}/duplicate (./templates-id-duplicate.ts), assembled into
// GET /api/openapi.json by ./openapi-json.ts. Beside the route rather than exported by it: a route
// module's exports other than loader, action and headers reach the browser's bundle.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/templates/{id}/duplicate",
    method: "post",
    operationId: "duplicateTemplate",
    summary: "A copy of a template (the caller's own or a starter) as a new template of the caller's",
    tag: "Templates",
    answers: { 201: { description: "The copy", json: "Template", headers: ["Location"] } },
    errors: [404, 409],
  },
];
