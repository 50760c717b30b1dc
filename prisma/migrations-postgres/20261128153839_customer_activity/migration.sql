-- CreateTable
CREATE TABLE "CustomerActivity" (
    "customerId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "orderCount" INTEGER NOT NULL DEFAULT 0,
    "orderSpendPaise" BIGINT NOT NULL DEFAULT 0,
    "averageOrderPaise" BIGINT NOT NULL DEFAULT 0,
    "firstOrderAt" TIMESTAMPTZ(3),
    "lastOrderAt" TIMESTAMPTZ(3),
    "lastOpenAt" BIGINT,
    "lastClickAt" BIGINT,

    CONSTRAINT "CustomerActivity_pkey" PRIMARY KEY ("customerId")
);

-- CreateIndex
CREATE INDEX "CustomerActivity_userId_orderCount_idx" ON "CustomerActivity"("userId", "orderCount");

-- CreateIndex
CREATE INDEX "CustomerActivity_userId_averageOrderPaise_idx" ON "CustomerActivity"("userId", "averageOrderPaise");

-- CreateIndex
CREATE INDEX "CustomerActivity_userId_firstOrderAt_idx" ON "CustomerActivity"("userId", "firstOrderAt");

-- CreateIndex
CREATE INDEX "CustomerActivity_userId_lastOrderAt_idx" ON "CustomerActivity"("userId", "lastOrderAt");

-- CreateIndex
CREATE INDEX "CustomerActivity_userId_lastOpenAt_idx" ON "CustomerActivity"("userId", "lastOpenAt");

-- CreateIndex
CREATE INDEX "CustomerActivity_userId_lastClickAt_idx" ON "CustomerActivity"("userId", "lastClickAt");

-- AddForeignKey
ALTER TABLE "CustomerActivity" ADD CONSTRAINT "CustomerActivity_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-made: the figures of customers who have orders or engagement already. The average is
-- rounded to the paise, as app/services/orders.server.ts rounds it.
INSERT INTO "CustomerActivity" ("customerId", "userId", "orderCount", "orderSpendPaise", "averageOrderPaise", "firstOrderAt", "lastOrderAt")
SELECT "customerId", "userId", count(*), sum("amountPaise" + "taxPaise"),
       round(sum("amountPaise" + "taxPaise")::numeric / count(*))::bigint, min("createdAt"), max("createdAt")
FROM "Order" WHERE "status" <> 'Cancelled' GROUP BY "customerId", "userId";

INSERT INTO "CustomerActivity" ("customerId", "userId", "lastOpenAt", "lastClickAt")
SELECT d."customerId", d."userId", max(d."openedAt"), max(d."clickedAt") FROM "Delivery" d
WHERE (d."openedAt" IS NOT NULL OR d."clickedAt" IS NOT NULL) AND d."customerId" IN (SELECT "id" FROM "Customer")
GROUP BY d."customerId", d."userId"
ON CONFLICT ("customerId") DO UPDATE SET "lastOpenAt" = excluded."lastOpenAt", "lastClickAt" = excluded."lastClickAt";

-- Hand-made: order items by name without case, for "bought a product" (the item's order gives the
-- tenant and the customer).
CREATE INDEX "OrderItem_name_key_idx" ON "OrderItem"(lower("name"), "orderId");
