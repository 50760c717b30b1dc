// The customer's story: every campaign a customer was sent and what came of it (received, waiting,
// not sent, bounced), what they opened and clicked, their complaints, and what happened to their
// address on the suppression list, newest first, a page at a time. The customer page's E-mail
// history card and GET /api/customers/{id}/story read it here; the sentences are app/lib's
// (app/lib/customer-story.ts), the query app/models/customer-story/.
import {
  parseStoryCursor,
  STORY_PAGE_SIZE,
  storyCursor,
  storyText,
  type StoryEntry,
  type StoryKind,
} from "~/lib/customer-story";
import { messageLinks } from "~/services/campaigns/message-links.server";
import { customerStories, type StoryRow } from "~/models/customer-story/store.server";
import { getCustomer } from "~/services/customers.server";

export type CustomerStoryPage = { entries: StoryEntry[]; nextCursor: string | null };

/** Entries a page holds at most. */
export const MAX_STORY_LIMIT = 1000;

/** What a cancelled campaign's row says when the row itself says nothing. */
const CANCELLED = "The campaign was cancelled before it reached this customer";

function deliveryKind(row: StoryRow): StoryKind {
  switch (row.status) {
    case "sent":
    case "delivered":
    case "complained":
      return "received";
    case "pending":
      return row.details ? "deferred" : "waiting";
    case "failed":
      return "failed";
    case "bounced":
      return "bounced";
    default:
      // cancelled, suppressed
      return "not-sent";
  }
}

/** A campaign's links by their index, as its messages were sent with them. */
type LinksOf = (campaignId: string | null) => readonly string[];

function toEntry(row: StoryRow, linksOf: LinksOf): StoryEntry {
  let kind: StoryKind;
  let details = row.details;
  let reason = "";
  switch (row.kind) {
    case "delivery":
      kind = deliveryKind(row);
      if (kind === "received") details = "";
      if (row.status === "cancelled") details ||= CANCELLED;
      break;
    case "suppressed":
      reason = row.details;
      kind = reason === "unsubscribed" ? "unsubscribed" : "suppressed";
      details = "";
      break;
    case "resubscribed":
      kind = "resubscribed";
      details = "";
      break;
    case "opened":
    case "machine-opened":
    case "clicked":
      kind = row.kind;
      details = "";
      break;
    default:
      kind = row.kind;
  }
  const link =
    row.kind === "clicked" && row.link !== null
      ? { number: row.link + 1, url: linksOf(row.campaignId)[row.link] ?? "" }
      : null;
  const entry = {
    kind,
    at: new Date(row.at).toISOString(),
    campaignId: row.campaignExists ? row.campaignId : null,
    campaignName: row.campaignName,
    details,
    link,
    reason,
  };
  return { ...entry, text: storyText(entry) };
}

/**
 * A page of the tenant's customer's story, newest first: `limit` entries (STORY_PAGE_SIZE when not
 * said) after `cursor` (a page's nextCursor; one that is not is the first page). Another tenant's
 * customer, or an unknown id, is "not found".
 */
export async function customerStory(
  userId: string,
  customerId: string,
  options: { cursor?: string | null; limit?: number } = {},
): Promise<CustomerStoryPage> {
  const customer = await getCustomer(userId, customerId);
  const limit = Math.max(1, Math.min(MAX_STORY_LIMIT, Math.trunc(options.limit ?? STORY_PAGE_SIZE)));
  const rows = await customerStories.readCustomerStory(
    userId,
    customer.id,
    customer.email.trim().toLowerCase(),
    parseStoryCursor(options.cursor),
    limit + 1,
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  // The clicked links' addresses: the links of each campaign's message (launched, so unchanged).
  const clicked = new Set(
    page.flatMap((r) => (r.kind === "clicked" && r.link !== null && r.campaignId ? [r.campaignId] : [])),
  );
  const messages = await customerStories.campaignMessages(userId, [...clicked]);
  const links = new Map(
    await Promise.all(
      [...messages].map(async ([id, m]) => [id, await messageLinks({ id, subject: "", ...m })] as const),
    ),
  );
  const linksOf: LinksOf = (campaignId) => (campaignId ? (links.get(campaignId) ?? []) : []);
  return {
    entries: page.map((r) => toEntry(r, linksOf)),
    nextCursor: rows.length > limit && last ? storyCursor(last.at, last.key) : null,
  };
}
