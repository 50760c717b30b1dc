// The schedule clock: launches scheduled drafts when their time comes, through the one launch
// path, which takes the segment's audience at that moment. It runs once per server beside the
// background jobs (app/services/job-scheduler.server.ts), so an install of several instances runs
// several clocks: each draft is still launched once, because the launch domain's reservation lets
// one launch take a draft and answers the others 409. A crash in the middle of a scheduled launch
// leaves a draft that the delivery job's recovery clears with its schedule kept, and a later tick
// launches it again. A draft that cannot be launched when its time comes (its segment emptied or
// deleted meanwhile) loses its schedule, says why, and its owner is told.
import { ApiError } from "~/lib/api.server";
import { type Logger, logger } from "~/lib/logger.server";
import { type CampaignRow, campaigns } from "~/models/campaigns/store.server";
import type { CampaignContent } from "~/schemas/campaign";
import { launch } from "~/services/campaigns/launch.server";
import { tickEvery } from "~/services/ticking.server";
import { notify } from "~/services/notifications.server";

/** How often the clock looks for due drafts: a scheduled campaign starts at most this late. */
export const SCHEDULE_POLL_MS = 5_000;
/** Due drafts launched a tick (the rest wait for the next one). */
const DUE_PER_TICK = 20;

/** A stored draft as the launch takes its content: its own message and frozen design, its segment. */
function contentOfDraft(row: CampaignRow): CampaignContent {
  return {
    name: row.name,
    segmentId: row.segmentId ?? "",
    subject: row.subject,
    message: row.message,
    description: row.description,
    trackingEnabled: row.trackingEnabled === 1,
  };
}

/**
 * Launches every draft whose schedule is due at `now`, through the one launch path. Returns the
 * ids launched here. A draft another clock is launching is left to it (the launch's 409); one
 * that cannot be launched loses its schedule with the reason as its status detail, and its owner
 * gets a notification; a fault (the database unreachable) leaves it for the next tick.
 */
export async function launchDueCampaigns(now = Date.now(), log: Logger = logger()): Promise<string[]> {
  const launched: string[] = [];
  for (const row of await campaigns.dueScheduled(now, DUE_PER_TICK)) {
    try {
      // As read here: a draft saved, rescheduled or unscheduled meanwhile is refused (409), and a
      // later tick takes it as it is then.
      await launch(row.userId, contentOfDraft(row), { draftId: row.id, unchangedSince: row.updatedAt });
      launched.push(row.id);
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) continue;
      if (!(error instanceof ApiError)) {
        log.error({ err: error, campaignId: row.id }, "A scheduled campaign could not be launched; trying again");
        continue;
      }
      // Deleted while it came due: nothing to tell.
      if (!(await campaigns.findCampaignRow(row.userId, row.id))) continue;
      await missedSchedule(row, error.message, log);
    }
  }
  return launched;
}

/** A due draft that cannot be launched: its schedule off, the reason on it, its owner told. */
async function missedSchedule(row: CampaignRow, reason: string, log: Logger): Promise<void> {
  const detail = `Not sent at its scheduled time: ${reason}`;
  await campaigns.setSchedule(row.userId, row.id, null, detail);
  log.warn({ campaignId: row.id, reason }, "A scheduled campaign could not be launched");
  await notify(row.userId, {
    type: "NEW_CAMPAIGN",
    title: "Scheduled campaign not sent",
    details: `Campaign "${row.name}" was not sent at its scheduled time: ${reason} It is a draft again.`,
  }).catch((err: unknown) => log.error({ err, campaignId: row.id }, "The missed-schedule notification failed"));
}

/**
 * Starts the clock: launchDueCampaigns every SCHEDULE_POLL_MS (never two ticks at once). Returns
 * its stop, which waits for a tick under way.
 */
export function startScheduleClock(log: Logger): { stop(): Promise<void> } {
  return tickEvery(
    SCHEDULE_POLL_MS,
    () => launchDueCampaigns(Date.now(), log),
    (err) => log.error({ err }, "The schedule clock's tick failed"),
  );
}
