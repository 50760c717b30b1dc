-- CreateTable
CREATE TABLE "CustomerConsent" (
    "customerId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "source" TEXT NOT NULL DEFAULT '',
    "text" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "CustomerConsent_pkey" PRIMARY KEY ("customerId")
);

-- CreateIndex
CREATE INDEX "CustomerConsent_userId_status_customerId_idx" ON "CustomerConsent"("userId", "status", "customerId");

-- AddForeignKey
ALTER TABLE "CustomerConsent" ADD CONSTRAINT "CustomerConsent_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE CASCADE ON UPDATE CASCADE;
