// The OpenAPI operations of /api/customers/{id} (./customers-id.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation, putAndPatch } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/customers/{id}",
    method: "get",
    operationId: "getCustomer",
    summary: "A customer with their segments and recent orders",
    tag: "Customers",
    answers: { 200: { description: "The customer", json: "CustomerDetail" } },
    errors: [404],
  },
  ...putAndPatch({
    path: "/api/customers/{id}",
    operationId: "updateCustomer",
    summary:
      "Replaces a customer's record (the same body as POST); `fields` changes only the fields it names and `tags` replaces the tags, and left out both stay as they are",
    tag: "Customers",
    body: "CustomerInput",
    answers: { 200: { description: "The customer", json: "CustomerRecord" } },
    errors: [400, 404, 409, 413],
  }),
  {
    path: "/api/customers/{id}",
    method: "delete",
    operationId: "deleteCustomer",
    summary: "Deletes a customer and their orders",
    tag: "Customers",
    answers: { 200: { description: "Deleted", json: "CustomerDeleted" } },
    errors: [404],
  },
];
