// Customers on PostgreSQL: the production server on the copied database (DATABASE_URL is it in
// this process, and the server inherits it), loaded from the bench's client process as
// bench/sections/sqlite/customers.ts loads it on SQLite: GET /api/customers/{id} at 50 connections over
// the same 5,000 customers, and a 50-row page of the API list, with and without a search term, at
// 1 connection (the goal) and at 10. Beside them raw pg (one client, one query at a time) reading
// the same rows, for the ratios. The CSV import, the screens and the sorts are not measured here.
import { once } from "node:events";
import Database from "better-sqlite3";
import pg from "pg";
import { load, loadClient } from "../../helpers/load.ts";
import { sampleCustomerIds } from "../../harness/postgres.ts";
import { stats } from "../../helpers/latency-stats.ts";
import { spawnProductionServer, treeCpuSeconds, waitForHealth } from "../../helpers/server-processes.ts";
import type { BenchSection, PostgresBenchContext } from "../../harness/types.ts";
import { freePort } from "../../../tests/helpers/production-server.ts";

async function rawTimes(n: number, run: (i: number) => Promise<unknown>) {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await run(i);
    out.push(performance.now() - t);
  }
  return stats(out);
}

export default async function customersOnPostgres(ctx: PostgresBenchContext): Promise<BenchSection> {
  const goals: BenchSection["goals"] = [];
  const figures: Record<string, unknown> = {};
  const { issueToken } = await import("../../../app/services/token.server.ts");

  // The same customers as on SQLite: the copy kept their ids.
  const ids = await sampleCustomerIds(ctx);
  const sqlite = new Database(ctx.dbFile, { readonly: true });
  const term = (
    sqlite.prepare(`SELECT "lastName" FROM "Customer" WHERE "userId" = ? LIMIT 1`).get(ctx.userId) as {
      lastName: string;
    }
  ).lastName.toLowerCase();
  sqlite.close();

  const port = await freePort();
  ctx.log(`customers: starting the production server on PostgreSQL, port ${port}`);
  const { server, base } = spawnProductionServer(port);
  const raw = new pg.Client({ connectionString: ctx.databaseUrl });
  await raw.connect();
  try {
    await waitForHealth(base);
    const auth = { Authorization: `Bearer ${await issueToken(ctx.userId)}` };
    const check = async (url: string) => {
      const r = await fetch(url, { headers: auth });
      if (!r.ok) throw new Error(`${url} answered ${r.status}: ${await r.text()}`);
      await r.arrayBuffer();
    };
    for (let i = 0; i < 200; i++) await check(`${base}/api/customers/${ids[i % ids.length]}`);
    await check(`${base}/api/customers?limit=50`);

    const seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
    ctx.log(`customers: GET /api/customers/{id} at 50 connections for ${seconds} s (${loadClient()})`);
    const cpuBefore = treeCpuSeconds(server.pid ?? 0);
    const t = performance.now();
    const byId = await load({
      base,
      paths: ids.map((id) => `/api/customers/${id}`),
      headers: auth,
      connections: 50,
      seconds,
    });
    const wallSeconds = (performance.now() - t) / 1000;
    const serverCpu = treeCpuSeconds(server.pid ?? 0) - cpuBefore;
    const page = async (label: string, pagePath: string) => {
      ctx.log(`customers: ${label}`);
      const one = await load({
        base,
        paths: [pagePath],
        headers: auth,
        connections: 1,
        seconds: Math.ceil(seconds / 2),
      });
      const ten = await load({
        base,
        paths: [pagePath],
        headers: auth,
        connections: 10,
        seconds: Math.ceil(seconds / 2),
      });
      return { oneConnection: one, tenConnections: ten };
    };
    const apiList = await page("API list page", `/api/customers?limit=50`);
    const apiSearch = await page(`API search "${term}"`, `/api/customers?limit=50&q=${encodeURIComponent(term)}`);

    // Raw pg, one query at a time on one connection: the floor of a read through the network
    // protocol, which better-sqlite3 (a function call) does not pay.
    const byIdSql = `SELECT * FROM "Customer" WHERE "id" = $1 AND "userId" = $2`;
    const rawById = await rawTimes(5000, (i) => raw.query(byIdSql, [ids[i % ids.length], ctx.userId]));
    const plan = (
      await raw.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${byIdSql}`, [ids[0], ctx.userId])
    ).rows.map((r) => r["QUERY PLAN"]);
    const ratio = (a: number, b: number) => Math.round((a / Math.max(b, 0.001)) * 10) / 10;
    figures.getById = {
      ...byId,
      rawPg: rawById,
      p99RatioToRaw: ratio(byId.p99, rawById.p99),
      // The server's CPU (all its processes) over the 50-connection load: with 2 cores shared by
      // the server, PostgreSQL's backends and the load client, a share near 1 core is the ceiling.
      serverCpuCoresUsed: Math.round((serverCpu / wallSeconds) * 100) / 100,
      plan,
    };
    figures.listPage = { pageSize: 50, searchTerm: term, api: apiList, apiSearch };
    goals.push({
      goal: "GET /api/customers/{id} p99 at 50 connections",
      value: byId.p99,
      limit: 50,
      unit: "ms",
      met: byId.p99 < 50,
    });
    for (const [label, s] of [
      ["API list page (50 rows) p99", apiList],
      ["API list page with search p99", apiSearch],
    ] as const)
      goals.push({ goal: label, value: s.oneConnection.p99, limit: 50, unit: "ms", met: s.oneConnection.p99 < 50 });
  } finally {
    await raw.end();
    server.kill("SIGTERM");
    await once(server, "exit").catch(() => undefined);
  }
  return { name: "customers", figures, goals };
}
