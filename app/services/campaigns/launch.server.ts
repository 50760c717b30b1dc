// The launch of one tenant's campaign: the rules around it (only a draft, never twice, a 422 when
// nobody would get it), the audience asked of the segments domain once and frozen by the launch
// domain once (in the background work thread), the notification, and the once-per-key save or
// launch that POST /api/campaigns and the wizard make (docs/rules.md#one-launch-one-send).
import { ApiError } from "~/lib/api.server";
import { campaignStatus } from "~/lib/campaigns";
import { isId, newId } from "~/lib/id";
import { logger } from "~/lib/logger.server";
import { formatCount } from "~/lib/numbers";
import { type CampaignRow, campaigns } from "~/models/campaigns/store.server";
import { LAUNCH_IN_PROGRESS, LAUNCHING } from "~/models/launch/rows";
import type { CampaignContent } from "~/schemas/campaign";
import { launchCampaignOffThread } from "~/services/background-work.server";
import { type CampaignTarget, draftInPlace, launchContent, saveDraft } from "~/services/campaigns/drafts.server";
import { nobodyToSend, reachOf } from "~/services/campaigns/reach.server";
import { scheduleCampaign } from "~/services/campaigns/schedule.server";
import { type CampaignDto, findCampaign, getCampaign } from "~/services/campaigns/views.server";
import { wakeDelivery } from "~/services/sending/wake.server";
import { requestFingerprint, runOnce } from "~/services/idempotency.server";
import { notify } from "~/services/notifications.server";

/** A launch of anything but a draft that is not being launched is a 409 that says why. */
function assertLaunchable(row: CampaignRow): void {
  if (row.status === "Draft" && row.statusDetail === LAUNCHING) throw new ApiError("conflict", LAUNCH_IN_PROGRESS);
  if (row.status !== "Draft") {
    throw new ApiError(
      "conflict",
      `Only a draft can be launched; this campaign is ${campaignStatus(row.status).toLowerCase()}. Create a new campaign to send it again.`,
    );
  }
}

/**
 * Launches a campaign: the draft `target.draftId` (only a draft: anything else is a 409), or a new
 * one (under the id `target.id` when an idempotency key reserved it). Writes the segment's
 * audience as its delivery rows (in short slices, in the background work thread: launches.start in
 * app/models/launch/store.server.ts, launchCampaignOffThread in background-work.server.ts),
 * tells the user, and wakes the delivery job. The segments domain is asked once (the segment's
 * name and rules, launchContent) and the launch domain freezes the audience once; a launch that
 * wrote nobody says why from the same WHERE. A segment with no customers is refused (422). Two
 * launches of one draft at once: one launches it, the other gets a 409 (the launch model's check
 * in one transaction). With `unchangedSince` (the schedule clock's) a draft saved or rescheduled
 * since it was read is refused (409) rather than launched with the content read before.
 */
export async function launch(
  userId: string,
  input: CampaignContent,
  target: { draftId?: string; id?: string; unchangedSince?: number } = {},
): Promise<CampaignDto> {
  let id = target.id ?? newId();
  const draft = target.draftId ? await findCampaign(userId, target.draftId) : null;
  if (draft) {
    assertLaunchable(draft);
    id = draft.id;
  }
  // The one launch path for both audience sources: a segment's WHERE, or a resend's non-openers.
  const { campaign, where } = await launchContent(userId, input, draft);
  const audience = await launchCampaignOffThread({ ...campaign, id, unchangedSince: target.unchangedSince }, where);
  // A launch that wrote nobody says why, from the same WHERE.
  if (audience === 0) throw await nobodyToSend(userId, await reachOf(userId, where), campaign.resendOfId);
  wakeDelivery();
  const launched = await getCampaign(userId, id);
  const left = launched.suppressedAtLaunch;
  // The campaign is launched: a notification that cannot be written must not turn that into an
  // error (a client would launch again).
  await notify(userId, {
    type: "NEW_CAMPAIGN",
    title: "New campaign launched",
    details:
      `Campaign "${campaign.name}" is being sent to ${formatCount(audience)} customer${audience === 1 ? "" : "s"}` +
      (left > 0 ? `; ${formatCount(left)} on the suppression list ${left === 1 ? "was" : "were"} left out.` : "."),
  }).catch((error: unknown) => logger().error({ err: error, campaignId: id }, "The launch notification failed"));
  return launched;
}

/** A save, schedule or launch as a client asks for it (POST /api/campaigns, the wizard's Launch and Schedule). */
export type CampaignRequest = CampaignTarget & {
  status: "Draft" | "Scheduled" | "Active";
  content: CampaignContent;
  /** With status Scheduled: when it launches itself (unix ms). */
  scheduledAt?: number;
};

/** The key a request carries: its value, what it is for (part of the fingerprint), the 422's message. */
export type RequestKey = { key: string; scope: string; mismatch: string };

/**
 * Saves, schedules or launches once per idempotency key (docs/rules.md#one-launch-one-send): any number of
 * repeats of one request make one campaign and all answer it (`replayed` for the repeats); the same
 * key with another request is a 422. Without a key, it simply saves or launches.
 */
export async function saveOrLaunchOnce(
  userId: string,
  request: CampaignRequest,
  key: RequestKey | null,
): Promise<{ campaign: CampaignDto; replayed: boolean }> {
  const draftId = await draftInPlace(userId, request);
  const write = (id?: string) =>
    request.status === "Draft"
      ? saveDraft(userId, request.content, draftId, id)
      : request.status === "Scheduled"
        ? scheduleCampaign(userId, request.content, { draftId }, request.scheduledAt ?? Number.NaN, id)
        : launch(userId, request.content, { draftId, id });
  if (!key) return { campaign: await write(), replayed: false };
  const { id, replayed } = await runOnce(
    userId,
    {
      key: key.key,
      // A schedule's time is part of what it asks (a launch's and a draft's fingerprints as before).
      fingerprint: requestFingerprint([
        key.scope,
        request.status,
        request.content,
        ...(request.scheduledAt === undefined ? [] : [request.scheduledAt]),
      ]),
      resultId: draftId,
      mismatch: key.mismatch,
      busy: LAUNCH_IN_PROGRESS,
      finished: async (resultId) => {
        const row = isId(resultId) ? await campaigns.campaignState(userId, resultId) : null;
        if (!row) return false;
        if (request.status === "Active") return row.status !== "Draft";
        // A schedule is done when the draft holds its time (a refused one leaves it without).
        if (request.status === "Scheduled")
          return row.status === "Draft" && row.statusDetail !== LAUNCHING && row.scheduledAt === request.scheduledAt;
        return row.statusDetail !== LAUNCHING;
      },
    },
    async (reserved) => (await write(draftId ? undefined : reserved)).id,
  );
  try {
    return { campaign: await getCampaign(userId, id), replayed };
  } catch (error) {
    if (replayed && error instanceof ApiError && error.status === 404) {
      throw new ApiError("conflict", "The campaign made under this key has been deleted since.");
    }
    throw error;
  }
}
