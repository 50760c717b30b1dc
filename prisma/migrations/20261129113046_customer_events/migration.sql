-- Events about customers sent by the shop's own systems (POST /api/events), kept once per the sender's id.
-- CreateTable
CREATE TABLE "CustomerEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "properties" TEXT NOT NULL DEFAULT '{}',
    "occurredAt" DATETIME NOT NULL,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "CustomerEvent_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "CustomerEvent_userId_customerId_occurredAt_idx" ON "CustomerEvent"("userId", "customerId", "occurredAt");

-- CreateIndex
CREATE INDEX "CustomerEvent_userId_name_occurredAt_idx" ON "CustomerEvent"("userId", "name", "occurredAt");

-- CreateIndex
CREATE UNIQUE INDEX "CustomerEvent_userId_eventId_key" ON "CustomerEvent"("userId", "eventId");
