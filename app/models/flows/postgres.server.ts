// The flows on PostgreSQL: the clock's claim skips entries another clock holds (FOR UPDATE SKIP
// LOCKED), and the send step's delivery row takes its seq under the advisory lock every seq
// reservation takes turns on (a launch's range, another step's row), held to the step's commit.
import { db } from "~/db/prisma.server";
import { SEQ_RESERVATION_LOCK } from "~/models/launch/rows";
import { commonFlows } from "./common.server";
import type { FlowsStore } from "./contract";
import { CLAIM_COLUMNS, type ClaimRow, claimedEntry, STEP_CAMPAIGN_GROWS } from "./claim-rows";

export const postgresFlows: FlowsStore = {
  ...commonFlows,

  async claimDue(now, limit, leaseMs) {
    const rows = await db().$queryRawUnsafe<ClaimRow[]>(
      `UPDATE "FlowEntry" SET "dueAt" = $1, "claims" = "claims" + 1
       WHERE "id" IN (SELECT "e"."id" FROM "FlowEntry" "e" JOIN "Flow" "f" ON "f"."id" = "e"."flowId"
                      WHERE "e"."state" = 'active' AND "e"."dueAt" <= $2 AND "f"."status" = 'live'
                      ORDER BY "e"."dueAt" LIMIT $3 FOR UPDATE OF "e" SKIP LOCKED)
       RETURNING ${CLAIM_COLUMNS}`,
      BigInt(now + leaseMs),
      BigInt(now),
      limit,
    );
    return rows.map(claimedEntry);
  },

  async appendStepDelivery(campaignId, userId, customerId, now, tx) {
    await tx.$queryRawUnsafe(`SELECT pg_advisory_xact_lock($1)::text`, SEQ_RESERVATION_LOCK);
    const [row] = await tx.$queryRawUnsafe<{ seq: number }[]>(
      `INSERT INTO "Delivery" ("seq", "campaignId", "userId", "customerId", "name", "email", "phone", "status", "nextAttemptAt", "updatedAt")
       SELECT GREATEST(coalesce((SELECT max("seq") FROM "Delivery"), 0), coalesce((SELECT max("lastSeq") FROM "Campaign"), 0)) + 1,
              $1, "userId", "id", trim("firstName" || ' ' || "lastName"), "email", "phone", 'pending', $2, $2
       FROM "Customer" WHERE "id" = $3 AND "userId" = $4
       ON CONFLICT ("campaignId", "customerId") DO NOTHING
       RETURNING "seq"`,
      campaignId,
      BigInt(now),
      customerId,
      userId,
    );
    if (!row) return null;
    const seq = Number(row.seq);
    await tx.$executeRawUnsafe(
      `UPDATE "Campaign" SET ${STEP_CAMPAIGN_GROWS("$1", "$2", "$3")} WHERE "id" = $4`,
      seq,
      seq,
      new Date(now),
      campaignId,
    );
    return seq;
  },
};
