-- The suppression list (docs/rules.md#suppression-list) and its history.
-- CreateTable
CREATE TABLE "Suppression" (
    "userId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "campaignId" TEXT,
    "campaignName" TEXT NOT NULL DEFAULT '',
    "details" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("userId", "email"),
    CONSTRAINT "Suppression_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SuppressionEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "reason" TEXT NOT NULL DEFAULT '',
    "campaignId" TEXT,
    "campaignName" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "SuppressionEvent_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Campaign counters: rows the send left out as suppressed, and customers the launch left out.
ALTER TABLE "Campaign" ADD COLUMN "suppressedCount" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Campaign" ADD COLUMN "suppressedAtLaunch" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "Suppression_userId_createdAt_idx" ON "Suppression"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "SuppressionEvent_userId_email_createdAt_idx" ON "SuppressionEvent"("userId", "email", "createdAt");
