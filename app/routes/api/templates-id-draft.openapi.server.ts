// The OpenAPI operations of /api/templates/{id}/draft (./templates-id-draft.ts), assembled into GET
// /api/openapi.json by ./openapi-json.ts. Beside the route rather than exported by it: a route module's
// exports other than loader, action and headers reach the browser's bundle.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/templates/{id}/draft",
    method: "put",
    operationId: "saveTemplateDraft",
    summary: "Keeps an editor's fields as typed as the template's draft (the template changes only when saved)",
    tag: "Templates",
    body: "TemplateDraftInput",
    answers: { 200: { description: "Kept", json: "DraftKept" } },
    errors: [400, 404, 413],
  },
  {
    path: "/api/templates/{id}/draft",
    method: "delete",
    operationId: "discardTemplateDraft",
    summary: "Forgets the template's draft",
    tag: "Templates",
    answers: { 200: { description: "Discarded", json: "SuccessMessage" } },
    errors: [404],
  },
];
