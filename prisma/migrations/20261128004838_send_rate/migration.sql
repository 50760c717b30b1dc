-- CreateTable
CREATE TABLE "SendRate" (
    "channel" TEXT NOT NULL PRIMARY KEY,
    "tokens" REAL NOT NULL,
    "refilledAt" BIGINT NOT NULL
);
