// The campaign as the screens and /api show it: its DTO, the detail (with the orders it brought and
// its unsubscribes), the list a page at a time and the list's totals. Every function takes the
// tenant first and scopes every query to it; another tenant's campaign is "not found". The queries
// are the campaigns domain's (app/models/campaigns/); the answers are here.
import { designFormat } from "~/lib/campaign-design";
import type { TemplateFormat } from "~/lib/templates";
import { notFound } from "~/lib/api.server";
import {
  type CampaignStatus,
  campaignStatus,
  deliveryStats,
  type DeliveryStats,
  progressPercent,
} from "~/lib/campaigns";
import { isId } from "~/lib/id";
import { type CampaignRow, campaigns } from "~/models/campaigns/store.server";
import type { CampaignTotals } from "~/models/campaigns/rows";
import {
  type AttributionFigures,
  attributionOfCampaign,
  type CampaignAttribution,
  campaignsByRevenue,
} from "~/services/attribution.server";

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
  /** The template its message was made from (its design is the campaign's own copy); null: plain text. */
  templateId: string | null;
  /** What its message is: plain text, or a design made from a template (its format). */
  format: "text" | TemplateFormat;
  pendingCount: number;
  deliveryStats: DeliveryStats;
  progress: number;
  launchedAt: string | null;
  completedAt: string | null;
  /** When a scheduled draft launches itself; null for a draft that waits for a person (kept after the launch). */
  scheduledAt: string | null;
  createdAt: string;
  updatedAt: string;
};

/** A date as /api writes it (null stays null). */
export const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function toCampaignDto(row: CampaignRow): CampaignDto {
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
    templateId: row.templateId,
    format: designFormat(row.design),
    pendingCount: row.pendingCount,
    deliveryStats: stats,
    progress: progressPercent(row),
    launchedAt: iso(row.launchedAt),
    completedAt: iso(row.completedAt),
    scheduledAt: iso(row.scheduledAt),
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

/** The tenant's campaign row (a 404 when the id is malformed or the campaign is not theirs). */
export async function findCampaign(userId: string, id: string): Promise<CampaignRow> {
  if (!isId(id)) throw notFound("Campaign");
  const row = await campaigns.findCampaignRow(userId, id);
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
  const counts = await campaigns.unsubscribeCounts(userId, ids);
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
  const rows = await campaigns.listCampaignRows(userId, limit + 1, cursor);
  const page = rows.slice(0, limit);
  return { campaigns: page.map(toCampaignDto), nextCursor: rows.length > limit ? page[page.length - 1].id : null };
}

/** The list screen's cards: how many campaigns, their audiences added up, and distinct segments. */
export async function campaignTotals(userId: string): Promise<CampaignTotals> {
  return campaigns.campaignTotalsOf(userId);
}
