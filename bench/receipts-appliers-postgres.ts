// `npx tsx bench/receipts-appliers-postgres.ts`: the receipts inbox on PostgreSQL applied by one
// transaction at a time against two side by side (applyQueuedReceipts' appliers on PostgreSQL), in
// alternating rounds on the same database, each round a fresh campaign of every customer: the
// vendor's delivery receipt for every row, a pixel load (an event with an id) for a third and a
// click for a tenth, queued 250 to an inbox row and applied 8 inbox rows a call, as the delivery
// job asks on PostgreSQL. Checks each round's counters (every event counted once). Prints JSON.
//
// A fresh migrated database on TEST_POSTGRES_URL's server (dropped after), one tenant of
// RECEIPTS_BENCH_CUSTOMERS customers (default 30,000); RECEIPTS_BENCH_ROUNDS rounds (default 4).
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const CUSTOMERS = Number(process.env.RECEIPTS_BENCH_CUSTOMERS ?? 30_000);
const ROUNDS = Number(process.env.RECEIPTS_BENCH_ROUNDS ?? 4);
const started = Date.now();
const log = (m: string) =>
  console.error(`[receipts-pg ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${m}`);

const dir = mkdtempSync(path.join(os.tmpdir(), "crm-receipts-pg-"));
process.env.DATA_DIR = dir;
process.env.SESSION_SECRET ??= randomBytes(32).toString("hex");
process.env.LOG_LEVEL ??= "warn";

const { createMigratedPostgresDatabase } = await import("../tests/helpers/postgres.ts");
const database = await createMigratedPostgresDatabase("crm_receipts_bench");
process.env.DATABASE_URL = database.url;

const { resetEnvCache } = await import("../app/env.server.ts");
resetEnvCache();
const { closeConnection, openConnection, isPostgres } = await import("../app/db/connection.server.ts");
const { closePostgres, query } = await import("../app/db/postgres.server.ts");
const { db } = await import("../app/db/prisma.server.ts");
const { upsertLocalUser } = await import("../app/services/users.server.ts");
const { seedTenant } = await import("../app/services/seed.server.ts");
const { parseConditions } = await import("../app/lib/segments.ts");
const { deliveryId } = await import("../app/lib/campaigns.ts");
const { newId } = await import("../app/lib/id.ts");
const { segmentAudience } = await import("../app/models/segments/audience/store.server.ts");
const { launches } = await import("../app/models/launch/store.server.ts");
const { deliveryClaims } = await import("../app/models/deliveries/claims/store.server.ts");
const { deliveryReceipts } = await import("../app/models/deliveries/receipts/store.server.ts");
const { DEFAULT_FEEDBACK_POLICY } = await import("../app/models/deliveries/receipts/rows.ts");
type Receipt = import("../app/models/deliveries/receipts/rows.ts").Receipt;

try {
  const user = await upsertLocalUser({ name: "Bench", email: `bench-${Date.now()}@example.com` });
  log(`seeding ${CUSTOMERS.toLocaleString("en-IN")} customers`);
  await seedTenant(user.id, { customers: CUSTOMERS, orders: 0, seed: 3 });
  const parsed = parseConditions({ totalSpend: { $gte: 0 } });
  if (!parsed.ok) throw new Error(parsed.message);
  const connection = openConnection({ poolSize: 4, applicationName: "receipts bench" });
  if (!isPostgres(connection)) throw new Error("DATABASE_URL is not PostgreSQL");
  const rounds: { appliers: number; receipts: number; ms: number; perSecond: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const appliers = round % 2 === 0 ? 1 : 2;
    const id = newId();
    await launches.launchCampaign(
      connection,
      {
        id,
        userId: user.id,
        segmentId: null,
        segmentName: "Everyone",
        name: `Bench ${round}`,
        subject: "Hi",
        description: "",
        message: "Hi {NAME}",
      },
      segmentAudience.audienceWhere(user.id, parsed.tree),
    );
    const seqs: number[] = [];
    const sentAt = Date.now() - 3_600_000;
    for (;;) {
      const rows = await deliveryClaims.claimBatch(connection, {
        campaignId: id,
        limit: 5000,
        now: Date.now(),
        leaseMs: 60_000,
      });
      if (rows.length === 0) break;
      await deliveryReceipts.recordOutcomes(
        connection,
        id,
        rows.map((r) => ({ seq: r.seq, attempts: r.attempts, outcome: "sent", details: "" })),
        sentAt,
      );
      for (const r of rows) seqs.push(r.seq);
    }
    const at = Date.now();
    const receipts: Receipt[] = [];
    seqs.forEach((seq, i) => {
      receipts.push({ id: deliveryId(id, seq), event: "delivered", at });
      if (i % 3 === 0)
        receipts.push({ id: deliveryId(id, seq), event: "opened", at: at + 1, source: "pixel", eventId: randomUUID() });
      if (i % 10 === 0)
        receipts.push({
          id: deliveryId(id, seq),
          event: "clicked",
          at: at + 60_000,
          source: "link",
          link: 0,
          eventId: randomUUID(),
        });
    });
    for (let i = 0; i < receipts.length; i += 10_000)
      await deliveryReceipts.queueReceipts(connection, receipts.slice(i, i + 10_000));
    log(`round ${round + 1}: ${receipts.length.toLocaleString("en-IN")} receipts, ${appliers} applier(s)`);
    const t = performance.now();
    while ((await deliveryReceipts.applyQueuedReceipts(connection, 8, DEFAULT_FEEDBACK_POLICY, appliers)).batches > 0);
    const ms = performance.now() - t;
    const [c] = await query<{ delivered: number; opened: number; opens: number; clicks: number }>(
      connection,
      `SELECT "deliveredCount" AS "delivered", "openedCount" AS "opened", "opensTotal" AS "opens", "clicksTotal" AS "clicks"
       FROM "Campaign" WHERE "id" = $1`,
      [id],
    );
    const want = {
      delivered: seqs.length,
      opened: seqs.filter((_, i) => i % 3 === 0 || i % 10 === 0).length,
      opens: seqs.filter((_, i) => i % 3 === 0 || i % 10 === 0).length,
      clicks: seqs.filter((_, i) => i % 10 === 0).length,
    };
    if (JSON.stringify(c) !== JSON.stringify(want))
      throw new Error(`round ${round + 1}: counters ${JSON.stringify(c)}, expected ${JSON.stringify(want)}`);
    rounds.push({
      appliers,
      receipts: receipts.length,
      ms: Math.round(ms),
      perSecond: Math.round((receipts.length / ms) * 1000),
    });
  }
  await closeConnection(connection);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const of = (n: number) => rounds.filter((r) => r.appliers === n).map((r) => r.perSecond);
  console.log(
    JSON.stringify(
      { customers: CUSTOMERS, rounds, medianPerSecond: { oneApplier: median(of(1)), twoAppliers: median(of(2)) } },
      null,
      2,
    ),
  );
} finally {
  await db().$disconnect();
  await closePostgres();
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
}
