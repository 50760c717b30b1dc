// Events in on PostgreSQL (the copied database is DATABASE_URL in this process):
// bench/helpers/events-in.ts on the same customers as on SQLite.
import type { BenchSection, PostgresBenchContext } from "../../harness/types.ts";
import { sampleCustomerIds } from "../../harness/postgres.ts";
import { measureEventsIn } from "../../helpers/events-in.ts";

export default async function eventsOnPostgres(ctx: PostgresBenchContext): Promise<BenchSection> {
  const customerIds = await sampleCustomerIds(ctx);
  return measureEventsIn({ engine: "postgres", userId: ctx.userId, customerIds, log: ctx.log });
}
