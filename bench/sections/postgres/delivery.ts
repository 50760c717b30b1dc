// Delivery on PostgreSQL, the questions bench/sections/sqlite/delivery.ts asks of SQLite, on the copied
// database (this process's DATABASE_URL):
// - the launch snapshot through the product's launch (launches.start on PostgreSQL, slices of
//   5,000 rows a transaction) against raw pg running one INSERT … SELECT of every row;
// - receipts in batches of 1,000 as the server handles them (queueReceipts, then
//   applyQueuedReceipts) against raw pg running one UPDATE … FROM unnest() a batch;
// - the receipts inbox applied by one transaction at a time against two side by side
//   (applyQueuedReceipts' appliers), in alternating rounds, the counters checked each round;
// - a campaign to every customer sent by BENCH_POSTGRES_INSTANCES (default 2) production servers
//   on the one database, each with its own delivery job, through the built-in vendor in a process
//   of its own (receipts posted to the first instance; any instance's job applies them): launch to
//   every row final in messages/s, with the CPU each process used over it (the instances, the
//   vendor, PostgreSQL's server, whose figure includes any other work it did meanwhile); while it
//   sends, the same reads as on SQLite on the first instance and ten writers on the last;
// - the campaign's detail and a page of its delivery log at 1,000,000 rows.
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import path from "node:path";
import pg from "pg";
import { load } from "../../helpers/load.ts";
import { sampleCustomerIds } from "../../harness/postgres.ts";
import {
  postmasterPid,
  type Rss,
  spawnProductionServer,
  treeCpuSeconds,
  treeRss,
  waitForHealth,
} from "../../helpers/server-processes.ts";
import type { BenchSection, PostgresBenchContext } from "../../harness/types.ts";
import type { Receipt } from "../../../app/models/deliveries/receipts/rows.ts";
import { runWriters } from "../../../tests/helpers/writers.ts";
import { freePort } from "../../../tests/helpers/production-server.ts";

const root = path.resolve(import.meta.dirname, "../../..");
const tsx = path.join(root, "node_modules/.bin/tsx");
const round = (n: number) => Math.round(n * 100) / 100;
/** Rounds of the receipt appliers' comparison, alternating one applier and two, and rows a round. */
const APPLIER_ROUNDS = 4;
const APPLIER_ROWS_PER_ROUND = 30_000;

type Counters = {
  pendingCount: number;
  sentCount: number;
  audienceSize: number;
  deliveredCount: number;
  failedCount: number;
  bouncedCount: number;
  status: string;
};

export default async function deliveryOnPostgres(ctx: PostgresBenchContext): Promise<BenchSection> {
  const goals: BenchSection["goals"] = [];
  const figures: Record<string, unknown> = {};
  const { launches } = await import("../../../app/models/launch/store.server.ts");
  const { closeConnection, openConnection } = await import("../../../app/db/connection.server.ts");
  const { deliveryReceipts } = await import("../../../app/models/deliveries/receipts/store.server.ts");
  const { segmentAudience } = await import("../../../app/models/segments/audience/store.server.ts");
  const { parseConditions } = await import("../../../app/lib/segment-parse.ts");
  const { newId } = await import("../../../app/lib/id.ts");
  const { deliveryId } = await import("../../../app/lib/campaigns.ts");
  const { issueToken } = await import("../../../app/services/token.server.ts");
  const { createSegment } = await import("../../../app/services/segments.server.ts");
  const instances = Number(process.env.BENCH_POSTGRES_INSTANCES ?? 2);
  if (!Number.isInteger(instances) || instances < 1 || instances > 4)
    throw new Error("BENCH_POSTGRES_INSTANCES must be a whole number from 1 to 4");

  const parsed = parseConditions({ totalSpend: { $gte: 0 } });
  if (!parsed.ok) throw new Error(parsed.message);
  const everyone = parsed.tree;
  const segment = await createSegment(ctx.userId, { name: "Bench everyone", description: "", tree: everyone });
  const raw = new pg.Pool({ connectionString: ctx.databaseUrl, max: 2, application_name: "crm bench raw" });

  try {
    // ---- Launch snapshot ----------------------------------------------------------------------
    const where = segmentAudience.audienceWhere(ctx.userId, everyone);
    ctx.log("delivery: launch snapshot");
    // One read of the customers both snapshots read, so the buffer cache is as warm for each.
    await raw.query(`SELECT count(*), sum(length("email")) FROM "Customer" WHERE ${where.sql}`, where.params);
    const snapshotId = newId();
    const launchConnection = await launches.openConnection(ctx.dbFile);
    let t = performance.now();
    const launch = await launches.start(
      launchConnection,
      {
        id: snapshotId,
        userId: ctx.userId,
        segmentId: segment.id,
        segmentName: segment.name,
        name: "Snapshot bench",
        subject: "s",
        description: "",
        message: "m",
      },
      where,
    );
    let longestSliceMs = 0;
    for (;;) {
      const s0 = performance.now();
      const more = await launch.step();
      longestSliceMs = Math.max(longestSliceMs, performance.now() - s0);
      if (!more) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const audience = await launch.finish();
    const snapshotMs = performance.now() - t;
    await closeConnection(launchConnection);
    // Raw: one INSERT … SELECT of every row in one transaction, then removed again (not timed).
    const rawCampaignId = newId();
    const client = await raw.connect();
    let rawSnapshotMs: number;
    try {
      t = performance.now();
      await client.query("BEGIN");
      await client.query(
        `INSERT INTO "Campaign" ("id", "userId", "name", "message", "updatedAt") VALUES ($1, $2, 'raw', 'm', now())`,
        [rawCampaignId, ctx.userId],
      );
      const base = Number(
        (await client.query<{ m: string }>(`SELECT coalesce(max("seq"), 0) AS m FROM "Delivery"`)).rows[0].m,
      );
      const n = where.params.length;
      await client.query(
        `INSERT INTO "Delivery" ("seq", "campaignId", "userId", "customerId", "name", "email", "phone", "status", "nextAttemptAt", "updatedAt")
         SELECT $${n + 1}::int + row_number() OVER (ORDER BY "id"), $${n + 2}, "userId", "id", trim("firstName" || ' ' || "lastName"), "email", "phone", 'pending', 0, 0
         FROM "Customer" WHERE ${where.sql} ORDER BY "id"`,
        [...where.params, base, rawCampaignId],
      );
      await client.query("COMMIT");
      rawSnapshotMs = performance.now() - t;
      await client.query(`DELETE FROM "Delivery" WHERE "campaignId" = $1`, [rawCampaignId]);
      await client.query(`DELETE FROM "Campaign" WHERE "id" = $1`, [rawCampaignId]);
    } finally {
      client.release();
    }
    figures.launchSnapshot = {
      recipients: audience,
      seconds: round(snapshotMs / 1000),
      longestSliceMs: round(longestSliceMs),
      rawInsertSelectSeconds: round(rawSnapshotMs / 1000),
      ratioToRaw: round(snapshotMs / rawSnapshotMs),
      what: "the server's sliced launch (5,000 rows a transaction, committed) vs one INSERT … SELECT of every row in one transaction (committed), raw pg",
    };
    goals.push({
      goal: `launch snapshot of ${audience.toLocaleString("en-IN")} rows`,
      value: snapshotMs / 1000,
      limit: 5,
      unit: "s",
      met: snapshotMs / 1000 < 5,
    });

    // ---- Receipts -----------------------------------------------------------------------------
    ctx.log("delivery: receipts in batches of 1,000");
    const firstSeq = Number(
      (await raw.query<{ f: number }>(`SELECT "firstSeq" AS f FROM "Campaign" WHERE "id" = $1`, [snapshotId])).rows[0]
        .f,
    );
    // The snapshot's last rows are kept for the appliers' rounds below (a tenth of it at most).
    const applierRows = Math.min(APPLIER_ROWS_PER_ROUND, Math.floor(audience / 10 / APPLIER_ROUNDS));
    const applierRowsFrom = firstSeq + audience - APPLIER_ROUNDS * applierRows;
    const receiptCount = Math.min(200_000, audience - APPLIER_ROUNDS * applierRows);
    const now = Date.now();
    const connection = openConnection({ poolSize: 2, applicationName: "crm bench receipts" });
    try {
      t = performance.now();
      for (let i = 0; i < receiptCount; i += 1000) {
        const batch = [];
        for (let j = i; j < Math.min(receiptCount, i + 1000); j++)
          batch.push({ id: deliveryId(snapshotId, firstSeq + j), event: "delivered" as const, at: now });
        await deliveryReceipts.queueReceipts(connection, batch);
        await deliveryReceipts.applyQueuedReceipts(connection);
      }
    } finally {
      await closeConnection(connection);
    }
    const receiptsMs = performance.now() - t;
    // Raw: the next rows (same states), one UPDATE of 1,000 rows from an array a transaction.
    const rawStart = firstSeq + receiptCount;
    const rawCount = Math.min(receiptCount, audience - APPLIER_ROUNDS * applierRows - receiptCount);
    t = performance.now();
    for (let i = 0; i < rawCount; i += 1000) {
      const seqs = Array.from({ length: Math.min(1000, rawCount - i) }, (_, k) => rawStart + i + k);
      await raw.query(
        `UPDATE "Delivery" SET "status" = 'delivered', "updatedAt" = $1
         FROM unnest($2::int[]) AS r("seq") WHERE "Delivery"."seq" = r."seq" AND "status" IN ('pending', 'sent')`,
        [now, seqs],
      );
    }
    const rawReceiptsMs = performance.now() - t;
    const receiptsPerSecond = receiptCount / (receiptsMs / 1000);
    figures.receipts = {
      applied: receiptCount,
      perSecond: Math.round(receiptsPerSecond),
      rawPgPerSecond: rawCount ? Math.round(rawCount / (rawReceiptsMs / 1000)) : null,
      ratioToRaw: rawCount ? round(receiptsMs / receiptCount / (rawReceiptsMs / rawCount)) : null,
      what: "queueReceipts (the endpoint's write) then applyQueuedReceipts (the job: read each row, check the move is forward, write it, update the campaign's counters) vs one UPDATE … FROM unnest() of 1,000 rows a statement with no counters",
    };
    goals.push({
      goal: "receipts applied per second (batches of 1,000)",
      value: receiptsPerSecond,
      limit: 50_000,
      unit: "/s",
      met: receiptsPerSecond >= 50_000,
    });
    // ---- Receipts applied by one transaction at a time and by two side by side ----------------
    // applyQueuedReceipts' appliers (decision 0035): alternating rounds on the snapshot's last rows,
    // which neither receipts run above touched, each round a delivery for every row, an image load (an
    // event with an id) for a third and a click for a tenth, queued 250 to an inbox row and applied
    // 8 inbox rows a call, as the delivery job asks on PostgreSQL. The campaign's counters must
    // grow by exactly each round's events (every event counted once).
    if (applierRows < 100) figures.receiptAppliers = { skipped: `${applierRows} rows a round: too few customers` };
    else {
      ctx.log("delivery: receipts by one applier and by two side by side");
      const { DEFAULT_FEEDBACK_POLICY } = await import("../../../app/models/deliveries/receipts/rows.ts");
      const counters = async () =>
        (
          await raw.query<{ delivered: number; opened: number; opens: number; clicks: number }>(
            `SELECT "deliveredCount" AS "delivered", "openedCount" AS "opened", "opensTotal" AS "opens", "clicksTotal" AS "clicks"
             FROM "Campaign" WHERE "id" = $1`,
            [snapshotId],
          )
        ).rows[0];
      const appliersConnection = openConnection({ poolSize: 4, applicationName: "crm bench receipt appliers" });
      const rounds: { appliers: number; receipts: number; ms: number; perSecond: number }[] = [];
      try {
        for (let r = 0; r < APPLIER_ROUNDS; r++) {
          const appliers = r % 2 === 0 ? 1 : 2;
          const from = applierRowsFrom + r * applierRows;
          const at = Date.now();
          const receipts: Receipt[] = [];
          for (let i = 0; i < applierRows; i++) {
            const id = deliveryId(snapshotId, from + i);
            receipts.push({ id, event: "delivered", at });
            if (i % 3 === 0) receipts.push({ id, event: "opened", at: at + 1, source: "pixel", eventId: randomUUID() });
            if (i % 10 === 0)
              receipts.push({ id, event: "clicked", at: at + 60_000, source: "link", link: 0, eventId: randomUUID() });
          }
          for (let i = 0; i < receipts.length; i += 10_000)
            await deliveryReceipts.queueReceipts(appliersConnection, receipts.slice(i, i + 10_000));
          const before = await counters();
          t = performance.now();
          while (
            (await deliveryReceipts.applyQueuedReceipts(appliersConnection, 8, DEFAULT_FEEDBACK_POLICY, appliers))
              .batches > 0
          );
          const ms = performance.now() - t;
          const after = await counters();
          const opened = Array.from({ length: applierRows }, (_, i) => i).filter(
            (i) => i % 3 === 0 || i % 10 === 0,
          ).length;
          const want = { delivered: applierRows, opened, opens: opened, clicks: Math.ceil(applierRows / 10) };
          const got = {
            delivered: after.delivered - before.delivered,
            opened: after.opened - before.opened,
            opens: after.opens - before.opens,
            clicks: after.clicks - before.clicks,
          };
          if (JSON.stringify(got) !== JSON.stringify(want))
            throw new Error(
              `receipt appliers, round ${r + 1}: counters grew by ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`,
            );
          rounds.push({
            appliers,
            receipts: receipts.length,
            ms: Math.round(ms),
            perSecond: Math.round((receipts.length / ms) * 1000),
          });
        }
      } finally {
        await closeConnection(appliersConnection);
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const of = (n: number) => rounds.filter((r) => r.appliers === n).map((r) => r.perSecond);
      figures.receiptAppliers = {
        rowsPerRound: applierRows,
        rounds,
        medianPerSecond: { oneApplier: median(of(1)), twoAppliers: median(of(2)) },
        what: "applyQueuedReceipts(8 inbox rows a call) with one applying transaction at a time vs two side by side, alternating rounds on fresh rows of the snapshot: a delivery for every row, an image load for a third, a click for a tenth; the campaign's counters checked each round",
      };
    }

    // The snapshot campaign is not sent. Cancelled, its million queued rows would be ended by the
    // instances' jobs while they send the campaign below (800,000 updates that are not HOT, which
    // took a lone instance's job most of its time); it is deleted instead, and the table vacuumed
    // as autovacuum would after such a delete (this machine's PostgreSQL runs without it). The
    // SQLite section cancels its own, which its job ends in a few seconds.
    t = performance.now();
    await raw.query(`DELETE FROM "Delivery" WHERE "campaignId" = $1`, [snapshotId]);
    await raw.query(`DELETE FROM "Campaign" WHERE "id" = $1`, [snapshotId]);
    await raw.query(`VACUUM (ANALYZE) "Delivery"`);
    figures.snapshotRemovedSeconds = round((performance.now() - t) / 1000);

    // ---- A whole campaign, sent by several instances on one PostgreSQL --------------------------
    const ports = await Promise.all(Array.from({ length: instances }, () => freePort()));
    const vendorPort = await freePort();
    const receiptsSecret = "bench-receipts-secret-0123456789";
    const vendorKey = "bench-vendor-key-0123456789";
    const bases = ports.map((p) => `http://127.0.0.1:${p}`);
    ctx.log(`delivery: the built-in vendor on ${vendorPort}, ${instances} instances on ${ports.join(", ")}`);
    const vendor: ChildProcess = spawn(tsx, [path.join(import.meta.dirname, "../../helpers/vendor-process.ts")], {
      cwd: root,
      stdio: ["ignore", "inherit", "inherit"],
      env: {
        ...process.env,
        VENDOR_PORT: String(vendorPort),
        VENDOR_KEY: vendorKey,
        VENDOR_RECEIPTS_URL: `${bases[0]}/api/webhooks/delivery-receipts`,
        VENDOR_RECEIPTS_SECRET: receiptsSecret,
      },
    });
    const poolSize = process.env.BENCH_POSTGRES_POOL_SIZE;
    const servers: ChildProcess[] = ports.map(
      (port) =>
        spawnProductionServer(port, {
          env: {
            DELIVERY_CHANNEL: "simulated",
            SIMULATED_VENDOR_URL: `http://127.0.0.1:${vendorPort}`,
            SIMULATED_VENDOR_KEY: vendorKey,
            RECEIPTS_SECRET: receiptsSecret,
            ...(poolSize ? { DATABASE_POOL_SIZE: poolSize } : {}),
          },
        }).server,
    );
    const postmaster = await postmasterPid(ctx.databaseUrl);
    try {
      await Promise.all(bases.map((b) => waitForHealth(b)));
      await waitForHealth(`http://127.0.0.1:${vendorPort}`);
      const connections = (
        await raw.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name <> 'crm bench raw'`,
        )
      ).rows[0].n;
      const auth = { Authorization: `Bearer ${await issueToken(ctx.userId)}`, "Content-Type": "application/json" };
      const headers = { Authorization: auth.Authorization };
      const peaks: Rss[] = servers.map(() => ({ total: 0, anon: 0, file: 0 }));
      const sample = () =>
        servers.forEach((s, i) => {
          const now = treeRss(s.pid ?? 0);
          peaks[i].total = Math.max(peaks[i].total, now.total);
          peaks[i].anon = Math.max(peaks[i].anon, now.anon);
          peaks[i].file = Math.max(peaks[i].file, now.file);
        });
      sample();
      const sampler = setInterval(sample, 250);
      // What the database's sessions are doing while it sends, sampled every 250 ms: how many were
      // on the CPU, waiting for a lock, for the WAL's flush, or idle inside a transaction.
      const waits = new Map<string, number>();
      let waitSamples = 0;
      let sampling = true;
      const waitSampler = (async () => {
        while (sampling) {
          const rows = (
            await raw.query<{ what: string; n: number }>(
              `SELECT state || coalesce(': ' || wait_event_type || '/' || wait_event, '') AS what, count(*)::int AS n
               FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'
                 AND application_name <> 'crm bench raw'
               GROUP BY 1`,
            )
          ).rows;
          waitSamples += 1;
          for (const r of rows) waits.set(r.what, (waits.get(r.what) ?? 0) + r.n);
          await new Promise((r) => setTimeout(r, 250));
        }
      })();
      const cpu = () => ({
        instances: servers.map((s) => treeCpuSeconds(s.pid ?? 0)),
        vendor: treeCpuSeconds(vendor.pid ?? 0),
        postgres: postmaster ? treeCpuSeconds(postmaster) : 0,
      });
      const cpuAtLaunch = cpu();

      // /healthz every 50 ms while the launch writes its rows.
      const duringLaunch: number[] = [];
      let launching = true;
      const probeLaunch = (async () => {
        while (launching) {
          const p0 = performance.now();
          await fetch(`${bases[0]}/healthz`)
            .then((r) => r.arrayBuffer())
            .catch(() => undefined);
          duringLaunch.push(performance.now() - p0);
          await new Promise((r) => setTimeout(r, 50));
        }
      })();
      const launchedAt = performance.now();
      const launched = await fetch(`${bases[0]}/api/campaigns`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({
          name: "Bench campaign",
          subject: "Hello {NAME}",
          segmentId: segment.id,
          message: "Hi {NAME}, 10% off today.",
        }),
      });
      if (launched.status !== 201) throw new Error(`launch answered ${launched.status}: ${await launched.text()}`);
      const campaign = (await launched.json()) as { id: string; audienceSize: number };
      const launchMs = performance.now() - launchedAt;
      launching = false;
      await probeLaunch;
      duringLaunch.sort((a, b) => a - b);
      const healthzDuringLaunch = {
        count: duringLaunch.length,
        p50: round(duringLaunch[Math.floor(duringLaunch.length * 0.5)] ?? 0),
        p99: round(duringLaunch[Math.min(duringLaunch.length - 1, Math.floor(duringLaunch.length * 0.99))] ?? 0),
        max: round(duringLaunch[duringLaunch.length - 1] ?? 0),
      };
      ctx.log(
        `delivery: launched to ${campaign.audienceSize.toLocaleString("en-IN")} in ${(launchMs / 1000).toFixed(1)} s; loading the API while it sends`,
      );
      const readCounters = async () =>
        (
          await raw.query<Counters>(
            `SELECT "pendingCount", "sentCount", "audienceSize", "deliveredCount", "failedCount", "bouncedCount", "status" FROM "Campaign" WHERE "id" = $1`,
            [campaign.id],
          )
        ).rows[0];

      // Reads while it sends, on the first instance: the same customers as on SQLite.
      const ids = await sampleCustomerIds(ctx);
      const byId = await load({
        base: bases[0],
        paths: ids.map((id) => `/api/customers/${id}`),
        headers,
        connections: 50,
        seconds: 10,
      });
      const page = await load({
        base: bases[0],
        paths: ["/api/customers?limit=50"],
        headers,
        connections: 1,
        seconds: 5,
      });
      const peakBeforeWrites = peaks.map((p) => ({ ...p }));
      // Ten writers on the last instance, as marketers editing during a send.
      const writesStartedWhileSending = (await readCounters()).pendingCount > 0;
      const writers = await runWriters({
        base: bases[bases.length - 1],
        token: auth.Authorization.slice("Bearer ".length),
        writers: 10,
        seconds: Number(process.env.BENCH_WRITERS_SECONDS ?? 30),
        tag: `bench-writer-${Date.now().toString(36)}`,
      });
      let lost = 0;
      for (const k of writers.kept) {
        const row = (await raw.query<{ lastName: string }>(`SELECT "lastName" FROM "Customer" WHERE "id" = $1`, [k.id]))
          .rows[0];
        if (row?.lastName !== k.lastName) lost += 1;
      }
      const sendingThroughout = writesStartedWhileSending && (await readCounters()).pendingCount > 0;
      goals.push({
        goal: "writes while sending: answers >= 500 (10 writers)",
        value: writers.serverErrors + lost,
        limit: 0,
        unit: "errors",
        met: writers.serverErrors === 0 && lost === 0 && sendingThroughout,
      });
      goals.push({
        goal: "writes while sending: p99 (10 writers)",
        value: writers.p99,
        limit: 100,
        unit: "ms",
        met: writers.p99 <= 100,
      });

      // Until every row is final.
      let status = await readCounters();
      for (let i = 0; i < 7200 && (status.pendingCount > 0 || status.sentCount > 0); i++) {
        await new Promise((r) => setTimeout(r, 500));
        status = await readCounters();
        if (i % 20 === 0)
          ctx.log(
            `delivery: ${status.pendingCount.toLocaleString("en-IN")} pending, ${status.sentCount.toLocaleString("en-IN")} awaiting receipts`,
          );
      }
      const totalMs = performance.now() - launchedAt;
      clearInterval(sampler);
      sampling = false;
      await waitSampler;
      const cpuAtEnd = cpu();
      const seconds = totalMs / 1000;
      const cores = (used: number) => round(used / seconds);
      const rate = campaign.audienceSize / seconds;
      figures.campaign = {
        instances,
        recipients: campaign.audienceSize,
        launchSeconds: round(launchMs / 1000),
        launchToAllFinalSeconds: round(seconds),
        messagesPerSecond: Math.round(rate),
        final: status,
        healthzDuringLaunch,
        databaseConnectionsAtStart: connections,
        databasePoolSize: poolSize ? Number(poolSize) : "default (10)",
        // CPU over launch to every row final, as cores busy on average.
        // Sessions of the campaign's database in each state, on average over the samples.
        databaseSessions: {
          samples: waitSamples,
          average: Object.fromEntries(
            [...waits].sort((a, b) => b[1] - a[1]).map(([what, n]) => [what, round(n / Math.max(1, waitSamples))]),
          ),
        },
        cpuCores: {
          instances: cpuAtEnd.instances.map((c, i) => cores(c - cpuAtLaunch.instances[i])),
          vendor: cores(cpuAtEnd.vendor - cpuAtLaunch.vendor),
          postgres: cores(cpuAtEnd.postgres - cpuAtLaunch.postgres),
          what: "CPU seconds used from launch to every row final / those seconds: each instance's processes (primary, worker, job threads), the vendor, and PostgreSQL's server (every backend and its background processes, including work others gave it meanwhile); the load client and the writers are not counted",
        },
        serverPeakRssMegabytes: peakBeforeWrites.map((p) => Math.round(p.total / 1e6)),
        whileSending: {
          customerById50Connections: byId,
          customerPage1Connection: page,
          writes: {
            instance: bases.length - 1,
            writers: writers.writers,
            seconds: writers.seconds,
            writes: writers.writes,
            serverErrors: writers.serverErrors,
            clientErrors: writers.clientErrors,
            p50: writers.p50,
            p99: writers.p99,
            max: writers.max,
            acknowledgedCustomersChecked: writers.kept.length,
            acknowledgedButNotStored: lost,
            sendingThroughout,
            failures: writers.failures,
            byRoute: writers.byRoute,
          },
        },
      };
      goals.push({
        goal: `campaign of 1,000,000 by ${instances} instance${instances === 1 ? "" : "s"}: launch to every row final`,
        value: rate,
        limit: 5000,
        unit: "msg/s",
        met: rate >= 5000 && status.pendingCount === 0 && status.sentCount === 0,
        sqliteGoal: "campaign of 1,000,000: launch to every row final",
      });
      const worstPeak = Math.max(...peakBeforeWrites.map((p) => p.total)) / 1e6;
      goals.push({
        goal: "server peak RSS while sending (launch, sending, reads)",
        value: worstPeak,
        limit: 512,
        unit: "MB",
        met: worstPeak < 512,
      });
      goals.push({
        goal: "/healthz p99 while a launch writes 1,000,000 rows",
        value: healthzDuringLaunch.p99,
        limit: 100,
        unit: "ms",
        met: healthzDuringLaunch.p99 < 100,
      });
      goals.push({
        goal: "GET /api/customers/{id} p99 at 50 connections while sending",
        value: byId.p99,
        limit: 50,
        unit: "ms",
        met: byId.p99 < 50,
      });
      goals.push({
        goal: "50-row customer page p99 while sending",
        value: page.p99,
        limit: 50,
        unit: "ms",
        met: page.p99 < 50,
      });

      // ---- Reading a campaign of 1,000,000 rows ----------------------------------------------
      const detailApi = await load({
        base: bases[0],
        paths: [`/api/campaigns/${campaign.id}`],
        headers,
        connections: 1,
        seconds: 5,
      });
      const logPage = await load({
        base: bases[0],
        paths: [
          `/api/campaigns/${campaign.id}/logs?limit=50`,
          `/api/campaigns/${campaign.id}/logs?limit=50&status=failed`,
        ],
        headers,
        connections: 1,
        seconds: 5,
      });
      figures.reading = { detailApi, logPage };
      goals.push({
        goal: "/api/campaigns/{id} p99 at 1,000,000 rows",
        value: detailApi.p99,
        limit: 50,
        unit: "ms",
        met: detailApi.p99 < 50,
      });
      goals.push({
        goal: "a page of the delivery log p99 at 1,000,000 rows",
        value: logPage.p99,
        limit: 50,
        unit: "ms",
        met: logPage.p99 < 50,
      });
    } finally {
      for (const s of servers) s.kill("SIGTERM");
      vendor.kill("SIGTERM");
      await Promise.all(
        [...servers, vendor].map((p) => (p.exitCode === null ? once(p, "exit").catch(() => undefined) : undefined)),
      );
    }
  } finally {
    await raw.end();
  }
  return { name: "delivery", figures, goals };
}
