// Order writes with the customer's order figures kept, on PostgreSQL (the copied database is
// DATABASE_URL in this process): bench/helpers/order-writes.ts on the same customers as on SQLite.
import type { BenchSection, PostgresBenchContext } from "../../harness/types.ts";
import { sampleCustomerIds } from "../../harness/postgres.ts";
import { measureOrderWrites } from "../../helpers/order-writes.ts";

export default async function orderWritesOnPostgres(ctx: PostgresBenchContext): Promise<BenchSection> {
  const customerIds = await sampleCustomerIds(ctx);
  return measureOrderWrites({ engine: "postgres", userId: ctx.userId, customerIds, log: ctx.log });
}
