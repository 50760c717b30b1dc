// Who a campaign reached, read for its figures and its CSV exports: its unsubscribes (the
// suppression list's events that name the campaign) and its recipients, openers, clickers,
// bouncers and unsubscribers a slice of its delivery rows at a time. Read-only, on the request
// thread's read connection (on PostgreSQL, the process's pool: ./campaigns-people.postgres.server.ts).
import { databaseEngine } from "~/db/connection.server";
import { postgres } from "~/db/postgres.server";
import { readStatement } from "~/db/reader.server";
import type { CampaignPeople } from "~/lib/campaign-people";
import {
  type CampaignPersonRow,
  PEOPLE_WHERE,
  PERSON_COLUMNS,
  UNSUBSCRIBED_AT,
} from "~/models/campaigns-people-sql.server";
import { campaignPeopleSlicePg, unsubscribeCountsPg } from "~/models/campaigns-people.postgres.server";

export type { CampaignPersonRow } from "~/models/campaigns-people-sql.server";

const onPostgres = () => databaseEngine() === "postgres";

/**
 * Up to `limit` of the campaign's rows that `who` takes, in send order after seq `after`: a range
 * of the primary key (a campaign's rows are one seq range, up to `lastSeq`), the rows that do not
 * match skipped.
 */
export async function campaignPeopleSlice(
  userId: string,
  campaign: { id: string; lastSeq: number },
  who: CampaignPeople,
  after: number,
  limit: number,
): Promise<CampaignPersonRow[]> {
  if (onPostgres()) return campaignPeopleSlicePg(postgres(), userId, campaign, who, after, limit);
  const unsubscribed = who === "unsubscribers" ? UNSUBSCRIBED_AT("?") : "NULL";
  return readStatement<CampaignPersonRow>(
    `SELECT * FROM (SELECT ${PERSON_COLUMNS}, ${unsubscribed} AS "unsubscribedAt" FROM "Delivery" d
       WHERE d."seq" > ? AND d."seq" <= ? AND d."campaignId" = ?) d
     WHERE ${PEOPLE_WHERE[who]} ORDER BY d."seq" LIMIT ${Math.trunc(limit)}`,
  ).all(...(who === "unsubscribers" ? [userId] : []), after, campaign.lastSeq, campaign.id);
}

/**
 * How many recipients unsubscribed through each campaign's link (each address once, whenever, even
 * if they resubscribed since), for the tenant's campaigns `campaignIds`; a campaign nobody
 * unsubscribed from is left out.
 */
export async function unsubscribeCounts(userId: string, campaignIds: readonly string[]): Promise<Map<string, number>> {
  if (campaignIds.length === 0) return new Map();
  const rows = onPostgres()
    ? await unsubscribeCountsPg(postgres(), userId, campaignIds)
    : readStatement<{ campaignId: string; n: number }>(
        `SELECT "campaignId", count(DISTINCT "email") AS "n" FROM "SuppressionEvent"
         WHERE "userId" = ? AND "action" = 'suppressed' AND "reason" = 'unsubscribed'
           AND "campaignId" IN (SELECT "value" FROM json_each(?))
         GROUP BY "campaignId"`,
      ).all(userId, JSON.stringify(campaignIds));
  return new Map(rows.map((r) => [r.campaignId, Number(r.n)]));
}
