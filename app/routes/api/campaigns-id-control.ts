// POST /api/campaigns/{id}/pause, /resume, /cancel, /retry-failed and /unschedule (a scheduled
// draft waits for a person again): { campaign, message }. A
// control the campaign's status does not allow (resuming one that is not paused) is a 409 that
// says why; another tenant's campaign is a 404.
import type { ActionFunctionArgs } from "@remix-run/node";
import { allowMethods, methodNotAllowed } from "~/lib/api.server";
import { withApi } from "~/services/auth.server";
import { runCampaignControl } from "~/services/campaigns/controls.server";

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "POST");
  return withApi(request, async (user) => {
    const { campaign, message } = await runCampaignControl(user.id, params.id ?? "", params.control ?? "");
    return { campaign, message };
  });
}

export const loader = methodNotAllowed("POST");
