// The OpenAPI operations of /api/templates/{id} (./templates-id.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/templates/{id}",
    method: "get",
    operationId: "getTemplate",
    summary: "One template, the caller's own or a starter",
    tag: "Templates",
    answers: { 200: { description: "The template", json: "Template" } },
    errors: [404],
  },
  {
    path: "/api/templates/{id}",
    method: "put",
    operationId: "saveTemplate",
    summary:
      "Saves the whole template; with version, only over that version (an older copy is a 409); a starter is a 400",
    tag: "Templates",
    body: "TemplateInput",
    answers: { 200: { description: "The template", json: "Template" } },
    errors: [400, 404, 409, 413, 422],
  },
  {
    path: "/api/templates/{id}",
    method: "delete",
    operationId: "deleteTemplate",
    summary: "Deletes a template (a starter is a 400)",
    tag: "Templates",
    answers: { 200: { description: "Deleted", json: "SuccessMessage" } },
    errors: [400, 404],
  },
];
