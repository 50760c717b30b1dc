// The OpenAPI operations of /api/flows (./flows.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/flows",
    method: "get",
    operationId: "listFlows",
    summary: "The caller's flows, newest first, each with its people and revenue",
    tag: "Flows",
    answers: { 200: { description: "Flows", json: "FlowList" } },
  },
  {
    path: "/api/flows",
    method: "post",
    operationId: "createFlow",
    summary: "Makes a flow: a trigger event, steps, an optional goal and re-entry rule",
    description:
      "People enter when an event of the trigger's name is kept (order_placed and customer_created are the product's own; any other comes from POST /api/events), once per event. Steps run in order; a condition branches to the steps it names; a wait holds the person at it. status live is refused with a 422 saying why when the flow cannot run (a loop, a step named that is not there, a deleted template); a draft is kept with its problems listed.",
    tag: "Flows",
    body: "FlowInput",
    answers: { 200: { description: "The flow", json: "Flow" } },
    errors: [400, 413, 422],
  },
];
