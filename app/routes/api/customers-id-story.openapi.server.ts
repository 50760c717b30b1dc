// The OpenAPI operations of /api/customers/{id}/story (./customers-id-story.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";
import { CustomerStoryQuerySchema } from "~/schemas/customer-story.server";

export const operations: Operation[] = [
  {
    path: "/api/customers/{id}/story",
    method: "get",
    operationId: "getCustomerStory",
    summary: "A page of the customer's story, newest first",
    description:
      "Each campaign the customer was sent and what came of it, their opens and clicks (people's; a message only machines loaded, such as a mail privacy proxy, is machine-opened), bounces and complaints, and what happened to their address on the suppression list.",
    tag: "Customers",
    query: CustomerStoryQuerySchema,
    answers: { 200: { description: "Entries", json: ["CustomerStoryEntry"], headers: ["X-Next-Cursor"] } },
    errors: [400, 404],
  },
];
