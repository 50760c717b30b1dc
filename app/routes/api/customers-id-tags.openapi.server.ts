// The OpenAPI operations of /api/customers/{id}/tags (./customers-id-tags.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/customers/{id}/tags",
    method: "get",
    operationId: "getCustomerTags",
    summary: "A customer's tags",
    tag: "Tags",
    answers: { 200: { description: "The tags", json: "CustomerTags" } },
    errors: [404],
  },
  {
    path: "/api/customers/{id}/tags",
    method: "post",
    operationId: "addCustomerTags",
    summary: "Adds tags to a customer (new tags are made)",
    tag: "Tags",
    body: "TagsInput",
    answers: { 200: { description: "The customer's tags after", json: "CustomerTags" } },
    errors: [400, 404, 413],
  },
];
