-- AlterTable
ALTER TABLE "Delivery" ADD COLUMN     "pixelOpenedAt" BIGINT;
