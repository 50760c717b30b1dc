// The AI message suggestions' figures on PostgreSQL: the twin of ./insights-segment-figures.server.ts.
// `where` is the segment's WHERE in the PostgreSQL dialect (placeholders $1…$n); the inactivity
// bound takes the next placeholder.
import { type Queryable, query } from "~/db/postgres.server";
import type { AudienceFiguresRow } from "~/models/insights-segment-figures.server";
import type { CompiledWhere } from "~/models/segments/audience/rows";

export async function audienceFiguresPg(
  db: Queryable,
  where: CompiledWhere,
  inactiveBefore: number,
): Promise<AudienceFiguresRow> {
  const bound = `$${where.params.length + 1}`;
  // avg() is numeric, read as a number by the pool, as SQLite's avg() gives a REAL.
  const [row] = await query<AudienceFiguresRow>(
    db,
    `SELECT count(*) AS "n", coalesce(min("totalSpendPaise"), 0) AS "minSpend", coalesce(max("totalSpendPaise"), 0) AS "maxSpend",
       coalesce(avg("totalSpendPaise"), 0) AS "avgSpend", coalesce(min("visits"), 0) AS "minVisits",
       coalesce(max("visits"), 0) AS "maxVisits", coalesce(avg("visits"), 0) AS "avgVisits",
       count(*) FILTER (WHERE "lastActive" IS NULL OR "lastActive" < ${bound}) AS "inactive"
     FROM "Customer" WHERE ${where.sql}`,
    [...where.params, new Date(inactiveBefore)],
  );
  return row ?? { n: 0, minSpend: 0, maxSpend: 0, avgSpend: 0, minVisits: 0, maxVisits: 0, avgVisits: 0, inactive: 0 };
}
