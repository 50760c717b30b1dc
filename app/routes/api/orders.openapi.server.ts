// The OpenAPI operations of /api/orders (./orders.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation, PAGED_HEADERS } from "~/lib/openapi/operation";
import { OrderListQuerySchema } from "~/schemas/order-api";

export const operations: Operation[] = [
  {
    path: "/api/orders",
    method: "get",
    operationId: "listOrders",
    summary: "A page of the caller's orders, newest first",
    tag: "Orders",
    query: OrderListQuerySchema,
    answers: { 200: { description: "Orders", json: ["Order"], headers: PAGED_HEADERS } },
    errors: [400],
  },
  {
    path: "/api/orders",
    method: "post",
    operationId: "createOrder",
    summary: "Creates an order; the server computes the amounts from the items",
    tag: "Orders",
    body: "OrderInput",
    answers: { 201: { description: "The order", json: "Order", headers: ["Location"] } },
    errors: [400, 404, 413],
  },
];
