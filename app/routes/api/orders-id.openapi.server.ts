// The OpenAPI operations of /api/orders/{id} (./orders-id.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation, putAndPatch } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/orders/{id}",
    method: "get",
    operationId: "getOrder",
    summary: "One of the caller's orders",
    tag: "Orders",
    answers: { 200: { description: "The order", json: "Order" } },
    errors: [404],
  },
  ...putAndPatch({
    path: "/api/orders/{id}",
    operationId: "updateOrder",
    summary: "Replaces an order's status, notes, tax and items (the customer cannot change)",
    tag: "Orders",
    body: "OrderUpdateInput",
    answers: { 200: { description: "The order", json: "Order" } },
    errors: [400, 404, 413],
  }),
  {
    path: "/api/orders/{id}",
    method: "delete",
    operationId: "deleteOrder",
    summary: "Deletes an order",
    tag: "Orders",
    answers: { 200: { description: "Deleted", json: "SuccessMessage" } },
    errors: [404],
  },
];
