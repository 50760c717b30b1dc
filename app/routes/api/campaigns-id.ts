// GET /api/campaigns/{id}: { campaign } with its delivery figures, the revenue it brought
// (campaign.attribution, docs/rules.md#revenue-per-campaign) and the first page of its log
// (campaign.logs; the next page through /api/campaigns/{id}/logs). PUT: changes a draft (status
// "Draft": its schedule, if any, is taken off), schedules or reschedules it (status "Scheduled" with
// scheduledAt), or launches it (any other status; launching anything but a draft, or a draft
// another launch has taken, is a 409). DELETE: deletes it and its log; a sending campaign is
// cancelled first. Another tenant's campaign, or a malformed id, is a 404.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { allowMethods, parseOrThrow, readJson } from "~/lib/api.server";
import { CampaignApiSchema, withCampaignRules } from "~/schemas/campaign";
import { ResendDraftApiSchema } from "~/schemas/campaign-resend";
import { withApi } from "~/services/auth.server";
import { deleteCampaign } from "~/services/campaigns/controls.server";
import { deliveryLogs } from "~/services/campaigns/delivery-log.server";
import { saveDraft } from "~/services/campaigns/drafts.server";
import { launch } from "~/services/campaigns/launch.server";
import { scheduleCampaign } from "~/services/campaigns/schedule.server";
import { getCampaign, getCampaignDetail } from "~/services/campaigns/views.server";

export const FIRST_LOG_PAGE = 50;

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApi(request, async (user) => {
    const campaign = await getCampaignDetail(user.id, params.id ?? "");
    const logs = await deliveryLogs(user.id, campaign.id, { limit: FIRST_LOG_PAGE });
    return { campaign: { ...campaign, logs: logs.logs, logsNextCursor: logs.nextCursor } };
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "GET", "PUT", "DELETE");
  return withApi(request, async (user) => {
    const id = params.id ?? "";
    if (request.method === "DELETE") {
      const campaign = await deleteCampaign(user.id, id);
      return { success: true, message: `Campaign "${campaign.name}" deleted successfully.` };
    }
    const {
      status,
      scheduledAt,
      audienceSize: _a,
      launchedAt: _l,
      ...content
    } = parseOrThrow(
      // A resend draft's audience is fixed (docs/rules.md#resend-to-non-openers): no segment is asked for.
      withCampaignRules(
        (await getCampaign(user.id, id).catch(() => null))?.resendOfId ? ResendDraftApiSchema : CampaignApiSchema,
      ),
      await readJson(request),
    );
    return {
      campaign:
        status === "Draft"
          ? await saveDraft(user.id, content, id)
          : status === "Scheduled"
            ? await scheduleCampaign(user.id, content, { draftId: id }, scheduledAt ?? Number.NaN)
            : await launch(user.id, content, { draftId: id }),
    };
  });
}
