-- CreateTable
CREATE TABLE "SignInAttempt" (
    "key" TEXT NOT NULL,
    "windowStart" TIMESTAMPTZ(3) NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "SignInAttempt_pkey" PRIMARY KEY ("key")
);
