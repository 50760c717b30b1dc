// The OpenAPI operations of /api/ai/insights (./ai-insights.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/ai/insights",
    method: "get",
    operationId: "getInsights",
    summary: "The dashboard's insights, made from the caller's own figures",
    tag: "AI",
    answers: { 200: { description: "Insights", json: "Insights" } },
  },
];
