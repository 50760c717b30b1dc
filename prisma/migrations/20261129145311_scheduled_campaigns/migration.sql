-- A campaign can be scheduled: a draft that launches itself at scheduledAt (found by its index).
-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN "scheduledAt" DATETIME;

-- CreateIndex
CREATE INDEX "Campaign_scheduledAt_idx" ON "Campaign"("scheduledAt");
