// The OpenAPI operations of /api/campaigns/{id}/logs (./campaigns-id-logs.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation, PAGED_HEADERS } from "~/lib/openapi/operation";
import { DeliveryLogQuerySchema } from "~/schemas/api-inputs.server";

export const operations: Operation[] = [
  {
    path: "/api/campaigns/{id}/logs",
    method: "get",
    operationId: "listDeliveryLogs",
    summary: "A page of the campaign's delivery log in send order",
    tag: "Campaigns",
    query: DeliveryLogQuerySchema,
    answers: { 200: { description: "Deliveries", json: ["DeliveryLog"], headers: PAGED_HEADERS } },
    errors: [400, 404],
  },
];
