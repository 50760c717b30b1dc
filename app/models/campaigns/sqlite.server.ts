// The campaigns domain on SQLite (./contract.ts says what each function does).
//
// Reads of the list and the detail use the request thread's read connection (readStatement).
// Writes a request asks for run on this thread's writer (withWriter) unless a connection is
// passed (a test's); the delivery job's functions run on the job's connection.
import type { AnyConnection } from "~/db/connection.server";
import { sqliteOf } from "~/db/engine.server";
import { readStatement } from "~/db/reader.server";
import type { Sqlite } from "~/db/sqlite.server";
import { withWriter } from "~/db/writer.server";
import type { CampaignsStore } from "~/models/campaigns/contract";
import {
  CAMPAIGN_COLUMNS,
  CONTENT_SET,
  type CampaignPersonRow,
  type CampaignRow,
  type CampaignState,
  type CampaignTotals,
  contentValues,
  deleteEventSlice,
  draftValues,
  DUE_SCHEDULED_SQL,
  INSERT_DRAFT_SQL,
  PEOPLE_WHERE,
  PERSON_COLUMNS,
  resendValue,
  type SendingCampaign,
  SET_SCHEDULE_SQL,
  trackingValue,
  UNSUBSCRIBED_AT,
} from "~/models/campaigns/rows";
import { deleteDeliverySlice, LAUNCHING } from "~/models/launch/rows";

/** A write on the connection given, or on this thread's writer. */
async function onWriter<T>(connection: AnyConnection | undefined, work: (sqlite: Sqlite) => T): Promise<T> {
  return connection ? work(sqliteOf(connection)) : withWriter(work);
}

/** The status of the tenant's campaign, read inside the caller's transaction (undefined: not theirs). */
function ownCampaignStatus(sqlite: Sqlite, userId: string, id: string): { status: string } | undefined {
  return sqlite
    .prepare<unknown[], { status: string }>(`SELECT "status" FROM "Campaign" WHERE "id" = ? AND "userId" = ?`)
    .get(id, userId);
}

/**
 * A control's transaction on the writer: the tenant's campaign's status and the time, both read once
 * the write lock is held (a wait in the queue must not date the change earlier), then `work`; null
 * when the campaign is not the tenant's.
 */
async function control<T>(
  connection: AnyConnection | undefined,
  userId: string,
  id: string,
  work: (sqlite: Sqlite, status: string, now: number) => T,
): Promise<T | null> {
  return onWriter(connection, (sqlite) =>
    sqlite
      .transaction(() => {
        const now = Date.now();
        const row = ownCampaignStatus(sqlite, userId, id);
        return row ? work(sqlite, row.status, now) : null;
      })
      .immediate(),
  );
}

const DELETE_EVENT_SLICE = deleteEventSlice("?");
const INSERT_DRAFT = INSERT_DRAFT_SQL(() => "?");
const SET_SCHEDULE = SET_SCHEDULE_SQL(() => "?");
const DUE_SCHEDULED = DUE_SCHEDULED_SQL(() => "?", CAMPAIGN_COLUMNS);
const DELETE_DELIVERY_SLICE = deleteDeliverySlice("?");

export const sqliteCampaigns: CampaignsStore = {
  // --- Reads of the list and the detail (the request thread's read connection) -----------------

  async findCampaignRow(userId, id) {
    const row = readStatement<CampaignRow>(
      `SELECT ${CAMPAIGN_COLUMNS} FROM "Campaign" WHERE "id" = ? AND "userId" = ?`,
    ).get(id, userId);
    return row ?? null;
  },

  async findCampaignRowById(id) {
    return readStatement<CampaignRow>(`SELECT ${CAMPAIGN_COLUMNS} FROM "Campaign" WHERE "id" = ?`).get(id) ?? null;
  },

  async campaignState(userId, id) {
    return (
      readStatement<CampaignState>(
        `SELECT "status", "statusDetail", "scheduledAt" FROM "Campaign" WHERE "id" = ? AND "userId" = ?`,
      ).get(id, userId) ?? null
    );
  },

  async listCampaignRows(userId, limit, after) {
    return after
      ? readStatement<CampaignRow>(
          `SELECT ${CAMPAIGN_COLUMNS} FROM "Campaign" WHERE "flowId" IS NULL AND "userId" = ? AND ("createdAt", "id") < (?, ?)
           ORDER BY "createdAt" DESC, "id" DESC LIMIT ${limit}`,
        ).all(userId, after.createdAt, after.id)
      : readStatement<CampaignRow>(
          `SELECT ${CAMPAIGN_COLUMNS} FROM "Campaign" WHERE "flowId" IS NULL AND "userId" = ? ORDER BY "createdAt" DESC, "id" DESC LIMIT ${limit}`,
        ).all(userId);
  },

  async campaignTotalsOf(userId) {
    const row = readStatement<CampaignTotals>(
      `SELECT count(*) AS campaigns, coalesce(sum("audienceSize"), 0) AS audience, count(DISTINCT "segmentId") AS segments
       FROM "Campaign" WHERE "flowId" IS NULL AND "userId" = ?`,
    ).get(userId);
    return row ?? { campaigns: 0, audience: 0, segments: 0 };
  },

  // --- Drafts ----------------------------------------------------------------------------------

  async insertDraft(c, audienceSize, now = Date.now()) {
    await withWriter((sqlite) =>
      sqlite.prepare(INSERT_DRAFT).run(...draftValues(c), "", audienceSize, now, now, trackingValue(c), resendValue(c)),
    );
  },

  async updateDraft(c, audienceSize, now = Date.now()) {
    const result = await withWriter((sqlite) =>
      sqlite
        .prepare(
          `UPDATE "Campaign" SET ${CONTENT_SET(() => "?", 1)},
             "trackingEnabled" = ?, "resendOfId" = ?, "audienceSize" = ?, "updatedAt" = ?, "scheduledAt" = NULL
           WHERE "id" = ? AND "userId" = ? AND "status" = 'Draft' AND "statusDetail" != ?`,
        )
        .run(...contentValues(c), trackingValue(c), resendValue(c), audienceSize, now, c.id, c.userId, LAUNCHING),
    );
    return result.changes === 1;
  },

  // --- Schedules -------------------------------------------------------------------------------

  async setSchedule(userId, id, at, detail, now = Date.now()) {
    const result = await withWriter((sqlite) =>
      sqlite.prepare(SET_SCHEDULE).run(at, detail, now, id, userId, LAUNCHING),
    );
    return result.changes === 1;
  },

  async dueScheduled(now, limit) {
    return readStatement<CampaignRow>(DUE_SCHEDULED).all(now, LAUNCHING, limit);
  },

  // --- The controls ----------------------------------------------------------------------------

  async setCampaignStatus(userId, id, to, from, connection) {
    return control(connection, userId, id, (sqlite, status, now) => {
      if (!from.includes(status)) return { before: status, changed: false };
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
      return { before: status, changed: true };
    });
  },

  async requeueFailedDeliveries(userId, id, connection) {
    return control(connection, userId, id, (sqlite, status, now) => {
      // Checked in the transaction that queues: a cancel answered a moment before wins.
      if (status === "Draft" || status === "Cancelled") return { refused: status };
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
    });
  },

  async deleteCampaignAndLog(userId, id) {
    // Its opens, clicks and reports, then its rows, a slice a transaction: the write lock is never
    // held for long, however large the campaign.
    const events = (sqlite: Sqlite) => sqlite.prepare(DELETE_EVENT_SLICE).run(id).changes;
    while ((await withWriter(events)) > 0);
    const slice = (sqlite: Sqlite) => sqlite.prepare(DELETE_DELIVERY_SLICE).run(id).changes;
    while ((await withWriter(slice)) > 0);
    const deleted = await withWriter(
      (sqlite) => sqlite.prepare(`DELETE FROM "Campaign" WHERE "id" = ? AND "userId" = ?`).run(id, userId).changes,
    );
    return deleted > 0;
  },

  // --- The delivery job's reads and writes (its own connection) -------------------------------

  async sendingCampaigns(connection) {
    return sqliteOf(connection)
      .prepare<unknown[], SendingCampaign>(
        `SELECT "id", "userId", "subject", "message", "sendErrors", "trackingEnabled", "design" FROM "Campaign" WHERE "status" = 'Active' ORDER BY "launchedAt", "id"`,
      )
      .all();
  },

  async campaignStatusReader(connection) {
    const read = sqliteOf(connection)
      .prepare<unknown[], string>(`SELECT "status" FROM "Campaign" WHERE "id" = ?`)
      .pluck();
    return (campaignId) => read.get(campaignId) ?? null;
  },

  async completeFinished(connection, receiptWaitMs, now = Date.now()) {
    return sqliteOf(connection)
      .prepare<unknown[], CampaignRow>(
        `UPDATE "Campaign" SET "status" = 'Completed', "completedAt" = ?, "statusDetail" = ''
         WHERE "status" = 'Active' AND "flowId" IS NULL AND "pendingCount" = 0 AND ("sentCount" = 0 OR "updatedAt" <= ?)
         RETURNING ${CAMPAIGN_COLUMNS}`,
      )
      .all(now, now - receiptWaitMs);
  },

  async pauseOnErrorCap(connection, campaignId, cap, now = Date.now()) {
    const row = sqliteOf(connection)
      .prepare<unknown[], CampaignRow>(
        `UPDATE "Campaign" SET "status" = 'Paused', "updatedAt" = ?,
           "statusDetail" = 'Paused after ' || "sendErrors" || ' send errors: check the delivery settings, then resume.'
         WHERE "id" = ? AND "status" = 'Active' AND "sendErrors" >= ?
         RETURNING ${CAMPAIGN_COLUMNS}`,
      )
      .get(now, campaignId, cap);
    return row ?? null;
  },

  async pauseSending(connection, campaignId, detail, now = Date.now()) {
    const row = sqliteOf(connection)
      .prepare<unknown[], CampaignRow>(
        `UPDATE "Campaign" SET "status" = 'Paused', "updatedAt" = ?, "statusDetail" = ?
         WHERE "id" = ? AND "status" = 'Active'
         RETURNING ${CAMPAIGN_COLUMNS}`,
      )
      .get(now, detail, campaignId);
    return row ?? null;
  },

  async recountCampaign(connection, campaignId) {
    sqliteOf(connection)
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
  },

  // --- Who a campaign reached (the request thread's read connection) ---------------------------

  async campaignPeopleSlice(userId, campaign, who, after, limit) {
    const unsubscribed = who === "unsubscribers" ? UNSUBSCRIBED_AT("?") : "NULL";
    return readStatement<CampaignPersonRow>(
      `SELECT * FROM (SELECT ${PERSON_COLUMNS}, ${unsubscribed} AS "unsubscribedAt" FROM "Delivery" d
         WHERE d."seq" > ? AND d."seq" <= ? AND d."campaignId" = ?) d
       WHERE ${PEOPLE_WHERE[who]} ORDER BY d."seq" LIMIT ${Math.trunc(limit)}`,
    ).all(...(who === "unsubscribers" ? [userId] : []), after, campaign.lastSeq, campaign.id);
  },

  async unsubscribeCounts(userId, campaignIds) {
    if (campaignIds.length === 0) return new Map();
    const rows = readStatement<{ campaignId: string; n: number }>(
      `SELECT "campaignId", count(DISTINCT "email") AS "n" FROM "SuppressionEvent"
       WHERE "userId" = ? AND "action" = 'suppressed' AND "reason" = 'unsubscribed'
         AND "campaignId" IN (SELECT "value" FROM json_each(?))
       GROUP BY "campaignId"`,
    ).all(userId, JSON.stringify(campaignIds));
    return new Map(rows.map((r) => [r.campaignId, Number(r.n)]));
  },
};
