// The OpenAPI operations of /api/flows/{id} (./flows-id.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/flows/{id}",
    method: "get",
    operationId: "getFlow",
    summary: "One flow with its figures per step: entered, waiting, sent, opened, clicked, converted, revenue, exited",
    tag: "Flows",
    answers: { 200: { description: "The flow", json: "Flow" } },
    errors: [404],
  },
  {
    path: "/api/flows/{id}",
    method: "put",
    operationId: "saveFlow",
    summary: "Replaces the whole flow; a changed flow someone entered becomes a new version (they finish on theirs)",
    tag: "Flows",
    body: "FlowInput",
    answers: { 200: { description: "The flow", json: "Flow" } },
    errors: [400, 404, 413, 422],
  },
  {
    path: "/api/flows/{id}",
    method: "delete",
    operationId: "deleteFlow",
    summary: "Deletes a flow, its people's places in it and its send steps' delivery logs",
    tag: "Flows",
    answers: { 200: { description: "Deleted", json: "SuccessMessage" } },
    errors: [404],
  },
];
