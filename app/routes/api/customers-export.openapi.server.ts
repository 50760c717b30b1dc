// The OpenAPI operations of /api/customers/export (./customers-export.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";
import { CustomerExportQuerySchema } from "~/schemas/api-inputs.server";

export const operations: Operation[] = [
  {
    path: "/api/customers/export",
    method: "get",
    operationId: "exportCustomers",
    summary: "The caller's customers (all, or those matching q) as a CSV download",
    tag: "Customers",
    query: CustomerExportQuerySchema,
    answers: { 200: { description: "A CSV file", media: "text/csv" } },
    errors: [400],
  },
];
