// What the campaigns domain offers on either engine: drafts, the controls, completion and the
// error cap, the counters, the reads of the list and the detail, and who a campaign reached.
//
// Writes a request asks for run on this thread's writer (SQLite) or the process's pool
// (PostgreSQL) unless a connection is passed (a test's). Functions of the delivery job take the
// job's connection first: it runs them in its worker thread. Each write is one transaction,
// changing the counters together with the rows, so the counters always add up to the audience.
import type { AnyConnection } from "~/db/connection.server";
import type { CampaignPeople } from "~/lib/campaign-people";
import type {
  CampaignListCursor,
  CampaignPersonRow,
  CampaignRow,
  CampaignState,
  CampaignTotals,
  ControlStatus,
  NewCampaign,
  SendingCampaign,
} from "~/models/campaigns/rows";

export type CampaignsStore = {
  // --- Reads of the list and the detail (the request thread's read connection) ---

  /** The tenant's campaign, or null. */
  findCampaignRow(userId: string, id: string): Promise<CampaignRow | null>;

  /** A campaign by id, whoever owns it (the CLI is the admin's), or null. */
  findCampaignRowById(id: string): Promise<CampaignRow | null>;

  /** A campaign's launch state (an idempotency key's "is its result finished" check), or null. */
  campaignState(userId: string, id: string): Promise<CampaignState | null>;

  /** Up to `limit` of the tenant's campaigns, newest first, after the campaign `after` when given. */
  listCampaignRows(userId: string, limit: number, after: CampaignListCursor): Promise<CampaignRow[]>;

  /** How many campaigns the tenant has, their audiences added up, and how many distinct segments. */
  campaignTotalsOf(userId: string): Promise<CampaignTotals>;

  // --- Drafts ---

  /** Writes a draft: no delivery rows yet; audienceSize is the count when it was saved. */
  insertDraft(c: NewCampaign, audienceSize: number, now?: number): Promise<void>;

  /**
   * Replaces a draft's content (only while it is a draft), and takes its schedule off (a draft saved
   * again waits for a person until it is scheduled again). Returns false when there was no such draft.
   */
  updateDraft(c: NewCampaign, audienceSize: number, now?: number): Promise<boolean>;

  // --- Schedules ---

  /**
   * Sets the time a draft launches itself (`at`), or takes it off (null), with `detail` as its
   * statusDetail (why a schedule was taken off; "" otherwise): only while it is a draft no launch is
   * writing. Returns false when there was no such draft.
   */
  setSchedule(userId: string, id: string, at: number | null, detail: string, now?: number): Promise<boolean>;

  /** Up to `limit` drafts, of any tenant, whose schedule is due at `now`, the longest due first, whole. */
  dueScheduled(now: number, limit: number): Promise<CampaignRow[]>;

  // --- The controls ---

  /**
   * Moves an active campaign to Paused, Active again, or Cancelled, when its current status allows
   * it. Returns the status it had, or null when the campaign is not the tenant's.
   */
  setCampaignStatus(
    userId: string,
    id: string,
    to: ControlStatus,
    from: readonly string[],
    connection?: AnyConnection,
  ): Promise<{ before: string; changed: boolean } | null>;

  /**
   * Puts the failed rows of a campaign back in the queue with fresh attempts, each as a new message
   * with a new idempotency key (bounced addresses are not retried: the receiving server said the
   * address does not exist), and makes the campaign active again. Returns how many rows were queued,
   * `{ refused: status }` for a draft or a cancelled campaign (nothing to retry), or null when the
   * campaign is not the tenant's.
   */
  requeueFailedDeliveries(
    userId: string,
    id: string,
    connection?: AnyConnection,
  ): Promise<number | { refused: string } | null>;

  /**
   * Removes a campaign's delivery log, then the campaign. The rows go in slices (as many as a launch
   * writes at once), each its own transaction or statement, so a million-row log holds neither the
   * write lock nor other requests for more than milliseconds. Returns false when the campaign was
   * gone already (another delete removed it meanwhile).
   */
  deleteCampaignAndLog(userId: string, id: string): Promise<boolean>;

  // --- The delivery job's reads and writes (its own connection) ---

  /** Campaigns the delivery job should work on now. */
  sendingCampaigns(connection: AnyConnection): Promise<SendingCampaign[]>;

  /**
   * The campaign's status now, asked before each message is handed to a channel: the check is
   * synchronous, as the channel asks it (SendControl.proceed). On SQLite it is one read; on
   * PostgreSQL an answer from memory at most SEND_CHECK_MAX_AGE_MS old, or null (hold the message)
   * when the last read is older (app/models/deliveries/send-checks.postgres.server.ts).
   */
  campaignStatusReader(connection: AnyConnection): Promise<(campaignId: string) => string | null>;

  /**
   * Marks active campaigns whose sending is over as Completed and returns them: no pending row left,
   * and either no row still waiting for a receipt or the last change older than `receiptWaitMs`
   * (a channel without receipts, like SMTP, passes 0).
   */
  completeFinished(connection: AnyConnection, receiptWaitMs: number, now?: number): Promise<CampaignRow[]>;

  /** Pauses a campaign whose send errors passed the cap; returns it if it was paused now. */
  pauseOnErrorCap(
    connection: AnyConnection,
    campaignId: string,
    cap: number,
    now?: number,
  ): Promise<CampaignRow | null>;

  /**
   * Pauses an active campaign for a reason the send found (a sender the relay refuses), with that
   * reason as its statusDetail; returns it if it was paused now.
   */
  pauseSending(
    connection: AnyConnection,
    campaignId: string,
    detail: string,
    now?: number,
  ): Promise<CampaignRow | null>;

  /** Sets a campaign's counters from its rows (after rows were written in bulk, as a seed does). */
  recountCampaign(connection: AnyConnection, campaignId: string): Promise<void>;

  // --- Who a campaign reached (read-only, the request thread's read connection) ---

  /**
   * Up to `limit` of the campaign's rows that `who` takes, in send order after seq `after`: a range
   * of the primary key (a campaign's rows are one seq range, up to `lastSeq`), the rows that do not
   * match skipped.
   */
  campaignPeopleSlice(
    userId: string,
    campaign: { id: string; lastSeq: number },
    who: CampaignPeople,
    after: number,
    limit: number,
  ): Promise<CampaignPersonRow[]>;

  /**
   * How many recipients unsubscribed through each campaign's link (each address once, whenever, even
   * if they resubscribed since), for the tenant's campaigns `campaignIds`; a campaign nobody
   * unsubscribed from is left out.
   */
  unsubscribeCounts(userId: string, campaignIds: readonly string[]): Promise<Map<string, number>>;
};
