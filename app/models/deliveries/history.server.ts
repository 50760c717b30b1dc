// Rows written again or in bulk outside a send: a seeded history of finished campaigns (`crm seed
// --campaigns N`, whose bounces suppress their addresses as real ones do) and the CLI's replay of
// rows to the channel (`crm deliveries replay`). Both run on a connection of the CLI's own.
//
// On PostgreSQL each function runs its twin in ./history.postgres.server.ts (decision 0033).
import { type AnyConnection, databaseEngine, isPostgres } from "~/db/connection.server";
import type { Sqlite } from "~/db/sqlite.server";
import { recountCampaign } from "~/models/campaigns.server";
import {
  finishSeededCampaignPg,
  randomShareWherePg,
  replayDeliveriesPg,
  segmentsForHistoryPg,
} from "~/models/deliveries/history.postgres.server";
import type { CompiledWhere } from "~/models/segments/compile.server";

type Connection = Sqlite;

/** A segment a seeded campaign can be sent to. */
export type HistorySegment = { id: string; name: string; conditions: string };

/** The audience of a seeded campaign without a segment: a random share of the tenant's customers. */
export function randomShareWhere(userId: string, percent: number): CompiledWhere {
  if (databaseEngine() === "postgres") return randomShareWherePg(userId, percent);
  return { sql: `"userId" = ? AND (abs(random()) % 100) < ?`, params: [userId, percent] };
}

/** The tenant's segments, oldest first. */
export async function segmentsForHistory(sqlite: AnyConnection, userId: string): Promise<HistorySegment[]> {
  if (isPostgres(sqlite)) return segmentsForHistoryPg(sqlite, userId);
  return sqlite
    .prepare<unknown[], HistorySegment>(
      `SELECT "id", "name", "conditions" FROM "Segment" WHERE "userId" = ? ORDER BY "createdAt"`,
    )
    .all(userId);
}

/**
 * Finishes a launched campaign's rows as if it had been sent and its receipts had come back, from
 * a hash of each row: below `deliveredBelow` (of 100) delivered, below `failedBelow` failed, the
 * rest bounced; below `openedBelow` of the delivered opened, a quarter of those clicked. Then sets
 * its counters and completes it an hour after `launchedAt`.
 */
export async function finishSeededCampaign(
  sqlite: AnyConnection,
  campaignId: string,
  launchedAt: number,
  shares: { deliveredBelow: number; failedBelow: number; openedBelow: number },
): Promise<void> {
  if (isPostgres(sqlite)) return finishSeededCampaignPg(sqlite, campaignId, launchedAt, shares);
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
  await recountCampaign(sqlite, campaignId);
  sqlite
    .prepare(`UPDATE "Campaign" SET "status" = 'Completed', "completedAt" = ?, "updatedAt" = ? WHERE "id" = ?`)
    .run(launchedAt + 3_600_000, launchedAt + 3_600_000, campaignId);
  suppressSeededBounces(sqlite, campaignId);
}

/**
 * A seeded bounce is a bounce: its address goes on the tenant's suppression list as hard-bounced
 * with the campaign, dated when it bounced, and the address's history says so, as the send does
 * (app/models/deliveries/outcomes.server.ts). Two INSERT … SELECTs in one transaction; an address
 * on the list already keeps its entry and gets no event. Later seeded campaigns leave it out.
 */
function suppressSeededBounces(sqlite: Connection, campaignId: string): void {
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

/**
 * Puts rows of a campaign back in the queue to be sent again under their own delivery ids (the
 * channel's idempotency keys): the CLI's `crm deliveries replay`. A vendor that already accepted a
 * key answers "duplicate" and sends nothing twice. Returns how many rows were (or, with dryRun,
 * would be) queued. Their details are cleared, as a retry of failed rows clears them: a pending row
 * with details reads as "Deferred" (waiting after a temporary answer), which a replayed row is not.
 */
export async function replayDeliveries(
  sqlite: AnyConnection,
  campaignId: string,
  status: "failed" | "bounced" | "sent",
  dryRun: boolean,
  now = Date.now(),
): Promise<number> {
  if (isPostgres(sqlite)) return replayDeliveriesPg(sqlite, campaignId, status, dryRun, now);
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
        const column = ({ failed: "failedCount", bounced: "bouncedCount", sent: "sentCount" } as const)[status];
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
}
