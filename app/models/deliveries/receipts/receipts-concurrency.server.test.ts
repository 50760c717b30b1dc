// Receipts applied while other transactions change the same rows, on a real database (SQLite, and
// PostgreSQL in its project). On PostgreSQL a batch of the vendor's receipts reads its rows without
// locking them and writes a row only if it is still the version it read; a row changed meanwhile
// sends the batch back to be applied with its rows locked. Whatever the interleaving, each
// receipt is applied once and the campaign's counters add up. A pixel load or a click is an event
// with an id of its own, stored once (the DeliveryEvent (source, eventId) key): however many times
// its receipt is queued, and however many appliers apply it at once, it is counted once; and the
// counts do not depend on the order a recipient's load and click are applied in.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, TEST_ENGINE, useTestConnection, useTestDatabase } from "../../../../tests/helpers/db";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import pg from "pg";
import { closeConnection, openConnection } from "~/db/connection.server";
import { deliveryId } from "~/lib/campaigns";
import type { Receipt } from "~/models/deliveries/receipts/rows";
import { deliveryReceipts } from "~/models/deliveries/receipts/store.server";
import { seedTenant } from "~/services/seed.server";
import { recordClick, recordOpen } from "~/services/tracking.server";
import { clickTrackingToken, openTrackingToken } from "~/services/tracking-token.server";
import { campaignRow, expectCountersAddUp, launchToEveryone } from "../../../../tests/helpers/campaign-send";
import { sqlRows, sqlRun } from "../../../../tests/helpers/sql";

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

const PERSON = {
  method: "GET",
  userAgent:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  ip: "203.0.113.9",
};

/** Applies the inbox with `appliers` connections at once (the test's own and others of their own) until it is empty. */
async function applyWith(appliers: number): Promise<void> {
  const others = Array.from({ length: appliers - 1 }, () => openConnection({ poolSize: 2 }));
  try {
    await Promise.all([connection(), ...others].map((c) => deliveryReceipts.applyQueuedReceipts(c, 1_000)));
  } finally {
    await Promise.all(others.map((c) => closeConnection(c)));
  }
  expect(await deliveryReceipts.queuedReceiptBatches(connection())).toBe(0);
}

describe("receipts applied side by side", () => {
  it("counts each pixel load and click once, however many times it is queued and however many appliers apply it at once", async () => {
    const { id, seqs } = await launched();
    // Delivered an hour ago, so no click below falls in a link scanner's window.
    await deliveryReceipts.applyReceipts(
      connection(),
      seqs.map((seq) => ({ id: deliveryId(id, seq), event: "delivered" as const, at: Date.now() - HOUR })),
    );
    const message = (seq: number) => ({ userId: tenant.id, campaignId: id, seq, retries: 0 });
    // Every recipient loads the images twice and clicks once, as the /o and /c routes record it.
    for (const seq of seqs) {
      expect(await recordOpen(openTrackingToken(message(seq)), PERSON)).toBe(true);
      expect(await recordClick(clickTrackingToken(message(seq), 0, "https://shop.example/sale"), PERSON)).toBe(
        "https://shop.example/sale",
      );
      expect(await recordOpen(openTrackingToken(message(seq)), PERSON)).toBe(true);
    }
    // The same receipts queued twice more (a queueing write retried after its answer was lost).
    for (let i = 0; i < 2; i++)
      await sqlRun(
        connection(),
        `INSERT INTO "ReceiptInbox" ("receipts", "count", "receivedAt")
         SELECT "receipts", "count", "receivedAt" FROM "ReceiptInbox" WHERE "id" IN (SELECT min("id") FROM "ReceiptInbox" GROUP BY "receipts")`,
      );
    await applyWith(3);
    expect(await campaignRow(connection(), id)).toMatchObject({
      deliveredCount: seqs.length,
      openedCount: seqs.length,
      clickedCount: seqs.length,
      opensTotal: 2 * seqs.length,
      clicksTotal: seqs.length,
      machineOpenCount: 0,
      machineClickCount: 0,
    });
    const [kept] = await sqlRows<{ n: number }>(
      connection(),
      `SELECT count(*) AS "n" FROM "DeliveryEvent" WHERE "campaignId" = ?`,
      [id],
    );
    expect(Number(kept.n)).toBe(3 * seqs.length);
    await expectCountersAddUp(connection(), id);
  });

  it("counts the same opens whatever the order a recipient's pixel loads and click are applied in", async () => {
    const { id, seqs } = await launched();
    const at = Date.now() - HOUR;
    await deliveryReceipts.applyReceipts(
      connection(),
      seqs.map((seq) => ({ id: deliveryId(id, seq), event: "delivered" as const, at })),
    );
    const load = (seq: number, n: number): Receipt => ({
      id: deliveryId(id, seq),
      event: "opened",
      at: at + 60_000 + n,
      source: "pixel",
      eventId: `load-${seq}-${n}`,
    });
    const click = (seq: number): Receipt => ({
      id: deliveryId(id, seq),
      event: "clicked",
      at: at + 120_000,
      source: "link",
      link: 0,
      eventId: `click-${seq}`,
    });
    // Each recipient's events in another order, each event its own batch: a click alone, a load
    // then a click, a click then a load, a load, a click, a load, and two loads after a click.
    const orders: Receipt[][] = seqs.map((seq, i) => {
      switch (i % 5) {
        case 0:
          return [click(seq)];
        case 1:
          return [load(seq, 1), click(seq)];
        case 2:
          return [click(seq), load(seq, 1)];
        case 3:
          return [load(seq, 1), click(seq), load(seq, 2)];
        default:
          return [click(seq), load(seq, 1), load(seq, 2)];
      }
    });
    for (const events of orders) for (const r of events) await deliveryReceipts.applyReceipts(connection(), [r]);
    const expected = orders.reduce(
      (sum, events) => sum + Math.max(1, events.filter((r) => r.event === "opened").length),
      0,
    );
    expect(await campaignRow(connection(), id)).toMatchObject({
      openedCount: seqs.length,
      clickedCount: seqs.length,
      opensTotal: expected,
      clicksTotal: seqs.length,
    });
    // The first open is the earliest, whichever was applied first.
    const rows = await sqlRows<{ seq: number; openedAt: number }>(
      connection(),
      `SELECT "seq", "openedAt" FROM "Delivery" WHERE "campaignId" = ? ORDER BY "seq"`,
      [id],
    );
    rows.forEach((row, i) =>
      expect(Number(row.openedAt), `recipient ${i}`).toBe(i % 5 === 0 ? at + 120_000 : at + 60_001),
    );
    await expectCountersAddUp(connection(), id);
  });

  it.runIf(TEST_ENGINE === "postgres")(
    "counts nothing of an event another transaction stored while the batch was applied",
    async () => {
      const { id, seqs } = await launched();
      const [first] = seqs;
      await deliveryReceipts.applyReceipts(connection(), [
        { id: deliveryId(id, first), event: "delivered", at: Date.now() - HOUR },
      ]);
      const [row] = await sqlRows<{ userId: string; customerId: string; email: string }>(
        connection(),
        `SELECT "userId", "customerId", "email" FROM "Delivery" WHERE "seq" = ?`,
        [first],
      );
      // Another instance applying the same pixel load has stored its event and not committed yet.
      const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await other.connect();
      try {
        await other.query("BEGIN");
        await other.query(
          `INSERT INTO "DeliveryEvent" ("userId", "campaignId", "seq", "customerId", "email", "kind", "source", "eventId", "at")
           VALUES ($1, $2, $3, $4, $5, 'opened', 'pixel', 'the-load', $6)`,
          [row.userId, id, first, row.customerId, row.email.toLowerCase(), Date.now()],
        );
        // This applier found no copy of the event, and its insert waits for the other's to settle.
        const applying = deliveryReceipts.applyReceipts(connection(), [
          { id: deliveryId(id, first), event: "opened", at: Date.now(), source: "pixel", eventId: "the-load" },
        ]);
        await new Promise((resolve) => setTimeout(resolve, 300));
        await other.query("COMMIT");
        expect(await applying).toEqual({ applied: 0, ignored: 1 });
      } finally {
        await other.end();
      }
      expect(await campaignRow(connection(), id)).toMatchObject({ openedCount: 0, opensTotal: 0 });
    },
  );

  it("applies each receipt once when several appliers drain overlapping inbox rows", async () => {
    const { id, seqs } = await launched();
    const at = Date.now();
    const receipts: Receipt[] = [];
    // Every row delivered, then opened; the same receipts again later in the inbox (a vendor's retry).
    for (const seq of seqs) receipts.push({ id: deliveryId(id, seq), event: "delivered", at });
    for (const seq of seqs) receipts.push({ id: deliveryId(id, seq), event: "opened", at: at + 1 });
    for (let i = 0; i < 6; i++)
      await deliveryReceipts.queueReceipts(connection(), i % 2 === 0 ? receipts.slice(0, 45) : receipts);
    const others = [openConnection({ poolSize: 2 }), openConnection({ poolSize: 2 })];
    try {
      await Promise.all([connection(), ...others].map((c) => deliveryReceipts.applyQueuedReceipts(c, 100)));
    } finally {
      await Promise.all(others.map((c) => closeConnection(c)));
    }
    expect(await deliveryReceipts.queuedReceiptBatches(connection())).toBe(0);
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
        const applying = deliveryReceipts.applyReceipts(connection(), [
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
      await deliveryReceipts.applyReceipts(connection(), [
        { id: deliveryId(other, seqs[0]), event: "delivered", at },
        { id: deliveryId(id, seqs[1]), event: "delivered", at },
      ]),
    ).toEqual({ applied: 1, ignored: 1 });
    expect((await statuses(id)).slice(0, 2)).toEqual(["pending", "delivered"]);
    await expectCountersAddUp(connection(), id);
  });
});
