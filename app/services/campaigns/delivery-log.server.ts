// A campaign's delivery log as the detail screen and GET /api/campaigns/{id}/logs page through it:
// one row per recipient in send order, optionally one status only.
import { deliveryId, DELIVERY_LOG_STATUSES, type DeliveryLogStatus, deliveryLogStatus } from "~/lib/campaigns";
import type { CampaignRow } from "~/models/campaigns/rows";
import type { LogRow } from "~/models/deliveries/history/rows";
import { deliveryHistory } from "~/models/deliveries/history/store.server";
import { findCampaign, iso } from "~/services/campaigns/views.server";

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
        ? await deliveryHistory.countDeferred(campaign.id)
        : 0
      : status
        ? statusCount(campaign, status)
        : campaign.audienceSize;
  if (total === 0 || campaign.lastSeq === 0) return { logs: [], nextCursor: null, total };
  const rows: LogRow[] =
    status === "deferred"
      ? await deliveryHistory.logRowsDeferred(campaign.id, statusCursor(options.cursor), limit + 1)
      : status
        ? await deliveryHistory.logRowsOfStatus(campaign.id, status, statusCursor(options.cursor), limit + 1)
        : await deliveryHistory.logRowsAfterSeq(
            cursorSeq(options.cursor) ?? campaign.firstSeq - 1,
            campaign.lastSeq,
            limit + 1,
          );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const nextCursor =
    rows.length > limit && last ? (status ? `${last.nextAttemptAt}.${last.seq}` : String(last.seq)) : null;
  return { logs: page.map((r) => toLogDto(campaign.id, r)), nextCursor, total };
}

/** The rows the campaign's counters keep in a stored status: each status has its counter, `<status>Count`. */
function statusCount(c: CampaignRow, status: Exclude<DeliveryLogStatus, "deferred">): number {
  return c[`${status}Count`];
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
