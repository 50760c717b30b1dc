// Order writes with the customer's order figures kept, on SQLite: bench/helpers/order-writes.ts on
// customers of the seeded tenant.
import Database from "better-sqlite3";
import type { BenchContext, BenchSection } from "../../harness/types.ts";
import { measureOrderWrites } from "../../helpers/order-writes.ts";

export default async function orderWrites(ctx: BenchContext): Promise<BenchSection> {
  const raw = new Database(ctx.dbFile, { readonly: true, fileMustExist: true });
  let customerIds: string[];
  try {
    customerIds = raw
      .prepare(`SELECT "id" FROM "Customer" WHERE "userId" = ? ORDER BY random() LIMIT 3000`)
      .pluck()
      .all(ctx.userId) as string[];
  } finally {
    raw.close();
  }
  return measureOrderWrites({ engine: "sqlite", userId: ctx.userId, customerIds, log: ctx.log });
}
