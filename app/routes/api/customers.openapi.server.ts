// The OpenAPI operations of /api/customers (./customers.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation, PAGED_HEADERS } from "~/lib/openapi/operation";
import { CustomerListQuerySchema } from "~/schemas/api-inputs.server";

export const operations: Operation[] = [
  {
    path: "/api/customers",
    method: "get",
    operationId: "listCustomers",
    summary: "A page of the caller's customers",
    description:
      "Newest first unless sort and order say otherwise. With q, X-Total-Count counts up to 1000 and X-Total-Count-Capped: true says there are more.",
    tag: "Customers",
    query: CustomerListQuerySchema,
    answers: {
      200: { description: "Customers", json: ["Customer"], headers: [...PAGED_HEADERS, "X-Total-Count-Capped"] },
    },
    errors: [400],
  },
  {
    path: "/api/customers",
    method: "post",
    operationId: "createCustomer",
    summary: "Creates a customer (a duplicate e-mail is a 409)",
    tag: "Customers",
    body: "CustomerInput",
    answers: { 201: { description: "The customer", json: "CustomerRecord", headers: ["Location"] } },
    errors: [400, 409, 413],
  },
];
