// Delivery bench section, on the seeded tenant (1,000,000 customers by default):
// - the launch snapshot: the campaign and a pending row per recipient, written by the server's
//   path (INSERT … SELECT in slices of 5,000 with the event loop free in between), against raw
//   better-sqlite3 running one INSERT … SELECT for all of it; both after one read of the same
//   customers, so neither pays for a cold page cache the other does not;
// - receipts in batches of 1,000 as the server handles them (the endpoint queues a batch, the
//   delivery job applies the queue), against raw better-sqlite3 running one prepared UPDATE per
//   receipt in a transaction;
// - a whole campaign to every customer through the real production server and the built-in
//   vendor (in a process of its own, as a real provider would be) on loopback: launch to every
//   row final, messages/s, the server's peak RSS (all its processes; also split into anonymous
//   memory and the database file's pages mapped by the read connection), /healthz while the
//   launch writes its million rows, GET /api/customers/{id} and a 50-row customer page while it
//   sends, and the event-loop delay of every process that answers requests (bench/helpers/loop-monitor.mjs
//   preloaded) during the 50-connection flood and, as the goal, while sending with one connection
//   reading; /healthz's own figure is kept beside them, but it covers a worker's last minute,
//   which can include the launch;
// - the campaign's detail page and a page of its delivery log at 1,000,000 rows.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import Database from "better-sqlite3";
import { load } from "../../helpers/load.ts";
import { runWriters } from "../../../tests/helpers/writers.ts";
import type { BenchContext, BenchSection } from "../../harness/types.ts";
import { freePort } from "../../../tests/helpers/production-server.ts";
import { loopMonitorArgs, loopMonitorEnv, markLoops, servingPids } from "../../helpers/loop-marks.ts";
import { type Rss, spawnProductionServer, treeRss, waitForHealth } from "../../helpers/server-processes.ts";

const root = path.resolve(import.meta.dirname, "../../..");
const tsx = path.join(root, "node_modules/.bin/tsx");
const round = (n: number) => Math.round(n * 100) / 100;

export default async function deliverySection(ctx: BenchContext): Promise<BenchSection> {
  const goals: BenchSection["goals"] = [];
  const figures: Record<string, unknown> = {};
  const { openSqlite } = await import("../../../app/db/sqlite.server.ts");
  const { launches } = await import("../../../app/models/launch/store.server.ts");
  const { closeConnection } = await import("../../../app/db/connection.server.ts");
  const { deliveryReceipts } = await import("../../../app/models/deliveries/receipts/store.server.ts");
  const { compileSegmentWhere } = await import("../../../app/models/segments/audience/where.ts");
  const { parseConditions } = await import("../../../app/lib/segment-parse.ts");
  const { newId } = await import("../../../app/lib/id.ts");
  const { deliveryId } = await import("../../../app/lib/campaigns.ts");
  const { issueToken } = await import("../../../app/services/token.server.ts");
  const { createSegment } = await import("../../../app/services/segments.server.ts");

  const parsed = parseConditions({ totalSpend: { $gte: 0 } });
  if (!parsed.ok) throw new Error(parsed.message);
  const everyone = parsed.tree;
  const segment = await createSegment(ctx.userId, { name: "Bench everyone", description: "", tree: everyone });

  // ---- Launch snapshot ------------------------------------------------------------------------
  const sqlite = openSqlite(ctx.dbFile);
  const where = compileSegmentWhere(ctx.userId, everyone);
  ctx.log("delivery: launch snapshot");
  // One read of the customers both snapshots read, so the page cache is as warm for each.
  sqlite.prepare(`SELECT count(*), sum(length("email")) FROM "Customer" WHERE ${where.sql}`).get(...where.params);
  const snapshotId = newId();
  // The connection the server's worker thread launches on.
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
  // Driven as the server's worker thread drives it (jobs/background-work.ts), timing each slice: the
  // longest is how long a launch holds the write lock at once.
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
  // Raw: the same INSERT … SELECT for every row in one transaction, committed as ours is, then
  // removed again (not timed).
  const raw = new Database(ctx.dbFile);
  raw.pragma("busy_timeout = 10000");
  t = performance.now();
  raw.exec("BEGIN IMMEDIATE");
  // Its own campaign row, as the foreign key needs.
  const rawCampaignId = newId();
  raw
    .prepare(
      `INSERT INTO "Campaign" ("id", "userId", "name", "message", "createdAt", "updatedAt") VALUES (?, ?, 'raw', 'm', 0, 0)`,
    )
    .run(rawCampaignId, ctx.userId);
  const base = Number(raw.prepare(`SELECT coalesce(max("seq"), 0) FROM "Delivery"`).pluck().get());
  raw
    .prepare(
      `INSERT INTO "Delivery" ("seq", "campaignId", "userId", "customerId", "name", "email", "phone", "status", "nextAttemptAt", "updatedAt")
       SELECT ? + row_number() OVER (ORDER BY "rowid"), ?, "userId", "id", trim("firstName" || ' ' || "lastName"), "email", "phone", 'pending', 0, 0
       FROM "Customer" WHERE ${where.sql} ORDER BY "rowid"`,
    )
    .run(base, rawCampaignId, ...where.params);
  raw.exec("COMMIT");
  const rawSnapshotMs = performance.now() - t;
  raw.prepare(`DELETE FROM "Delivery" WHERE "campaignId" = ?`).run(rawCampaignId);
  raw.prepare(`DELETE FROM "Campaign" WHERE "id" = ?`).run(rawCampaignId);
  figures.launchSnapshot = {
    recipients: audience,
    seconds: round(snapshotMs / 1000),
    longestSliceMs: round(longestSliceMs),
    rawInsertSelectSeconds: round(rawSnapshotMs / 1000),
    ratioToRaw: round(snapshotMs / rawSnapshotMs),
    what: "the server's sliced launch (5,000 rows a transaction, committed) vs one INSERT … SELECT of every row in one transaction (committed)",
  };
  goals.push({
    goal: `launch snapshot of ${audience.toLocaleString("en-IN")} rows`,
    value: snapshotMs / 1000,
    limit: 5,
    unit: "s",
    met: snapshotMs / 1000 < 5,
  });

  // ---- Receipts -------------------------------------------------------------------------------
  ctx.log("delivery: receipts in batches of 1,000");
  const firstSeq = Number(sqlite.prepare(`SELECT "firstSeq" FROM "Campaign" WHERE "id" = ?`).pluck().get(snapshotId));
  const receiptCount = Math.min(200_000, audience);
  const now = Date.now();
  t = performance.now();
  for (let i = 0; i < receiptCount; i += 1000) {
    const batch = [];
    for (let j = i; j < Math.min(receiptCount, i + 1000); j++)
      batch.push({ id: deliveryId(snapshotId, firstSeq + j), event: "delivered" as const, at: now });
    await deliveryReceipts.queueReceipts(sqlite, batch);
    await deliveryReceipts.applyQueuedReceipts(sqlite);
  }
  const receiptsMs = performance.now() - t;
  // Raw: one prepared UPDATE a receipt, 1,000 a transaction, on the next rows (same states).
  const rawUpdate = raw.prepare(
    `UPDATE "Delivery" SET "status" = 'delivered', "updatedAt" = ? WHERE "seq" = ? AND "status" IN ('pending', 'sent')`,
  );
  const rawBatch = raw.transaction((from: number, to: number) => {
    for (let s = from; s < to; s++) rawUpdate.run(now, s);
  });
  const rawStart = firstSeq + receiptCount;
  const rawCount = Math.min(receiptCount, audience - receiptCount);
  t = performance.now();
  for (let i = 0; i < rawCount; i += 1000) rawBatch(rawStart + i, rawStart + Math.min(rawCount, i + 1000));
  const rawReceiptsMs = performance.now() - t;
  const receiptsPerSecond = receiptCount / (receiptsMs / 1000);
  figures.receipts = {
    applied: receiptCount,
    perSecond: Math.round(receiptsPerSecond),
    rawBetterSqlite3PerSecond: rawCount ? Math.round(rawCount / (rawReceiptsMs / 1000)) : null,
    ratioToRaw: rawCount ? round(receiptsMs / receiptCount / (rawReceiptsMs / rawCount)) : null,
    what: "queueReceipts (the endpoint's write) then applyQueuedReceipts (the job: read each row, check the move is forward, write it, update the campaign's counters) vs one UPDATE per receipt with no counters",
  };
  goals.push({
    goal: "receipts applied per second (batches of 1,000)",
    value: receiptsPerSecond,
    limit: 50_000,
    unit: "/s",
    met: receiptsPerSecond >= 50_000,
  });
  // The snapshot campaign is not sent: cancel it so the server's job leaves it alone.
  sqlite.prepare(`UPDATE "Campaign" SET "status" = 'Cancelled' WHERE "id" = ?`).run(snapshotId);

  // ---- A whole campaign through the server and the built-in vendor -----------------------------
  const port = await freePort();
  const vendorPort = await freePort();
  const receiptsSecret = "bench-receipts-secret-0123456789";
  const vendorKey = "bench-vendor-key-0123456789";
  const serverBase = `http://127.0.0.1:${port}`;
  ctx.log(`delivery: the built-in vendor on ${vendorPort}, the server on ${port}`);
  const vendor: ChildProcess = spawn(tsx, [path.join(import.meta.dirname, "../../helpers/vendor-process.ts")], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      VENDOR_PORT: String(vendorPort),
      VENDOR_KEY: vendorKey,
      VENDOR_RECEIPTS_URL: `${serverBase}/api/webhooks/delivery-receipts`,
      VENDOR_RECEIPTS_SECRET: receiptsSecret,
    },
  });
  const { server } = spawnProductionServer(port, {
    nodeArgs: loopMonitorArgs,
    env: {
      DELIVERY_CHANNEL: "simulated",
      SIMULATED_VENDOR_URL: `http://127.0.0.1:${vendorPort}`,
      SIMULATED_VENDOR_KEY: vendorKey,
      RECEIPTS_SECRET: receiptsSecret,
      ...loopMonitorEnv(ctx.workDir),
    },
  });
  try {
    await waitForHealth(serverBase);
    await waitForHealth(`http://127.0.0.1:${vendorPort}`);
    const auth = { Authorization: `Bearer ${await issueToken(ctx.userId)}`, "Content-Type": "application/json" };
    const peak: Rss = { total: 0, anon: 0, file: 0 };
    const sample = () => {
      const now = treeRss(server.pid ?? 0);
      peak.total = Math.max(peak.total, now.total);
      peak.anon = Math.max(peak.anon, now.anon);
      peak.file = Math.max(peak.file, now.file);
    };
    sample();
    const sampler = setInterval(sample, 250);
    // /healthz every 50 ms while the launch writes its rows: does the server still answer?
    const duringLaunch: number[] = [];
    let launching = true;
    const probeLaunch = (async () => {
      while (launching) {
        const p0 = performance.now();
        await fetch(`${serverBase}/healthz`)
          .then((r) => r.arrayBuffer())
          .catch(() => undefined);
        duringLaunch.push(performance.now() - p0);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const launchedAt = performance.now();
    const launched = await fetch(`${serverBase}/api/campaigns`, {
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

    // Reads while it sends.
    const ids = (
      raw.prepare(`SELECT "id" FROM "Customer" WHERE "userId" = ? AND rowid % 97 = 0 LIMIT 5000`).all(ctx.userId) as {
        id: string;
      }[]
    ).map((r) => r.id);
    const headers = { Authorization: auth.Authorization };
    // The event loops of the processes that answer requests, over exactly the reads below.
    const serving = servingPids(server.pid ?? 0);
    await markLoops(ctx.workDir, serving);
    const byId = await load({
      base: serverBase,
      paths: ids.map((id) => `/api/customers/${id}`),
      headers,
      connections: 50,
      seconds: 10,
    });
    // Under the 50-connection flood a single event loop is never idle: each turn of the loop
    // answers every request that is ready, and a timer waits for the whole turn. That is measured
    // apart from the delay while sending with one reader, which shows what the sending costs.
    const loopsUnderFlood = [...(await markLoops(ctx.workDir, serving)).values()];
    const page = await load({
      base: serverBase,
      paths: ["/api/customers?limit=50"],
      headers,
      connections: 1,
      seconds: 5,
    });
    const loops = [...(await markLoops(ctx.workDir, serving)).values()];
    const worst = (figures: { p99: number; max: number }[]) => ({
      processes: figures.length,
      p99: Math.max(...figures.map((l) => l.p99)),
      max: Math.max(...figures.map((l) => l.max)),
    });
    const loopWhileSending = {
      ...worst(loops),
      what: "bench/helpers/loop-monitor.mjs in every process that answers requests, while sending with one connection reading 50-row pages; the worst process",
    };
    const loopUnderFlood = {
      ...worst(loopsUnderFlood),
      what: "the same, during GET /api/customers/{id} at 50 connections as fast as they are answered",
    };
    // Writes while it sends: ten writers creating, updating and deleting customers, orders and
    // segments through /api, as marketers editing during a send; then every acknowledged write
    // is looked up in the database.
    // The server's memory while it sends and answers reads (the goal below, as before the writers
    // scenario), and apart from it the peak while ten writers write as well.
    const peakBeforeWrites = { ...peak };
    const pendingNow = raw.prepare(`SELECT "pendingCount" FROM "Campaign" WHERE "id" = ?`).pluck();
    const writesStartedWhileSending = Number(pendingNow.get(campaign.id)) > 0;
    const writers = await runWriters({
      base: serverBase,
      token: auth.Authorization.slice("Bearer ".length),
      writers: 10,
      seconds: Number(process.env.BENCH_WRITERS_SECONDS ?? 30),
      // Unique per run: a reused database keeps the writers' customers of earlier runs.
      tag: `bench-writer-${Date.now().toString(36)}`,
    });
    const lastName = raw.prepare(`SELECT "lastName" FROM "Customer" WHERE "id" = ?`).pluck();
    const lost = writers.kept.filter((k) => lastName.get(k.id) !== k.lastName).length;
    const writesWhileSending = {
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
      sendingThroughout: writesStartedWhileSending && Number(pendingNow.get(campaign.id)) > 0,
      failures: writers.failures,
      byRoute: writers.byRoute,
      // The peak from the launch to the writers' end, their 30 s included.
      serverPeakRssMegabytes: Math.round(peak.total / 1e6),
      what: "tests/helpers/writers.ts: each writer in a loop creates a customer, updates it, creates, updates and deletes an order of it, creates, updates and deletes a segment, through /api with a bearer token",
    };
    goals.push({
      goal: "writes while sending: answers >= 500 (10 writers)",
      value: writers.serverErrors + lost,
      limit: 0,
      unit: "errors",
      met: writers.serverErrors === 0 && lost === 0 && writesWhileSending.sendingThroughout,
    });
    goals.push({
      goal: "writes while sending: p99 (10 writers)",
      value: writers.p99,
      limit: 100,
      unit: "ms",
      met: writers.p99 <= 100,
    });
    const health = (await (await fetch(`${serverBase}/healthz`)).json().catch(() => ({}))) as {
      eventLoopDelayP99Ms?: number;
    };

    // Until every row is final.
    let status = { pendingCount: 1, sentCount: 1, audienceSize: 0 };
    const readStatus = raw.prepare(
      `SELECT "pendingCount", "sentCount", "audienceSize", "deliveredCount", "failedCount", "bouncedCount", "status" FROM "Campaign" WHERE "id" = ?`,
    );
    for (let i = 0; i < 3600 && (status.pendingCount > 0 || status.sentCount > 0); i++) {
      await new Promise((r) => setTimeout(r, 500));
      status = readStatus.get(campaign.id) as typeof status;
      if (i % 20 === 0)
        ctx.log(
          `delivery: ${status.pendingCount.toLocaleString("en-IN")} pending, ${status.sentCount.toLocaleString("en-IN")} awaiting receipts`,
        );
    }
    const totalMs = performance.now() - launchedAt;
    clearInterval(sampler);
    const rate = campaign.audienceSize / (totalMs / 1000);
    figures.campaign = {
      recipients: campaign.audienceSize,
      launchSeconds: round(launchMs / 1000),
      launchToAllFinalSeconds: round(totalMs / 1000),
      messagesPerSecond: Math.round(rate),
      final: readStatus.get(campaign.id),
      healthzDuringLaunch,
      serverPeakRssMegabytes: Math.round(peakBeforeWrites.total / 1e6),
      serverPeakRssSplitMegabytes: {
        anonymous: Math.round(peakBeforeWrites.anon / 1e6),
        fileAndShared: Math.round(peakBeforeWrites.file / 1e6),
        what: "anonymous: the processes' own memory (heaps, SQLite's page caches); fileAndShared: the database file's pages mapped by the read connection (mmap), which the kernel shares with its page cache and can drop",
      },
      whileSending: {
        customerById50Connections: byId,
        customerPage1Connection: page,
        eventLoopDelayMs: loopWhileSending,
        eventLoopDelayUnderFloodMs: loopUnderFlood,
        writes: writesWhileSending,
        // /healthz's own figure: one worker's last minute, which may include the launch.
        healthzEventLoopDelayP99Ms: health.eventLoopDelayP99Ms ?? null,
      },
      listmonkPublishedPerRelay: 830,
    };
    goals.push({
      goal: "campaign of 1,000,000: launch to every row final",
      value: rate,
      limit: 5000,
      unit: "msg/s",
      met: rate >= 5000 && status.pendingCount === 0 && status.sentCount === 0,
    });
    goals.push({
      goal: "server peak RSS while sending (launch, sending, reads)",
      value: peakBeforeWrites.total / 1e6,
      limit: 512,
      unit: "MB",
      met: peakBeforeWrites.total / 1e6 < 512,
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
    goals.push({
      goal: "event-loop delay p99 while sending (one connection reading)",
      value: loopWhileSending.p99,
      limit: 20,
      unit: "ms",
      met: loopWhileSending.p99 < 20,
    });

    // ---- Reading a campaign of 1,000,000 rows ------------------------------------------------
    const firstLog = (await (
      await fetch(`${serverBase}/api/campaigns/${campaign.id}/logs?limit=50`, { headers })
    ).json()) as unknown[];
    const detailApi = await load({
      base: serverBase,
      paths: [`/api/campaigns/${campaign.id}`],
      headers,
      connections: 1,
      seconds: 5,
    });
    const logPage = await load({
      base: serverBase,
      paths: [
        `/api/campaigns/${campaign.id}/logs?limit=50`,
        `/api/campaigns/${campaign.id}/logs?limit=50&status=failed`,
      ],
      headers,
      connections: 1,
      seconds: 5,
    });
    figures.reading = { detailApi, logPage, firstLogRows: firstLog.length };
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
    server.kill("SIGTERM");
    vendor.kill("SIGTERM");
    await Promise.all([once(server, "exit").catch(() => undefined), once(vendor, "exit").catch(() => undefined)]);
    raw.close();
    sqlite.close();
  }
  return { name: "delivery", figures, goals };
}
