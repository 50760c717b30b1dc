// What is on record of a campaign's deliveries, on SQLite (the contract: ./contract.ts). The log
// and the clicks by link are read on the request thread's read connection; the seeded history and
// replays are written on the connection of the CLI that asks.
import { sqliteOf } from "~/db/engine.server";
import { readStatement } from "~/db/reader.server";
import type { Sqlite } from "~/db/sqlite.server";
import { campaigns } from "~/models/campaigns/store.server";
import type { HistoryStore } from "./contract";
import { type HistorySegment, type LinkClicksRow, LOG_COLUMNS, type LogRow, REPLAYED_COUNTER } from "./rows";

/**
 * A seeded bounce is a bounce: its address goes on the tenant's suppression list as hard-bounced
 * with the campaign, dated when it bounced, and the address's history says so, as the send does
 * (app/models/deliveries/receipts/). Two INSERT … SELECTs in one transaction; an address on the
 * list already keeps its entry and gets no event. Later seeded campaigns leave it out.
 */
function suppressSeededBounces(sqlite: Sqlite, campaignId: string): void {
  const bounced = `FROM "Delivery" "d" JOIN "Campaign" "c" ON "c"."id" = "d"."campaignId"
     WHERE "d"."campaignId" = ? AND "d"."status" = 'bounced' AND "d"."email" <> ''
       AND NOT EXISTS (SELECT 1 FROM "Suppression" "s" WHERE "s"."userId" = "d"."userId" AND "s"."email" = lower("d"."email"))`;
  sqlite
    .transaction(() => {
      // Ids as newId makes them: the seconds of the bounce, then random bytes.
      sqlite
        .prepare(
          `INSERT INTO "SuppressionEvent" ("id", "userId", "email", "action", "reason", "campaignId", "campaignName", "createdAt")
           SELECT printf('%08x', "d"."updatedAt" / 1000) || lower(hex(randomblob(8))), "d"."userId", lower("d"."email"),
             'suppressed', 'hard-bounced', "d"."campaignId", "c"."name", "d"."updatedAt"
           ${bounced}`,
        )
        .run(campaignId);
      sqlite
        .prepare(
          `INSERT INTO "Suppression" ("userId", "email", "reason", "campaignId", "campaignName", "details", "createdAt")
           SELECT "d"."userId", lower("d"."email"), 'hard-bounced', "d"."campaignId", "c"."name", "d"."details", "d"."updatedAt"
           ${bounced}`,
        )
        .run(campaignId);
    })
    .immediate();
}

export const sqliteHistory: HistoryStore = {
  async logRowsAfterSeq(after, lastSeq, limit) {
    return readStatement<LogRow>(
      `SELECT ${LOG_COLUMNS} FROM "Delivery" WHERE "seq" > ? AND "seq" <= ? ORDER BY "seq" LIMIT ${limit}`,
    ).all(after, lastSeq);
  },

  async logRowsOfStatus(campaignId, status, after, limit) {
    return readStatement<LogRow>(
      `SELECT ${LOG_COLUMNS} FROM "Delivery" WHERE "campaignId" = ? AND "status" = ? AND ("nextAttemptAt", "seq") > (?, ?)
       ORDER BY "nextAttemptAt", "seq" LIMIT ${limit}`,
    ).all(campaignId, status, after[0], after[1]);
  },

  async logRowsDeferred(campaignId, after, limit) {
    return readStatement<LogRow>(
      `SELECT ${LOG_COLUMNS} FROM "Delivery" WHERE "campaignId" = ? AND "status" = 'pending' AND "details" <> ''
         AND ("nextAttemptAt", "seq") > (?, ?)
       ORDER BY "nextAttemptAt", "seq" LIMIT ${limit}`,
    ).all(campaignId, after[0], after[1]);
  },

  async countDeferred(campaignId) {
    return Number(
      readStatement<number>(
        `SELECT count(*) FROM "Delivery" WHERE "campaignId" = ? AND "status" = 'pending' AND "details" <> ''`,
      )
        .pluck()
        .get(campaignId),
    );
  },

  async clicksByLink(userId, campaignId) {
    return readStatement<LinkClicksRow>(
      `SELECT "link",
              SUM(CASE WHEN "machine" THEN 0 ELSE 1 END) AS "clicks",
              COUNT(DISTINCT CASE WHEN "machine" THEN NULL ELSE "seq" END) AS "uniqueClicks",
              SUM(CASE WHEN "machine" THEN 1 ELSE 0 END) AS "machineClicks"
       FROM "DeliveryEvent"
       WHERE "campaignId" = ? AND "kind" = 'clicked' AND "link" IS NOT NULL AND "userId" = ?
       GROUP BY "link" ORDER BY "link"`,
    ).all(campaignId, userId);
  },

  randomShareWhere(userId, percent) {
    return { sql: `"userId" = ? AND (abs(random()) % 100) < ?`, params: [userId, percent] };
  },

  async segmentsForHistory(connection, userId) {
    return sqliteOf(connection)
      .prepare<unknown[], HistorySegment>(
        `SELECT "id", "name", "conditions" FROM "Segment" WHERE "userId" = ? ORDER BY "createdAt"`,
      )
      .all(userId);
  },

  async finishSeededCampaign(connection, campaignId, launchedAt, shares) {
    const sqlite = sqliteOf(connection);
    sqlite
      .prepare(
        `UPDATE "Delivery" SET
           "status" = CASE WHEN ("seq" * 2654435761) % 100 < ? THEN 'delivered' WHEN ("seq" * 2654435761) % 100 < ? THEN 'failed' ELSE 'bounced' END,
           "attempts" = 1, "nextAttemptAt" = 0, "updatedAt" = ? + ("seq" % 3600) * 1000
         WHERE "campaignId" = ?`,
      )
      .run(shares.deliveredBelow, shares.failedBelow, launchedAt, campaignId);
    sqlite
      .prepare(
        `UPDATE "Delivery" SET "details" = CASE "status" WHEN 'failed' THEN '452 4.2.2 Mailbox full' WHEN 'bounced' THEN '550 5.1.1 The e-mail account does not exist' ELSE '' END,
           "openedAt" = CASE WHEN "status" = 'delivered' AND ("seq" * 40503) % 100 < ? THEN "updatedAt" + 3600000 END
         WHERE "campaignId" = ?`,
      )
      .run(shares.openedBelow, campaignId);
    sqlite
      .prepare(
        `UPDATE "Delivery" SET "clickedAt" = "openedAt" + 600000 WHERE "campaignId" = ? AND "openedAt" IS NOT NULL AND ("seq" * 69069) % 100 < 25`,
      )
      .run(campaignId);
    // The recipients' last open and click, as the receipts' transaction keeps them.
    sqlite
      .prepare(
        `INSERT INTO "CustomerActivity" ("customerId", "userId", "lastOpenAt", "lastClickAt")
         SELECT d."customerId", d."userId", max(d."openedAt"), max(d."clickedAt") FROM "Delivery" d
         WHERE d."campaignId" = ? AND d."openedAt" IS NOT NULL AND d."customerId" IN (SELECT "id" FROM "Customer")
         GROUP BY d."customerId", d."userId"
         ON CONFLICT ("customerId") DO UPDATE SET
           "lastOpenAt" = max(coalesce("lastOpenAt", excluded."lastOpenAt"), coalesce(excluded."lastOpenAt", "lastOpenAt")),
           "lastClickAt" = max(coalesce("lastClickAt", excluded."lastClickAt"), coalesce(excluded."lastClickAt", "lastClickAt"))`,
      )
      .run(campaignId);
    await campaigns.recountCampaign(connection, campaignId);
    sqlite
      .prepare(`UPDATE "Campaign" SET "status" = 'Completed', "completedAt" = ?, "updatedAt" = ? WHERE "id" = ?`)
      .run(launchedAt + 3_600_000, launchedAt + 3_600_000, campaignId);
    suppressSeededBounces(sqlite, campaignId);
  },

  async replayDeliveries(connection, campaignId, status, dryRun, now = Date.now()) {
    const sqlite = sqliteOf(connection);
    return sqlite
      .transaction(() => {
        if (dryRun)
          return Number(
            sqlite
              .prepare<unknown[], number>(`SELECT count(*) FROM "Delivery" WHERE "campaignId" = ? AND "status" = ?`)
              .pluck()
              .get(campaignId, status),
          );
        const queued = sqlite
          .prepare(
            `UPDATE "Delivery" SET "status" = 'pending', "attempts" = 0, "nextAttemptAt" = ?, "details" = '', "updatedAt" = ?
             WHERE "campaignId" = ? AND "status" = ?`,
          )
          .run(now, now, campaignId, status).changes;
        if (queued > 0) {
          const column = REPLAYED_COUNTER[status];
          sqlite
            .prepare(
              `UPDATE "Campaign" SET "${column}" = "${column}" - ?, "pendingCount" = "pendingCount" + ?, "sendErrors" = 0,
                 "status" = CASE WHEN "status" IN ('Paused', 'Draft', 'Cancelled') THEN "status" ELSE 'Active' END, "completedAt" = NULL, "updatedAt" = ?
               WHERE "id" = ?`,
            )
            .run(queued, queued, now, campaignId);
        }
        return queued;
      })
      .immediate();
  },
};
