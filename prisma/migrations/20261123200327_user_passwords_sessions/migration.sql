-- AlterTable
-- Added in place (not by redefining the table as Prisma's diff would): dropping the old "User"
-- table inside the migration's transaction would cascade-delete every row that points to it.
ALTER TABLE "User" ADD COLUMN "passwordHash" TEXT;
ALTER TABLE "User" ADD COLUMN "emailVerified" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "User" ADD COLUMN "sessionVersion" INTEGER NOT NULL DEFAULT 0;
