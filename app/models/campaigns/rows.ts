// The campaign as stored: the one declaration of its row, the columns that read it whole, what a
// draft writes, and who a campaign reached as its exports read them. The same on both engines.
import type { CampaignCounters } from "~/lib/campaigns";
import type { CampaignPeople } from "~/lib/campaign-people";
import type { LogRow } from "~/models/deliveries/history/rows";
import { LAUNCH_SLICE } from "~/models/launch/rows";

/** One Campaign row as the models read it (dates as unixepoch milliseconds). */
export type CampaignRow = CampaignCounters & {
  id: string;
  userId: string;
  segmentId: string | null;
  segmentName: string;
  name: string;
  subject: string;
  description: string;
  message: string;
  status: string;
  statusDetail: string;
  sendErrors: number;
  launchedAt: number | null;
  completedAt: number | null;
  createdAt: number;
  updatedAt: number;
  firstSeq: number;
  lastSeq: number;
  /** Customers of the segment the launch left out because their address was suppressed then. */
  suppressedAtLaunch: number;
  /** 1 when messages carry the open pixel and tracked links, 0 when not (SQLite's boolean). */
  trackingEnabled: number;
  /** Every open and click by people (openedCount and clickedCount count recipients). */
  opensTotal: number;
  clicksTotal: number;
  /** Opens and clicks told apart as machines (privacy proxies, link scanners, bots). */
  machineOpenCount: number;
  machineClickCount: number;
  /** Soft bounces reported after the send (the rows keep their state). */
  softBounceCount: number;
  /** A "Resend to non-openers" draft's source campaign; null for a campaign sent to a segment. */
  resendOfId: string | null;
  /** The template the campaign was made from (null: written as plain text, or none). */
  templateId: string | null;
  /**
   * The frozen copy of the design its messages are made from (CampaignDesign's JSON, see
   * app/lib/campaign-design.ts); "" when the message is the plain text of `message`.
   */
  design: string;
  /** A draft that launches itself at this time (unixepoch ms); null when it waits for a person. */
  scheduledAt: number | null;
};

/** The columns of a whole CampaignRow, for SELECT and RETURNING (SQLite; PostgreSQL casts trackingEnabled). */
export const CAMPAIGN_COLUMNS = `"id", "userId", "segmentId", "segmentName", "name", "subject", "description", "message", "status",
  "statusDetail", "audienceSize", "pendingCount", "sentCount", "deliveredCount", "failedCount", "bouncedCount", "cancelledCount",
  "suppressedCount", "openedCount", "clickedCount", "sendErrors", "launchedAt", "completedAt", "createdAt", "updatedAt", "firstSeq",
  "lastSeq", "suppressedAtLaunch", "complainedCount", "trackingEnabled", "opensTotal", "clicksTotal", "machineOpenCount",
  "machineClickCount", "softBounceCount", "resendOfId", "templateId", "design", "scheduledAt"`;

/** CAMPAIGN_COLUMNS as PostgreSQL reads them: its boolean trackingEnabled as SQLite's 0 or 1. */
export const CAMPAIGN_COLUMNS_PG = CAMPAIGN_COLUMNS.replace(
  `"trackingEnabled"`,
  `"trackingEnabled"::int AS "trackingEnabled"`,
);

/** A campaign's content as a draft or a launch writes it. */
export type NewCampaign = Pick<
  CampaignRow,
  "id" | "userId" | "segmentId" | "segmentName" | "name" | "subject" | "description" | "message"
> &
  /** Tracking is on, the audience is a segment and the message plain text unless said. */
  Partial<Pick<CampaignRow, "trackingEnabled" | "resendOfId" | "templateId" | "design">> & {
    /**
     * A launch of a draft as it was read at this updatedAt (the schedule clock's): refused (409,
     * SCHEDULE_CHANGED) when the draft was saved, rescheduled or unscheduled since.
     */
    unchangedSince?: number;
  };

/** The stored values of a new campaign's tracking switch and resend source. */
export const trackingValue = (c: NewCampaign) => (c.trackingEnabled === 0 ? 0 : 1);
export const resendValue = (c: NewCampaign) => c.resendOfId ?? null;

/** How a statement names its n-th parameter: `?` on SQLite, `$n` on PostgreSQL. */
export type Param = (n: number) => string;

/**
 * The columns a new Campaign row is written with, as a draft (a saved draft, or a launch's draft
 * marked LAUNCHING): 'Draft' is the eleventh value, the others are bound.
 */
export const DRAFT_COLUMNS = `"id", "userId", "segmentId", "segmentName", "name", "subject", "description", "message", "templateId", "design", "status",
  "statusDetail", "audienceSize", "createdAt", "updatedAt", "trackingEnabled", "resendOfId"`;

/**
 * Writes a new draft (a saved one, or a launch's marked LAUNCHING): its id, owner and content
 * (draftValues), then statusDetail, audienceSize, createdAt and updatedAt (one parameter:
 * PostgreSQL binds the time once, SQLite twice), trackingEnabled and resendOfId.
 */
export const INSERT_DRAFT_SQL = (p: Param) =>
  `INSERT INTO "Campaign" (${DRAFT_COLUMNS}) VALUES (${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(p).join(", ")}, 'Draft', ${[11, 12, 13, 13, 14, 15].map(p).join(", ")})`;

/**
 * A campaign's content as a draft's statements bind it: "segmentId" to "design", in DRAFT_COLUMNS'
 * order (CONTENT_SET names them in an UPDATE).
 */
export const contentValues = (c: NewCampaign) => [
  c.segmentId,
  c.segmentName,
  c.name,
  c.subject,
  c.description,
  c.message,
  c.templateId ?? null,
  c.design ?? "",
];

/** The SET of contentValues in an UPDATE, parameters from `first` on. */
export const CONTENT_SET = (p: Param, first: number) =>
  ["segmentId", "segmentName", "name", "subject", "description", "message", "templateId", "design"]
    .map((column, i) => `"${column}" = ${p(first + i)}`)
    .join(", ");

/** The first ten values of a new draft (INSERT_DRAFT_SQL): its id, its owner and its content. */
export const draftValues = (c: NewCampaign) => [c.id, c.userId, ...contentValues(c)];

/** An active campaign as the delivery job sends it (trackingEnabled 1: the open pixel and tracked links). */
export type SendingCampaign = Pick<
  CampaignRow,
  "id" | "userId" | "subject" | "message" | "sendErrors" | "trackingEnabled" | "design"
>;

/**
 * Sets or takes off a draft's schedule: scheduledAt, statusDetail and updatedAt, then the id, the
 * owner and LAUNCHING (a draft a launch is writing is left alone).
 */
export const SET_SCHEDULE_SQL = (p: Param) =>
  `UPDATE "Campaign" SET "scheduledAt" = ${p(1)}, "statusDetail" = ${p(2)}, "updatedAt" = ${p(3)}
   WHERE "id" = ${p(4)} AND "userId" = ${p(5)} AND "status" = 'Draft' AND "statusDetail" != ${p(6)}`;

/**
 * Drafts whose schedule is due (scheduledAt at most the first parameter), whole (`columns`: the
 * engine's CAMPAIGN_COLUMNS), the longest due first, LAUNCHING's left out.
 */
export const DUE_SCHEDULED_SQL = (p: Param, columns: string) =>
  `SELECT ${columns} FROM "Campaign"
   WHERE "scheduledAt" <= ${p(1)} AND "status" = 'Draft' AND "statusDetail" != ${p(2)}
   ORDER BY "scheduledAt" LIMIT ${p(3)}`;

/** A campaign's launch state (an idempotency key's "is its result finished" check). */
export type CampaignState = { status: string; statusDetail: string; scheduledAt: number | null };

/** The list screen's cards: how many campaigns, their audiences added up, and distinct segments. */
export type CampaignTotals = { campaigns: number; audience: number; segments: number };

/** Where the list's page starts: after this campaign (newest first). */
export type CampaignListCursor = { createdAt: number; id: string } | null;

/** The statuses a control moves an active campaign to. */
export type ControlStatus = "Active" | "Paused" | "Cancelled";

/**
 * Deletes up to LAUNCH_SLICE of a campaign's DeliveryEvent rows (its opens, clicks and reports),
 * its id the one parameter (`param` is the engine's placeholder: `?` or `$1`).
 */
export const deleteEventSlice = (param: string) =>
  `DELETE FROM "DeliveryEvent" WHERE "id" IN (SELECT "id" FROM "DeliveryEvent" WHERE "campaignId" = ${param} LIMIT ${LAUNCH_SLICE})`;

// --- Who a campaign reached (its figures and its CSV exports) ---------------------------------

/**
 * One recipient of a campaign as an export writes them: their delivery row as the log reads it,
 * without its times of sending (PERSON_COLUMNS).
 */
export type CampaignPersonRow = Omit<LogRow, "updatedAt" | "nextAttemptAt"> & {
  /** When the recipient unsubscribed through this campaign's link (ms; unsubscribers only, else null). */
  unsubscribedAt: number | null;
};

/**
 * The rows each export takes, the same rows the campaign's figures count: recipients are those it
 * was sent to (accepted by the channel: sent, delivered, bounced or complained; deliveryStats'
 * sent), openers and clickers the people who opened it or clicked in it (openedAt and clickedAt are
 * set by people only), bouncers the bounced rows, unsubscribers those who unsubscribed through its
 * link (the suppression list's event names the campaign). `$U` is the tenant.
 */
export const PEOPLE_WHERE: Record<CampaignPeople, string> = {
  recipients: `d."status" IN ('sent', 'delivered', 'bounced', 'complained')`,
  openers: `d."openedAt" IS NOT NULL`,
  clickers: `d."clickedAt" IS NOT NULL`,
  bouncers: `d."status" = 'bounced'`,
  unsubscribers: `"unsubscribedAt" IS NOT NULL`,
};

/** A recipient's first unsubscribe through the campaign's link (the event's address is lower case). */
export const UNSUBSCRIBED_AT = (tenant: string) => `(SELECT min(e."createdAt") FROM "SuppressionEvent" e
  WHERE e."userId" = ${tenant} AND e."email" = lower(d."email") AND e."campaignId" = d."campaignId"
    AND e."action" = 'suppressed' AND e."reason" = 'unsubscribed')`;

export const PERSON_COLUMNS = `d."seq", d."customerId", d."name", d."email", d."phone", d."status", d."details", d."openedAt", d."clickedAt"`;
