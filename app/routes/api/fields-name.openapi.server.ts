// The OpenAPI operations of /api/fields/{name} (./fields-name.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/fields/{name}",
    method: "get",
    operationId: "getField",
    summary: "One customer field",
    tag: "Fields",
    answers: { 200: { description: "The field", json: "Field" } },
    errors: [404],
  },
  {
    path: "/api/fields/{name}",
    method: "patch",
    operationId: "updateField",
    summary: "Changes a field's label, choices, default, position or retirement (a built-in field is a 400)",
    tag: "Fields",
    body: "FieldChangeInput",
    answers: { 200: { description: "The field", json: "Field" } },
    errors: [400, 404, 413],
  },
  {
    path: "/api/fields/{name}",
    method: "delete",
    operationId: "deleteField",
    summary: "Deletes a field and every customer's value of it (a built-in field is a 400)",
    tag: "Fields",
    answers: { 200: { description: "Deleted", json: "FieldDeleted" } },
    errors: [400, 404],
  },
];
