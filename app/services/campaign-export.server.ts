// A campaign's people as CSV, for its detail page and `crm campaigns export`: its recipients,
// openers, clickers, bouncers or unsubscribers (the rows its figures count: PEOPLE_WHERE in
// app/models/campaigns/rows.ts), streamed a slice of its delivery rows at a time so a
// campaign of a million never sits in memory. Another tenant's campaign is "not found".
import { notFound } from "~/lib/api.server";
import { csvText } from "~/lib/csv-cells";
import { DEFAULT_TIME_ZONE, isoInZone } from "~/lib/dates";
import { isId } from "~/lib/id";
import type { CampaignPeople } from "~/lib/campaign-people";
import { type CampaignPersonRow, campaigns } from "~/models/campaigns/store.server";

/** Every export's columns; an export of unsubscribers adds when each unsubscribed. */
export const CAMPAIGN_EXPORT_COLUMNS = [
  "email",
  "name",
  "phone",
  "customer_id",
  "status",
  "opened_at",
  "clicked_at",
  "details",
] as const;

const EXPORT_SLICE = 5000;

/** A file name for an export: campaign-3f9a1c-openers-2026-11-28.csv (the id's last 6 characters). */
export function campaignExportFileName(campaignId: string, who: CampaignPeople, now = new Date()): string {
  return `campaign-${campaignId.slice(-6)}-${who}-${now.toISOString().slice(0, 10)}.csv`;
}

/**
 * The tenant's campaign's people of one kind as a CSV byte stream, in send order, with the file's
 * name. Dates are ISO 8601 with the offset of `timeZone` (the viewer's). A campaign that is not the
 * tenant's (or no id at all) is a 404 before anything is streamed.
 */
export async function campaignPeopleCsv(
  userId: string,
  campaignId: string,
  who: CampaignPeople,
  options: { timeZone?: string; sliceSize?: number } = {},
): Promise<{ stream: ReadableStream<Uint8Array>; fileName: string; name: string }> {
  const id = campaignId.trim().toLowerCase();
  const campaign = isId(id) ? await campaigns.findCampaignRow(userId, id) : null;
  if (!campaign) throw notFound("Campaign");
  const timeZone = options.timeZone ?? DEFAULT_TIME_ZONE;
  const slice = options.sliceSize ?? EXPORT_SLICE;
  const iso = (ms: number | null) => (ms === null ? "" : isoInZone(Number(ms), timeZone));
  const columns: string[] = [...CAMPAIGN_EXPORT_COLUMNS, ...(who === "unsubscribers" ? ["unsubscribed_at"] : [])];
  const line = (r: CampaignPersonRow) => {
    const cells: string[] = [
      r.email,
      r.name,
      r.phone,
      r.customerId,
      r.status,
      iso(r.openedAt),
      iso(r.clickedAt),
      r.details,
    ];
    if (who === "unsubscribers") cells.push(iso(r.unsubscribedAt));
    return cells;
  };
  const encoder = new TextEncoder();
  // A draft has no rows yet: lastSeq 0 reads nothing.
  let after = campaign.lastSeq > 0 ? campaign.firstSeq - 1 : 0;
  let headerSent = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        let chunk = "";
        if (!headerSent) {
          chunk += csvText([columns]);
          headerSent = true;
        }
        const rows =
          campaign.lastSeq > 0 ? await campaigns.campaignPeopleSlice(userId, campaign, who, after, slice) : [];
        if (rows.length) {
          chunk += csvText(rows.map(line));
          after = Number(rows[rows.length - 1].seq);
        }
        if (chunk) controller.enqueue(encoder.encode(chunk));
        if (rows.length < slice) controller.close();
      } catch (error) {
        controller.error(error);
      }
    },
  });
  return { stream, fileName: campaignExportFileName(campaign.id, who), name: campaign.name };
}
