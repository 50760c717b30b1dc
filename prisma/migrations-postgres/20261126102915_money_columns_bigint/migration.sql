-- Money columns are bigint on PostgreSQL (docs/decisions/0031-copy-sqlite-to-postgresql.md): its
-- integer is 32-bit, so a customer's total spend would stop at 2^31 paise (about Rs 2.1 crore).
-- SQLite's INTEGER is 64-bit already (its twin does nothing), and schema.prisma keeps `Int`, so both
-- Prisma clients give the app numbers; the schema engine diffs PostgreSQL against the fields as
-- `BigInt` (postgresTablesSchema() in prisma/engine.ts). The indexes over these columns
-- (the segment indexes, "Order_attribution_idx") are rebuilt by the ALTER.

-- AlterTable
ALTER TABLE "Customer" ALTER COLUMN "totalSpendPaise" SET DATA TYPE BIGINT;

-- AlterTable
ALTER TABLE "Order" ALTER COLUMN "amountPaise" SET DATA TYPE BIGINT,
ALTER COLUMN "taxPaise" SET DATA TYPE BIGINT;

-- AlterTable
ALTER TABLE "OrderItem" ALTER COLUMN "pricePaise" SET DATA TYPE BIGINT;
