// What the history domain offers (app/models/deliveries/history/): a campaign's delivery log a
// page at a time and its clicks by link, on the request's read connection (on PostgreSQL, the
// process's pool); and rows written again or in bulk outside a send, on a connection of the
// CLI's own: a seeded history of finished campaigns (`crm seed --campaigns N`, whose bounces
// suppress their addresses as real ones do) and the replay of rows to the channel
// (`crm deliveries replay`).
import type { AnyConnection } from "~/db/connection.server";
import type { DeliveryStatus } from "~/lib/campaigns";
import type { CompiledWhere } from "~/models/segments/audience/rows";
import type { HistorySegment, LinkClicksRow, LogRow, ReplayStatus, SeededShares } from "./rows";

export type HistoryStore = {
  /**
   * Up to `limit` rows of a campaign's log in send order, after seq `after`: a range of the primary
   * key (a campaign's rows are one seq range, up to `lastSeq`).
   */
  logRowsAfterSeq(after: number, lastSeq: number, limit: number): Promise<LogRow[]>;

  /**
   * Up to `limit` rows of one status of a campaign's log, after (nextAttemptAt, seq) `after`: the
   * (campaign, status, next attempt) index, whose order for a status is (nextAttemptAt, seq).
   */
  logRowsOfStatus(
    campaignId: string,
    status: DeliveryStatus,
    after: [number, number],
    limit: number,
  ): Promise<LogRow[]>;

  /**
   * Up to `limit` of a campaign's deferred rows (pending, with details: an earlier attempt got a
   * temporary answer and the row waits for its retry), after (nextAttemptAt, seq) `after`: the
   * pending rows' range of the (campaign, status, next attempt) index, those without details skipped.
   */
  logRowsDeferred(campaignId: string, after: [number, number], limit: number): Promise<LogRow[]>;

  /** How many of a campaign's pending rows are deferred (no counter keeps it: it is derived). */
  countDeferred(campaignId: string): Promise<number>;

  /**
   * A campaign's clicks by link (docs/rules.md#opens-and-clicks): the DeliveryEvent rows of kind
   * "clicked" grouped by their link index, people and machines apart, in index order (links nobody
   * clicked are absent). One range of the (campaignId, kind, link) index.
   */
  clicksByLink(userId: string, campaignId: string): Promise<LinkClicksRow[]>;

  /** The audience of a seeded campaign without a segment: a random share of the tenant's customers. */
  randomShareWhere(userId: string, percent: number): CompiledWhere;

  /** The tenant's segments, oldest first. */
  segmentsForHistory(connection: AnyConnection, userId: string): Promise<HistorySegment[]>;

  /**
   * Finishes a launched campaign's rows as if it had been sent and its receipts had come back, from
   * a hash of each row: below `deliveredBelow` (of 100) delivered, below `failedBelow` failed, the
   * rest bounced; below `openedBelow` of the delivered opened, a quarter of those clicked. Then sets
   * its counters, completes it an hour after `launchedAt`, and puts the addresses that bounced on
   * the tenant's suppression list as the send does.
   */
  finishSeededCampaign(
    connection: AnyConnection,
    campaignId: string,
    launchedAt: number,
    shares: SeededShares,
  ): Promise<void>;

  /**
   * Puts rows of a campaign back in the queue to be sent again under their own delivery ids (the
   * channel's idempotency keys): the CLI's `crm deliveries replay`. A vendor that already accepted a
   * key answers "duplicate" and sends nothing twice. Returns how many rows were (or, with dryRun,
   * would be) queued. Their details are cleared, as a retry of failed rows clears them: a pending row
   * with details reads as "Deferred" (waiting after a temporary answer), which a replayed row is not.
   */
  replayDeliveries(
    connection: AnyConnection,
    campaignId: string,
    status: ReplayStatus,
    dryRun: boolean,
    now?: number,
  ): Promise<number>;
};
