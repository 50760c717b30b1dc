// The customer's story on PostgreSQL: SQLite's statement (./sqlite.server.ts) in PostgreSQL's
// words, the same rows, on the process's pool. Delivery and DeliveryEvent keep their times as
// bigint milliseconds on both engines; the campaign's launch and the suppression events' dates are
// timestamptz here, read as milliseconds. Keys compare as SQLite compares text (COLLATE "C").
import type pg from "pg";
import { postgres } from "~/db/postgres.server";
import type { CustomerStoryStore } from "./contract";
import { type CampaignMessage, ROW_CLICK_SQL, ROW_OPEN_SQL, STORY_SOURCES_SQL, storyRow, type StoryRow } from "./rows";

const ms = (column: string) => `round(extract(epoch from ${column}) * 1000)::bigint`;
const SEQ = `lpad("seq"::text, 12, '0')`;

// $1 customer, $2 tenant, $3 e-mail, $4 the cursor's time (or NULL), $5 its key, $6 the limit.
const STORY_SQL = `
${STORY_SOURCES_SQL("$1", "$2")},
"story" AS (
  -- The row's state, dated when it last changed; a complaint by the first sign that it arrived.
  SELECT CASE
           WHEN "status" = 'complained' THEN least(
             "updatedAt", coalesce("openedAt", "updatedAt"), coalesce("clickedAt", "updatedAt"),
             coalesce((SELECT min("at") FROM "events" "e" WHERE "e"."seq" = "rows"."seq" AND "e"."kind" IN ('opened', 'clicked')), "updatedAt"))
           WHEN "updatedAt" > 0 THEN "updatedAt"
           ELSE coalesce(${ms(`"launchedAt"`)}, 0)
         END AS "at",
         '1-' || ${SEQ} AS "key", 'delivery' AS "kind", "campaignId", "campaignName", 1 AS "campaignExists",
         "status", "details", NULL::integer AS "link"
  FROM "rows"
  UNION ALL
  ${ROW_OPEN_SQL(SEQ)}
  UNION ALL
  -- Opened by a machine only: its first machine open.
  SELECT min("at"), '2-' || ${SEQ} || '-m', 'machine-opened', min("campaignId"), min("campaignName"), 1, NULL, '', NULL
  FROM "events" WHERE "kind" = 'opened' AND "machine" AND "openedAt" IS NULL
  GROUP BY "seq"
  UNION ALL
  -- The first click by a person on each link.
  SELECT min("at"), '3-' || ${SEQ} || '-' || coalesce("link"::text, 'x'), 'clicked', min("campaignId"), min("campaignName"), 1, NULL, '', "link"
  FROM "events" WHERE "kind" = 'clicked' AND NOT "machine"
  GROUP BY "seq", "link"
  UNION ALL
  ${ROW_CLICK_SQL(SEQ, `NOT "machine"`)}
  UNION ALL
  -- Soft bounces and complaints, each as it came.
  SELECT "at", '4-' || lpad("id"::text, 12, '0'), "kind", "campaignId", "campaignName", 1, NULL, "details", NULL
  FROM "events" WHERE "kind" IN ('soft-bounced', 'complained')
  UNION ALL
  -- What happened to the address on the suppression list.
  SELECT ${ms(`"s"."createdAt"`)}, '5-' || "s"."id", "s"."action", "s"."campaignId", "s"."campaignName",
         CASE WHEN "s"."campaignId" IS NOT NULL AND EXISTS (SELECT 1 FROM "Campaign" "c" WHERE "c"."id" = "s"."campaignId" AND "c"."userId" = $2) THEN 1 ELSE 0 END,
         NULL, "s"."reason", NULL
  FROM "SuppressionEvent" "s"
  WHERE "s"."userId" = $2 AND "s"."email" = $3
)
SELECT "at", "key", "kind", "campaignId", "campaignName", "campaignExists", "status", "details", "link"
FROM "story"
WHERE $4::bigint IS NULL OR "at" < $4::bigint OR ("at" = $4::bigint AND "key" COLLATE "C" < $5)
ORDER BY "at" DESC, "key" COLLATE "C" DESC
LIMIT $6`;

async function rows<Row extends pg.QueryResultRow>(sql: string, params: unknown[]): Promise<Row[]> {
  return (await postgres().pool.query<Row>(sql, params)).rows;
}

export const postgresCustomerStory: CustomerStoryStore = {
  async readCustomerStory(userId, customerId, email, cursor, limit) {
    const found = await rows<StoryRow>(STORY_SQL, [
      customerId,
      userId,
      email,
      cursor?.at ?? null,
      cursor?.key ?? "",
      limit,
    ]);
    return found.map(storyRow);
  },

  async campaignMessages(userId, ids) {
    if (ids.length === 0) return new Map();
    const found = await rows<{ id: string } & CampaignMessage>(
      `SELECT "id", "message", "design" FROM "Campaign" WHERE "userId" = $1 AND "id" = ANY($2::text[])`,
      [userId, ids],
    );
    return new Map(found.map((r) => [r.id, { message: r.message, design: r.design }]));
  },
};
