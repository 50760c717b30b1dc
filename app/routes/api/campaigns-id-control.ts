// POST /api/campaigns/{id}/pause, /resume, /cancel and /retry-failed: { campaign, message }. A
// control the campaign's status does not allow (resuming one that is not paused) is a 409 that
// says why; another tenant's campaign is a 404.
import type { ActionFunctionArgs } from "@remix-run/node";
import { ApiError, allowMethods, methodNotAllowed } from "~/lib/api.server";
import { withApi } from "~/services/auth.server";
import { cancelCampaign, pauseCampaign, resumeCampaign, retryFailedDeliveries } from "~/services/campaigns.server";

const CONTROLS = {
  pause: pauseCampaign,
  resume: resumeCampaign,
  cancel: cancelCampaign,
  "retry-failed": retryFailedDeliveries,
} as const;

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "POST");
  return withApi(request, async (user) => {
    const name = params.control ?? "";
    if (!(name in CONTROLS))
      throw new ApiError("not_found", "No such campaign action: use pause, resume, cancel or retry-failed");
    const { campaign, message } = await CONTROLS[name as keyof typeof CONTROLS](user.id, params.id ?? "");
    return { campaign, message };
  });
}

export const loader = methodNotAllowed("POST");
