-- CreateTable
CREATE TABLE "CustomerTally" (
    "userId" TEXT NOT NULL PRIMARY KEY,
    "customers" INTEGER NOT NULL DEFAULT 0
);

-- CreateIndex
CREATE INDEX "Customer_userId_idx" ON "Customer"("userId");
