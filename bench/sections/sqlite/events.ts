// Events in on SQLite: bench/helpers/events-in.ts on customers of the seeded tenant.
import Database from "better-sqlite3";
import type { BenchContext, BenchSection } from "../../harness/types.ts";
import { measureEventsIn } from "../../helpers/events-in.ts";

export default async function events(ctx: BenchContext): Promise<BenchSection> {
  const raw = new Database(ctx.dbFile, { readonly: true, fileMustExist: true });
  let customerIds: string[];
  try {
    customerIds = raw
      .prepare(`SELECT "id" FROM "Customer" WHERE "userId" = ? AND rowid % 97 = 0 LIMIT 5000`)
      .pluck()
      .all(ctx.userId) as string[];
  } finally {
    raw.close();
  }
  return measureEventsIn({ engine: "sqlite", userId: ctx.userId, customerIds, log: ctx.log });
}
