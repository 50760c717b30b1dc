// The campaign as stored: the one declaration of its row, the columns that read it whole, and the
// queries on the "Campaign" table: drafts, the controls, completion and the error cap, the
// counters, and the reads of the list and the detail.
//
// Writes a request asks for run on this thread's writer (withWriter) unless a connection is
// passed (a test's). Functions of the delivery job take the job's connection first: it runs them
// in its worker thread. Each write is one transaction, changing the counters together with the
// rows, so the counters always add up to the audience.
//
// On PostgreSQL each function runs its twin in ./campaigns.postgres.server.ts (decision 0033): on
// the connection given, else on the process's pool.
import { type AnyConnection, databaseEngine, isPostgres } from "~/db/connection.server";
import { type Postgres, postgres } from "~/db/postgres.server";
import { readStatement } from "~/db/reader.server";
import type { Sqlite } from "~/db/sqlite.server";
import { withWriter } from "~/db/writer.server";
import type { CampaignCounters } from "~/lib/campaigns";
import {
  campaignStatePg,
  campaignStatusReaderPg,
  campaignTotalsOfPg,
  completeFinishedPg,
  deleteCampaignAndLogPg,
  findCampaignRowByIdPg,
  findCampaignRowPg,
  insertDraftPg,
  listCampaignRowsPg,
  pauseOnErrorCapPg,
  pauseSendingPg,
  recountCampaignPg,
  requeueFailedDeliveriesPg,
  sendingCampaignsPg,
  setCampaignStatusPg,
  updateDraftPg,
} from "~/models/campaigns.postgres.server";
import { DELETE_DELIVERY_SLICE, LAUNCH_SLICE, LAUNCHING } from "~/models/deliveries/launch.server";

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
};

/** The columns of a whole CampaignRow, for SELECT and RETURNING. */
export const CAMPAIGN_COLUMNS = `"id", "userId", "segmentId", "segmentName", "name", "subject", "description", "message", "status",
  "statusDetail", "audienceSize", "pendingCount", "sentCount", "deliveredCount", "failedCount", "bouncedCount", "cancelledCount",
  "suppressedCount", "openedCount", "clickedCount", "sendErrors", "launchedAt", "completedAt", "createdAt", "updatedAt", "firstSeq",
  "lastSeq", "suppressedAtLaunch", "complainedCount", "trackingEnabled", "opensTotal", "clicksTotal", "machineOpenCount",
  "machineClickCount", "softBounceCount", "resendOfId"`;

/** A campaign's content as a draft or a launch writes it. */
export type NewCampaign = Pick<
  CampaignRow,
  "id" | "userId" | "segmentId" | "segmentName" | "name" | "subject" | "description" | "message"
> &
  /** Tracking is on and the audience is a segment unless said. */
  Partial<Pick<CampaignRow, "trackingEnabled" | "resendOfId">>;

/** The stored values of a new campaign's tracking switch and resend source. */
export const trackingValue = (c: NewCampaign) => (c.trackingEnabled === 0 ? 0 : 1);
export const resendValue = (c: NewCampaign) => c.resendOfId ?? null;

/** What the delivery job needs of a campaign it sends. */
/** An active campaign as the engine sends it (trackingEnabled 1: the open pixel and tracked links). */
export type SendingCampaign = Pick<
  CampaignRow,
  "id" | "userId" | "subject" | "message" | "sendErrors" | "trackingEnabled"
>;

/** A write on the connection given, or on this thread's writer. */
async function onWriter<T>(connection: Sqlite | undefined, work: (sqlite: Sqlite) => T): Promise<T> {
  return connection ? work(connection) : withWriter(work);
}

/** The PostgreSQL handle to run on (the connection given, else the process's pool), or null on SQLite. */
function onPostgres(connection?: AnyConnection): Postgres | null {
  if (connection) return isPostgres(connection) ? connection : null;
  return databaseEngine() === "postgres" ? postgres() : null;
}

// --- Reads of the list and the detail (the request thread's read connection) -------------------

/** The tenant's campaign, or null. */
export async function findCampaignRow(userId: string, id: string): Promise<CampaignRow | null> {
  const pg = onPostgres();
  if (pg) return findCampaignRowPg(pg, userId, id);
  const row = readStatement<CampaignRow>(
    `SELECT ${CAMPAIGN_COLUMNS} FROM "Campaign" WHERE "id" = ? AND "userId" = ?`,
  ).get(id, userId);
  return row ?? null;
}

/** A campaign by id, whoever owns it (the CLI is the admin's), or null. */
export async function findCampaignRowById(id: string): Promise<CampaignRow | null> {
  const pg = onPostgres();
  if (pg) return findCampaignRowByIdPg(pg, id);
  return readStatement<CampaignRow>(`SELECT ${CAMPAIGN_COLUMNS} FROM "Campaign" WHERE "id" = ?`).get(id) ?? null;
}

/** A campaign's launch state (an idempotency key's "is its result finished" check), or null. */
export async function campaignState(
  userId: string,
  id: string,
): Promise<{ status: string; statusDetail: string } | null> {
  const pg = onPostgres();
  if (pg) return campaignStatePg(pg, userId, id);
  return (
    readStatement<{ status: string; statusDetail: string }>(
      `SELECT "status", "statusDetail" FROM "Campaign" WHERE "id" = ? AND "userId" = ?`,
    ).get(id, userId) ?? null
  );
}

/** Up to `limit` of the tenant's campaigns, newest first, after the campaign `after` when given. */
export async function listCampaignRows(
  userId: string,
  limit: number,
  after: { createdAt: number; id: string } | null,
): Promise<CampaignRow[]> {
  const pg = onPostgres();
  if (pg) return listCampaignRowsPg(pg, userId, limit, after);
  return after
    ? readStatement<CampaignRow>(
        `SELECT ${CAMPAIGN_COLUMNS} FROM "Campaign" WHERE "userId" = ? AND ("createdAt", "id") < (?, ?)
         ORDER BY "createdAt" DESC, "id" DESC LIMIT ${limit}`,
      ).all(userId, after.createdAt, after.id)
    : readStatement<CampaignRow>(
        `SELECT ${CAMPAIGN_COLUMNS} FROM "Campaign" WHERE "userId" = ? ORDER BY "createdAt" DESC, "id" DESC LIMIT ${limit}`,
      ).all(userId);
}

/** How many campaigns the tenant has, their audiences added up, and how many distinct segments. */
export async function campaignTotalsOf(
  userId: string,
): Promise<{ campaigns: number; audience: number; segments: number }> {
  const pg = onPostgres();
  if (pg) return campaignTotalsOfPg(pg, userId);
  const row = readStatement<{ campaigns: number; audience: number; segments: number }>(
    `SELECT count(*) AS campaigns, coalesce(sum("audienceSize"), 0) AS audience, count(DISTINCT "segmentId") AS segments
     FROM "Campaign" WHERE "userId" = ?`,
  ).get(userId);
  return row ?? { campaigns: 0, audience: 0, segments: 0 };
}

// --- Drafts ------------------------------------------------------------------------------------

/**
 * The INSERT of a new Campaign row as a draft, inside a transaction the caller holds (a saved draft
 * here; a launch's draft marked LAUNCHING in app/models/deliveries/launch.server.ts).
 */
export function writeDraftRow(
  sqlite: Sqlite,
  c: NewCampaign,
  audienceSize: number,
  statusDetail: string,
  now: number,
): void {
  sqlite
    .prepare(
      `INSERT INTO "Campaign" ("id", "userId", "segmentId", "segmentName", "name", "subject", "description", "message", "status",
         "statusDetail", "audienceSize", "createdAt", "updatedAt", "trackingEnabled", "resendOfId")
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'Draft', ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      c.id,
      c.userId,
      c.segmentId,
      c.segmentName,
      c.name,
      c.subject,
      c.description,
      c.message,
      statusDetail,
      audienceSize,
      now,
      now,
      trackingValue(c),
      resendValue(c),
    );
}

/** Writes a draft: no delivery rows yet; audienceSize is the count when it was saved. */
export async function insertDraft(c: NewCampaign, audienceSize: number, now = Date.now()): Promise<void> {
  const pg = onPostgres();
  if (pg) return insertDraftPg(pg, c, audienceSize, now);
  await withWriter((sqlite) => writeDraftRow(sqlite, c, audienceSize, "", now));
}

/** Replaces a draft's content (only while it is a draft). Returns false when there was no such draft. */
export async function updateDraft(c: NewCampaign, audienceSize: number, now = Date.now()): Promise<boolean> {
  const pg = onPostgres();
  if (pg) return updateDraftPg(pg, c, audienceSize, now);
  const result = await withWriter((sqlite) =>
    sqlite
      .prepare(
        `UPDATE "Campaign" SET "segmentId" = ?, "segmentName" = ?, "name" = ?, "subject" = ?, "description" = ?, "message" = ?,
           "trackingEnabled" = ?, "resendOfId" = ?, "audienceSize" = ?, "updatedAt" = ?
         WHERE "id" = ? AND "userId" = ? AND "status" = 'Draft' AND "statusDetail" != ?`,
      )
      .run(
        c.segmentId,
        c.segmentName,
        c.name,
        c.subject,
        c.description,
        c.message,
        trackingValue(c),
        resendValue(c),
        audienceSize,
        now,
        c.id,
        c.userId,
        LAUNCHING,
      ),
  );
  return result.changes === 1;
}

// --- The controls ------------------------------------------------------------------------------

/** The status of the tenant's campaign, read inside the caller's transaction (undefined: not theirs). */
function ownCampaignStatus(sqlite: Sqlite, userId: string, id: string): { status: string } | undefined {
  return sqlite
    .prepare<unknown[], { status: string }>(`SELECT "status" FROM "Campaign" WHERE "id" = ? AND "userId" = ?`)
    .get(id, userId);
}

/**
 * Moves an active campaign to Paused, Active again, or Cancelled, when its current status allows
 * it. Returns the status it had, or null when the campaign is not the tenant's.
 */
export async function setCampaignStatus(
  userId: string,
  id: string,
  to: "Active" | "Paused" | "Cancelled",
  from: readonly string[],
  connection?: AnyConnection,
): Promise<{ before: string; changed: boolean } | null> {
  const pg = onPostgres(connection);
  if (pg) return setCampaignStatusPg(pg, userId, id, to, from);
  return onWriter(connection as Sqlite | undefined, (sqlite) =>
    sqlite
      .transaction(() => {
        // Read once the write lock is held: a wait in the queue must not date the change earlier.
        const now = Date.now();
        const row = ownCampaignStatus(sqlite, userId, id);
        if (!row) return null;
        if (!from.includes(row.status)) return { before: row.status, changed: false };
        sqlite
          .prepare(
            `UPDATE "Campaign" SET "status" = ?, "statusDetail" = '', "updatedAt" = ?,
               "sendErrors" = CASE WHEN ? = 'Active' THEN 0 ELSE "sendErrors" END WHERE "id" = ?`,
          )
          .run(to, now, to, id);
        if (to === "Active") {
          // Rows waiting for a retry or a lease when the campaign was paused are due again now.
          sqlite
            .prepare(
              `UPDATE "Delivery" SET "nextAttemptAt" = ? WHERE "campaignId" = ? AND "status" = 'pending' AND "nextAttemptAt" > ?`,
            )
            .run(now, id, now);
        }
        return { before: row.status, changed: true };
      })
      .immediate(),
  );
}

/**
 * Puts the failed rows of a campaign back in the queue with fresh attempts, each as a new message
 * with a new idempotency key (bounced addresses are not retried: the receiving server said the
 * address does not exist), and makes the campaign active again. Returns how many rows were queued,
 * `{ refused: status }` for a draft or a cancelled campaign (nothing to retry), or null when the
 * campaign is not the tenant's.
 */
export async function requeueFailedDeliveries(
  userId: string,
  id: string,
  connection?: AnyConnection,
): Promise<number | { refused: string } | null> {
  const pg = onPostgres(connection);
  if (pg) return requeueFailedDeliveriesPg(pg, userId, id);
  return onWriter(connection as Sqlite | undefined, (sqlite) =>
    sqlite
      .transaction(() => {
        // Read once the write lock is held: a wait in the queue must not date the change earlier.
        const now = Date.now();
        const row = ownCampaignStatus(sqlite, userId, id);
        if (!row) return null;
        // Checked in the transaction that queues: a cancel answered a moment before wins.
        if (row.status === "Draft" || row.status === "Cancelled") return { refused: row.status };
        const queued = sqlite
          .prepare(
            `UPDATE "Delivery" SET "status" = 'pending', "attempts" = 0, "retries" = "retries" + 1, "nextAttemptAt" = ?, "details" = '', "updatedAt" = ?
             WHERE "campaignId" = ? AND "status" = 'failed'`,
          )
          .run(now, now, id).changes;
        if (queued > 0) {
          sqlite
            .prepare(
              `UPDATE "Campaign" SET "failedCount" = "failedCount" - ?, "pendingCount" = "pendingCount" + ?, "sendErrors" = 0,
                 "status" = CASE WHEN "status" = 'Paused' THEN 'Paused' ELSE 'Active' END, "statusDetail" = '',
                 "completedAt" = NULL, "updatedAt" = ?
               WHERE "id" = ?`,
            )
            .run(queued, queued, now, id);
        }
        return queued;
      })
      .immediate(),
  );
}

/**
 * Removes a campaign's delivery log, then the campaign. The rows go in slices (as many as a launch
 * writes at once), each its own transaction, so a million-row log holds neither the write lock nor
 * other requests for more than milliseconds. Returns false when the campaign was gone already
 * (another delete removed it meanwhile).
 */
/**
 * Deletes up to LAUNCH_SLICE of a campaign's DeliveryEvent rows. Built when used: this module and
 * the launch model import each other, and a worker thread that loads the launch model first would
 * meet LAUNCH_SLICE uninitialised at this module's top level.
 */
const deleteEventSlice = () =>
  `DELETE FROM "DeliveryEvent" WHERE "id" IN (SELECT "id" FROM "DeliveryEvent" WHERE "campaignId" = ? LIMIT ${LAUNCH_SLICE})`;

export async function deleteCampaignAndLog(userId: string, id: string): Promise<boolean> {
  const pg = onPostgres();
  if (pg) return deleteCampaignAndLogPg(pg, userId, id);
  // Its opens, clicks and reports, then its rows, a slice a transaction: the write lock is never
  // held for long, however large the campaign.
  const events = (sqlite: Sqlite) => sqlite.prepare(deleteEventSlice()).run(id).changes;
  while ((await withWriter(events)) > 0);
  const slice = (sqlite: Sqlite) => sqlite.prepare(DELETE_DELIVERY_SLICE).run(id).changes;
  while ((await withWriter(slice)) > 0);
  const deleted = await withWriter(
    (sqlite) => sqlite.prepare(`DELETE FROM "Campaign" WHERE "id" = ? AND "userId" = ?`).run(id, userId).changes,
  );
  return deleted > 0;
}

// --- The delivery job's reads and writes (its own connection) ---------------------------------

/** Campaigns the delivery job should work on now. */
export async function sendingCampaigns(connection: AnyConnection): Promise<SendingCampaign[]> {
  if (isPostgres(connection)) return sendingCampaignsPg(connection);
  return connection
    .prepare<unknown[], SendingCampaign>(
      `SELECT "id", "userId", "subject", "message", "sendErrors", "trackingEnabled" FROM "Campaign" WHERE "status" = 'Active' ORDER BY "launchedAt", "id"`,
    )
    .all();
}

/**
 * The campaign's status now, asked before each message is handed to a channel: the check is
 * synchronous, as the channel asks it (SendControl.proceed). On SQLite it is one read; on
 * PostgreSQL an answer from memory at most SEND_CHECK_MAX_AGE_MS old, or null (hold the message)
 * when the last read is older (app/models/deliveries/send-checks.postgres.server.ts).
 */
export async function campaignStatusReader(connection: AnyConnection): Promise<(campaignId: string) => string | null> {
  if (isPostgres(connection)) return campaignStatusReaderPg(connection);
  const read = connection.prepare<unknown[], string>(`SELECT "status" FROM "Campaign" WHERE "id" = ?`).pluck();
  return (campaignId) => read.get(campaignId) ?? null;
}

/**
 * Marks active campaigns whose sending is over as Completed and returns them: no pending row left,
 * and either no row still waiting for a receipt or the last change older than `receiptWaitMs`
 * (a channel without receipts, like SMTP, passes 0).
 */
export async function completeFinished(
  connection: AnyConnection,
  receiptWaitMs: number,
  now = Date.now(),
): Promise<CampaignRow[]> {
  if (isPostgres(connection)) return completeFinishedPg(connection, receiptWaitMs, now);
  return connection
    .prepare<unknown[], CampaignRow>(
      `UPDATE "Campaign" SET "status" = 'Completed', "completedAt" = ?, "statusDetail" = ''
       WHERE "status" = 'Active' AND "pendingCount" = 0 AND ("sentCount" = 0 OR "updatedAt" <= ?)
       RETURNING ${CAMPAIGN_COLUMNS}`,
    )
    .all(now, now - receiptWaitMs);
}

/** Pauses a campaign whose send errors passed the cap; returns it if it was paused now. */
export async function pauseOnErrorCap(
  connection: AnyConnection,
  campaignId: string,
  cap: number,
  now = Date.now(),
): Promise<CampaignRow | null> {
  if (isPostgres(connection)) return pauseOnErrorCapPg(connection, campaignId, cap, now);
  const row = connection
    .prepare<unknown[], CampaignRow>(
      `UPDATE "Campaign" SET "status" = 'Paused', "updatedAt" = ?,
         "statusDetail" = 'Paused after ' || "sendErrors" || ' send errors: check the delivery settings, then resume.'
       WHERE "id" = ? AND "status" = 'Active' AND "sendErrors" >= ?
       RETURNING ${CAMPAIGN_COLUMNS}`,
    )
    .get(now, campaignId, cap);
  return row ?? null;
}

/**
 * Pauses an active campaign for a reason the send found (a sender the relay refuses), with that
 * reason as its statusDetail; returns it if it was paused now.
 */
export async function pauseSending(
  connection: AnyConnection,
  campaignId: string,
  detail: string,
  now = Date.now(),
): Promise<CampaignRow | null> {
  if (isPostgres(connection)) return pauseSendingPg(connection, campaignId, detail, now);
  const row = connection
    .prepare<unknown[], CampaignRow>(
      `UPDATE "Campaign" SET "status" = 'Paused', "updatedAt" = ?, "statusDetail" = ?
       WHERE "id" = ? AND "status" = 'Active'
       RETURNING ${CAMPAIGN_COLUMNS}`,
    )
    .get(now, detail, campaignId);
  return row ?? null;
}

/** Sets a campaign's counters from its rows (after rows were written in bulk, as a seed does). */
export async function recountCampaign(connection: AnyConnection, campaignId: string): Promise<void> {
  if (isPostgres(connection)) return recountCampaignPg(connection, campaignId);
  connection
    .prepare(
      `UPDATE "Campaign" SET
         "pendingCount" = (SELECT count(*) FROM "Delivery" WHERE "campaignId" = "Campaign"."id" AND "status" = 'pending'),
         "sentCount" = (SELECT count(*) FROM "Delivery" WHERE "campaignId" = "Campaign"."id" AND "status" = 'sent'),
         "deliveredCount" = (SELECT count(*) FROM "Delivery" WHERE "campaignId" = "Campaign"."id" AND "status" = 'delivered'),
         "failedCount" = (SELECT count(*) FROM "Delivery" WHERE "campaignId" = "Campaign"."id" AND "status" = 'failed'),
         "bouncedCount" = (SELECT count(*) FROM "Delivery" WHERE "campaignId" = "Campaign"."id" AND "status" = 'bounced'),
         "complainedCount" = (SELECT count(*) FROM "Delivery" WHERE "campaignId" = "Campaign"."id" AND "status" = 'complained'),
         "cancelledCount" = (SELECT count(*) FROM "Delivery" WHERE "campaignId" = "Campaign"."id" AND "status" = 'cancelled'),
         "suppressedCount" = (SELECT count(*) FROM "Delivery" WHERE "campaignId" = "Campaign"."id" AND "status" = 'suppressed'),
         "openedCount" = (SELECT count("openedAt") FROM "Delivery" WHERE "campaignId" = "Campaign"."id"),
         "clickedCount" = (SELECT count("clickedAt") FROM "Delivery" WHERE "campaignId" = "Campaign"."id"),
         -- Rows written in bulk have no events: each first open and click is all there is to count.
         "opensTotal" = max("opensTotal", (SELECT count("openedAt") FROM "Delivery" WHERE "campaignId" = "Campaign"."id")),
         "clicksTotal" = max("clicksTotal", (SELECT count("clickedAt") FROM "Delivery" WHERE "campaignId" = "Campaign"."id"))
       WHERE "id" = ?`,
    )
    .run(campaignId);
}
