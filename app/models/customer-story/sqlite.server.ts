// The customer's story on SQLite: one statement on the read-only connection (./contract.ts says
// what it gathers and how a page is cut).
import { readStatement } from "~/db/reader.server";
import type { CustomerStoryStore } from "./contract";
import { type CampaignMessage, ROW_CLICK_SQL, ROW_OPEN_SQL, STORY_SOURCES_SQL, storyRow, type StoryRow } from "./rows";

// Keys: a digit for the order within one millisecond, then ids that make it unique. Sequence
// numbers are zero-padded so that keys compare as their numbers do.
const SEQ = `printf('%012d', "seq")`;

const STORY_SQL = `
${STORY_SOURCES_SQL("@customerId", "@userId")},
"story" AS (
  -- The row's state, dated when it last changed. A complaint moved a received message: it is
  -- dated by the first sign that it arrived (an open or a click, a machine's too).
  SELECT CASE
           WHEN "status" = 'complained' THEN min(
             "updatedAt", coalesce("openedAt", "updatedAt"), coalesce("clickedAt", "updatedAt"),
             coalesce((SELECT min("at") FROM "events" "e" WHERE "e"."seq" = "rows"."seq" AND "e"."kind" IN ('opened', 'clicked')), "updatedAt"))
           WHEN "updatedAt" > 0 THEN "updatedAt"
           ELSE coalesce("launchedAt", 0)
         END AS "at",
         '1-' || ${SEQ} AS "key", 'delivery' AS "kind", "campaignId", "campaignName", 1 AS "campaignExists",
         "status", "details", NULL AS "link"
  FROM "rows"
  UNION ALL
  ${ROW_OPEN_SQL(SEQ)}
  UNION ALL
  -- Opened by a machine only: its first machine open.
  SELECT min("at"), '2-' || ${SEQ} || '-m', 'machine-opened', "campaignId", "campaignName", 1, NULL, '', NULL
  FROM "events" WHERE "kind" = 'opened' AND "machine" = 1 AND "openedAt" IS NULL
  GROUP BY "seq"
  UNION ALL
  -- The first click by a person on each link.
  SELECT min("at"), '3-' || ${SEQ} || '-' || coalesce("link", 'x'), 'clicked', "campaignId", "campaignName", 1, NULL, '', "link"
  FROM "events" WHERE "kind" = 'clicked' AND "machine" = 0
  GROUP BY "seq", "link"
  UNION ALL
  ${ROW_CLICK_SQL(SEQ, `"machine" = 0`)}
  UNION ALL
  -- Soft bounces and complaints, each as it came.
  SELECT "at", '4-' || printf('%012d', "id"), "kind", "campaignId", "campaignName", 1, NULL, "details", NULL
  FROM "events" WHERE "kind" IN ('soft-bounced', 'complained')
  UNION ALL
  -- What happened to the address on the suppression list.
  SELECT "s"."createdAt", '5-' || "s"."id", "s"."action", "s"."campaignId", "s"."campaignName",
         "s"."campaignId" IS NOT NULL AND EXISTS (SELECT 1 FROM "Campaign" "c" WHERE "c"."id" = "s"."campaignId" AND "c"."userId" = @userId),
         NULL, "s"."reason", NULL
  FROM "SuppressionEvent" "s"
  WHERE "s"."userId" = @userId AND "s"."email" = @email
)
SELECT "at", "key", "kind", "campaignId", "campaignName", "campaignExists", "status", "details", "link"
FROM "story"
WHERE @at IS NULL OR "at" < @at OR ("at" = @at AND "key" < @key)
ORDER BY "at" DESC, "key" DESC
LIMIT @limit`;

export const sqliteCustomerStory: CustomerStoryStore = {
  async readCustomerStory(userId, customerId, email, cursor, limit) {
    return readStatement<StoryRow>(STORY_SQL)
      .all({ customerId, userId, email, at: cursor?.at ?? null, key: cursor?.key ?? "", limit })
      .map(storyRow);
  },

  async campaignMessages(userId, ids) {
    if (ids.length === 0) return new Map();
    const rows = readStatement<{ id: string } & CampaignMessage>(
      `SELECT "id", "message", "design" FROM "Campaign" WHERE "userId" = ? AND "id" IN (SELECT "value" FROM json_each(?))`,
    ).all(userId, JSON.stringify(ids));
    return new Map(rows.map((r) => [r.id, { message: r.message, design: r.design }]));
  },
};
