// The OpenAPI operations of /api/stats/historical (./stats-historical.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/stats/historical",
    method: "get",
    operationId: "getHistoricalStats",
    summary: "Counts at the end of last month and the weekly series of the dashboard's charts",
    tag: "Dashboard",
    answers: { 200: { description: "Figures", json: "HistoricalStats" } },
  },
];
