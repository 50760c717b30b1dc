-- Opens, clicks, late bounces and complaints (docs/rules.md#opens-and-clicks): the events table,
-- the campaign's new counters, and the index of the customer page's story.
-- CreateTable
CREATE TABLE "DeliveryEvent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "customerId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "machine" BOOLEAN NOT NULL DEFAULT false,
    "link" INTEGER,
    "source" TEXT NOT NULL DEFAULT '',
    "eventId" TEXT,
    "details" TEXT NOT NULL DEFAULT '',
    "at" BIGINT NOT NULL,
    CONSTRAINT "DeliveryEvent_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Campaign: opens and clicks in total and by machines, complaints and soft bounces, tracking on or
-- off, and the campaign a "Resend to non-openers" draft is addressed from.
ALTER TABLE "Campaign" ADD COLUMN "trackingEnabled" BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE "Campaign" ADD COLUMN "opensTotal" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Campaign" ADD COLUMN "clicksTotal" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Campaign" ADD COLUMN "machineOpenCount" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Campaign" ADD COLUMN "machineClickCount" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Campaign" ADD COLUMN "complainedCount" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Campaign" ADD COLUMN "softBounceCount" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Campaign" ADD COLUMN "resendOfId" TEXT;

-- CreateIndex
CREATE INDEX "DeliveryEvent_campaignId_kind_link_idx" ON "DeliveryEvent"("campaignId", "kind", "link");

-- CreateIndex
CREATE INDEX "DeliveryEvent_userId_customerId_at_idx" ON "DeliveryEvent"("userId", "customerId", "at");

-- CreateIndex
CREATE INDEX "DeliveryEvent_userId_email_kind_at_idx" ON "DeliveryEvent"("userId", "email", "kind", "at");

-- CreateIndex
CREATE UNIQUE INDEX "DeliveryEvent_source_eventId_key" ON "DeliveryEvent"("source", "eventId");

-- CreateIndex
CREATE INDEX "Delivery_customerId_idx" ON "Delivery"("customerId");
