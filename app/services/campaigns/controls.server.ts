// The controls of one tenant's campaign (pause, resume, cancel, retry failed, unschedule, delete), by the name
// the screens and /api use for them. The statuses move in the campaigns domain's transactions
// (app/models/campaigns/); the refusals and the answers are here.
import { ApiError, notFound } from "~/lib/api.server";
import { campaignStatus } from "~/lib/campaigns";
import { isId } from "~/lib/id";
import { campaigns } from "~/models/campaigns/store.server";
import { type CampaignDto, findCampaign, getCampaign, toCampaignDto } from "~/services/campaigns/views.server";
import { SCHEDULE_MESSAGES } from "~/services/campaigns/schedule.server";
import { wakeDelivery } from "~/services/sending/wake.server";

export type ControlResult = { campaign: CampaignDto; message: string };

export async function pauseCampaign(userId: string, id: string): Promise<ControlResult> {
  return control(
    userId,
    id,
    "Paused",
    ["Active"],
    "Campaign paused",
    (s) => `Only a sending campaign can be paused; this one is ${s.toLowerCase()}.`,
  );
}

export async function resumeCampaign(userId: string, id: string): Promise<ControlResult> {
  const result = await control(
    userId,
    id,
    "Active",
    ["Paused"],
    "Campaign resumed",
    (s) => `Only a paused campaign can be resumed; this one is ${s.toLowerCase()}.`,
  );
  wakeDelivery();
  return result;
}

export async function cancelCampaign(userId: string, id: string): Promise<ControlResult> {
  const result = await control(
    userId,
    id,
    "Cancelled",
    ["Active", "Paused"],
    "Campaign cancelled: nothing more will be sent",
    (s) => `Only a sending or paused campaign can be cancelled; this one is ${s.toLowerCase()}.`,
  );
  // The delivery job ends the queued rows as Cancelled.
  wakeDelivery();
  return result;
}

async function control(
  userId: string,
  id: string,
  to: "Active" | "Paused" | "Cancelled",
  from: readonly string[],
  done: string,
  refused: (status: string) => string,
): Promise<ControlResult> {
  if (!isId(id)) throw notFound("Campaign");
  const result = await campaigns.setCampaignStatus(userId, id, to, from);
  if (!result) throw notFound("Campaign");
  if (!result.changed) throw new ApiError("conflict", refused(campaignStatus(result.before)));
  return { campaign: await getCampaign(userId, id), message: done };
}

/** Takes a scheduled draft's schedule off: it stays a draft, waiting for a person (a 409 when it is not scheduled). */
export async function unscheduleCampaign(userId: string, id: string): Promise<ControlResult> {
  if (!isId(id)) throw notFound("Campaign");
  const row = await findCampaign(userId, id);
  if (row.status !== "Draft" || row.scheduledAt === null || !(await campaigns.setSchedule(userId, id, null, ""))) {
    throw new ApiError("conflict", SCHEDULE_MESSAGES.notScheduled);
  }
  return { campaign: await getCampaign(userId, id), message: "Schedule cancelled: the campaign is a draft again" };
}

/** Sends again to the recipients whose delivery failed (bounced addresses are not retried). */
export async function retryFailedDeliveries(userId: string, id: string): Promise<ControlResult & { queued: number }> {
  if (!isId(id)) throw notFound("Campaign");
  const queued = await campaigns.requeueFailedDeliveries(userId, id);
  if (queued === null) throw notFound("Campaign");
  if (typeof queued === "object") {
    throw new ApiError("conflict", `A ${campaignStatus(queued.refused).toLowerCase()} campaign has nothing to retry.`);
  }
  if (queued > 0) wakeDelivery();
  const message =
    queued === 0
      ? "No failed deliveries to retry"
      : `Retrying ${queued.toLocaleString("en-IN")} failed deliver${queued === 1 ? "y" : "ies"}`;
  return { campaign: await getCampaign(userId, id), message, queued };
}

/** The controls of a campaign by the name the screens and /api use for them. */
export const CAMPAIGN_CONTROLS = {
  pause: pauseCampaign,
  resume: resumeCampaign,
  cancel: cancelCampaign,
  "retry-failed": retryFailedDeliveries,
  unschedule: unscheduleCampaign,
} as const satisfies Record<string, (userId: string, id: string) => Promise<ControlResult>>;

export type CampaignControl = keyof typeof CAMPAIGN_CONTROLS;

export const isCampaignControl = (name: string): name is CampaignControl => Object.hasOwn(CAMPAIGN_CONTROLS, name);

/** Runs the control `name` (a 404 that lists the controls when there is no such one). */
export async function runCampaignControl(userId: string, id: string, name: string): Promise<ControlResult> {
  if (!isCampaignControl(name))
    throw new ApiError("not_found", "No such campaign action: use pause, resume, cancel, retry-failed or unschedule");
  const { campaign, message } = await CAMPAIGN_CONTROLS[name](userId, id);
  return { campaign, message };
}

/** Deletes a campaign and its delivery log; a sending campaign is cancelled first. */
export async function deleteCampaign(userId: string, id: string): Promise<CampaignDto> {
  const campaign = await findCampaign(userId, id);
  await campaigns.setCampaignStatus(userId, id, "Cancelled", ["Active", "Paused"]);
  // Two deletes of the same campaign at once both found it: only the one that removed it succeeds.
  if (!(await campaigns.deleteCampaignAndLog(userId, id))) throw notFound("Campaign");
  return toCampaignDto(campaign);
}
