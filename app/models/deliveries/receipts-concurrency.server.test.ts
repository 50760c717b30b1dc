// Receipts applied while other transactions change the same rows, on a real database (SQLite, and
// PostgreSQL in its project). On PostgreSQL a batch of the vendor's receipts reads its rows without
// locking them and writes a row only if it is still the version it read; a row changed meanwhile
// sends the batch back to be applied with its rows locked. Whatever the interleaving, each
// receipt is applied once and the campaign's counters add up.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, TEST_ENGINE, useTestConnection, useTestDatabase } from "../../../tests/helpers/db";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import pg from "pg";
import { closeConnection, openConnection } from "~/db/connection.server";
import { deliveryId } from "~/lib/campaigns";
import {
  applyQueuedReceipts,
  applyReceipts,
  queueReceipts,
  queuedReceiptBatches,
  type Receipt,
} from "~/models/deliveries/receipts.server";
import { seedTenant } from "~/services/seed.server";
import { campaignRow, expectCountersAddUp, launchToEveryone } from "../../../tests/helpers/campaign-send";
import { sqlRows } from "../../../tests/helpers/sql";

const HOUR = 3_600_000;
let tenant: { id: string };

beforeAll(async () => {
  tenant = await createTestUser("Receipts side by side");
  await seedTenant(tenant.id, { customers: 40, orders: 0, seed: 5 });
});

async function launched(): Promise<{ id: string; seqs: number[] }> {
  const id = await launchToEveryone(connection(), tenant.id, {}, Date.now() - HOUR);
  const rows = await sqlRows<{ seq: number }>(
    connection(),
    `SELECT "seq" FROM "Delivery" WHERE "campaignId" = ? ORDER BY "seq"`,
    [id],
  );
  return { id, seqs: rows.map((r) => r.seq) };
}

const statuses = async (id: string) =>
  (
    await sqlRows<{ status: string }>(
      connection(),
      `SELECT "status" FROM "Delivery" WHERE "campaignId" = ? ORDER BY "seq"`,
      [id],
    )
  ).map((r) => r.status);

describe("receipts applied side by side", () => {
  it("applies each receipt once when several appliers drain overlapping inbox rows", async () => {
    const { id, seqs } = await launched();
    const at = Date.now();
    const receipts: Receipt[] = [];
    // Every row delivered, then opened; the same receipts again later in the inbox (a vendor's retry).
    for (const seq of seqs) receipts.push({ id: deliveryId(id, seq), event: "delivered", at });
    for (const seq of seqs) receipts.push({ id: deliveryId(id, seq), event: "opened", at: at + 1 });
    for (let i = 0; i < 6; i++) await queueReceipts(connection(), i % 2 === 0 ? receipts.slice(0, 45) : receipts);
    const others = [openConnection({ poolSize: 2 }), openConnection({ poolSize: 2 })];
    try {
      await Promise.all([connection(), ...others].map((c) => applyQueuedReceipts(c, 100)));
    } finally {
      await Promise.all(others.map((c) => closeConnection(c)));
    }
    expect(await queuedReceiptBatches(connection())).toBe(0);
    expect(new Set(await statuses(id))).toEqual(new Set(["delivered"]));
    expect(await campaignRow(connection(), id)).toMatchObject({
      pendingCount: 0,
      deliveredCount: seqs.length,
      openedCount: seqs.length,
      opensTotal: seqs.length,
    });
    await expectCountersAddUp(connection(), id);
  });

  it.runIf(TEST_ENGINE === "postgres")(
    "applies a batch again, its rows locked, when another transaction changed one of them after it was read",
    async () => {
      const { id, seqs } = await launched();
      const [first, second] = seqs;
      // Another instance records the first row's outcome (pending → sent) and has not committed yet.
      const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await other.connect();
      try {
        await other.query("BEGIN");
        await other.query(`UPDATE "Delivery" SET "status" = 'sent', "updatedAt" = $1 WHERE "seq" = $2`, [
          Date.now(),
          first,
        ]);
        await other.query(
          `UPDATE "Campaign" SET "pendingCount" = "pendingCount" - 1, "sentCount" = "sentCount" + 1 WHERE "id" = $1`,
          [id],
        );
        // The receipts read the row as it was committed (pending) and wait for its lock to write it.
        const applying = applyReceipts(connection(), [
          { id: deliveryId(id, first), event: "delivered", at: Date.now() },
          { id: deliveryId(id, second), event: "delivered", at: Date.now() },
        ]);
        await new Promise((resolve) => setTimeout(resolve, 300));
        await other.query("COMMIT");
        expect(await applying).toEqual({ applied: 2, ignored: 0 });
      } finally {
        await other.end();
      }
      // Applied to the row as the other transaction left it: sent → delivered, not pending → delivered.
      expect(await campaignRow(connection(), id)).toMatchObject({
        pendingCount: seqs.length - 2,
        sentCount: 0,
        deliveredCount: 2,
      });
      await expectCountersAddUp(connection(), id);
    },
  );

  it("leaves a row alone when a receipt names it with another campaign's id", async () => {
    const { id, seqs } = await launched();
    const other = id.startsWith("ffffffff") ? "00000000" : "ffffffff";
    const at = Date.now();
    expect(
      await applyReceipts(connection(), [
        { id: deliveryId(other, seqs[0]), event: "delivered", at },
        { id: deliveryId(id, seqs[1]), event: "delivered", at },
      ]),
    ).toEqual({ applied: 1, ignored: 1 });
    expect((await statuses(id)).slice(0, 2)).toEqual(["pending", "delivered"]);
    await expectCountersAddUp(connection(), id);
  });
});
