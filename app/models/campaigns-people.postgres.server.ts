// Who a campaign reached on PostgreSQL: the twins of ./campaigns-people.server.ts, on the process's pool.
import { type Postgres, query } from "~/db/postgres.server";
import type { CampaignPeople } from "~/lib/campaign-people";
import {
  type CampaignPersonRow,
  PEOPLE_WHERE,
  PERSON_COLUMNS,
  UNSUBSCRIBED_AT,
} from "~/models/campaigns-people-sql.server";

export async function campaignPeopleSlicePg(
  pg: Postgres,
  userId: string,
  campaign: { id: string; lastSeq: number },
  who: CampaignPeople,
  after: number,
  limit: number,
): Promise<CampaignPersonRow[]> {
  const unsubscribed = who === "unsubscribers" ? UNSUBSCRIBED_AT("$5") : "NULL::timestamp(3)";
  return query<CampaignPersonRow>(
    pg,
    `SELECT * FROM (SELECT ${PERSON_COLUMNS}, ${unsubscribed} AS "unsubscribedAt" FROM "Delivery" d
       WHERE d."seq" > $1 AND d."seq" <= $2 AND d."campaignId" = $3) d
     WHERE ${PEOPLE_WHERE[who]} ORDER BY d."seq" LIMIT $4`,
    [after, campaign.lastSeq, campaign.id, Math.trunc(limit), ...(who === "unsubscribers" ? [userId] : [])],
  );
}

export async function unsubscribeCountsPg(
  pg: Postgres,
  userId: string,
  campaignIds: readonly string[],
): Promise<{ campaignId: string; n: number }[]> {
  return query<{ campaignId: string; n: number }>(
    pg,
    `SELECT "campaignId", count(DISTINCT "email")::int AS "n" FROM "SuppressionEvent"
     WHERE "userId" = $1 AND "action" = 'suppressed' AND "reason" = 'unsubscribed' AND "campaignId" = ANY($2::text[])
     GROUP BY "campaignId"`,
    [userId, [...campaignIds]],
  );
}
