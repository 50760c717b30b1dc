-- A campaign can be scheduled: a draft that launches itself at scheduledAt (found by its index).
-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "scheduledAt" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "Campaign_scheduledAt_idx" ON "Campaign"("scheduledAt");
