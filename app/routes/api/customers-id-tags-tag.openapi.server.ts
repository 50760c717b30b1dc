// The OpenAPI operations of /api/customers/{id}/tags/{tag} (./customers-id-tags-tag.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/customers/{id}/tags/{tag}",
    method: "delete",
    operationId: "removeCustomerTag",
    summary: "Takes one tag off a customer",
    tag: "Tags",
    answers: { 200: { description: "The customer's tags after", json: "CustomerTags" } },
    errors: [404],
  },
];
