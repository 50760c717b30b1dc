// The figures the AI message suggestions are written from (app/services/ai.server.ts): one pass
// over a segment's audience on the read connection (on PostgreSQL, the twin in
// ./insights-segment-figures.postgres.server.ts on the pool).
import { databaseEngine } from "~/db/connection.server";
import { postgres } from "~/db/postgres.server";
import { readStatement } from "~/db/reader.server";
import { audienceFiguresPg } from "~/models/insights-segment-figures.postgres.server";
import type { CompiledWhere } from "~/models/segments/audience/rows";

/** Spend in paise; inactive: customers not active since the given time (or never). */
export type AudienceFiguresRow = {
  n: number;
  minSpend: number;
  maxSpend: number;
  avgSpend: number;
  minVisits: number;
  maxVisits: number;
  avgVisits: number;
  inactive: number;
};

/**
 * Count, spend, visits and inactivity of the customers `where` selects (a segment's compiled WHERE,
 * in the configured engine's dialect: segmentWhereSql()).
 */
export async function audienceFigures(where: CompiledWhere, inactiveBefore: number): Promise<AudienceFiguresRow> {
  if (databaseEngine() === "postgres") return audienceFiguresPg(postgres().pool, where, inactiveBefore);
  const row = readStatement<AudienceFiguresRow>(
    `SELECT count(*) AS n, coalesce(min("totalSpendPaise"), 0) AS minSpend, coalesce(max("totalSpendPaise"), 0) AS maxSpend,
       coalesce(avg("totalSpendPaise"), 0) AS avgSpend, coalesce(min("visits"), 0) AS minVisits, coalesce(max("visits"), 0) AS maxVisits,
       coalesce(avg("visits"), 0) AS avgVisits, coalesce(sum("lastActive" IS NULL OR "lastActive" < ?), 0) AS inactive
     FROM "Customer" WHERE ${where.sql}`,
  ).get(inactiveBefore, ...where.params);
  return row ?? { n: 0, minSpend: 0, maxSpend: 0, avgSpend: 0, minVisits: 0, maxVisits: 0, avgVisits: 0, inactive: 0 };
}
