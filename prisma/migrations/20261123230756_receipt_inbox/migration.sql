-- Delivery receipts as the vendor posted them, waiting for the delivery job to apply them. The
-- receipts endpoint only appends here (one small write), so applying them (a read and a write a
-- row, and the campaign's counters) happens on the job's thread, not on the thread that answers
-- requests.
CREATE TABLE "ReceiptInbox" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "receipts" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "receivedAt" BIGINT NOT NULL
);
