-- Campaign delivery: the counters of a campaign's delivery rows by state, and the Delivery table,
-- which is both the queue the delivery job drains and the per-recipient log.
ALTER TABLE "Campaign" ADD COLUMN "segmentName" TEXT NOT NULL DEFAULT '';
ALTER TABLE "Campaign" ADD COLUMN "pendingCount" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Campaign" ADD COLUMN "sentCount" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Campaign" ADD COLUMN "deliveredCount" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Campaign" ADD COLUMN "failedCount" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Campaign" ADD COLUMN "bouncedCount" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Campaign" ADD COLUMN "openedCount" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Campaign" ADD COLUMN "clickedCount" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Campaign" ADD COLUMN "sendErrors" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Campaign" ADD COLUMN "statusDetail" TEXT NOT NULL DEFAULT '';
ALTER TABLE "Campaign" ADD COLUMN "completedAt" DATETIME;
ALTER TABLE "Campaign" ADD COLUMN "firstSeq" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Campaign" ADD COLUMN "lastSeq" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "Delivery" (
    "seq" INTEGER NOT NULL PRIMARY KEY,
    "campaignId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "email" TEXT NOT NULL DEFAULT '',
    "phone" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "retries" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" BIGINT NOT NULL DEFAULT 0,
    "details" TEXT NOT NULL DEFAULT '',
    "updatedAt" BIGINT NOT NULL DEFAULT 0,
    "openedAt" BIGINT,
    "clickedAt" BIGINT,
    CONSTRAINT "Delivery_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Campaign_status_idx" ON "Campaign"("status");

-- CreateIndex
CREATE INDEX "Delivery_campaignId_status_nextAttemptAt_idx" ON "Delivery"("campaignId", "status", "nextAttemptAt");

-- CreateIndex
CREATE UNIQUE INDEX "Delivery_campaignId_customerId_key" ON "Delivery"("campaignId", "customerId");
