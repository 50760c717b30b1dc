-- PostgreSQL baseline (docs/decisions/0028-postgresql-schema-and-migrations.md): the whole schema
-- as the SQLite migrations 20261122044310_init through 20261126074500_attribution_orders leave it,
-- in one migration (no PostgreSQL database existed before it). Every later migration has the same
-- directory name under prisma/migrations and prisma/migrations-postgres, both written by
-- `npm run db:migration -- <name>` from prisma/schema.prisma.
--
-- The first part is what Prisma's schema engine writes for schema.prisma with provider
-- "postgresql" and every DateTime as timestamptz(3) (prisma/engine.ts, postgresSchema). The rest,
-- after "Hand-made", is what schema.prisma cannot describe, each block naming the SQLite part it
-- mirrors.

-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "firstName" TEXT NOT NULL DEFAULT '',
    "lastName" TEXT NOT NULL DEFAULT '',
    "phone" TEXT NOT NULL DEFAULT '',
    "company" TEXT NOT NULL DEFAULT '',
    "position" TEXT NOT NULL DEFAULT '',
    "profileImage" TEXT,
    "googleId" TEXT,
    "provider" TEXT NOT NULL DEFAULT 'local',
    "newCustomersSinceNotice" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "passwordHash" TEXT,
    "emailVerified" BOOLEAN NOT NULL DEFAULT false,
    "sessionVersion" INTEGER NOT NULL DEFAULT 0,
    "timeZone" TEXT,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Notification" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "details" TEXT NOT NULL DEFAULT '',
    "read" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Notification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Customer" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "firstName" TEXT NOT NULL,
    "lastName" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "phone" TEXT NOT NULL DEFAULT '',
    "address" TEXT NOT NULL DEFAULT '',
    "company" TEXT NOT NULL DEFAULT '',
    "notes" TEXT NOT NULL DEFAULT '',
    "totalSpendPaise" INTEGER NOT NULL DEFAULT 0,
    "visits" INTEGER NOT NULL DEFAULT 0,
    "lastActive" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Customer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Order" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'Pending',
    "amountPaise" INTEGER NOT NULL DEFAULT 0,
    "taxPaise" INTEGER NOT NULL DEFAULT 0,
    "notes" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Order_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OrderItem" (
    "id" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "quantity" INTEGER NOT NULL,
    "pricePaise" INTEGER NOT NULL,

    CONSTRAINT "OrderItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Segment" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "logicType" TEXT NOT NULL DEFAULT 'AND',
    "conditions" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Segment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Campaign" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "segmentId" TEXT,
    "name" TEXT NOT NULL,
    "subject" TEXT NOT NULL DEFAULT '',
    "description" TEXT NOT NULL DEFAULT '',
    "message" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'Active',
    "audienceSize" INTEGER NOT NULL DEFAULT 0,
    "launchedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "segmentName" TEXT NOT NULL DEFAULT '',
    "pendingCount" INTEGER NOT NULL DEFAULT 0,
    "sentCount" INTEGER NOT NULL DEFAULT 0,
    "deliveredCount" INTEGER NOT NULL DEFAULT 0,
    "failedCount" INTEGER NOT NULL DEFAULT 0,
    "bouncedCount" INTEGER NOT NULL DEFAULT 0,
    "openedCount" INTEGER NOT NULL DEFAULT 0,
    "clickedCount" INTEGER NOT NULL DEFAULT 0,
    "sendErrors" INTEGER NOT NULL DEFAULT 0,
    "statusDetail" TEXT NOT NULL DEFAULT '',
    "completedAt" TIMESTAMPTZ(3),
    "firstSeq" INTEGER NOT NULL DEFAULT 0,
    "lastSeq" INTEGER NOT NULL DEFAULT 0,
    "cancelledCount" INTEGER NOT NULL DEFAULT 0,
    "suppressedCount" INTEGER NOT NULL DEFAULT 0,
    "suppressedAtLaunch" INTEGER NOT NULL DEFAULT 0,
    "trackingEnabled" BOOLEAN NOT NULL DEFAULT true,
    "opensTotal" INTEGER NOT NULL DEFAULT 0,
    "clicksTotal" INTEGER NOT NULL DEFAULT 0,
    "machineOpenCount" INTEGER NOT NULL DEFAULT 0,
    "machineClickCount" INTEGER NOT NULL DEFAULT 0,
    "complainedCount" INTEGER NOT NULL DEFAULT 0,
    "softBounceCount" INTEGER NOT NULL DEFAULT 0,
    "resendOfId" TEXT,

    CONSTRAINT "Campaign_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Delivery" (
    "seq" INTEGER NOT NULL,
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

    CONSTRAINT "Delivery_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "DeliveryEvent" (
    "id" SERIAL NOT NULL,
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

    CONSTRAINT "DeliveryEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReceiptInbox" (
    "id" SERIAL NOT NULL,
    "receipts" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "receivedAt" BIGINT NOT NULL,

    CONSTRAINT "ReceiptInbox_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CustomerTally" (
    "userId" TEXT NOT NULL,
    "customers" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "CustomerTally_pkey" PRIMARY KEY ("userId")
);

-- CreateTable
CREATE TABLE "DashboardSnapshot" (
    "userId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "takenAt" BIGINT NOT NULL,
    "customers" INTEGER NOT NULL DEFAULT 0,
    "segments" INTEGER NOT NULL DEFAULT 0,
    "campaigns" INTEGER NOT NULL DEFAULT 0,
    "customersAdded" INTEGER NOT NULL DEFAULT 0,
    "campaignsSent" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "DashboardSnapshot_pkey" PRIMARY KEY ("userId","day")
);

-- CreateTable
CREATE TABLE "IdempotencyKey" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "resultId" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "IdempotencyKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Suppression" (
    "userId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "campaignId" TEXT,
    "campaignName" TEXT NOT NULL DEFAULT '',
    "details" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Suppression_pkey" PRIMARY KEY ("userId","email")
);

-- CreateTable
CREATE TABLE "SuppressionEvent" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "reason" TEXT NOT NULL DEFAULT '',
    "campaignId" TEXT,
    "campaignName" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SuppressionEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "User_googleId_key" ON "User"("googleId");

-- CreateIndex
CREATE INDEX "Notification_userId_createdAt_idx" ON "Notification"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "Customer_userId_idx" ON "Customer"("userId");

-- CreateIndex
CREATE INDEX "Customer_userId_id_idx" ON "Customer"("userId", "id");

-- CreateIndex
CREATE INDEX "Customer_userId_totalSpendPaise_visits_lastActive_idx" ON "Customer"("userId", "totalSpendPaise", "visits", "lastActive");

-- CreateIndex
CREATE INDEX "Customer_userId_visits_totalSpendPaise_lastActive_idx" ON "Customer"("userId", "visits", "totalSpendPaise", "lastActive");

-- CreateIndex
CREATE INDEX "Customer_userId_lastActive_totalSpendPaise_visits_idx" ON "Customer"("userId", "lastActive", "totalSpendPaise", "visits");

-- CreateIndex
CREATE UNIQUE INDEX "Customer_userId_email_key" ON "Customer"("userId", "email");

-- CreateIndex
CREATE INDEX "Order_userId_id_idx" ON "Order"("userId", "id");

-- CreateIndex
CREATE INDEX "Order_customerId_createdAt_id_idx" ON "Order"("customerId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "OrderItem_orderId_position_idx" ON "OrderItem"("orderId", "position");

-- CreateIndex
CREATE INDEX "Segment_userId_createdAt_idx" ON "Segment"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "Campaign_userId_createdAt_idx" ON "Campaign"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "Campaign_segmentId_idx" ON "Campaign"("segmentId");

-- CreateIndex
CREATE INDEX "Campaign_status_idx" ON "Campaign"("status");

-- CreateIndex
CREATE INDEX "Delivery_campaignId_status_nextAttemptAt_idx" ON "Delivery"("campaignId", "status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "Delivery_customerId_idx" ON "Delivery"("customerId");

-- CreateIndex
CREATE UNIQUE INDEX "Delivery_campaignId_customerId_key" ON "Delivery"("campaignId", "customerId");

-- CreateIndex
CREATE INDEX "DeliveryEvent_campaignId_kind_link_idx" ON "DeliveryEvent"("campaignId", "kind", "link");

-- CreateIndex
CREATE INDEX "DeliveryEvent_userId_customerId_at_idx" ON "DeliveryEvent"("userId", "customerId", "at");

-- CreateIndex
CREATE INDEX "DeliveryEvent_userId_email_kind_at_idx" ON "DeliveryEvent"("userId", "email", "kind", "at");

-- CreateIndex
CREATE UNIQUE INDEX "DeliveryEvent_source_eventId_key" ON "DeliveryEvent"("source", "eventId");

-- CreateIndex
CREATE INDEX "IdempotencyKey_userId_createdAt_idx" ON "IdempotencyKey"("userId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "IdempotencyKey_userId_key_key" ON "IdempotencyKey"("userId", "key");

-- CreateIndex
CREATE INDEX "Suppression_userId_createdAt_idx" ON "Suppression"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "SuppressionEvent_userId_email_createdAt_idx" ON "SuppressionEvent"("userId", "email", "createdAt");

-- AddForeignKey
ALTER TABLE "Notification" ADD CONSTRAINT "Notification_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Customer" ADD CONSTRAINT "Customer_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Order" ADD CONSTRAINT "Order_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Order" ADD CONSTRAINT "Order_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OrderItem" ADD CONSTRAINT "OrderItem_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Segment" ADD CONSTRAINT "Segment_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Campaign" ADD CONSTRAINT "Campaign_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Campaign" ADD CONSTRAINT "Campaign_segmentId_fkey" FOREIGN KEY ("segmentId") REFERENCES "Segment"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Delivery" ADD CONSTRAINT "Delivery_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DeliveryEvent" ADD CONSTRAINT "DeliveryEvent_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DashboardSnapshot" ADD CONSTRAINT "DashboardSnapshot_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "IdempotencyKey" ADD CONSTRAINT "IdempotencyKey_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Suppression" ADD CONSTRAINT "Suppression_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SuppressionEvent" ADD CONSTRAINT "SuppressionEvent_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------------
-- Hand-made
-- ---------------------------------------------------------------------------------------------

-- Customer search. Mirrors the FTS5 trigram table "customer_search" and its triggers (SQLite
-- migrations customer_search and customer_search_by_tenant). On PostgreSQL the trigram index is an
-- index of "Customer" itself (pg_trgm), so there is no second table to keep and no trigger: a
-- search is
--   WHERE "userId" = $1 AND (lower("firstName" || ' ' || "lastName") LIKE $2 OR "email" LIKE $2)
-- with $2 = '%' || the lower-cased term (LIKE's % _ \ escaped) || '%' (e-mail addresses are stored
-- lower case). The tenant is the index's first column (btree_gin), so, as on SQLite, a search
-- reads the tenant's own entries only and its time does not depend on other tenants' matches
-- (measured in decision 0028: 4.5 ms instead of 24.6 ms behind another tenant's 18,750 matches).
-- Both extensions are "trusted" (PostgreSQL 13+): the database's owner may create them.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS btree_gin;
CREATE INDEX "Customer_search_idx" ON "Customer" USING gin (
    "userId",
    (lower("firstName" || ' ' || "lastName")) gin_trgm_ops,
    "email" gin_trgm_ops
);

-- The tenant's customer count. Mirrors the trigger "customer_tally_delete" (SQLite migrations
-- customer_search and customer_tally_by_services): the services add to "CustomerTally" when they
-- create customers (one statement a batch), deletes are counted here, a tenant's cascade too.
CREATE FUNCTION "customer_tally_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE "CustomerTally" SET "customers" = "customers" - 1 WHERE "userId" = old."userId";
    RETURN NULL;
END;
$$;
CREATE TRIGGER "customer_tally_delete" AFTER DELETE ON "Customer"
    FOR EACH ROW EXECUTE FUNCTION "customer_tally_delete"();

-- The customer list sorted by name. Mirrors "Customer_userId_name_idx" (SQLite migration
-- customer_sort_by_name). COLLATE "C" sorts by code point, as SQLite's BINARY does, whatever the
-- database's collation: the list's query must say the same
-- (ORDER BY lower("firstName" || ' ' || "lastName") COLLATE "C") to walk this index. The rows'
-- tie-break is "id" (time-ordered), where SQLite uses its rowid.
CREATE INDEX "Customer_userId_name_idx" ON "Customer" ("userId", (lower("firstName" || ' ' || "lastName")) COLLATE "C", "id");

-- Revenue per campaign. Mirrors "Delivery_attribution_clicked_idx" and
-- "Delivery_attribution_opened_idx" (SQLite migration attribution). SQLite could not have the
-- partial index it wanted (Prisma's schema engine fails to describe one there), so it ends each
-- index with an expression column; PostgreSQL's describer leaves partial indexes alone, so these
-- are partial and hold only the rows with a click (an open). The queries keep their
-- "clickedAt" IS NOT NULL ("openedAt" IS NOT NULL), which lets the planner use them.
CREATE INDEX "Delivery_attribution_clicked_idx" ON "Delivery" ("campaignId", "clickedAt", "customerId")
    WHERE "clickedAt" IS NOT NULL;
CREATE INDEX "Delivery_attribution_opened_idx" ON "Delivery" ("campaignId", "openedAt", "customerId")
    WHERE "openedAt" IS NOT NULL;

-- Mirrors "Order_attribution_idx" (SQLite migration attribution_orders): a customer's orders by
-- time with the tenant, whether cancelled and the total, so the lookup never reads "Order". The
-- queries use the same expressions.
CREATE INDEX "Order_attribution_idx" ON "Order" (
    "customerId", "createdAt", "userId", (lower("status") = 'cancelled'), ("amountPaise" + "taxPaise")
);
