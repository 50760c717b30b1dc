// The OpenAPI operations of /api/campaigns/{id} (./campaigns-id.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/campaigns/{id}",
    method: "get",
    operationId: "getCampaign",
    summary: "A campaign with its delivery figures, the revenue it brought (attribution) and the first page of its log",
    tag: "Campaigns",
    answers: { 200: { description: "The campaign", json: "CampaignDetail" } },
    errors: [404],
  },
  {
    path: "/api/campaigns/{id}",
    method: "put",
    operationId: "updateCampaign",
    summary: "Changes a draft, or launches it when status is not Draft",
    tag: "Campaigns",
    body: "CampaignInput",
    answers: { 200: { description: "The campaign", json: "CampaignWrapped" } },
    errors: [400, 404, 409, 413, 422],
  },
  {
    path: "/api/campaigns/{id}",
    method: "delete",
    operationId: "deleteCampaign",
    summary: "Deletes a campaign and its log (a sending campaign is cancelled first)",
    tag: "Campaigns",
    answers: { 200: { description: "Deleted", json: "SuccessMessage" } },
    errors: [404],
  },
];
