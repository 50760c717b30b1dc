// The campaigns domain on PostgreSQL (./contract.ts says what each function does): the same
// names, parameters and answers as ./sqlite.server.ts, on the connection given, else on the
// process's pool.
//
// Rows come back as the SQLite side gives them: dates as unix milliseconds (the pool's parsers),
// trackingEnabled as 0/1. Each write is one transaction that changes the counters with the rows;
// a control reads the campaign FOR UPDATE, so two controls of one campaign take turns.
import type pg from "pg";
import type { AnyConnection } from "~/db/connection.server";
import { postgresOf } from "~/db/engine.server";
import { type Postgres, postgres, query, transaction } from "~/db/postgres.server";
import type { CampaignsStore } from "~/models/campaigns/contract";
import {
  CAMPAIGN_COLUMNS_PG,
  type CampaignPersonRow,
  type CampaignRow,
  type CampaignState,
  type CampaignTotals,
  CONTENT_SET,
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
import {
  noteStatuses,
  SEND_CHECK_MAX_AGE_MS,
  statusReader,
  waitForSenders,
} from "~/models/deliveries/send-checks.postgres.server";
import { deleteDeliverySlice, LAUNCHING } from "~/models/launch/rows";

/** The columns of a whole CampaignRow, as the SQLite side reads them (trackingEnabled as 0/1). */

const DELETE_EVENT_SLICE = deleteEventSlice("$1");
const DELETE_DELIVERY_SLICE = deleteDeliverySlice("$1");
const INSERT_DRAFT = INSERT_DRAFT_SQL((n) => `$${n}`);
const SET_SCHEDULE = SET_SCHEDULE_SQL((n) => `$${n}`);
const DUE_SCHEDULED = DUE_SCHEDULED_SQL((n) => `$${n}`, CAMPAIGN_COLUMNS_PG);

const at = (ms: number) => new Date(ms);

/** The connection given, else the process's pool. */
const on = (connection?: AnyConnection): Postgres => (connection ? postgresOf(connection) : postgres());

/** The status of the tenant's campaign, locked for the caller's transaction (undefined: not theirs). */
async function ownCampaignStatus(client: pg.PoolClient, userId: string, id: string) {
  const [row] = await query<{ status: string }>(
    client,
    `SELECT "status" FROM "Campaign" WHERE "id" = $1 AND "userId" = $2 FOR UPDATE`,
    [id, userId],
  );
  return row;
}

/** Campaigns the delivery job should work on now, noted as the engine's freshest word on which may send. */
async function sendingCampaigns(pg: Postgres): Promise<SendingCampaign[]> {
  const startedAt = performance.now();
  const rows = await query<SendingCampaign>(
    pg,
    `SELECT "id", "userId", "subject", "message", "sendErrors", "trackingEnabled"::int AS "trackingEnabled", "design"
     FROM "Campaign" WHERE "status" = 'Active' ORDER BY "launchedAt", "id" COLLATE "C"`,
  );
  // Each round's read is also the engine's freshest word on which campaigns may send.
  noteStatuses(
    pg,
    rows.map((r) => ({ id: r.id, status: "Active" })),
    startedAt,
    true,
  );
  return rows;
}

export const postgresCampaigns: CampaignsStore = {
  // --- Reads of the list and the detail --------------------------------------------------------

  async findCampaignRow(userId, id) {
    const [row] = await query<CampaignRow>(
      postgres(),
      `SELECT ${CAMPAIGN_COLUMNS_PG} FROM "Campaign" WHERE "id" = $1 AND "userId" = $2`,
      [id, userId],
    );
    return row ?? null;
  },

  async findCampaignRowById(id) {
    const [row] = await query<CampaignRow>(
      postgres(),
      `SELECT ${CAMPAIGN_COLUMNS_PG} FROM "Campaign" WHERE "id" = $1`,
      [id],
    );
    return row ?? null;
  },

  async campaignState(userId, id) {
    const [row] = await query<CampaignState>(
      postgres(),
      `SELECT "status", "statusDetail", "scheduledAt" FROM "Campaign" WHERE "id" = $1 AND "userId" = $2`,
      [id, userId],
    );
    return row ?? null;
  },

  async listCampaignRows(userId, limit, after) {
    return after
      ? query<CampaignRow>(
          postgres(),
          `SELECT ${CAMPAIGN_COLUMNS_PG} FROM "Campaign" WHERE "flowId" IS NULL AND "userId" = $1 AND ("createdAt", "id" COLLATE "C") < ($2, $3)
           ORDER BY "createdAt" DESC, "id" COLLATE "C" DESC LIMIT $4`,
          [userId, at(after.createdAt), after.id, limit],
        )
      : query<CampaignRow>(
          postgres(),
          `SELECT ${CAMPAIGN_COLUMNS_PG} FROM "Campaign" WHERE "flowId" IS NULL AND "userId" = $1 ORDER BY "createdAt" DESC, "id" COLLATE "C" DESC LIMIT $2`,
          [userId, limit],
        );
  },

  async campaignTotalsOf(userId) {
    const [row] = await query<CampaignTotals>(
      postgres(),
      `SELECT count(*)::int AS "campaigns", coalesce(sum("audienceSize"), 0)::bigint AS "audience",
         count(DISTINCT "segmentId")::int AS "segments"
       FROM "Campaign" WHERE "flowId" IS NULL AND "userId" = $1`,
      [userId],
    );
    return row ?? { campaigns: 0, audience: 0, segments: 0 };
  },

  // --- Drafts ----------------------------------------------------------------------------------

  async insertDraft(c, audienceSize, now = Date.now()) {
    await query(postgres().pool, INSERT_DRAFT, [
      ...draftValues(c),
      "",
      audienceSize,
      at(now),
      trackingValue(c) === 1,
      resendValue(c),
    ]);
  },

  async updateDraft(c, audienceSize, now = Date.now()) {
    const result = await postgres().pool.query(
      `UPDATE "Campaign" SET ${CONTENT_SET((n) => `$${n}`, 1)},
         "trackingEnabled" = $9, "resendOfId" = $10, "audienceSize" = $11, "updatedAt" = $12, "scheduledAt" = NULL
       WHERE "id" = $13 AND "userId" = $14 AND "status" = 'Draft' AND "statusDetail" != $15`,
      [...contentValues(c), trackingValue(c) === 1, resendValue(c), audienceSize, at(now), c.id, c.userId, LAUNCHING],
    );
    return result.rowCount === 1;
  },

  // --- Schedules -------------------------------------------------------------------------------

  async setSchedule(userId, id, when, detail, now = Date.now()) {
    const result = await postgres().pool.query(SET_SCHEDULE, [
      when === null ? null : at(when),
      detail,
      at(now),
      id,
      userId,
      LAUNCHING,
    ]);
    return result.rowCount === 1;
  },

  async dueScheduled(now, limit) {
    return query<CampaignRow>(postgres(), DUE_SCHEDULED, [at(now), LAUNCHING, limit]);
  },

  // --- The controls ----------------------------------------------------------------------------

  async setCampaignStatus(userId, id, to, from, connection) {
    const pg = on(connection);
    const result = await transaction(pg, async (client) => {
      const row = await ownCampaignStatus(client, userId, id);
      // Read once the row is locked: a wait for another control must not date the change earlier.
      const now = Date.now();
      if (!row) return null;
      if (!from.includes(row.status)) return { before: row.status, changed: false };
      await client.query(
        `UPDATE "Campaign" SET "status" = $1, "statusDetail" = '', "updatedAt" = $2,
           "sendErrors" = CASE WHEN $1 = 'Active' THEN 0 ELSE "sendErrors" END WHERE "id" = $3`,
        [to, at(now), id],
      );
      if (to === "Active") {
        // Rows waiting for a retry or a lease when the campaign was paused are due again, once every
        // engine that may still hold a lease on one has seen its lease taken (send-checks).
        await client.query(
          `UPDATE "Delivery" SET "nextAttemptAt" = $1 WHERE "campaignId" = $2 AND "status" = 'pending' AND "nextAttemptAt" > $1`,
          [now + SEND_CHECK_MAX_AGE_MS, id],
        );
      }
      return { before: row.status, changed: true };
    });
    // A pause or cancel answers once no engine still sends on the status it had.
    if (result?.changed && to !== "Active") {
      noteStatuses(pg, [{ id, status: to }], performance.now());
      await waitForSenders();
    }
    return result;
  },

  async requeueFailedDeliveries(userId, id, connection) {
    return transaction(on(connection), async (client) => {
      const row = await ownCampaignStatus(client, userId, id);
      const now = Date.now();
      if (!row) return null;
      if (row.status === "Draft" || row.status === "Cancelled") return { refused: row.status };
      const queued =
        (
          await client.query(
            `UPDATE "Delivery" SET "status" = 'pending', "attempts" = 0, "retries" = "retries" + 1, "nextAttemptAt" = $1,
               "details" = '', "updatedAt" = $1
             WHERE "campaignId" = $2 AND "status" = 'failed'`,
            [now, id],
          )
        ).rowCount ?? 0;
      if (queued > 0) {
        await client.query(
          `UPDATE "Campaign" SET "failedCount" = "failedCount" - $1, "pendingCount" = "pendingCount" + $1, "sendErrors" = 0,
             "status" = CASE WHEN "status" = 'Paused' THEN 'Paused' ELSE 'Active' END, "statusDetail" = '',
             "completedAt" = NULL, "updatedAt" = $2
           WHERE "id" = $3`,
          [queued, at(now), id],
        );
      }
      return queued;
    });
  },

  async deleteCampaignAndLog(userId, id) {
    const pg = postgres();
    // Its opens, clicks and reports, then its rows, a slice a statement: no transaction holds
    // thousands of row locks for long, however large the campaign.
    const slice = async (sql: string) => (await pg.pool.query(sql, [id])).rowCount ?? 0;
    while ((await slice(DELETE_EVENT_SLICE)) > 0);
    while ((await slice(DELETE_DELIVERY_SLICE)) > 0);
    const deleted = await pg.pool.query(`DELETE FROM "Campaign" WHERE "id" = $1 AND "userId" = $2`, [id, userId]);
    return (deleted.rowCount ?? 0) > 0;
  },

  // --- The delivery job's reads and writes -----------------------------------------------------

  async sendingCampaigns(connection) {
    return sendingCampaigns(postgresOf(connection));
  },

  async campaignStatusReader(connection) {
    const pg = postgresOf(connection);
    await sendingCampaigns(pg);
    return statusReader(pg);
  },

  async completeFinished(connection, receiptWaitMs, now = Date.now()) {
    return query<CampaignRow>(
      postgresOf(connection),
      `UPDATE "Campaign" SET "status" = 'Completed', "completedAt" = $1, "statusDetail" = ''
       WHERE "status" = 'Active' AND "flowId" IS NULL AND "pendingCount" = 0 AND ("sentCount" = 0 OR "updatedAt" <= $2)
       RETURNING ${CAMPAIGN_COLUMNS_PG}`,
      [at(now), at(now - receiptWaitMs)],
    );
  },

  async pauseOnErrorCap(connection, campaignId, cap, now = Date.now()) {
    const pg = postgresOf(connection);
    const startedAt = performance.now();
    const [row] = await query<CampaignRow>(
      pg,
      `UPDATE "Campaign" SET "status" = 'Paused', "updatedAt" = $1,
         "statusDetail" = 'Paused after ' || "sendErrors" || ' send errors: check the delivery settings, then resume.'
       WHERE "id" = $2 AND "status" = 'Active' AND "sendErrors" >= $3
       RETURNING ${CAMPAIGN_COLUMNS_PG}`,
      [at(now), campaignId, cap],
    );
    // This engine stops at once: its own messages after this one are held.
    if (row) noteStatuses(pg, [{ id: campaignId, status: "Paused" }], startedAt);
    return row ?? null;
  },

  async pauseSending(connection, campaignId, detail, now = Date.now()) {
    const pg = postgresOf(connection);
    const startedAt = performance.now();
    const [row] = await query<CampaignRow>(
      pg,
      `UPDATE "Campaign" SET "status" = 'Paused', "updatedAt" = $1, "statusDetail" = $2
       WHERE "id" = $3 AND "status" = 'Active'
       RETURNING ${CAMPAIGN_COLUMNS_PG}`,
      [at(now), detail, campaignId],
    );
    // This engine stops at once: its own messages after this one are held.
    if (row) noteStatuses(pg, [{ id: campaignId, status: "Paused" }], startedAt);
    return row ?? null;
  },

  async recountCampaign(connection, campaignId) {
    await query(
      postgresOf(connection),
      `UPDATE "Campaign" SET
         "pendingCount" = "c"."pending", "sentCount" = "c"."sent", "deliveredCount" = "c"."delivered",
         "failedCount" = "c"."failed", "bouncedCount" = "c"."bounced", "complainedCount" = "c"."complained",
         "cancelledCount" = "c"."cancelled", "suppressedCount" = "c"."suppressed",
         "openedCount" = "c"."opened", "clickedCount" = "c"."clicked",
         -- Rows written in bulk have no events: each first open and click is all there is to count.
         "opensTotal" = GREATEST("opensTotal", "c"."opened"), "clicksTotal" = GREATEST("clicksTotal", "c"."clicked")
       FROM (
         SELECT count(*) FILTER (WHERE "status" = 'pending') AS "pending",
           count(*) FILTER (WHERE "status" = 'sent') AS "sent",
           count(*) FILTER (WHERE "status" = 'delivered') AS "delivered",
           count(*) FILTER (WHERE "status" = 'failed') AS "failed",
           count(*) FILTER (WHERE "status" = 'bounced') AS "bounced",
           count(*) FILTER (WHERE "status" = 'complained') AS "complained",
           count(*) FILTER (WHERE "status" = 'cancelled') AS "cancelled",
           count(*) FILTER (WHERE "status" = 'suppressed') AS "suppressed",
           count("openedAt") AS "opened", count("clickedAt") AS "clicked"
         FROM "Delivery" WHERE "campaignId" = $1
       ) "c"
       WHERE "id" = $1`,
      [campaignId],
    );
  },

  // --- Who a campaign reached (the process's pool) ---------------------------------------------

  async campaignPeopleSlice(userId, campaign, who, after, limit) {
    const unsubscribed = who === "unsubscribers" ? UNSUBSCRIBED_AT("$5") : "NULL::timestamp(3)";
    return query<CampaignPersonRow>(
      postgres(),
      `SELECT * FROM (SELECT ${PERSON_COLUMNS}, ${unsubscribed} AS "unsubscribedAt" FROM "Delivery" d
         WHERE d."seq" > $1 AND d."seq" <= $2 AND d."campaignId" = $3) d
       WHERE ${PEOPLE_WHERE[who]} ORDER BY d."seq" LIMIT $4`,
      [after, campaign.lastSeq, campaign.id, Math.trunc(limit), ...(who === "unsubscribers" ? [userId] : [])],
    );
  },

  async unsubscribeCounts(userId, campaignIds) {
    if (campaignIds.length === 0) return new Map();
    const rows = await query<{ campaignId: string; n: number }>(
      postgres(),
      `SELECT "campaignId", count(DISTINCT "email")::int AS "n" FROM "SuppressionEvent"
       WHERE "userId" = $1 AND "action" = 'suppressed' AND "reason" = 'unsubscribed' AND "campaignId" = ANY($2::text[])
       GROUP BY "campaignId"`,
      [userId, [...campaignIds]],
    );
    return new Map(rows.map((r) => [r.campaignId, Number(r.n)]));
  },
};
