// GET /api/campaigns?limit=&cursor=: the caller's campaigns, newest first, as an array; the next
// page's cursor is in X-Next-Cursor (absent on the last page), the number of campaigns in
// X-Total-Count. POST /api/campaigns: launches one to a segment (201), or saves a draft when
// status is "Draft". The audience size is counted by the server; a segment with no customers is
// a 422.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { ApiError, jsonResponse, parseOrThrow, readJson } from "~/lib/api.server";
import { CampaignApiSchema } from "~/schemas/campaign";
import { withApi } from "~/services/auth.server";
import { campaignTotals, launch, listCampaigns, saveDraft } from "~/services/campaigns.server";

const ListQuerySchema = z.object({
  limit: z.coerce
    .number({ message: "limit must be a number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(1000, "limit must be at most 1000")
    .default(100),
  cursor: z.string().max(40).optional(),
  _t: z.string().optional(),
});

export async function loader({ request }: LoaderFunctionArgs) {
  return withApi(request, async (user) => {
    const query = parseOrThrow(ListQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
    const [page, totals] = await Promise.all([listCampaigns(user.id, query), campaignTotals(user.id)]);
    const headers = new Headers({
      "X-Total-Count": String(totals.campaigns),
      "Access-Control-Expose-Headers": "X-Total-Count, X-Next-Cursor, X-User-Id",
    });
    if (page.nextCursor) headers.set("X-Next-Cursor", page.nextCursor);
    return jsonResponse(page.campaigns, { headers });
  });
}

export async function action({ request }: ActionFunctionArgs) {
  return withApi(request, async (user) => {
    if (request.method !== "POST")
      throw new ApiError("bad_request", `Use POST to create a campaign, not ${request.method}`);
    const {
      status,
      audienceSize: _a,
      launchedAt: _l,
      ...content
    } = parseOrThrow(CampaignApiSchema, await readJson(request));
    const campaign = status === "Draft" ? await saveDraft(user.id, content) : await launch(user.id, content);
    return jsonResponse(campaign, { status: 201, headers: { Location: `/api/campaigns/${campaign.id}` } });
  });
}
