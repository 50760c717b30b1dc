// Dashboard bench section, on the seeded tenant (1,000,000 customers by default), which it gives
// 200 segments, 100 completed campaigns and 10,000,000 delivery rows (BENCH_DELIVERIES), written
// with raw SQL, their counters set from the rows:
// - the snapshots job's first run (filling in the tenant's history) and a run after it;
// - the dashboard's data: dashboardSummary in this process (what the page's loader calls), and
//   through the production server GET /dashboard.data and GET /dashboard with a session cookie,
//   GET /api/stats/historical and GET /api/ai/insights with a bearer token (a route that does not
//   answer 200 is skipped and the report says why);
// - the same figures computed the slow way with raw better-sqlite3 (counting the customers,
//   scanning their creation times for the weekly series, reading the delivery rows for the
//   rates), checked equal to the service's, to show what the snapshots and counters save.
import { once } from "node:events";
import Database from "better-sqlite3";
import { load, type LoadStats } from "../../helpers/load.ts";
import type { BenchContext, BenchSection } from "../../harness/types.ts";
import { spawnProductionServer, waitForHealth } from "../../helpers/server-processes.ts";
import { freePort } from "../../../tests/helpers/production-server.ts";

const round = (n: number) => Math.round(n * 100) / 100;
const DAY = 86_400_000;

function percentiles(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
  return { count: s.length, p50: round(at(50)), p95: round(at(95)), max: round(s.at(-1) ?? 0) };
}

export default async function dashboardSection(ctx: BenchContext): Promise<BenchSection> {
  const goals: BenchSection["goals"] = [];
  const figures: Record<string, unknown> = {};
  const { newId } = await import("../../../app/lib/id.ts");
  const { dayStartMs, dayOf, monthStart, weekStarts, performanceFigures } =
    await import("../../../app/lib/dashboard.ts");
  const { takeSnapshots } = await import("../../../app/services/dashboard/snapshots.server.ts");
  const { dashboardSummary } = await import("../../../app/services/dashboard/stats.server.ts");
  const { issueToken } = await import("../../../app/services/token.server.ts");
  const { cookieFor } = await import("../../../tests/helpers/requests.ts");

  const raw = new Database(ctx.dbFile);
  raw.pragma("busy_timeout = 10000");
  raw.pragma("cache_size = -524288");
  const now = Date.now();

  // ---- Data: 200 segments, 100 campaigns, 10,000,000 delivery rows ------------------------------
  const deliveries = Number(process.env.BENCH_DELIVERIES ?? 10_000_000);
  const campaignCount = 100;
  const perCampaign = Math.floor(deliveries / campaignCount);
  ctx.log(`dashboard: 200 segments, ${campaignCount} campaigns, ${deliveries.toLocaleString("en-IN")} delivery rows`);
  let t = performance.now();
  const segmentIds: string[] = [];
  raw.transaction(() => {
    const insert = raw.prepare(
      `INSERT INTO "Segment" ("id", "userId", "name", "description", "logicType", "conditions", "createdAt", "updatedAt")
       VALUES (?, ?, ?, '', 'AND', ?, ?, ?)`,
    );
    for (let i = 0; i < 200; i++) {
      const at = now - (200 - i) * DAY - 3_600_000;
      const id = newId(new Date(at));
      segmentIds.push(id);
      insert.run(
        id,
        ctx.userId,
        `Bench segment ${i + 1}`,
        JSON.stringify({ totalSpend: { $gte: 100 + i * 50 } }),
        at,
        at,
      );
    }
  })();
  raw.pragma("synchronous = OFF");
  let seq = Number(raw.prepare(`SELECT coalesce(max("seq"), 0) FROM "Delivery"`).pluck().get());
  const insertCampaign = raw.prepare(
    `INSERT INTO "Campaign" ("id", "userId", "segmentId", "segmentName", "name", "message", "status", "audienceSize",
       "launchedAt", "completedAt", "createdAt", "updatedAt", "firstSeq", "lastSeq")
     VALUES (?, ?, ?, ?, ?, 'Hi {NAME}', 'Completed', ?, ?, ?, ?, ?, ?, ?)`,
  );
  // Statuses and engagement vary by campaign: delivered 70–95 %, failed and bounced the rest but a
  // few "sent"; opened 10–40 % of delivered, clicked 5–25 % of opened.
  const insertRows = raw.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO "Delivery" ("seq", "campaignId", "userId", "customerId", "status", "attempts", "updatedAt", "openedAt", "clickedAt")
     SELECT ? + i, ?, ?, printf('%024x', i),
       CASE WHEN i % 100 < ? THEN 'delivered' WHEN i % 100 < ? THEN 'failed' WHEN i % 100 < 99 THEN 'bounced' ELSE 'sent' END,
       1, ?,
       CASE WHEN i % 100 < ? AND (i / 100) % 100 < ? THEN ? END,
       CASE WHEN i % 100 < ? AND (i / 100) % 100 < ? AND (i / 37) % 100 < ? THEN ? END
     FROM n`,
  );
  const setCounters = raw.prepare(
    `UPDATE "Campaign" SET
       "deliveredCount" = (SELECT count(*) FROM "Delivery" WHERE "seq" BETWEEN @first AND @last AND "status" = 'delivered'),
       "failedCount" = (SELECT count(*) FROM "Delivery" WHERE "seq" BETWEEN @first AND @last AND "status" = 'failed'),
       "bouncedCount" = (SELECT count(*) FROM "Delivery" WHERE "seq" BETWEEN @first AND @last AND "status" = 'bounced'),
       "sentCount" = (SELECT count(*) FROM "Delivery" WHERE "seq" BETWEEN @first AND @last AND "status" = 'sent'),
       "openedCount" = (SELECT count(*) FROM "Delivery" WHERE "seq" BETWEEN @first AND @last AND "status" = 'delivered' AND "openedAt" IS NOT NULL),
       "clickedCount" = (SELECT count(*) FROM "Delivery" WHERE "seq" BETWEEN @first AND @last AND "status" = 'delivered' AND "clickedAt" IS NOT NULL)
     WHERE "id" = @id`,
  );
  for (let c = 0; c < campaignCount; c++) {
    const created = now - (campaignCount - c) * 3 * DAY;
    const launched = created + 3_600_000;
    const id = newId(new Date(created));
    const segment = segmentIds[c % segmentIds.length];
    const delivered = 70 + (c % 26);
    const failed = delivered + Math.floor((99 - delivered) / 2);
    const opened = 10 + (c % 31);
    const clicked = 5 + (c % 21);
    const first = seq + 1;
    const last = seq + perCampaign;
    raw.transaction(() => {
      insertCampaign.run(
        id,
        ctx.userId,
        segment,
        `Bench segment ${(c % segmentIds.length) + 1}`,
        `Bench campaign ${c + 1}`,
        perCampaign,
        launched,
        launched + 3_600_000,
        created,
        launched,
        first,
        last,
      );
      insertRows.run(
        perCampaign,
        seq,
        id,
        ctx.userId,
        delivered,
        failed,
        launched,
        delivered,
        opened,
        launched,
        delivered,
        opened,
        clicked,
        launched,
      );
      setCounters.run({ first, last, id });
    })();
    seq = last;
    if ((c + 1) % 20 === 0) ctx.log(`  ${(c + 1) * perCampaign} delivery rows`);
  }
  raw.pragma("synchronous = NORMAL");
  raw.exec(`ANALYZE "Delivery"; ANALYZE "Campaign"; ANALYZE "Segment"`);
  figures.data = {
    customers: ctx.customers,
    segments: 200,
    campaigns: campaignCount,
    deliveryRows: perCampaign * campaignCount,
    writeSeconds: round((performance.now() - t) / 1000),
  };

  // ---- The snapshots job ----------------------------------------------------------------------
  ctx.log("dashboard: the snapshots job, first run (fills in the history) and the next");
  const jobDb = new Database(ctx.dbFile);
  jobDb.pragma("busy_timeout = 10000");
  t = performance.now();
  const first = await takeSnapshots(jobDb);
  const firstMs = performance.now() - t;
  t = performance.now();
  const next = await takeSnapshots(jobDb);
  const nextMs = performance.now() - t;
  jobDb.close();
  figures.snapshotsJob = {
    firstRun: { ...first, seconds: round(firstMs / 1000) },
    nextRun: { ...next, ms: round(nextMs) },
  };

  // ---- dashboardSummary in this process (the page loader's data) --------------------------------
  ctx.log("dashboard: dashboardSummary in process");
  for (let i = 0; i < 20; i++) await dashboardSummary(ctx.userId);
  const samples: number[] = [];
  const until = performance.now() + 5000;
  let summary = await dashboardSummary(ctx.userId);
  while (performance.now() < until) {
    const s = performance.now();
    summary = await dashboardSummary(ctx.userId);
    samples.push(performance.now() - s);
  }
  const inProcess = percentiles(samples);
  figures.dashboardSummaryInProcess = inProcess;
  goals.push({
    goal: "dashboard data (dashboardSummary) p95",
    value: inProcess.p95,
    limit: 100,
    unit: "ms",
    met: inProcess.p95 < 100,
  });

  // ---- The slow way: raw better-sqlite3 counting rows ---------------------------------------------
  ctx.log("dashboard: the same figures the slow way (raw better-sqlite3)");
  const today = dayOf(new Date());
  const monthStartMs = dayStartMs(monthStart(today));
  const weeks = weekStarts(new Date());
  const firstWeekMs = dayStartMs(weeks[0]);
  const slow = {
    counts: raw.prepare(
      `SELECT (SELECT count(*) FROM "Customer" WHERE "userId" = @user) AS customers,
              (SELECT count(*) FROM "Segment" WHERE "userId" = @user) AS segments,
              (SELECT count(*) FROM "Campaign" WHERE "userId" = @user) AS campaigns`,
    ),
    previous: raw.prepare(
      `SELECT (SELECT count(*) FROM "Customer" WHERE "userId" = @user AND "createdAt" < @before) AS customers,
              (SELECT count(*) FROM "Segment" WHERE "userId" = @user AND "createdAt" < @before) AS segments,
              (SELECT count(*) FROM "Campaign" WHERE "userId" = @user AND "createdAt" < @before) AS campaigns`,
    ),
    weekly: raw.prepare(
      `SELECT CAST(("createdAt" - @from) / 604800000 AS INTEGER) AS week, count(*) AS n FROM "Customer"
       WHERE "userId" = @user AND "createdAt" >= @from GROUP BY week`,
    ),
    performance: raw.prepare(
      `SELECT sum("status" = 'delivered') AS delivered,
              sum("status" IN ('delivered', 'failed', 'bounced')) AS attempted,
              sum("status" = 'delivered' AND "openedAt" IS NOT NULL) AS opened,
              sum("status" = 'delivered' AND "clickedAt" IS NOT NULL) AS clicked
       FROM "Delivery" WHERE "campaignId" IN (SELECT "id" FROM "Campaign" WHERE "userId" = @user)`,
    ),
  };
  const slowSamples: Record<keyof typeof slow | "total", number[]> = {
    counts: [],
    previous: [],
    weekly: [],
    performance: [],
    total: [],
  };
  let slowFigures: Record<string, unknown> = {};
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const timed = <T>(key: keyof typeof slow, run: () => T): T => {
      const s = performance.now();
      const out = run();
      slowSamples[key].push(performance.now() - s);
      return out;
    };
    const counts = timed("counts", () => slow.counts.get({ user: ctx.userId }));
    const previous = timed("previous", () => slow.previous.get({ user: ctx.userId, before: monthStartMs }));
    const weekly = timed("weekly", () => slow.weekly.all({ user: ctx.userId, from: firstWeekMs })) as {
      week: number;
      n: number;
    }[];
    const perf = timed("performance", () => slow.performance.get({ user: ctx.userId })) as {
      delivered: number;
      attempted: number;
      opened: number;
      clicked: number;
    };
    slowSamples.total.push(performance.now() - t0);
    slowFigures = {
      counts,
      previous,
      weeklyCustomers: weeks.map((_, w) => weekly.find((r) => r.week === w)?.n ?? 0),
      performance: performanceFigures(perf),
    };
  }
  const ours = {
    counts: summary.counts,
    previous: summary.previous,
    weeklyCustomers: summary.weekly.map((w) => w.customersAdded),
    performance: summary.performance,
  };
  const same = JSON.stringify(ours) === JSON.stringify(slowFigures);
  figures.rawSlowWay = {
    what: "COUNT(*) over the tenant's customers, segments and campaigns (now and before the month), the customers' creation times for 12 weeks, the delivery rows of the tenant's campaigns for the rates",
    ms: Object.fromEntries(Object.entries(slowSamples).map(([k, v]) => [k, percentiles(v)])),
    sameFigures: same,
    ratioOfP95: round(percentiles(slowSamples.total).p95 / Math.max(0.01, inProcess.p95)),
  };
  if (!same) figures.rawSlowWayDifferences = { ours, slow: slowFigures };
  goals.push({
    goal: "dashboard figures equal the raw slow-way figures",
    value: same ? 1 : 0,
    limit: 1,
    unit: "equal",
    met: same,
  });
  raw.close();

  // ---- Through the production server ----------------------------------------------------------
  const port = await freePort();
  const serverBase = `http://127.0.0.1:${port}`;
  ctx.log(`dashboard: the production server on ${port}`);
  ctx.log(
    `dashboard: ${JSON.stringify({ snapshotsJob: figures.snapshotsJob, inProcess, rawSlowWay: figures.rawSlowWay })}`,
  );
  const { server } = spawnProductionServer(port, { env: { DELIVERY_CHANNEL: "simulated" } });
  try {
    await Promise.race([
      waitForHealth(serverBase),
      once(server, "exit").then(([code]) => {
        throw new Error(`the server exited (${String(code)}) before it answered`);
      }),
    ]);
    const bearer = { Authorization: `Bearer ${await issueToken(ctx.userId)}` };
    const cookie = { Cookie: await cookieFor(ctx.userId) };
    const endpoints: { name: string; path: string; headers: Record<string, string>; limit: number }[] = [
      { name: "GET /api/stats/historical", path: "/api/stats/historical", headers: bearer, limit: 100 },
      { name: "GET /dashboard.data (the page's loader data)", path: "/dashboard.data", headers: cookie, limit: 100 },
      { name: "GET /dashboard (the page)", path: "/dashboard", headers: cookie, limit: 100 },
      { name: "GET /api/ai/insights", path: "/api/ai/insights", headers: bearer, limit: 200 },
    ];
    const http: Record<string, (LoadStats & { firstRequestMs: number }) | { skipped: string }> = {};
    for (const e of endpoints) {
      // The first answer is timed on its own: insights are cached per tenant, so the load below
      // measures the cached answer and this one the cold computation.
      const probeStart = performance.now();
      const probe = await fetch(`${serverBase}${e.path}`, { headers: e.headers, redirect: "manual" });
      const body = await probe.text();
      const firstMs = round(performance.now() - probeStart);
      if (probe.status !== 200) {
        http[e.name] = { skipped: `answered ${probe.status}: ${body.slice(0, 200)}` };
        ctx.log(`dashboard: ${e.name} skipped (${probe.status})`);
        continue;
      }
      ctx.log(`dashboard: ${e.name}`);
      const stats = await load({ base: serverBase, paths: [e.path], headers: e.headers, connections: 1, seconds: 5 });
      http[e.name] = { ...stats, firstRequestMs: firstMs };
      goals.push({ goal: `${e.name} p95`, value: stats.p95, limit: e.limit, unit: "ms", met: stats.p95 < e.limit });
    }
    figures.server = http;
  } catch (error) {
    // The figures above stand; the report says what the server part could not do.
    figures.serverError = error instanceof Error ? error.message : String(error);
    goals.push({
      goal: "the dashboard's calls through the production server",
      value: 0,
      limit: 1,
      unit: "ran",
      met: false,
    });
  } finally {
    server.kill("SIGTERM");
    await once(server, "exit").catch(() => undefined);
  }
  return { name: "dashboard", figures, goals };
}
