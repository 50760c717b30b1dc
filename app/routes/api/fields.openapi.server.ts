// The OpenAPI operations of /api/fields (./fields.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/fields",
    method: "get",
    operationId: "listFields",
    summary: "The caller's customer fields: the built-in ones, then its own in their order",
    tag: "Fields",
    answers: { 200: { description: "Fields", json: ["Field"] } },
  },
  {
    path: "/api/fields",
    method: "post",
    operationId: "createField",
    summary: "Defines a customer field (a name taken is a 409)",
    tag: "Fields",
    body: "FieldInput",
    answers: { 201: { description: "The field", json: "Field", headers: ["Location"] } },
    errors: [400, 409, 413],
  },
];
