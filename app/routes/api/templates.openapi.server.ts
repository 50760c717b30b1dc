// The OpenAPI operations of /api/templates (./templates.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { z } from "zod";
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/templates",
    method: "get",
    operationId: "listTemplates",
    summary: "The caller's templates, last edited first, then the starter templates",
    tag: "Templates",
    query: z.object({ search: z.string().optional().meta({ description: "Matches a name or subject, any case" }) }),
    answers: { 200: { description: "Templates", json: "TemplateList" } },
  },
  {
    path: "/api/templates",
    method: "post",
    operationId: "createTemplate",
    summary: "Makes a template (one whose merge tags or design do not parse is a 422 naming the problem and where)",
    tag: "Templates",
    body: "TemplateInput",
    answers: { 201: { description: "The template", json: "Template", headers: ["Location"] } },
    errors: [400, 409, 413, 422],
  },
];
