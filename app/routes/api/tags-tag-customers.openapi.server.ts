// The OpenAPI operations of /api/tags/{tag}/customers (./tags-tag-customers.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/tags/{tag}/customers",
    method: "post",
    operationId: "tagCustomers",
    summary: "Tags customers by id, or everyone a segment matches now (the tag is made when new)",
    tag: "Tags",
    body: "TagCustomersInput",
    answers: { 200: { description: "How many customers got the tag", json: "Tagged" } },
    errors: [400, 404, 413],
  },
  {
    path: "/api/tags/{tag}/customers",
    method: "delete",
    operationId: "untagCustomers",
    summary: "Takes a tag off customers by id",
    tag: "Tags",
    body: "UntagCustomersInput",
    answers: { 200: { description: "How many customers had the tag", json: "Untagged" } },
    errors: [400, 404, 413],
  },
];
