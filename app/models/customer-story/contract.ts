// What the customer's story offers, whichever engine answers (./sqlite.server.ts,
// ./postgres.server.ts; callers use the door, ./store.server.ts).
//
// The story is read from three tables in one statement:
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
import type { CampaignMessage, StoryCursor, StoryRow } from "./rows";

export type CustomerStoryStore = {
  /**
   * Up to `limit` entries of the tenant's customer's story, newest first, after `cursor`. `email`
   * is the customer's address (lower case; "" when they have none), whose suppression events belong
   * to the story.
   */
  readCustomerStory(
    userId: string,
    customerId: string,
    email: string,
    cursor: StoryCursor | null,
    limit: number,
  ): Promise<StoryRow[]>;
  /**
   * The messages of the tenant's campaigns among `ids` (their links name a story's clicks), by id:
   * the plain text and the design made from a template ("" for none).
   */
  campaignMessages(userId: string, ids: readonly string[]): Promise<Map<string, CampaignMessage>>;
};
