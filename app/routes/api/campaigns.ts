// GET /api/campaigns?limit=&cursor=&sort=: the caller's campaigns, newest first (sort=revenue: most
// revenue first, docs/rules.md#revenue-per-campaign), as an array; the next
// page's cursor is in X-Next-Cursor (absent on the last page), the number of campaigns in
// X-Total-Count. POST /api/campaigns: launches one to a segment (201), saves a draft when status is
// "Draft", or schedules it for scheduledAt (a draft that launches itself then). The audience size is counted by the server; a segment with no customers is
// a 422. With an Idempotency-Key header the same key and body answer the campaign the first request
// made (Idempotent-Replayed: true), never a second send; the same key with another body is a 422.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { allowMethods, jsonResponse, parseOrThrow, readJson } from "~/lib/api.server";
import { CampaignListQuerySchema } from "~/schemas/api-inputs.server";
import { CampaignApiHeadersSchema, CampaignApiSchema, withCampaignRules } from "~/schemas/campaign";
import { withApi } from "~/services/auth.server";
import { saveOrLaunchOnce } from "~/services/campaigns/launch.server";
import { campaignTotals, listCampaigns } from "~/services/campaigns/views.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return withApi(request, async (user) => {
    const query = parseOrThrow(CampaignListQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
    const [page, totals] = await Promise.all([listCampaigns(user.id, query), campaignTotals(user.id)]);
    const headers = new Headers({
      "X-Total-Count": String(totals.campaigns),
      "Access-Control-Expose-Headers": "X-Total-Count, X-Next-Cursor, X-User-Id",
    });
    if (page.nextCursor) headers.set("X-Next-Cursor", page.nextCursor);
    return jsonResponse(page.campaigns, { headers });
  });
}

/** The 422 of a key sent again with another body. */
export const KEY_REUSED =
  "This Idempotency-Key was already used with a different request. Send a new key to create another campaign.";

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  return withApi(request, async (user) => {
    const headers = parseOrThrow(CampaignApiHeadersSchema, {
      "Idempotency-Key": request.headers.get("Idempotency-Key") ?? undefined,
    });
    const {
      status,
      scheduledAt,
      audienceSize: _a,
      launchedAt: _l,
      ...content
    } = parseOrThrow(withCampaignRules(CampaignApiSchema), await readJson(request));
    const key = headers["Idempotency-Key"];
    const { campaign, replayed } = await saveOrLaunchOnce(
      user.id,
      { status, content, scheduledAt },
      key ? { key, scope: "POST /api/campaigns", mismatch: KEY_REUSED } : null,
    );
    const answer = new Headers({ Location: `/api/campaigns/${campaign.id}` });
    if (replayed) answer.set("Idempotent-Replayed", "true");
    return jsonResponse(campaign, { status: 201, headers: answer });
  });
}
