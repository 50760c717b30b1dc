// Rows written again or in bulk outside a send, on PostgreSQL: the twins of ./history.server.ts.
import { type Postgres, query, transaction } from "~/db/postgres.server";
import type { CompiledWhere } from "~/models/segments/compile.server";
import { recountCampaignPg } from "~/models/campaigns.postgres.server";
import type { HistorySegment } from "~/models/deliveries/history.server";

/** A random share of the tenant's customers ($1 the tenant, $2 the percentage). */
export function randomShareWherePg(userId: string, percent: number): CompiledWhere {
  return { sql: `"userId" = $1 AND random() * 100 < $2`, params: [userId, percent] };
}

export async function segmentsForHistoryPg(pg: Postgres, userId: string): Promise<HistorySegment[]> {
  return query<HistorySegment>(
    pg,
    `SELECT "id", "name", "conditions" FROM "Segment" WHERE "userId" = $1 ORDER BY "createdAt", "id" COLLATE "C"`,
    [userId],
  );
}

export async function finishSeededCampaignPg(
  pg: Postgres,
  campaignId: string,
  launchedAt: number,
  shares: { deliveredBelow: number; failedBelow: number; openedBelow: number },
): Promise<void> {
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
  await recountCampaignPg(pg, campaignId);
  const done = new Date(launchedAt + 3_600_000);
  await pg.pool.query(
    `UPDATE "Campaign" SET "status" = 'Completed', "completedAt" = $1, "updatedAt" = $1 WHERE "id" = $2`,
    [done, campaignId],
  );
  await suppressSeededBouncesPg(pg, campaignId);
}

/** A seeded bounce suppresses its address, as the send's do (two INSERT … SELECTs, one transaction). */
async function suppressSeededBouncesPg(pg: Postgres, campaignId: string): Promise<void> {
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

export async function replayDeliveriesPg(
  pg: Postgres,
  campaignId: string,
  status: "failed" | "bounced" | "sent",
  dryRun: boolean,
  now: number,
): Promise<number> {
  return transaction(pg, async (client) => {
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
      const column = ({ failed: "failedCount", bounced: "bouncedCount", sent: "sentCount" } as const)[status];
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
}
