// The OpenAPI operations of /api/flows/{id}/people (./flows-id-people.ts), assembled into GET
// /api/openapi.json by ./openapi-json.ts. Beside the route rather than exported by it: a route
// module's exports other than loader, action and headers reach the browser's bundle.
import { type Operation } from "~/lib/openapi/operation";
import { FlowPeopleQuerySchema } from "~/schemas/flow";

export const operations: Operation[] = [
  {
    path: "/api/flows/{id}/people",
    method: "get",
    operationId: "listFlowPeople",
    summary: "Who is in the flow and where, the latest entered first",
    tag: "Flows",
    query: FlowPeopleQuerySchema,
    answers: { 200: { description: "People", json: "FlowPeople" } },
    errors: [400, 404],
  },
];
