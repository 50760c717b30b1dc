// Flows on PostgreSQL (the copied database is DATABASE_URL in this process): bench/helpers/flows.ts
// on the same tenant as on SQLite.
import type { BenchSection, PostgresBenchContext } from "../../harness/types.ts";
import { measureFlows } from "../../helpers/flows.ts";

export default async function flowsOnPostgres(ctx: PostgresBenchContext): Promise<BenchSection> {
  return measureFlows({ engine: "postgres", target: ctx.databaseUrl, userId: ctx.userId, log: ctx.log });
}
