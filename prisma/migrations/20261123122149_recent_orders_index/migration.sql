-- DropIndex
DROP INDEX "Order_customerId_createdAt_idx";

-- CreateIndex
CREATE INDEX "Order_customerId_createdAt_id_idx" ON "Order"("customerId", "createdAt", "id");
