// The customer activity's model: one body for both engines, so this folder has no engine files and
// no engineDoor(); other code imports customerActivity from here as from any domain's door.
// Prisma's calls only (db() is PostgreSQL's client there): an aggregate over the customer's orders
// (the (customerId, createdAt) index) and an upsert.
import { db } from "~/db/prisma.server";
import type { CustomerActivityStore } from "./contract";
import { averagePaise } from "./rows";

export const customerActivity: CustomerActivityStore = {
  async refreshOrderFigures(userId, customerId, tx) {
    const agg = await tx.order.aggregate({
      where: { userId, customerId, status: { not: "Cancelled" } },
      _count: { _all: true },
      _sum: { amountPaise: true, taxPaise: true },
      _min: { createdAt: true },
      _max: { createdAt: true },
    });
    const orderCount = agg._count._all;
    const orderSpendPaise = Number(agg._sum.amountPaise ?? 0) + Number(agg._sum.taxPaise ?? 0);
    const figures = {
      orderCount,
      orderSpendPaise,
      averageOrderPaise: averagePaise(orderSpendPaise, orderCount),
      firstOrderAt: agg._min.createdAt,
      lastOrderAt: agg._max.createdAt,
    };
    await tx.customerActivity.upsert({
      where: { customerId },
      create: { customerId, userId, ...figures },
      update: figures,
    });
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
