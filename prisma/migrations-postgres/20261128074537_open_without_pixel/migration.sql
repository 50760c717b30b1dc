-- AlterTable
ALTER TABLE "Delivery" ADD COLUMN     "pixelOpenedAt" BIGINT;

-- Rows opened before this column: an open no later click made is an image load (a click that
-- made the first open set openedAt and clickedAt to its own time).
UPDATE "Delivery" SET "pixelOpenedAt" = "openedAt"
WHERE "openedAt" IS NOT NULL AND ("clickedAt" IS NULL OR "clickedAt" <> "openedAt");
