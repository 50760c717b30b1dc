-- DropIndex
DROP INDEX "Customer_userId_lastActive_idx";

-- DropIndex
DROP INDEX "Customer_userId_visits_idx";

-- DropIndex
DROP INDEX "Customer_userId_totalSpendPaise_idx";

-- CreateIndex
CREATE INDEX "Customer_userId_totalSpendPaise_visits_lastActive_idx" ON "Customer"("userId", "totalSpendPaise", "visits", "lastActive");

-- CreateIndex
CREATE INDEX "Customer_userId_visits_totalSpendPaise_lastActive_idx" ON "Customer"("userId", "visits", "totalSpendPaise", "lastActive");

-- CreateIndex
CREATE INDEX "Customer_userId_lastActive_totalSpendPaise_visits_idx" ON "Customer"("userId", "lastActive", "totalSpendPaise", "visits");
