// Who a launch would reach now, before it is made: the customers of a segment, or the non-openers
// of a campaign to resend, how many of them the suppression list leaves out, and the rest
// (audienceReachText in app/lib/campaigns.ts says it).
import { ApiError } from "~/lib/api.server";
import { RESEND_MESSAGES } from "~/lib/campaign-resend";
import type { AudienceReach } from "~/lib/campaigns";
import { campaigns } from "~/models/campaigns/store.server";
import { launches } from "~/models/launch/store.server";
import { EMPTY_SEGMENT } from "~/schemas/campaign";
import type { CompiledWhere } from "~/models/segments/audience/rows";
import { segmentAudienceCount, segmentWhere } from "~/services/segments.server";

/**
 * Who a launch to the tenant's segment would reach now: the customers it matches, how many of them
 * are on the suppression list (left out), and the rest. Another tenant's segment, or an unknown
 * one, is a 404.
 */
export async function audienceReach(userId: string, segmentId: string): Promise<AudienceReach> {
  const audience = await segmentAudienceCount(userId, segmentId);
  const suppressed = Math.min(
    audience,
    await launches.suppressedInAudience(userId, await segmentWhere(userId, segmentId)),
  );
  return { audience, suppressed, receivers: audience - suppressed };
}

/**
 * Who a resend of the tenant's campaign `sourceId` to its non-openers would reach now: its
 * non-openers (nonOpenersWhere), how many of them are suppressed, and the rest
 * (docs/rules.md#resend-to-non-openers).
 */
export async function resendReach(userId: string, sourceId: string): Promise<AudienceReach> {
  return reachOf(userId, launches.nonOpenersWhere(userId, sourceId));
}

/** Who an audience WHERE the caller holds reaches now (a launch that wrote nobody says why with it). */
export async function reachOf(userId: string, where: CompiledWhere): Promise<AudienceReach> {
  const audience = await launches.countAudience(where);
  const suppressed = audience > 0 ? Math.min(audience, await launches.suppressedInAudience(userId, where)) : 0;
  return { audience, suppressed, receivers: audience - suppressed };
}

/** The 422 of a launch to a segment whose every customer is suppressed. */
export const ALL_SUPPRESSED = "Everyone in this segment is on the suppression list";

/**
 * Why a launch (or a schedule) whose audience has this reach (reachOf) reaches nobody, as the 422
 * it answers: a resend's source gone, or everyone left suppressed, or nobody left; a segment whose
 * every customer is suppressed, or that has none.
 */
export async function nobodyToSend(
  userId: string,
  reach: AudienceReach,
  resendOfId: string | null | undefined,
): Promise<ApiError> {
  if (resendOfId) {
    // Nobody left to resend to: everyone opened it since, or those left are suppressed, or the source is gone.
    const source = await campaigns.findCampaignRow(userId, resendOfId);
    const reason = !source
      ? RESEND_MESSAGES.sourceGone
      : reach.audience > 0
        ? RESEND_MESSAGES.allSuppressed
        : RESEND_MESSAGES.nobodyLeft;
    return new ApiError("unprocessable", reason);
  }
  const why = reach.audience > 0 ? ALL_SUPPRESSED : EMPTY_SEGMENT;
  return new ApiError("unprocessable", `${why}: there is nobody to send the campaign to.`, { segmentId: why });
}
