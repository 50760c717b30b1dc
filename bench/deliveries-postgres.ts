// `npx tsx bench/deliveries-postgres.ts`: the delivery queue on PostgreSQL through the product's own
// model functions (app/models/deliveries/*.postgres.server.ts): a launch's snapshot, claims and
// outcomes as the engine records them (batches of 500 claimed, outcomes 100 a transaction), and the
// receipts inbox applied as the delivery job applies it (one inbox row of 250 receipts a call),
// by one applier and by two side by side (two instances). Prints JSON on stdout.
//
// A fresh migrated database on TEST_POSTGRES_URL's server (dropped after), one tenant of
// DELIVERY_BENCH_CUSTOMERS customers (default 100,000) seeded by the product's seed; receipts are
// a delivery for every row, then an open for a third of them and a click for a tenth.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const CUSTOMERS = Number(process.env.DELIVERY_BENCH_CUSTOMERS ?? 100_000);
const started = Date.now();
const log = (m: string) =>
  console.error(`[deliveries-pg ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${m}`);

const dir = mkdtempSync(path.join(os.tmpdir(), "crm-deliveries-pg-"));
process.env.DATA_DIR = dir;
process.env.SESSION_SECRET ??= randomBytes(32).toString("hex");
process.env.LOG_LEVEL ??= "warn";

const { createMigratedPostgresDatabase } = await import("../tests/helpers/postgres.ts");
const database = await createMigratedPostgresDatabase("crm_deliveries_bench");
process.env.DATABASE_URL = database.url;

const { resetEnvCache } = await import("../app/env.server.ts");
resetEnvCache();
const { closeConnection, openConnection } = await import("../app/db/connection.server.ts");
const { closePostgres } = await import("../app/db/postgres.server.ts");
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
type Receipt = import("../app/models/deliveries/receipts/rows.ts").Receipt;

const perSecond = (n: number, ms: number) => Math.round((n / ms) * 1000);

try {
  const user = await upsertLocalUser({ name: "Bench", email: `bench-${Date.now()}@example.com` });
  log(`seeding ${CUSTOMERS.toLocaleString("en-IN")} customers`);
  await seedTenant(user.id, { customers: CUSTOMERS, orders: 0, seed: 3 });
  const parsed = parseConditions({ totalSpend: { $gte: 0 } });
  if (!parsed.ok) throw new Error(parsed.message);
  const connection = openConnection({ poolSize: 4, applicationName: "deliveries bench" });
  const second = openConnection({ poolSize: 4, applicationName: "deliveries bench 2" });

  /** Launches a campaign to every customer; its id and how long the snapshot took. */
  const launched = async () => {
    const id = newId();
    const t = performance.now();
    const size = await launches.launchCampaign(
      connection,
      {
        id,
        userId: user.id,
        segmentId: null,
        segmentName: "Everyone",
        name: "Bench",
        subject: "Hi",
        description: "",
        message: "Hi {NAME}",
      },
      segmentAudience.audienceWhere(user.id, parsed.tree),
    );
    return { id, size, ms: performance.now() - t };
  };

  log("launch");
  const first = await launched();

  log("claims and outcomes");
  const now = Date.now();
  let t = performance.now();
  const seqs: number[] = [];
  for (;;) {
    const rows = await deliveryClaims.claimBatch(connection, {
      campaignId: first.id,
      limit: 500,
      now,
      leaseMs: 60_000,
    });
    if (rows.length === 0) break;
    for (let i = 0; i < rows.length; i += 100)
      await deliveryReceipts.recordOutcomes(
        connection,
        first.id,
        rows.slice(i, i + 100).map((r) => ({ seq: r.seq, attempts: r.attempts, outcome: "sent", details: "" })),
        now,
      );
    for (const r of rows) seqs.push(r.seq);
  }
  const sendMs = performance.now() - t;

  /** The receipts a vendor would post for a campaign's rows, queued 250 to an inbox row. */
  const queueFor = async (id: string, rowSeqs: readonly number[]) => {
    const at = Date.now();
    const receipts: Receipt[] = [];
    rowSeqs.forEach((seq, i) => {
      receipts.push({ id: deliveryId(id, seq), event: "delivered", at });
      if (i % 3 === 0) receipts.push({ id: deliveryId(id, seq), event: "opened", at: at + 1 });
      if (i % 10 === 0) receipts.push({ id: deliveryId(id, seq), event: "clicked", at: at + 2 });
    });
    for (let i = 0; i < receipts.length; i += 10_000)
      await deliveryReceipts.queueReceipts(connection, receipts.slice(i, i + 10_000));
    return receipts.length;
  };
  /** Applies the inbox one row a call, as the delivery job does, until it is empty. */
  const drain = async (on: typeof connection) => {
    let applied = 0;
    for (;;) {
      const r = await deliveryReceipts.applyQueuedReceipts(on, 1);
      if (r.batches === 0) return applied;
      applied += r.applied + r.ignored;
    }
  };

  log("receipts, one applier");
  const queued = await queueFor(first.id, seqs);
  t = performance.now();
  const applied = await drain(connection);
  const oneMs = performance.now() - t;

  log("receipts, two appliers side by side");
  const other = await launched();
  const otherSeqs: number[] = [];
  for (;;) {
    const rows = await deliveryClaims.claimBatch(connection, {
      campaignId: other.id,
      limit: 5000,
      now: Date.now(),
      leaseMs: 60_000,
    });
    if (rows.length === 0) break;
    await deliveryReceipts.recordOutcomes(
      connection,
      other.id,
      rows.map((r) => ({ seq: r.seq, attempts: r.attempts, outcome: "sent", details: "" })),
    );
    for (const r of rows) otherSeqs.push(r.seq);
  }
  const queuedTwo = await queueFor(other.id, otherSeqs);
  t = performance.now();
  const [a, b] = await Promise.all([drain(connection), drain(second)]);
  const twoMs = performance.now() - t;

  await closeConnection(connection);
  await closeConnection(second);
  console.log(
    JSON.stringify(
      {
        customers: CUSTOMERS,
        launch: { rows: first.size, ms: Math.round(first.ms), rowsPerSecond: perSecond(first.size, first.ms) },
        claimAndRecord: { rows: seqs.length, ms: Math.round(sendMs), rowsPerSecond: perSecond(seqs.length, sendMs) },
        receipts: {
          oneApplier: { receipts: queued, applied, ms: Math.round(oneMs), perSecond: perSecond(queued, oneMs) },
          twoAppliers: {
            receipts: queuedTwo,
            applied: a + b,
            split: [a, b],
            ms: Math.round(twoMs),
            perSecond: perSecond(queuedTwo, twoMs),
          },
        },
      },
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
