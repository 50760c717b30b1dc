// Who a launch would reach now, before it is made: the customers of a segment, or the non-openers
// of a campaign to resend, how many of them the suppression list leaves out, and the rest
// (audienceReachText in app/lib/campaigns.ts says it).
import type { AudienceReach } from "~/lib/campaigns";
import { launches } from "~/models/launch/store.server";
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
