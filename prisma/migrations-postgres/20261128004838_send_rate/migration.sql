-- CreateTable
CREATE TABLE "SendRate" (
    "channel" TEXT NOT NULL,
    "tokens" DOUBLE PRECISION NOT NULL,
    "refilledAt" BIGINT NOT NULL,

    CONSTRAINT "SendRate_pkey" PRIMARY KEY ("channel")
);
