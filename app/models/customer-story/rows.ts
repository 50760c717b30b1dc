// The customer's story as both engines give it: what happened to the campaign e-mail one customer
// was sent, newest first, one entry a row (./contract.ts says where each comes from).
import type { DeliveryStatus } from "~/lib/campaigns";

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

/** A campaign's message as its links are read: the plain text, and the design made from a template ("" for none). */
export type CampaignMessage = { message: string; design: string };

/** A row as the driver gives it (a bigint time or link may come as text or a bigint): numbers. */
export function storyRow(row: StoryRow): StoryRow {
  return { ...row, at: Number(row.at), link: row.link === null ? null : Number(row.link) };
}

/**
 * What a customer's story is read from, the first two CTEs of each engine's statement: "rows", the
 * customer's delivery rows with their campaign, and "events", what the receipts of those rows said.
 * `customer` and `tenant` are the engine's spelling of the two parameters.
 */
export const STORY_SOURCES_SQL = (customer: string, tenant: string) => `WITH "rows" AS (
  SELECT "d"."seq", "d"."campaignId", "d"."status", "d"."details", "d"."updatedAt", "d"."openedAt", "d"."clickedAt",
         "c"."name" AS "campaignName", "c"."launchedAt"
  FROM "Delivery" "d" JOIN "Campaign" "c" ON "c"."id" = "d"."campaignId"
  WHERE "d"."customerId" = ${customer} AND "d"."userId" = ${tenant}
),
"events" AS (
  SELECT "e"."seq", "e"."kind", "e"."machine", "e"."link", "e"."details", "e"."at", "e"."id", "e"."campaignId",
         "c"."name" AS "campaignName", "d"."openedAt"
  FROM "DeliveryEvent" "e"
  JOIN "Delivery" "d" ON "d"."seq" = "e"."seq"
  JOIN "Campaign" "c" ON "c"."id" = "e"."campaignId"
  WHERE "e"."userId" = ${tenant} AND "e"."customerId" = ${customer}
)`;

/**
 * The entries the customer's delivery rows give without their events, in both engines' statements:
 * the first open by a person, and a click known only from the row. `seq` is the engine's
 * zero-padded "seq"; `byPerson` its test that an event was not a machine's.
 */
export const ROW_OPEN_SQL = (seq: string) =>
  `-- The first open by a person.
  SELECT "openedAt", '2-' || ${seq}, 'opened', "campaignId", "campaignName", 1, NULL, '', NULL
  FROM "rows" WHERE "openedAt" IS NOT NULL`;

export const ROW_CLICK_SQL = (seq: string, byPerson: string) =>
  `-- A click known only from the row (a history written without events): "a link".
  SELECT "clickedAt", '3-' || ${seq} || '-r', 'clicked', "campaignId", "campaignName", 1, NULL, '', NULL
  FROM "rows"
  WHERE "clickedAt" IS NOT NULL
    AND "seq" NOT IN (SELECT "seq" FROM "events" WHERE "kind" = 'clicked' AND ${byPerson})`;
