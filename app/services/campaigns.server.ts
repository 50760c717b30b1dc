// Campaigns of one tenant: drafts, launch, the list and the detail with its delivery log, and the
// controls (pause, resume, cancel, retry failed, delete). Every function takes the tenant first and
// scopes every query to it; another tenant's campaign is "not found". The queries are the models'
// (app/models/campaigns.server.ts, app/models/deliveries/); the rules and the answers are here.
import { ApiError, notFound } from "~/lib/api.server";
import {
  type AudienceReach,
  type CampaignStatus,
  campaignStatus,
  deliveryId,
  deliveryStats,
  type DeliveryStats,
  DELIVERY_LOG_STATUSES,
  type DeliveryLogStatus,
  deliveryLogStatus,
  performanceRates,
  progressPercent,
} from "~/lib/campaigns";
import { isId, newId } from "~/lib/id";
import { logger } from "~/lib/logger.server";
import { formatCount } from "~/lib/numbers";
import { type CampaignContent, EMPTY_SEGMENT } from "~/schemas/campaign";
import {
  type CampaignRow,
  campaignState,
  campaignTotalsOf,
  deleteCampaignAndLog,
  findCampaignRow,
  insertDraft,
  listCampaignRows,
  type NewCampaign,
  requeueFailedDeliveries,
  setCampaignStatus,
  updateDraft,
} from "~/models/campaigns.server";
import {
  countAudience,
  LAUNCH_IN_PROGRESS,
  LAUNCHING,
  nonOpenersWhere,
  suppressedInAudience,
} from "~/models/deliveries/launch.server";
import type { CompiledWhere } from "~/models/segments/compile.server";
import { RESEND_MESSAGES } from "~/lib/campaign-resend";
import { unsubscribeCounts } from "~/models/campaigns-people.server";
import {
  countDeferred,
  type LogRow,
  logRowsAfterSeq,
  logRowsDeferred,
  logRowsOfStatus,
} from "~/models/deliveries/log.server";
import {
  type AttributionFigures,
  attributionOfCampaign,
  type CampaignAttribution,
  campaignsByRevenue,
} from "~/services/attribution.server";
import { launchCampaignOffThread } from "~/services/background-work.server";
import { wakeDelivery } from "~/services/delivery/wake.server";
import { requestFingerprint, runOnce } from "~/services/idempotency.server";
import { notify } from "~/services/notifications.server";
import { getSegment, segmentAudienceCount, segmentWhere } from "~/services/segments.server";

export type CampaignDto = {
  _id: string;
  id: string;
  name: string;
  subject: string;
  description: string;
  message: string;
  segmentId: string | null;
  segment: { _id: string; id: string; name: string } | null;
  audienceSize: number;
  status: CampaignStatus;
  statusDetail: string;
  sentCount: number;
  deliveredCount: number;
  failedCount: number;
  bouncedCount: number;
  cancelledCount: number;
  /** Rows the send left out: the address was suppressed after the launch. */
  suppressedCount: number;
  /** Customers of the segment the launch left out (suppressed then): not part of the audience. */
  suppressedAtLaunch: number;
  /** Rows whose recipient reported the message as spam. */
  complainedCount: number;
  /** Recipients (people, each once) who opened it and who clicked a link in it. */
  openedCount: number;
  clickedCount: number;
  /** Every open and click by people, repeats included. */
  opensTotal: number;
  clicksTotal: number;
  /** Opens and clicks told apart as machines (privacy proxies, link scanners, bots). */
  machineOpenCount: number;
  machineClickCount: number;
  /** Soft bounces reported after the send. */
  softBounceCount: number;
  /** Whether its messages carry the open pixel and tracked links. */
  trackingEnabled: boolean;
  /** The campaign whose non-openers this "Resend to non-openers" goes to; null for a segment's campaign. */
  resendOfId: string | null;
  pendingCount: number;
  deliveryStats: DeliveryStats;
  progress: number;
  launchedAt: string | null;
  completedAt: string | null;
  createdAt: string;
  updatedAt: string;
};

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function toCampaignDto(row: CampaignRow): CampaignDto {
  const stats = deliveryStats(row);
  return {
    _id: row.id,
    id: row.id,
    name: row.name,
    subject: row.subject,
    description: row.description,
    message: row.message,
    segmentId: row.segmentId,
    segment:
      row.segmentId || row.segmentName
        ? { _id: row.segmentId ?? "", id: row.segmentId ?? "", name: row.segmentName }
        : null,
    audienceSize: row.audienceSize,
    status: campaignStatus(row.status),
    statusDetail: row.statusDetail,
    sentCount: stats.sent,
    deliveredCount: row.deliveredCount,
    failedCount: row.failedCount,
    bouncedCount: row.bouncedCount,
    cancelledCount: row.cancelledCount,
    suppressedCount: row.suppressedCount,
    suppressedAtLaunch: row.suppressedAtLaunch,
    complainedCount: row.complainedCount,
    openedCount: row.openedCount,
    clickedCount: row.clickedCount,
    opensTotal: row.opensTotal,
    clicksTotal: row.clicksTotal,
    machineOpenCount: row.machineOpenCount,
    machineClickCount: row.machineClickCount,
    softBounceCount: row.softBounceCount,
    trackingEnabled: Boolean(row.trackingEnabled),
    resendOfId: row.resendOfId,
    pendingCount: row.pendingCount,
    deliveryStats: stats,
    progress: progressPercent(row),
    launchedAt: iso(row.launchedAt),
    completedAt: iso(row.completedAt),
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

async function findCampaign(userId: string, id: string): Promise<CampaignRow> {
  if (!isId(id)) throw notFound("Campaign");
  const row = await findCampaignRow(userId, id);
  if (!row) throw notFound("Campaign");
  return row;
}

export async function getCampaign(userId: string, id: string): Promise<CampaignDto> {
  return toCampaignDto(await findCampaign(userId, id));
}

/** The detail's answer (`GET /api/campaigns/{id}`, the detail screen): the campaign and the orders
 * it brought (docs/rules.md#revenue-per-campaign). The list's items stay CampaignDto. */
export type CampaignDetailDto = CampaignDto & {
  /** Recipients who unsubscribed through its link (each once); complaints are complainedCount. */
  unsubscribedCount: number;
  attribution: CampaignAttribution;
};

export async function getCampaignDetail(userId: string, id: string): Promise<CampaignDetailDto> {
  const row = await findCampaign(userId, id);
  const dto = toCampaignDto(row);
  const [unsubscribed, attribution] = await Promise.all([
    campaignUnsubscribes(userId, [row.id]),
    attributionOfCampaign(userId, { id: row.id, sent: dto.sentCount }),
  ]);
  return { ...dto, unsubscribedCount: unsubscribed[row.id] ?? 0, attribution };
}

/**
 * How many recipients of each of the tenant's campaigns `ids` unsubscribed through its link, each
 * address once (also one who resubscribed since): the suppression list's events name the campaign.
 */
export async function campaignUnsubscribes(userId: string, ids: readonly string[]): Promise<Record<string, number>> {
  const counts = await unsubscribeCounts(userId, ids);
  return Object.fromEntries(ids.map((id) => [id, counts.get(id) ?? 0]));
}

/** How the list is sorted: newest first (the default), or most revenue first. */
export type CampaignSort = "date" | "revenue";

/**
 * The tenant's campaigns, newest first (or most revenue first, with a revenue cursor, and each
 * campaign's figures in `attribution`), a page at a time (`nextCursor` null on the last page).
 */
export async function listCampaigns(
  userId: string,
  options: { limit: number; cursor?: string | null; sort?: CampaignSort } = { limit: 100 },
): Promise<{
  campaigns: CampaignDto[];
  nextCursor: string | null;
  attribution?: Record<string, AttributionFigures>;
}> {
  if (options.sort === "revenue") {
    const { rows, nextCursor } = await campaignsByRevenue(userId, options);
    return {
      campaigns: rows.map(toCampaignDto),
      nextCursor,
      attribution: Object.fromEntries(rows.map((r) => [r.id, r.attribution])),
    };
  }
  const limit = Math.max(1, Math.min(1000, Math.trunc(options.limit)));
  const cursor = options.cursor && isId(options.cursor) ? await findCampaign(userId, options.cursor) : null;
  const rows = await listCampaignRows(userId, limit + 1, cursor);
  const page = rows.slice(0, limit);
  return { campaigns: page.map(toCampaignDto), nextCursor: rows.length > limit ? page[page.length - 1].id : null };
}

/** The list screen's cards: how many campaigns, their audiences added up, and distinct segments. */
export async function campaignTotals(
  userId: string,
): Promise<{ campaigns: number; audience: number; segments: number }> {
  return campaignTotalsOf(userId);
}

export type DeliveryLogDto = {
  _id: string;
  id: string;
  campaignId: string;
  customer: { _id: string; id: string; name: string; email: string; phone: string };
  contact: string;
  /** The row's status; "deferred" is a pending row waiting for a retry after a temporary answer. */
  status: DeliveryLogStatus;
  timestamp: string | null;
  details: string;
  openedAt: string | null;
  clickedAt: string | null;
};

function toLogDto(campaignId: string, r: LogRow): DeliveryLogDto {
  return {
    _id: deliveryId(campaignId, r.seq),
    id: deliveryId(campaignId, r.seq),
    campaignId,
    customer: { _id: r.customerId, id: r.customerId, name: r.name, email: r.email, phone: r.phone },
    contact: r.email || r.phone || "",
    status: deliveryLogStatus(r.status, r.details),
    timestamp: r.status === "pending" && r.updatedAt === 0 ? null : new Date(r.updatedAt).toISOString(),
    details: r.details,
    openedAt: iso(r.openedAt),
    clickedAt: iso(r.clickedAt),
  };
}

/**
 * A page of a campaign's delivery log in send order, optionally one status only. Unfiltered pages
 * are a range of the primary key (the campaign's rows are one seq range); a status filter reads
 * the (campaign, status, next attempt) index, whose order for a status is (nextAttemptAt, seq), so
 * the cursor holds both. Either way a page reads about as many rows as it shows. "pending" is every
 * row not yet sent, the deferred ones too; "deferred" only those (pending rows with details: no
 * counter keeps them, so their total is counted).
 */
export async function deliveryLogs(
  userId: string,
  campaignId: string,
  options: { limit: number; cursor?: string | null; status?: DeliveryLogStatus | null },
): Promise<{ logs: DeliveryLogDto[]; nextCursor: string | null; total: number }> {
  const campaign = await findCampaign(userId, campaignId);
  const limit = Math.max(1, Math.min(1000, Math.trunc(options.limit)));
  const status = options.status ?? null;
  const total =
    status === "deferred"
      ? campaign.pendingCount > 0
        ? await countDeferred(campaign.id)
        : 0
      : status
        ? statusCount(campaign, status)
        : campaign.audienceSize;
  if (total === 0 || campaign.lastSeq === 0) return { logs: [], nextCursor: null, total };
  const rows: LogRow[] =
    status === "deferred"
      ? await logRowsDeferred(campaign.id, statusCursor(options.cursor), limit + 1)
      : status
        ? await logRowsOfStatus(campaign.id, status, statusCursor(options.cursor), limit + 1)
        : await logRowsAfterSeq(cursorSeq(options.cursor) ?? campaign.firstSeq - 1, campaign.lastSeq, limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const nextCursor =
    rows.length > limit && last ? (status ? `${last.nextAttemptAt}.${last.seq}` : String(last.seq)) : null;
  return { logs: page.map((r) => toLogDto(campaign.id, r)), nextCursor, total };
}

function statusCount(c: CampaignRow, status: Exclude<DeliveryLogStatus, "deferred">): number {
  return {
    pending: c.pendingCount,
    sent: c.sentCount,
    delivered: c.deliveredCount,
    failed: c.failedCount,
    bounced: c.bouncedCount,
    complained: c.complainedCount,
    cancelled: c.cancelledCount,
    suppressed: c.suppressedCount,
  }[status];
}

function cursorSeq(cursor: string | null | undefined): number | null {
  if (!cursor || !/^\d{1,15}$/.test(cursor)) return null;
  return Number(cursor);
}

function statusCursor(cursor: string | null | undefined): [number, number] {
  const m = cursor ? /^(\d{1,15})\.(\d{1,15})$/.exec(cursor) : null;
  return m ? [Number(m[1]), Number(m[2])] : [-1, 0];
}

/** A status the log can be filtered by: a stored one, or "deferred". */
export const isDeliveryStatus = (value: unknown): value is DeliveryLogStatus =>
  typeof value === "string" && (DELIVERY_LOG_STATUSES as readonly string[]).includes(value);

/**
 * Who a launch to the tenant's segment would reach now: the customers it matches, how many of them
 * are on the suppression list (left out), and the rest (audienceReachText in app/lib/campaigns.ts
 * says it). Another tenant's segment, or an unknown one, is a 404.
 */
export async function audienceReach(userId: string, segmentId: string): Promise<AudienceReach> {
  const audience = await segmentAudienceCount(userId, segmentId);
  const suppressed = Math.min(audience, await suppressedInAudience(userId, await segmentWhere(userId, segmentId)));
  return { audience, suppressed, receivers: audience - suppressed };
}

/**
 * Who a resend of the tenant's campaign `sourceId` to its non-openers would reach now: its
 * non-openers (nonOpenersWhere), how many of them are suppressed, and the rest
 * (docs/rules.md#resend-to-non-openers).
 */
export async function resendReach(userId: string, sourceId: string): Promise<AudienceReach> {
  const where = nonOpenersWhere(userId, sourceId);
  const audience = await countAudience(where);
  const suppressed = audience > 0 ? Math.min(audience, await suppressedInAudience(userId, where)) : 0;
  return { audience, suppressed, receivers: audience - suppressed };
}

/** A campaign's audience source: its segment's WHERE, or the non-openers of the campaign it resends. */
async function audienceWhere(userId: string, c: Omit<NewCampaign, "id">): Promise<CompiledWhere> {
  return c.resendOfId ? nonOpenersWhere(userId, c.resendOfId) : segmentWhere(userId, c.segmentId ?? "");
}

/**
 * The campaign to write from the form's content and its segment (a 404 on the field if unknown).
 * A resend draft keeps its audience (the non-openers of its source: the form's segment is not
 * read) and its tracking switch.
 */
async function content(
  userId: string,
  input: CampaignContent,
  draft?: CampaignRow | null,
): Promise<Omit<NewCampaign, "id">> {
  if (draft?.resendOfId) {
    return {
      userId,
      segmentId: null,
      segmentName: draft.segmentName,
      name: input.name,
      subject: input.subject,
      description: input.description,
      message: input.message,
      trackingEnabled: draft.trackingEnabled,
      resendOfId: draft.resendOfId,
    };
  }
  const segment = await getSegment(userId, input.segmentId).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) {
      throw new ApiError("not_found", "Segment not found", { segmentId: "Segment not found" });
    }
    throw error;
  });
  return {
    userId,
    segmentId: segment.id,
    segmentName: segment.name,
    name: input.name,
    subject: input.subject,
    description: input.description,
    message: input.message,
    trackingEnabled: input.trackingEnabled === false ? 0 : 1,
  };
}

/** Which campaign a save or launch writes, as the caller has it. */
export type CampaignTarget = {
  /** The draft to change or launch in place; anything else is a 409. */
  draftId?: string;
  /**
   * The campaign a page is editing: a draft is saved or launched in place; a campaign that has
   * started keeps its record, and the save or launch makes a new one.
   */
  editing?: string;
};

/** The draft a save or launch writes in place (undefined: a new campaign). */
async function draftInPlace(userId: string, target: CampaignTarget): Promise<string | undefined> {
  if (target.draftId) return target.draftId;
  if (!target.editing) return undefined;
  const current = await findCampaign(userId, target.editing);
  return current.status === "Draft" ? current.id : undefined;
}

/**
 * Saves a campaign without launching it: changes the draft (`target` as an id, or its `draftId`),
 * saves the campaign a page is editing by the draft rule (`target.editing`, see CampaignTarget),
 * or makes a new one (under the id `createAs` when an idempotency key reserved it).
 */
export async function saveDraft(
  userId: string,
  input: CampaignContent,
  target?: string | CampaignTarget,
  createAs?: string,
): Promise<CampaignDto> {
  const id = await draftInPlace(userId, typeof target === "string" ? { draftId: target } : (target ?? {}));
  const draft = id ? await findCampaign(userId, id) : null;
  const campaign = await content(userId, input, draft);
  // A draft shows the audience it would have today; a launch counts it as it writes it.
  const audience = campaign.resendOfId
    ? (await resendReach(userId, campaign.resendOfId)).audience
    : await segmentAudienceCount(userId, campaign.segmentId ?? "");
  if (id) {
    if (!(await updateDraft({ ...campaign, id }, audience))) {
      throw new ApiError(
        "conflict",
        "Only a draft can be changed; this campaign has been launched. Launch a new one instead.",
      );
    }
    return getCampaign(userId, id);
  }
  const created = createAs ?? newId();
  await insertDraft({ ...campaign, id: created }, audience);
  return getCampaign(userId, created);
}

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
 * audience as its delivery rows (in short slices, in the background work thread: startLaunch in
 * app/models/deliveries/launch.server.ts, launchCampaignOffThread in background-work.server.ts),
 * tells the user, and wakes the delivery job. A segment with no customers is refused (422). Two
 * launches of one draft at once: one launches it, the other gets a 409 (the launch model's check
 * in one transaction).
 */
export async function launch(
  userId: string,
  input: CampaignContent,
  target: { draftId?: string; id?: string } = {},
): Promise<CampaignDto> {
  let id = target.id ?? newId();
  const draft = target.draftId ? await findCampaign(userId, target.draftId) : null;
  if (draft) {
    assertLaunchable(draft);
    id = draft.id;
  }
  const campaign = await content(userId, input, draft);
  // The one launch path for both audience sources: a segment's WHERE, or a resend's non-openers.
  const where = await audienceWhere(userId, campaign);
  const audience = await launchCampaignOffThread({ ...campaign, id }, where);
  if (audience === 0 && campaign.resendOfId) {
    // Nobody left to resend to: everyone opened it since, or those left are suppressed, or the source is gone.
    const source = await findCampaignRow(userId, campaign.resendOfId);
    const reach = await resendReach(userId, campaign.resendOfId);
    const reason = !source
      ? RESEND_MESSAGES.sourceGone
      : reach.audience > 0
        ? RESEND_MESSAGES.allSuppressed
        : RESEND_MESSAGES.nobodyLeft;
    throw new ApiError("unprocessable", reason);
  }
  if (audience === 0) {
    // A segment whose every customer is on the suppression list has nobody to send to either.
    const reach = await audienceReach(userId, campaign.segmentId ?? "");
    if (reach.audience > 0 && reach.receivers === 0) {
      throw new ApiError("unprocessable", `${ALL_SUPPRESSED}: there is nobody to send the campaign to.`, {
        segmentId: ALL_SUPPRESSED,
      });
    }
    throw new ApiError("unprocessable", `${EMPTY_SEGMENT}: there is nobody to send the campaign to.`, {
      segmentId: EMPTY_SEGMENT,
    });
  }
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

/** The 422 of a launch to a segment whose every customer is suppressed. */
export const ALL_SUPPRESSED = "Everyone in this segment is on the suppression list";

/** A save or launch as a client asks for it (POST /api/campaigns, the wizard's Launch). */
export type CampaignRequest = CampaignTarget & {
  status: "Draft" | "Active";
  content: CampaignContent;
};

/** The key a request carries: its value, what it is for (part of the fingerprint), the 422's message. */
export type RequestKey = { key: string; scope: string; mismatch: string };

/**
 * Saves or launches once per idempotency key (docs/rules.md#one-launch-one-send): any number of
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
      : launch(userId, request.content, { draftId, id });
  if (!key) return { campaign: await write(), replayed: false };
  const { id, replayed } = await runOnce(
    userId,
    {
      key: key.key,
      fingerprint: requestFingerprint([key.scope, request.status, request.content]),
      resultId: draftId,
      mismatch: key.mismatch,
      busy: LAUNCH_IN_PROGRESS,
      finished: async (resultId) => {
        const row = isId(resultId) ? await campaignState(userId, resultId) : null;
        if (!row) return false;
        return request.status === "Draft" ? row.statusDetail !== LAUNCHING : row.status !== "Draft";
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
  const result = await setCampaignStatus(userId, id, to, from);
  if (!result) throw notFound("Campaign");
  if (!result.changed) throw new ApiError("conflict", refused(campaignStatus(result.before)));
  return { campaign: await getCampaign(userId, id), message: done };
}

/** Sends again to the recipients whose delivery failed (bounced addresses are not retried). */
export async function retryFailedDeliveries(userId: string, id: string): Promise<ControlResult & { queued: number }> {
  if (!isId(id)) throw notFound("Campaign");
  const queued = await requeueFailedDeliveries(userId, id);
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
} as const satisfies Record<string, (userId: string, id: string) => Promise<ControlResult>>;

export type CampaignControl = keyof typeof CAMPAIGN_CONTROLS;

export const isCampaignControl = (name: string): name is CampaignControl => Object.hasOwn(CAMPAIGN_CONTROLS, name);

/** Runs the control `name` (a 404 that lists the controls when there is no such one). */
export async function runCampaignControl(userId: string, id: string, name: string): Promise<ControlResult> {
  if (!isCampaignControl(name))
    throw new ApiError("not_found", "No such campaign action: use pause, resume, cancel or retry-failed");
  const { campaign, message } = await CAMPAIGN_CONTROLS[name](userId, id);
  return { campaign, message };
}

/** Deletes a campaign and its delivery log; a sending campaign is cancelled first. */
export async function deleteCampaign(userId: string, id: string): Promise<CampaignDto> {
  const campaign = await findCampaign(userId, id);
  await setCampaignStatus(userId, id, "Cancelled", ["Active", "Paused"]);
  // Two deletes of the same campaign at once both found it: only the one that removed it succeeds.
  if (!(await deleteCampaignAndLog(userId, id))) throw notFound("Campaign");
  return toCampaignDto(campaign);
}

/**
 * The CAMPAIGN_PERFORMANCE notification of a finished campaign. Each figure says what it is out of,
 * as the screens do, since its rates have other bases than theirs (docs/rules.md#campaign-figures):
 * 'Campaign "Diwali" finished: sent 320 of 320 (100.0% of the audience); success rate 99.7% of
 * attempted (1 bounced); opened by 12.5% of sent so far.'
 */
export function performanceText(row: CampaignRow): string {
  const stats = deliveryStats(row);
  const n = (count: number) => count.toLocaleString("en-IN");
  const { deliveryRate, openRate } = performanceRates({
    audienceSize: row.audienceSize,
    sent: stats.sent,
    opened: stats.opened,
  });
  const parts = [`sent ${n(stats.sent)} of ${n(row.audienceSize)} (${deliveryRate.toFixed(1)}% of the audience)`];
  if (stats.successRateValue !== null) {
    const lost = [
      stats.bounced > 0 ? `${n(stats.bounced)} bounced` : "",
      stats.failed > 0 ? `${n(stats.failed)} failed` : "",
    ].filter(Boolean);
    parts.push(`success rate ${stats.successRate} of attempted${lost.length ? ` (${lost.join(", ")})` : ""}`);
  }
  // Opens keep arriving for days after the send: the figure at completion is a first reading.
  if (openRate !== null) parts.push(`opened by ${openRate.toFixed(1)}% of sent so far`);
  return `Campaign "${row.name}" finished: ${parts.join("; ")}.`;
}

export async function notifyPerformance(row: CampaignRow): Promise<void> {
  await notify(row.userId, {
    type: "CAMPAIGN_PERFORMANCE",
    title: "Campaign completed",
    details: performanceText(row),
  });
}

/** The notification of a campaign the error cap paused. */
export async function notifyPaused(row: CampaignRow): Promise<void> {
  await notify(row.userId, {
    type: "SYSTEM",
    title: "Campaign paused",
    details: `Campaign "${row.name}": ${row.statusDetail}`,
  });
}
