-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "flowId" TEXT,
ADD COLUMN     "flowStepId" TEXT;

-- CreateTable
CREATE TABLE "Flow" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "version" INTEGER NOT NULL DEFAULT 1,
    "eventCursor" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Flow_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FlowVersion" (
    "flowId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "definition" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FlowVersion_pkey" PRIMARY KEY ("flowId","version")
);

-- CreateTable
CREATE TABLE "FlowEntry" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "flowId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "customerId" TEXT NOT NULL,
    "entryKey" TEXT NOT NULL,
    "stepId" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'active',
    "dueAt" BIGINT NOT NULL,
    "claims" INTEGER NOT NULL DEFAULT 0,
    "enteredAt" BIGINT NOT NULL,
    "endedAt" BIGINT,
    "revenuePaise" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "FlowEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FlowPassage" (
    "entryId" TEXT NOT NULL,
    "stepId" TEXT NOT NULL,
    "flowId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "userId" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "details" TEXT NOT NULL DEFAULT '',
    "at" BIGINT NOT NULL,

    CONSTRAINT "FlowPassage_pkey" PRIMARY KEY ("entryId","stepId")
);

-- CreateIndex
CREATE INDEX "Flow_userId_createdAt_idx" ON "Flow"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "Flow_status_idx" ON "Flow"("status");

-- CreateIndex
CREATE INDEX "FlowEntry_state_dueAt_idx" ON "FlowEntry"("state", "dueAt");

-- CreateIndex
CREATE INDEX "FlowEntry_flowId_state_stepId_idx" ON "FlowEntry"("flowId", "state", "stepId");

-- CreateIndex
CREATE INDEX "FlowEntry_userId_customerId_idx" ON "FlowEntry"("userId", "customerId");

-- CreateIndex
CREATE UNIQUE INDEX "FlowEntry_flowId_customerId_entryKey_key" ON "FlowEntry"("flowId", "customerId", "entryKey");

-- CreateIndex
CREATE INDEX "FlowPassage_flowId_stepId_idx" ON "FlowPassage"("flowId", "stepId");

-- CreateIndex
CREATE INDEX "FlowPassage_userId_customerId_at_idx" ON "FlowPassage"("userId", "customerId", "at");

-- CreateIndex
CREATE UNIQUE INDEX "Campaign_flowId_flowStepId_key" ON "Campaign"("flowId", "flowStepId");

-- CreateIndex
CREATE INDEX "CustomerEvent_userId_id_idx" ON "CustomerEvent"("userId", "id");

-- AddForeignKey
ALTER TABLE "Flow" ADD CONSTRAINT "Flow_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FlowVersion" ADD CONSTRAINT "FlowVersion_flowId_fkey" FOREIGN KEY ("flowId") REFERENCES "Flow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FlowEntry" ADD CONSTRAINT "FlowEntry_flowId_fkey" FOREIGN KEY ("flowId") REFERENCES "Flow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FlowEntry" ADD CONSTRAINT "FlowEntry_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FlowPassage" ADD CONSTRAINT "FlowPassage_entryId_fkey" FOREIGN KEY ("entryId") REFERENCES "FlowEntry"("id") ON DELETE CASCADE ON UPDATE CASCADE;
