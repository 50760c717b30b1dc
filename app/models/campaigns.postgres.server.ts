// The campaign as stored, on PostgreSQL: the twins of ./campaigns.server.ts, with the same names,
// parameters and answers, each taking the pool (or, inside a transaction, its client) first.
//
// Rows come back as the SQLite side gives them: dates as unix milliseconds (the pool's parsers),
// trackingEnabled as 0/1. Each write is one transaction that changes the counters with the rows;
// a control reads the campaign FOR UPDATE, so two controls of one campaign take turns.
import type pg from "pg";
import { type Postgres, type Queryable, query, transaction } from "~/db/postgres.server";
import type { CampaignRow, NewCampaign, SendingCampaign } from "~/models/campaigns.server";
import { resendValue, trackingValue } from "~/models/campaigns.server";
import { deleteDeliverySlice } from "~/models/deliveries/launch.postgres.server";
import { LAUNCH_SLICE, LAUNCHING } from "~/models/deliveries/launch.server";
import {
  noteStatuses,
  SEND_CHECK_MAX_AGE_MS,
  statusReader,
  waitForSenders,
} from "~/models/deliveries/send-checks.postgres.server";

/** The columns of a whole CampaignRow, as the SQLite side reads them (trackingEnabled as 0/1). */
export const PG_CAMPAIGN_COLUMNS = `"id", "userId", "segmentId", "segmentName", "name", "subject", "description", "message", "status",
  "statusDetail", "audienceSize", "pendingCount", "sentCount", "deliveredCount", "failedCount", "bouncedCount", "cancelledCount",
  "suppressedCount", "openedCount", "clickedCount", "sendErrors", "launchedAt", "completedAt", "createdAt", "updatedAt", "firstSeq",
  "lastSeq", "suppressedAtLaunch", "complainedCount", "trackingEnabled"::int AS "trackingEnabled", "opensTotal", "clicksTotal",
  "machineOpenCount", "machineClickCount", "softBounceCount", "resendOfId"`;

const at = (ms: number) => new Date(ms);

// --- Reads of the list and the detail -----------------------------------------------------------

export async function findCampaignRowPg(pg: Postgres, userId: string, id: string): Promise<CampaignRow | null> {
  const [row] = await query<CampaignRow>(
    pg,
    `SELECT ${PG_CAMPAIGN_COLUMNS} FROM "Campaign" WHERE "id" = $1 AND "userId" = $2`,
    [id, userId],
  );
  return row ?? null;
}

export async function findCampaignRowByIdPg(pg: Postgres, id: string): Promise<CampaignRow | null> {
  const [row] = await query<CampaignRow>(pg, `SELECT ${PG_CAMPAIGN_COLUMNS} FROM "Campaign" WHERE "id" = $1`, [id]);
  return row ?? null;
}

export async function campaignStatePg(
  pg: Postgres,
  userId: string,
  id: string,
): Promise<{ status: string; statusDetail: string } | null> {
  const [row] = await query<{ status: string; statusDetail: string }>(
    pg,
    `SELECT "status", "statusDetail" FROM "Campaign" WHERE "id" = $1 AND "userId" = $2`,
    [id, userId],
  );
  return row ?? null;
}

export async function listCampaignRowsPg(
  pg: Postgres,
  userId: string,
  limit: number,
  after: { createdAt: number; id: string } | null,
): Promise<CampaignRow[]> {
  return after
    ? query<CampaignRow>(
        pg,
        `SELECT ${PG_CAMPAIGN_COLUMNS} FROM "Campaign" WHERE "userId" = $1 AND ("createdAt", "id" COLLATE "C") < ($2, $3)
         ORDER BY "createdAt" DESC, "id" COLLATE "C" DESC LIMIT $4`,
        [userId, at(after.createdAt), after.id, limit],
      )
    : query<CampaignRow>(
        pg,
        `SELECT ${PG_CAMPAIGN_COLUMNS} FROM "Campaign" WHERE "userId" = $1 ORDER BY "createdAt" DESC, "id" COLLATE "C" DESC LIMIT $2`,
        [userId, limit],
      );
}

export async function campaignTotalsOfPg(
  pg: Postgres,
  userId: string,
): Promise<{ campaigns: number; audience: number; segments: number }> {
  const [row] = await query<{ campaigns: number; audience: number; segments: number }>(
    pg,
    `SELECT count(*)::int AS "campaigns", coalesce(sum("audienceSize"), 0)::bigint AS "audience",
       count(DISTINCT "segmentId")::int AS "segments"
     FROM "Campaign" WHERE "userId" = $1`,
    [userId],
  );
  return row ?? { campaigns: 0, audience: 0, segments: 0 };
}

// --- Drafts -------------------------------------------------------------------------------------

/** The INSERT of a new Campaign row as a draft, inside the caller's transaction. */
export async function writeDraftRowPg(
  client: Queryable,
  c: NewCampaign,
  audienceSize: number,
  statusDetail: string,
  now: number,
): Promise<void> {
  await query(
    client,
    `INSERT INTO "Campaign" ("id", "userId", "segmentId", "segmentName", "name", "subject", "description", "message", "status",
       "statusDetail", "audienceSize", "createdAt", "updatedAt", "trackingEnabled", "resendOfId")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'Draft', $9, $10, $11, $11, $12, $13)`,
    [
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
      at(now),
      trackingValue(c) === 1,
      resendValue(c),
    ],
  );
}

export async function insertDraftPg(pg: Postgres, c: NewCampaign, audienceSize: number, now: number): Promise<void> {
  await writeDraftRowPg(pg.pool, c, audienceSize, "", now);
}

export async function updateDraftPg(pg: Postgres, c: NewCampaign, audienceSize: number, now: number): Promise<boolean> {
  const result = await pg.pool.query(
    `UPDATE "Campaign" SET "segmentId" = $1, "segmentName" = $2, "name" = $3, "subject" = $4, "description" = $5, "message" = $6,
       "trackingEnabled" = $7, "resendOfId" = $8, "audienceSize" = $9, "updatedAt" = $10
     WHERE "id" = $11 AND "userId" = $12 AND "status" = 'Draft' AND "statusDetail" != $13`,
    [
      c.segmentId,
      c.segmentName,
      c.name,
      c.subject,
      c.description,
      c.message,
      trackingValue(c) === 1,
      resendValue(c),
      audienceSize,
      at(now),
      c.id,
      c.userId,
      LAUNCHING,
    ],
  );
  return result.rowCount === 1;
}

// --- The controls -------------------------------------------------------------------------------

/** The status of the tenant's campaign, locked for the caller's transaction (undefined: not theirs). */
async function ownCampaignStatus(client: pg.PoolClient, userId: string, id: string) {
  const [row] = await query<{ status: string }>(
    client,
    `SELECT "status" FROM "Campaign" WHERE "id" = $1 AND "userId" = $2 FOR UPDATE`,
    [id, userId],
  );
  return row;
}

export async function setCampaignStatusPg(
  pg: Postgres,
  userId: string,
  id: string,
  to: "Active" | "Paused" | "Cancelled",
  from: readonly string[],
): Promise<{ before: string; changed: boolean } | null> {
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
}

export async function requeueFailedDeliveriesPg(
  pg: Postgres,
  userId: string,
  id: string,
): Promise<number | { refused: string } | null> {
  return transaction(pg, async (client) => {
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
}

export async function deleteCampaignAndLogPg(pg: Postgres, userId: string, id: string): Promise<boolean> {
  // Its opens, clicks and reports, then its rows, a slice a statement: no transaction holds
  // thousands of row locks for long, however large the campaign.
  const slice = async (sql: string) => (await pg.pool.query(sql, [id])).rowCount ?? 0;
  while (
    (await slice(
      `DELETE FROM "DeliveryEvent" WHERE "id" IN (SELECT "id" FROM "DeliveryEvent" WHERE "campaignId" = $1 LIMIT ${LAUNCH_SLICE})`,
    )) > 0
  );
  while ((await slice(deleteDeliverySlice())) > 0);
  const deleted = await pg.pool.query(`DELETE FROM "Campaign" WHERE "id" = $1 AND "userId" = $2`, [id, userId]);
  return (deleted.rowCount ?? 0) > 0;
}

// --- The delivery job's reads and writes --------------------------------------------------------

export async function sendingCampaignsPg(pg: Postgres): Promise<SendingCampaign[]> {
  const startedAt = performance.now();
  const rows = await query<SendingCampaign>(
    pg,
    `SELECT "id", "userId", "subject", "message", "sendErrors", "trackingEnabled"::int AS "trackingEnabled"
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

export async function campaignStatusReaderPg(pg: Postgres): Promise<(campaignId: string) => string | null> {
  await sendingCampaignsPg(pg);
  return statusReader(pg);
}

export async function completeFinishedPg(pg: Postgres, receiptWaitMs: number, now: number): Promise<CampaignRow[]> {
  return query<CampaignRow>(
    pg,
    `UPDATE "Campaign" SET "status" = 'Completed', "completedAt" = $1, "statusDetail" = ''
     WHERE "status" = 'Active' AND "pendingCount" = 0 AND ("sentCount" = 0 OR "updatedAt" <= $2)
     RETURNING ${PG_CAMPAIGN_COLUMNS}`,
    [at(now), at(now - receiptWaitMs)],
  );
}

export async function pauseOnErrorCapPg(
  pg: Postgres,
  campaignId: string,
  cap: number,
  now: number,
): Promise<CampaignRow | null> {
  const startedAt = performance.now();
  const [row] = await query<CampaignRow>(
    pg,
    `UPDATE "Campaign" SET "status" = 'Paused', "updatedAt" = $1,
       "statusDetail" = 'Paused after ' || "sendErrors" || ' send errors: check the delivery settings, then resume.'
     WHERE "id" = $2 AND "status" = 'Active' AND "sendErrors" >= $3
     RETURNING ${PG_CAMPAIGN_COLUMNS}`,
    [at(now), campaignId, cap],
  );
  // This engine stops at once: its own messages after this one are held.
  if (row) noteStatuses(pg, [{ id: campaignId, status: "Paused" }], startedAt);
  return row ?? null;
}

export async function pauseSendingPg(
  pg: Postgres,
  campaignId: string,
  detail: string,
  now: number,
): Promise<CampaignRow | null> {
  const startedAt = performance.now();
  const [row] = await query<CampaignRow>(
    pg,
    `UPDATE "Campaign" SET "status" = 'Paused', "updatedAt" = $1, "statusDetail" = $2
     WHERE "id" = $3 AND "status" = 'Active'
     RETURNING ${PG_CAMPAIGN_COLUMNS}`,
    [at(now), detail, campaignId],
  );
  // This engine stops at once: its own messages after this one are held.
  if (row) noteStatuses(pg, [{ id: campaignId, status: "Paused" }], startedAt);
  return row ?? null;
}

export async function recountCampaignPg(pg: Postgres | Queryable, campaignId: string): Promise<void> {
  await query(
    pg,
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
}
