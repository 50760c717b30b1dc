-- The rows a cancel ended before they were sent (Delivery.status = 'cancelled'), counted like the other states.
ALTER TABLE "Campaign" ADD COLUMN "cancelledCount" INTEGER NOT NULL DEFAULT 0;
