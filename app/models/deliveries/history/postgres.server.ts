// What is on record of a campaign's deliveries, on PostgreSQL (the contract: ./contract.ts;
// SQLite's: ./sqlite.server.ts). The log and the clicks by link are read on the process's pool;
// the seeded history and replays are written on the connection of the CLI that asks.
import { postgresOf } from "~/db/engine.server";
import { type Postgres, postgres, query, transaction } from "~/db/postgres.server";
import { campaigns } from "~/models/campaigns/store.server";
import type { HistoryStore } from "./contract";
import { type HistorySegment, type LinkClicksRow, LOG_COLUMNS, type LogRow, REPLAYED_COUNTER } from "./rows";

/** A seeded bounce suppresses its address, as the send's do (two INSERT … SELECTs, one transaction). */
async function suppressSeededBounces(pg: Postgres, campaignId: string): Promise<void> {
  const bounced = `FROM "Delivery" "d" JOIN "Campaign" "c" ON "c"."id" = "d"."campaignId"
     WHERE "d"."campaignId" = $1 AND "d"."status" = 'bounced' AND "d"."email" <> ''
       AND NOT EXISTS (SELECT 1 FROM "Suppression" "s" WHERE "s"."userId" = "d"."userId" AND "s"."email" = lower("d"."email"))`;
  await transaction(pg, async (client) => {
    // Ids as newId makes them: the seconds of the bounce, then random hex.
    await client.query(
      `INSERT INTO "SuppressionEvent" ("id", "userId", "email", "action", "reason", "campaignId", "campaignName", "createdAt")
       SELECT lpad(to_hex("d"."updatedAt" / 1000), 8, '0') || substr(md5(random()::text || "d"."seq"), 1, 16), "d"."userId",
         lower("d"."email"), 'suppressed', 'hard-bounced', "d"."campaignId", "c"."name", to_timestamp("d"."updatedAt" / 1000.0)
       ${bounced}`,
      [campaignId],
    );
    // An address bounced by two rows of the campaign goes on the list once.
    await client.query(
      `INSERT INTO "Suppression" ("userId", "email", "reason", "campaignId", "campaignName", "details", "createdAt")
       SELECT "d"."userId", lower("d"."email"), 'hard-bounced', "d"."campaignId", "c"."name", "d"."details",
         to_timestamp("d"."updatedAt" / 1000.0)
       ${bounced}
       ON CONFLICT ("userId", "email") DO NOTHING`,
      [campaignId],
    );
  });
}

export const postgresHistory: HistoryStore = {
  async logRowsAfterSeq(after, lastSeq, limit) {
    return query<LogRow>(
      postgres(),
      `SELECT ${LOG_COLUMNS} FROM "Delivery" WHERE "seq" > $1 AND "seq" <= $2 ORDER BY "seq" LIMIT $3`,
      [after, lastSeq, limit],
    );
  },

  async logRowsOfStatus(campaignId, status, after, limit) {
    return query<LogRow>(
      postgres(),
      `SELECT ${LOG_COLUMNS} FROM "Delivery" WHERE "campaignId" = $1 AND "status" = $2 AND ("nextAttemptAt", "seq") > ($3, $4)
       ORDER BY "nextAttemptAt", "seq" LIMIT $5`,
      [campaignId, status, after[0], after[1], limit],
    );
  },

  async logRowsDeferred(campaignId, after, limit) {
    return query<LogRow>(
      postgres(),
      `SELECT ${LOG_COLUMNS} FROM "Delivery" WHERE "campaignId" = $1 AND "status" = 'pending' AND "details" <> ''
         AND ("nextAttemptAt", "seq") > ($2, $3)
       ORDER BY "nextAttemptAt", "seq" LIMIT $4`,
      [campaignId, after[0], after[1], limit],
    );
  },

  async countDeferred(campaignId) {
    const [row] = await query<{ n: number }>(
      postgres(),
      `SELECT count(*)::int AS "n" FROM "Delivery" WHERE "campaignId" = $1 AND "status" = 'pending' AND "details" <> ''`,
      [campaignId],
    );
    return Number(row?.n ?? 0);
  },

  async clicksByLink(userId, campaignId) {
    return query<LinkClicksRow>(
      postgres(),
      `SELECT "link",
              count(*) FILTER (WHERE NOT "machine")::int AS "clicks",
              count(DISTINCT "seq") FILTER (WHERE NOT "machine")::int AS "uniqueClicks",
              count(*) FILTER (WHERE "machine")::int AS "machineClicks"
       FROM "DeliveryEvent"
       WHERE "campaignId" = $1 AND "kind" = 'clicked' AND "link" IS NOT NULL AND "userId" = $2
       GROUP BY "link" ORDER BY "link"`,
      [campaignId, userId],
    );
  },

  /** A random share of the tenant's customers ($1 the tenant, $2 the percentage). */
  randomShareWhere(userId, percent) {
    return { sql: `"userId" = $1 AND random() * 100 < $2`, params: [userId, percent] };
  },

  async segmentsForHistory(connection, userId) {
    return query<HistorySegment>(
      postgresOf(connection),
      `SELECT "id", "name", "conditions" FROM "Segment" WHERE "userId" = $1 ORDER BY "createdAt", "id" COLLATE "C"`,
      [userId],
    );
  },

  async finishSeededCampaign(connection, campaignId, launchedAt, shares) {
    const pg = postgresOf(connection);
    // The same hashes of seq as on SQLite (bigint arithmetic: seq * 2654435761 passes 2^31).
    await pg.pool.query(
      `UPDATE "Delivery" SET
         "status" = CASE WHEN ("seq"::bigint * 2654435761) % 100 < $1 THEN 'delivered'
                         WHEN ("seq"::bigint * 2654435761) % 100 < $2 THEN 'failed' ELSE 'bounced' END,
         "attempts" = 1, "nextAttemptAt" = 0, "updatedAt" = $3::bigint + ("seq" % 3600) * 1000
       WHERE "campaignId" = $4`,
      [shares.deliveredBelow, shares.failedBelow, launchedAt, campaignId],
    );
    await pg.pool.query(
      `UPDATE "Delivery" SET "details" = CASE "status" WHEN 'failed' THEN '452 4.2.2 Mailbox full'
           WHEN 'bounced' THEN '550 5.1.1 The e-mail account does not exist' ELSE '' END,
         "openedAt" = CASE WHEN "status" = 'delivered' AND ("seq"::bigint * 40503) % 100 < $1 THEN "updatedAt" + 3600000 END
       WHERE "campaignId" = $2`,
      [shares.openedBelow, campaignId],
    );
    await pg.pool.query(
      `UPDATE "Delivery" SET "clickedAt" = "openedAt" + 600000
       WHERE "campaignId" = $1 AND "openedAt" IS NOT NULL AND ("seq"::bigint * 69069) % 100 < 25`,
      [campaignId],
    );
    // The recipients' last open and click, as the receipts' transaction keeps them.
    await pg.pool.query(
      `INSERT INTO "CustomerActivity" ("customerId", "userId", "lastOpenAt", "lastClickAt")
       SELECT d."customerId", d."userId", max(d."openedAt"), max(d."clickedAt") FROM "Delivery" d
       WHERE d."campaignId" = $1 AND d."openedAt" IS NOT NULL AND d."customerId" IN (SELECT "id" FROM "Customer")
       GROUP BY d."customerId", d."userId"
       ON CONFLICT ("customerId") DO UPDATE SET
         "lastOpenAt" = GREATEST("CustomerActivity"."lastOpenAt", excluded."lastOpenAt"),
         "lastClickAt" = GREATEST("CustomerActivity"."lastClickAt", excluded."lastClickAt")`,
      [campaignId],
    );
    await campaigns.recountCampaign(connection, campaignId);
    const done = new Date(launchedAt + 3_600_000);
    await pg.pool.query(
      `UPDATE "Campaign" SET "status" = 'Completed', "completedAt" = $1, "updatedAt" = $1 WHERE "id" = $2`,
      [done, campaignId],
    );
    await suppressSeededBounces(pg, campaignId);
  },

  async replayDeliveries(connection, campaignId, status, dryRun, now = Date.now()) {
    return transaction(postgresOf(connection), async (client) => {
      if (dryRun) {
        const [row] = await query<{ n: number }>(
          client,
          `SELECT count(*)::int AS "n" FROM "Delivery" WHERE "campaignId" = $1 AND "status" = $2`,
          [campaignId, status],
        );
        return Number(row?.n ?? 0);
      }
      const queued =
        (
          await client.query(
            `UPDATE "Delivery" SET "status" = 'pending', "attempts" = 0, "nextAttemptAt" = $1, "details" = '', "updatedAt" = $1
             WHERE "campaignId" = $2 AND "status" = $3`,
            [now, campaignId, status],
          )
        ).rowCount ?? 0;
      if (queued > 0) {
        const column = REPLAYED_COUNTER[status];
        await client.query(
          `UPDATE "Campaign" SET "${column}" = "${column}" - $1, "pendingCount" = "pendingCount" + $1, "sendErrors" = 0,
             "status" = CASE WHEN "status" IN ('Paused', 'Draft', 'Cancelled') THEN "status" ELSE 'Active' END,
             "completedAt" = NULL, "updatedAt" = $2
           WHERE "id" = $3`,
          [queued, new Date(now), campaignId],
        );
      }
      return queued;
    });
  },
};
