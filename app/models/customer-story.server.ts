// The customer's story: what happened to the campaign e-mail one customer was sent, newest first,
// read from three tables in one statement on the read-only connection:
//
// - Delivery (the customer's rows, `Delivery(customerId)`): one entry a row for its state (received,
//   waiting, not sent, bounced), and one for the first open by a person (`openedAt`);
// - DeliveryEvent (`(userId, customerId, at)`): the first click by a person of each link of a
//   message, soft bounces and complaints, and, for a message nobody opened, the first open by a
//   machine (a mail privacy proxy);
// - SuppressionEvent (`(userId, email, createdAt)`): unsubscribes, resubscriptions, suppressions.
//
// Every branch is scoped to the tenant. A customer's rows are hundreds at most (one a campaign they
// were in, a few events each), so the statement gathers them all and sorts them; a page is the
// first `limit` after the cursor, a (time, key) pair: keys order entries of the same millisecond
// (a click above the open above the receipt it made) and are unique, so no entry is shown twice
// or skipped across pages.
//
// On PostgreSQL the twins in ./customer-story.postgres.server.ts answer, on the process's pool.
import { databaseEngine } from "~/db/connection.server";
import { postgres } from "~/db/postgres.server";
import { readStatement } from "~/db/reader.server";
import type { DeliveryStatus } from "~/lib/campaigns";
import { campaignMessagesPg, readCustomerStoryPg } from "~/models/customer-story.postgres.server";

/** What an entry says happened. */
export type StoryRowKind =
  "delivery" | "opened" | "machine-opened" | "clicked" | "soft-bounced" | "complained" | "suppressed" | "resubscribed";

export type StoryRow = {
  /** Milliseconds. */
  at: number;
  /** Unique within the customer's story; orders entries of the same millisecond (higher first). */
  key: string;
  kind: StoryRowKind;
  campaignId: string | null;
  /** The campaign's name; a suppression event keeps it after the campaign is deleted. */
  campaignName: string;
  /** Whether the campaign still exists (a link to it can be shown). */
  campaignExists: number;
  /** A delivery entry's row status. */
  status: DeliveryStatus | null;
  /** A bounce's or complaint's reason, a delivery row's details, a suppression's reason. */
  details: string;
  /** A click's link: its index among the message's links (null when the receipt did not say). */
  link: number | null;
};

/** Where a page starts: after the entry (at, key) of the previous page's last. */
export type StoryCursor = { at: number; key: string };

// Keys: a digit for the order within one millisecond, then ids that make it unique. Sequence
// numbers are zero-padded so that keys compare as their numbers do.
const SEQ = `printf('%012d', "seq")`;

const STORY_SQL = `
WITH "rows" AS (
  SELECT "d"."seq", "d"."campaignId", "d"."status", "d"."details", "d"."updatedAt", "d"."openedAt", "d"."clickedAt",
         "c"."name" AS "campaignName", "c"."launchedAt"
  FROM "Delivery" "d" JOIN "Campaign" "c" ON "c"."id" = "d"."campaignId"
  WHERE "d"."customerId" = @customerId AND "d"."userId" = @userId
),
"events" AS (
  SELECT "e"."seq", "e"."kind", "e"."machine", "e"."link", "e"."details", "e"."at", "e"."id", "e"."campaignId",
         "c"."name" AS "campaignName", "d"."openedAt"
  FROM "DeliveryEvent" "e"
  JOIN "Delivery" "d" ON "d"."seq" = "e"."seq"
  JOIN "Campaign" "c" ON "c"."id" = "e"."campaignId"
  WHERE "e"."userId" = @userId AND "e"."customerId" = @customerId
),
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
  -- The first open by a person.
  SELECT "openedAt", '2-' || ${SEQ}, 'opened', "campaignId", "campaignName", 1, NULL, '', NULL
  FROM "rows" WHERE "openedAt" IS NOT NULL
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
  -- A click known only from the row (a history written without events): "a link".
  SELECT "clickedAt", '3-' || ${SEQ} || '-r', 'clicked', "campaignId", "campaignName", 1, NULL, '', NULL
  FROM "rows"
  WHERE "clickedAt" IS NOT NULL
    AND "seq" NOT IN (SELECT "seq" FROM "events" WHERE "kind" = 'clicked' AND "machine" = 0)
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

/**
 * Up to `limit` entries of the tenant's customer's story, newest first, after `cursor`. `email` is
 * the customer's address (lower case; "" when they have none), whose suppression events belong to
 * the story.
 */
export async function readCustomerStory(
  userId: string,
  customerId: string,
  email: string,
  cursor: StoryCursor | null,
  limit: number,
): Promise<StoryRow[]> {
  if (databaseEngine() === "postgres") return readCustomerStoryPg(postgres(), userId, customerId, email, cursor, limit);
  return readStatement<StoryRow>(STORY_SQL)
    .all({ customerId, userId, email, at: cursor?.at ?? null, key: cursor?.key ?? "", limit })
    .map((r) => ({ ...r, at: Number(r.at), link: r.link === null ? null : Number(r.link) }));
}

/** The messages of the tenant's campaigns among `ids` (their links name a story's clicks), by id. */
export async function campaignMessages(userId: string, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  if (databaseEngine() === "postgres") return campaignMessagesPg(postgres(), userId, ids);
  const rows = readStatement<{ id: string; message: string }>(
    `SELECT "id", "message" FROM "Campaign" WHERE "userId" = ? AND "id" IN (SELECT "value" FROM json_each(?))`,
  ).all(userId, JSON.stringify(ids));
  return new Map(rows.map((r) => [r.id, r.message]));
}
