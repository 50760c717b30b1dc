-- CreateTable
CREATE TABLE "CustomField" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "choices" TEXT NOT NULL DEFAULT '[]',
    "defaultValue" TEXT,
    "position" INTEGER NOT NULL,
    "retiredAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "CustomField_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CustomerFieldValue" (
    "userId" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "textKey" TEXT,
    "numberValue" REAL,

    PRIMARY KEY ("customerId", "name"),
    CONSTRAINT "CustomerFieldValue_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Tag" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Tag_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CustomerTag" (
    "tagId" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,

    PRIMARY KEY ("tagId", "customerId"),
    CONSTRAINT "CustomerTag_tagId_fkey" FOREIGN KEY ("tagId") REFERENCES "Tag" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "CustomerTag_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "CustomField_userId_position_idx" ON "CustomField"("userId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "CustomField_userId_name_key" ON "CustomField"("userId", "name");

-- CreateIndex
CREATE INDEX "CustomerFieldValue_userId_name_textKey_customerId_idx" ON "CustomerFieldValue"("userId", "name", "textKey", "customerId");

-- CreateIndex
CREATE INDEX "CustomerFieldValue_userId_name_numberValue_customerId_idx" ON "CustomerFieldValue"("userId", "name", "numberValue", "customerId");

-- CreateIndex
CREATE UNIQUE INDEX "Tag_userId_key_key" ON "Tag"("userId", "key");

-- CreateIndex
CREATE INDEX "CustomerTag_customerId_tagId_idx" ON "CustomerTag"("customerId", "tagId");
