// The flows on SQLite: the clock's claim (one UPDATE … RETURNING; one writer at a time, so no two
// clocks take one entry) and the send step's delivery row (its seq the next after every row and
// every launch's reserved range, read under the step transaction's write lock).
import { db } from "~/db/prisma.server";
import { commonFlows } from "./common.server";
import type { FlowsStore } from "./contract";
import { CLAIM_COLUMNS, type ClaimRow, claimedEntry, STEP_CAMPAIGN_GROWS } from "./claim-rows";

export const sqliteFlows: FlowsStore = {
  ...commonFlows,

  async claimDue(now, limit, leaseMs) {
    const rows = await db().$queryRawUnsafe<ClaimRow[]>(
      `UPDATE "FlowEntry" SET "dueAt" = ?, "claims" = "claims" + 1
       WHERE "id" IN (SELECT "e"."id" FROM "FlowEntry" "e" JOIN "Flow" "f" ON "f"."id" = "e"."flowId"
                      WHERE "e"."state" = 'active' AND "e"."dueAt" <= ? AND "f"."status" = 'live'
                      ORDER BY "e"."dueAt" LIMIT ?)
       RETURNING ${CLAIM_COLUMNS}`,
      now + leaseMs,
      now,
      limit,
    );
    return rows.map(claimedEntry);
  },

  async appendStepDelivery(campaignId, userId, customerId, now, tx) {
    const [row] = await tx.$queryRawUnsafe<{ seq: number | bigint }[]>(
      `INSERT INTO "Delivery" ("seq", "campaignId", "userId", "customerId", "name", "email", "phone", "status", "nextAttemptAt", "updatedAt")
       SELECT max(coalesce((SELECT max("seq") FROM "Delivery"), 0), coalesce((SELECT max("lastSeq") FROM "Campaign"), 0)) + 1,
              ?, "userId", "id", trim("firstName" || ' ' || "lastName"), "email", "phone", 'pending', ?, ?
       FROM "Customer" WHERE "id" = ? AND "userId" = ?
       ON CONFLICT ("campaignId", "customerId") DO NOTHING
       RETURNING "seq"`,
      campaignId,
      now,
      now,
      customerId,
      userId,
    );
    if (!row) return null;
    const seq = Number(row.seq);
    await tx.$executeRawUnsafe(
      `UPDATE "Campaign" SET ${STEP_CAMPAIGN_GROWS("?", "?", "?")} WHERE "id" = ?`,
      seq,
      seq,
      now,
      campaignId,
    );
    return seq;
  },
};
