// The customer activity's model: one body for both engines, so this folder has no engine files and
// no engineDoor(); other code imports customerActivity from here as from any domain's door.
// Prisma's calls, and one statement whose text both engines take: an aggregate over the customer's
// orders (the (customerId, createdAt) index) written over their row.
import { db } from "~/db/prisma.server";
import type { CustomerActivityStore } from "./contract";

export const customerActivity: CustomerActivityStore = {
  async refreshOrderFigures(userId, customerId, tx) {
    // One statement, the same text on both engines (Prisma binds each value in the engine's own
    // placeholder): the aggregate of the customer's counting orders written over their row. Measured
    // on the order write (bench/sections/*/order-writes.ts), one round trip instead of an aggregate
    // and an upsert. The average is rounded half up in integers, (2 × spend + count) / (2 × count),
    // which is Math.round(spend / count) for the non-negative sums it sees, as the migration's backfill rounds.
    await tx.$executeRaw`
      INSERT INTO "CustomerActivity" ("customerId", "userId", "orderCount", "orderSpendPaise", "averageOrderPaise", "firstOrderAt", "lastOrderAt")
      SELECT CAST(${customerId} AS TEXT), CAST(${userId} AS TEXT), count(*),
             COALESCE(CAST(sum("amountPaise" + "taxPaise") AS BIGINT), 0),
             CASE WHEN count(*) = 0 THEN 0
                  ELSE (COALESCE(CAST(sum("amountPaise" + "taxPaise") AS BIGINT), 0) * 2 + count(*)) / (2 * count(*)) END,
             min("createdAt"), max("createdAt")
      FROM "Order" WHERE "userId" = ${userId} AND "customerId" = ${customerId} AND "status" <> 'Cancelled'
      ON CONFLICT ("customerId") DO UPDATE SET
        "orderCount" = excluded."orderCount", "orderSpendPaise" = excluded."orderSpendPaise",
        "averageOrderPaise" = excluded."averageOrderPaise", "firstOrderAt" = excluded."firstOrderAt",
        "lastOrderAt" = excluded."lastOrderAt"`;
  },

  async readOrderFigures(userId, customerId) {
    return db().customerActivity.findFirst({
      where: { userId, customerId },
      select: {
        orderCount: true,
        orderSpendPaise: true,
        averageOrderPaise: true,
        firstOrderAt: true,
        lastOrderAt: true,
      },
    });
  },
};
