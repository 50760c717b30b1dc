// The OpenAPI operations of /api/campaigns/{id}/links (./campaigns-id-links.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/campaigns/{id}/links",
    method: "get",
    operationId: "listCampaignLinks",
    summary: "The links of the campaign's message with their clicks",
    description:
      "Each distinct http(s) address of the message once, in order of first appearance (index), with the clicks of its tracked link: by people (clicks, uniqueClicks) and by machines apart (machineClicks: link scanners within TRACKING_SCANNER_WINDOW_SECONDS of delivery, HEAD requests, bots). A campaign sent without tracking lists its links with zeros.",
    tag: "Campaigns",
    answers: { 200: { description: "The links", json: ["CampaignLink"] } },
    errors: [404],
  },
];
