// The OpenAPI operations of /api/campaigns/{id}/{control} (./campaigns-id-control.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/campaigns/{id}/{control}",
    method: "post",
    operationId: "controlCampaign",
    summary: "Pauses, resumes, cancels a campaign, retries its failed deliveries or takes its schedule off",
    description: "A control the campaign's status does not allow is a 409 that says why.",
    tag: "Campaigns",
    answers: { 200: { description: "The campaign and what happened", json: "ControlResult" } },
    errors: [404, 409],
  },
];
