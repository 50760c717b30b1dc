// Segments on PostgreSQL: the segments of bench/sections/sqlite/segments.ts (bench/helpers/segment-cases.ts, the
// thresholds read from the seeded SQLite file, so both engines answer the same questions) through
// the product's own service on the copied database: the count and a 10-row preview
// (previewAudience, the goal SQLite's section measures) and the count alone (sqlAudienceCount), in
// turn, with PostgreSQL's EXPLAIN (ANALYZE, BUFFERS) of the count in the shape it chose. Each
// segment's audience must equal that of the SQLite file's copied customers, for this tenant and
// the other one, or its goals are not met.
// The figures before this section existed: decision 0032.
import Database from "better-sqlite3";
import type { BenchSection, PostgresBenchContext } from "../../harness/types.ts";
import { segmentCases, segmentGoal, segmentThresholds } from "../../helpers/segment-cases.ts";

const WARMUP = 3;
const MIN_RUNS = 25;
const MAX_RUNS = 300;
const TIME_PER_SEGMENT_MS = 3000;
const P95_LIMIT_MS = 100;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const summary = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return { p50: round(percentile(s, 0.5)), p95: round(percentile(s, 0.95)), max: round(s[s.length - 1]) };
};

export default async function segmentsOnPostgres(ctx: PostgresBenchContext): Promise<BenchSection> {
  const { parseConditions } = await import("../../../app/lib/segment-parse.ts");
  const { previewAudience } = await import("../../../app/services/segments.server.ts");
  const { segmentAudience } = await import("../../../app/models/segments/audience/store.server.ts");
  const { compileSegmentWhere } = await import("../../../app/models/segments/audience/where.ts");
  const { postgres } = await import("../../../app/db/postgres.server.ts");
  const { userId, otherUserId } = ctx;

  const sqlite = new Database(ctx.dbFile, { readonly: true, fileMustExist: true });
  const cases = segmentCases(segmentThresholds(sqlite, userId));
  const tenantSize = Number(
    (await postgres().pool.query<{ n: string }>(`SELECT count(*) AS n FROM "Customer" WHERE "userId" = $1`, [userId]))
      .rows[0].n,
  );
  const figures: Record<string, unknown>[] = [];
  const goals: BenchSection["goals"] = [];
  try {
    for (const c of cases) {
      ctx.log(`segments: ${c.name}`);
      const parsed = parseConditions(c.conditions);
      if (!parsed.ok) throw new Error(`Bench segment ${c.name} does not validate: ${parsed.message}`);
      const tree = parsed.tree;
      const now = Date.now();
      // The same audience as the SQLite file's customers that were copied, counted there plainly
      // (the SQLite sections' writers add customers after the copy).
      const onSqlite = (tenant: string) => {
        const where = compileSegmentWhere(tenant, tree, "sqlite", now);
        return Number(
          sqlite
            .prepare(`SELECT count(*) FROM "Customer" WHERE ${where.sql} AND rowid <= ?`)
            .pluck()
            .get(...where.params, ctx.copiedCustomerRowid),
        );
      };
      // A difference is a wrong answer (or a PostgreSQL database an earlier run wrote to, with
      // BENCH_REUSE): the goal is then not met, whatever the time.
      const expected = await previewAudience(userId, tree);
      const otherCount = await segmentAudience.sqlAudienceCount(otherUserId, tree);
      const sqliteCounts = { tenant: onSqlite(userId), otherTenant: onSqlite(otherUserId) };
      const sameAudience = expected.count === sqliteCounts.tenant && otherCount === sqliteCounts.otherTenant;
      if (!sameAudience)
        ctx.log(
          `segments: ${c.name}: PostgreSQL counts ${expected.count} and ${otherCount}, the SQLite file ${sqliteCounts.tenant} and ${sqliteCounts.otherTenant}`,
        );

      const time = async (fn: () => Promise<unknown>) => {
        const t = performance.now();
        await fn();
        return performance.now() - t;
      };
      const preview = () => previewAudience(userId, tree);
      const count = () => segmentAudience.sqlAudienceCount(userId, tree);
      const warmStart = performance.now();
      for (let w = 0; w < WARMUP; w++) {
        await preview();
        await count();
      }
      const perRound = (performance.now() - warmStart) / WARMUP;
      const runs = Math.max(MIN_RUNS, Math.min(MAX_RUNS, Math.ceil(TIME_PER_SEGMENT_MS / Math.max(perRound, 0.01))));
      const previewMs: number[] = [];
      const countMs: number[] = [];
      for (let r = 0; r < runs; r++) {
        // Alternate who goes first, as the SQLite section does.
        if (r % 2 === 0) previewMs.push(await time(preview));
        countMs.push(await time(count));
        if (r % 2 === 1) previewMs.push(await time(preview));
      }
      const previewFigures = summary(previewMs);
      const countFigures = summary(countMs);
      const counted = await segmentAudience.audienceCountQuery(userId, tree);
      const plan = (
        await postgres().pool.query<{ "QUERY PLAN": string }>(
          `EXPLAIN (ANALYZE, BUFFERS) ${counted.query.sql}`,
          counted.query.params,
        )
      ).rows.map((r) => r["QUERY PLAN"]);
      figures.push({
        segment: c.name,
        conditions: c.conditions,
        targetSelectivity: c.target,
        runs,
        audience: expected.count,
        selectivityPct: round((100 * expected.count) / tenantSize, 3),
        otherTenantAudience: otherCount,
        sameAudienceAsSqlite: sameAudience,
        sqliteAudience: sqliteCounts,
        previewP50Ms: previewFigures.p50,
        previewP95Ms: previewFigures.p95,
        previewMaxMs: previewFigures.max,
        countP50Ms: countFigures.p50,
        countP95Ms: countFigures.p95,
        countMaxMs: countFigures.max,
        countShape: counted.shape,
        countSql: counted.query.sql,
        planCount: plan,
      });
      goals.push(
        {
          goal: segmentGoal(c),
          value: previewFigures.p95,
          limit: P95_LIMIT_MS,
          unit: "ms",
          met: sameAudience && previewFigures.p95 <= P95_LIMIT_MS,
        },
        {
          goal: `${c.name} (${c.target}): count p95`,
          value: countFigures.p95,
          limit: P95_LIMIT_MS,
          unit: "ms",
          met: sameAudience && countFigures.p95 <= P95_LIMIT_MS,
        },
      );
    }
  } finally {
    sqlite.close();
  }
  return { name: "segments", figures: { tenantCustomers: tenantSize, segments: figures }, goals };
}
