// The OpenAPI operations of /api/campaigns (./campaigns.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation, PAGED_HEADERS } from "~/lib/openapi/operation";
import { CampaignListQuerySchema } from "~/schemas/api-inputs.server";
import { CampaignApiHeadersSchema } from "~/schemas/campaign";

export const operations: Operation[] = [
  {
    path: "/api/campaigns",
    method: "get",
    operationId: "listCampaigns",
    summary: "A page of the caller's campaigns, newest first",
    description:
      "sort=revenue: most revenue first (orders within ATTRIBUTION_WINDOW_DAYS after a recipient's first click, last touch; each campaign's figures are in GET /api/campaigns/{id}). A cursor belongs to the sort it was made for.",
    tag: "Campaigns",
    query: CampaignListQuerySchema,
    answers: { 200: { description: "Campaigns", json: ["Campaign"], headers: PAGED_HEADERS } },
    errors: [400],
  },
  {
    path: "/api/campaigns",
    method: "post",
    operationId: "createCampaign",
    summary: "Launches a campaign to a segment, or saves a draft (status: Draft)",
    description:
      "The server counts the audience and stamps the launch; a segment with no customers is a 422. With an Idempotency-Key, the same key and body answer the first request's campaign (Idempotent-Replayed: true) and never send twice; the same key with another body is a 422.",
    tag: "Campaigns",
    headers: CampaignApiHeadersSchema,
    body: "CampaignInput",
    answers: {
      201: { description: "The campaign", json: "Campaign", headers: ["Location", "Idempotent-Replayed"] },
    },
    errors: [400, 404, 409, 413, 422],
  },
];
