// Flows on SQLite: bench/helpers/flows.ts on the seeded tenant's database file.
import type { BenchContext, BenchSection } from "../../harness/types.ts";
import { measureFlows } from "../../helpers/flows.ts";

export default async function flows(ctx: BenchContext): Promise<BenchSection> {
  return measureFlows({ engine: "sqlite", target: ctx.dbFile, userId: ctx.userId, log: ctx.log });
}
