// The OpenAPI operations of /api/templates/{id}/render (./templates-id-render.ts), assembled into GET
// /api/openapi.json by ./openapi-json.ts. Beside the route rather than exported by it: a route module's
// exports other than loader, action and headers reach the browser's bundle.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/templates/{id}/render",
    method: "post",
    operationId: "renderTemplate",
    summary: "The template as one of the caller's customers, or sample values, would receive it",
    tag: "Templates",
    body: "TemplateRenderInput",
    answers: { 200: { description: "The message", json: "RenderedMessage" } },
    errors: [400, 404, 413, 422],
  },
];
