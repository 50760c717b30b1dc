// A campaign's clicks by link on PostgreSQL: the twin of ./engagement.server.ts.
import { type Postgres, query } from "~/db/postgres.server";
import type { LinkClicksRow } from "~/models/deliveries/engagement.server";

export async function clicksByLinkPg(pg: Postgres, userId: string, campaignId: string): Promise<LinkClicksRow[]> {
  return query<LinkClicksRow>(
    pg,
    `SELECT "link",
            count(*) FILTER (WHERE NOT "machine")::int AS "clicks",
            count(DISTINCT "seq") FILTER (WHERE NOT "machine")::int AS "uniqueClicks",
            count(*) FILTER (WHERE "machine")::int AS "machineClicks"
     FROM "DeliveryEvent"
     WHERE "campaignId" = $1 AND "kind" = 'clicked' AND "link" IS NOT NULL AND "userId" = $2
     GROUP BY "link" ORDER BY "link"`,
    [campaignId, userId],
  );
}
