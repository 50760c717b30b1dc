// "Resend to non-openers" (docs/rules.md#resend-to-non-openers): a completed campaign's offer on
// its detail page and the draft it makes, addressed to the recipients who got it and did not open
// it. The draft launches like any other (launch() in app/services/campaigns/launch.server.ts): its
// audience source is the non-openers of its source campaign (nonOpenersWhere in
// app/models/launch/), taken at launch, minus the suppressed.
import { ApiError } from "~/lib/api.server";
import { RESEND_MESSAGES, type ResendOffer, resendAudienceName, resendName } from "~/lib/campaign-resend";
import { newId } from "~/lib/id";
import { campaigns } from "~/models/campaigns/store.server";
import type { ResendNonOpeners } from "~/schemas/campaign-resend";
import { resendReach } from "~/services/campaigns/reach.server";
import { type CampaignDto, findCampaign, getCampaign, toCampaignDto } from "~/services/campaigns/views.server";

/** Why nobody is left to resend to, or null when someone is. */
function nobodyReason(reach: { audience: number; receivers: number }): string | null {
  if (reach.audience === 0) return RESEND_MESSAGES.nobodyLeft;
  return reach.receivers === 0 ? RESEND_MESSAGES.allSuppressed : null;
}

/**
 * What the detail page offers for the tenant's campaign: nothing unless it is Completed; then its
 * non-openers now (who a resend would reach, the suppressed among them) or why nobody is left.
 */
export async function resendOffer(userId: string, campaign: CampaignDto): Promise<ResendOffer> {
  if (campaign.status !== "Completed") return { kind: "hidden" };
  const reach = await resendReach(userId, campaign.id);
  const reason = nobodyReason(reach);
  if (reason) return { kind: "nobody", reason };
  return { kind: "offer", ...reach, subject: campaign.subject };
}

/**
 * Makes the draft that resends the tenant's completed campaign `sourceId` to its non-openers:
 * named "<name> — non-openers" unless a name is given, with the subject given, the source's
 * message unless one is given, and the source's tracking switch. Another tenant's or an unknown
 * campaign is a 404; one that is not Completed a 409; one with nobody left to resend to a 422.
 */
export async function createResendDraft(
  userId: string,
  sourceId: string,
  input: ResendNonOpeners,
  now = Date.now(),
): Promise<CampaignDto> {
  const sourceRow = await findCampaign(userId, sourceId.toLowerCase());
  const source = toCampaignDto(sourceRow);
  if (source.status !== "Completed") throw new ApiError("conflict", RESEND_MESSAGES.notCompleted(source.status));
  const reach = await resendReach(userId, source.id);
  const reason = nobodyReason(reach);
  if (reason) throw new ApiError("unprocessable", reason);
  const id = newId();
  // A draft shows the audience it would have today; the launch takes the non-openers of its moment.
  await campaigns.insertDraft(
    {
      id,
      userId,
      segmentId: null,
      segmentName: resendAudienceName(source.name),
      name: input.name || resendName(source.name),
      subject: input.subject,
      description: "",
      message: input.message || source.message,
      // The source's design goes with its message; a message of its own is plain text.
      ...(input.message ? {} : { templateId: sourceRow.templateId, design: sourceRow.design }),
      trackingEnabled: source.trackingEnabled ? 1 : 0,
      resendOfId: source.id,
    },
    reach.audience,
    now,
  );
  return getCampaign(userId, id);
}
