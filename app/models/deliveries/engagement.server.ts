// A campaign's clicks by link (docs/rules.md#opens-and-clicks): the DeliveryEvent rows of
// kind "clicked" grouped by their link index, people and machines apart. One range of the
// (campaignId, kind, link) index, on the request thread's read connection (on PostgreSQL, the
// process's pool: ./engagement.postgres.server.ts, decision 0033).
import { databaseEngine } from "~/db/connection.server";
import { postgres } from "~/db/postgres.server";
import { readStatement } from "~/db/reader.server";
import { clicksByLinkPg } from "~/models/deliveries/engagement.postgres.server";

/** One link's clicks: by people (every click, and each recipient once) and by machines. */
export type LinkClicksRow = { link: number; clicks: number; uniqueClicks: number; machineClicks: number };

/** The campaign's clicks grouped by link index, in index order (links nobody clicked are absent). */
export async function clicksByLink(userId: string, campaignId: string): Promise<LinkClicksRow[]> {
  if (databaseEngine() === "postgres") return clicksByLinkPg(postgres(), userId, campaignId);
  return readStatement<LinkClicksRow>(
    `SELECT "link",
            SUM(CASE WHEN "machine" THEN 0 ELSE 1 END) AS "clicks",
            COUNT(DISTINCT CASE WHEN "machine" THEN NULL ELSE "seq" END) AS "uniqueClicks",
            SUM(CASE WHEN "machine" THEN 1 ELSE 0 END) AS "machineClicks"
     FROM "DeliveryEvent"
     WHERE "campaignId" = ? AND "kind" = 'clicked' AND "link" IS NOT NULL AND "userId" = ?
     GROUP BY "link" ORDER BY "link"`,
  ).all(campaignId, userId);
}
