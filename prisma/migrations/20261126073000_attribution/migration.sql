-- Revenue per campaign (docs/rules.md#revenue-per-campaign, decision 0027): the orders a recipient
-- placed within the attribution window after their first click (or, the weaker rule, their first
-- open) are the campaign's. The queries (app/models/attribution.server.ts) walk one campaign's
-- clicked (or opened) delivery rows in time order and look each recipient's orders up on
-- "Order"(customerId, createdAt, id). Rows without a click keep a NULL there, which sorts first, so
-- "clickedAt" IS NOT NULL is a seek past them: a campaign of 1,000,000 rows with 40,000 clicks
-- reads 40,000 index entries and never the table.
--
-- Written by hand. A partial index (... WHERE "clickedAt" IS NOT NULL, which would hold only the
-- few percent of rows with a click) was the first choice, but Prisma's schema engine fails to
-- describe a database with a partial index ("Error describing the database", so
-- prisma/migrations.test.ts and npm run db:migration break), and it would drop a plain index that
-- schema.prisma does not list. So each index ends with an expression column, which the engine
-- leaves alone (as "Customer_userId_name_idx"); the queries never use that last column. Every row
-- has an entry, which a launch pays for (one more index insert per row each).
--
-- On a large table CREATE INDEX reads "Delivery" once (seconds for ten million rows) while holding
-- the write lock; the migration runs at start, before the server listens.

-- One campaign's clicked recipients by click time: the detail's figures, a list page's revenue, the
-- dashboard's revenue in a period (one seek per campaign of the tenant).
CREATE INDEX "Delivery_attribution_clicked_idx"
  ON "Delivery"("campaignId", "clickedAt", "customerId", ("clickedAt" IS NOT NULL));

-- One campaign's recipients who opened it, by open time: the opens rule.
CREATE INDEX "Delivery_attribution_opened_idx"
  ON "Delivery"("campaignId", "openedAt", "customerId", ("openedAt" IS NOT NULL));
