// Scheduling a campaign: a draft that launches itself at a time its owner chose. Scheduling checks
// everything a launch would (the segment, the template's tags, the time) and keeps the campaign a
// draft with `scheduledAt`; the clock (schedule-clock.server.ts) launches it when it is due. Taking
// a schedule off is a control (controls.server.ts).
import { ApiError } from "~/lib/api.server";
import { campaigns } from "~/models/campaigns/store.server";
import type { CampaignContent } from "~/schemas/campaign";
import { type CampaignTarget, draftInPlace, launchContent, saveDraft } from "~/services/campaigns/drafts.server";
import { type CampaignDto, findCampaign, getCampaign } from "~/services/campaigns/views.server";
import { nobodyToSend, reachOf } from "~/services/campaigns/reach.server";

/** How far ahead a campaign may be scheduled. */
export const SCHEDULE_MAX_DAYS = 365;

export const SCHEDULE_MESSAGES = {
  past: "Choose a time in the future to schedule the campaign",
  tooFar: `A campaign can be scheduled at most ${SCHEDULE_MAX_DAYS} days ahead`,
  notDraft: "Only a draft can be scheduled; this campaign has been launched. Create a new campaign to send it again.",
  notScheduled: "This campaign is not scheduled: there is no schedule to cancel.",
} as const;

/** A 400 on `scheduledAt` when the time is not one a campaign may be scheduled at. */
export function checkScheduleTime(at: number, now = Date.now()): void {
  if (!Number.isFinite(at) || at <= now) {
    throw new ApiError("bad_request", SCHEDULE_MESSAGES.past, { scheduledAt: SCHEDULE_MESSAGES.past });
  }
  if (at > now + SCHEDULE_MAX_DAYS * 86_400_000) {
    throw new ApiError("bad_request", SCHEDULE_MESSAGES.tooFar, { scheduledAt: SCHEDULE_MESSAGES.tooFar });
  }
}

/**
 * Saves the campaign (a draft in place, or a new one under `createAs`) and schedules it for `at`
 * (unix ms). Everything a launch checks is checked now (the segment exists, a template's tags name
 * something, the time is ahead and within SCHEDULE_MAX_DAYS), so a schedule that is accepted
 * fails later only for what changed meanwhile.
 */
export async function scheduleCampaign(
  userId: string,
  content: CampaignContent,
  target: CampaignTarget,
  at: number,
  createAs?: string,
): Promise<CampaignDto> {
  checkScheduleTime(at);
  const draftId = await draftInPlace(userId, target);
  const draft = draftId ? await findCampaign(userId, draftId) : null;
  // The launch's own checks, without writing anything: the segment, the template, and someone to send to.
  const { campaign, where } = await launchContent(userId, content, draft);
  const reach = await reachOf(userId, where);
  if (reach.receivers === 0) throw await nobodyToSend(userId, reach, campaign.resendOfId);
  const saved = await saveDraft(userId, content, draftId, createAs);
  if (!(await campaigns.setSchedule(userId, saved.id, at, "")))
    throw new ApiError("conflict", SCHEDULE_MESSAGES.notDraft);
  return getCampaign(userId, saved.id);
}
