// The thread's write gate with real SQLite: what broke writes while a campaign sent. A second
// connection stands for the delivery job's thread (its own connection, committing between our
// statements). Each test fails on the stock adapter (deferred BEGIN, one shared connection, waits
// in SQLite's busy handler).
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase } from "../../tests/helpers/db";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const { file } = useTestDatabase();

import { withWriter } from "~/db/writer.server";
import { createWriteGate, retryWhileBusy, WriteLockTimeout } from "~/db/write-gate.server";
import { db } from "~/db/prisma.server";
import { newId } from "~/lib/id";
import { createCustomer, listCustomers } from "~/services/customers.server";
import { createOrder } from "~/services/orders.server";
import { CustomerApiSchema } from "~/schemas/customer";
import { OrderSchema } from "~/schemas/order";

const otherThread = () => {
  const sqlite = new Database(file);
  sqlite.pragma("busy_timeout = 10000");
  return sqlite;
};

async function customerOf(userId: string, name: string) {
  return createCustomer(
    userId,
    CustomerApiSchema.parse({
      firstName: name,
      lastName: "Test",
      email: `${name.toLowerCase()}-${newId()}@example.com`,
    }),
  );
}

describe("the write gate", () => {
  it("hands the gate out one holder at a time, in the order asked", async () => {
    const gate = createWriteGate();
    const order: string[] = [];
    const first = await gate.acquire();
    const second = gate.acquire().then((release) => {
      order.push("second");
      release();
    });
    const third = gate.acquire().then((release) => {
      order.push("third");
      release();
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(order).toEqual([]);
    expect(gate.held).toBe(true);
    first();
    await Promise.all([second, third]);
    expect(order).toEqual(["second", "third"]);
    expect(gate.held).toBe(false);
  });

  it("gives up with a clear error when the lock never comes free", async () => {
    const busy = Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
    const started = Date.now();
    const waiting = retryWhileBusy(() => {
      if (Date.now() - started < 50) throw busy;
      return "done";
    });
    await expect(waiting).resolves.toBe("done");
    await expect(
      retryWhileBusy(() => {
        throw Object.assign(new Error("no such table"), { code: "SQLITE_ERROR" });
      }),
    ).rejects.toThrow("no such table");
    expect(new WriteLockTimeout().message).toMatch(/stayed locked/);
  });
});

describe("Prisma behind the gate", () => {
  it("a transaction that reads first holds the write lock from its start, so it cannot go stale", async () => {
    const user = await createTestUser("Snapshot");
    const customer = await customerOf(user.id, "Asha");
    // Another thread's connection (it must not wait in the busy handler here: same test thread).
    const other = otherThread();
    other.pragma("busy_timeout = 0");
    const otherWrite = other.prepare(`UPDATE "User" SET "displayName" = 'Other thread' WHERE "id" = ?`);
    let midTransaction: unknown = null;
    // The order's shape: read the record first, write later. With a deferred BEGIN the other
    // thread's commit in between made the write fail (SQLITE_BUSY_SNAPSHOT, "Operation has timed out").
    const updated = await db().$transaction(async (tx) => {
      await tx.customer.findFirst({ where: { id: customer.id, userId: user.id } });
      try {
        otherWrite.run(user.id);
      } catch (error) {
        midTransaction = (error as { code?: string }).code;
      }
      return tx.customer.update({ where: { id: customer.id }, data: { visits: { increment: 1 } } });
    });
    expect(midTransaction).toBe("SQLITE_BUSY");
    expect(updated.visits).toBe(customer.visits + 1);
    expect(otherWrite.run(user.id).changes).toBe(1);
    other.close();
  });

  it("waits for another thread's write lock on a timer: the event loop keeps running", async () => {
    const user = await createTestUser("Waiting");
    const customer = await customerOf(user.id, "Bela");
    const other = otherThread();
    other.exec("BEGIN IMMEDIATE");
    const ticks: number[] = [];
    const ticker = setInterval(() => ticks.push(Date.now()), 5);
    const write = createOrder(
      user.id,
      OrderSchema.parse({ customerId: customer.id, items: [{ name: "Tea", quantity: 2, price: 150 }] }),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Still waiting for the lock, and timers ran all along.
    expect(ticks.length).toBeGreaterThan(10);
    other.exec("COMMIT");
    const order = await write;
    clearInterval(ticker);
    expect(order.customer?.id ?? order.customerId).toBe(customer.id);
    other.close();
  });

  it("a write outside a transaction is not swallowed by another request's transaction that rolls back", async () => {
    const user = await createTestUser("Rollback");
    const failing = db().$transaction(async (tx) => {
      await tx.user.update({ where: { id: user.id }, data: { displayName: "Never stored" } });
      await new Promise((resolve) => setTimeout(resolve, 30));
      throw new Error("refused");
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    // Another request creates a customer while that transaction is open: acknowledged, so kept.
    const kept = await customerOf(user.id, "Chitra");
    await expect(failing).rejects.toThrow("refused");
    const page = await listCustomers(user.id, {});
    expect(page.customers.map((c) => c.id)).toContain(kept.id);
    const row = await db().user.findUnique({ where: { id: user.id } });
    expect(row?.displayName).toBe("Rollback");
  });

  it("a read outside a transaction neither waits for an open one nor sees its uncommitted rows", async () => {
    const user = await createTestUser("Reader");
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const open = db().$transaction(async (tx) => {
      await tx.user.update({ where: { id: user.id }, data: { displayName: "Uncommitted" } });
      await held;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    const started = Date.now();
    const seen = await db().user.findUnique({ where: { id: user.id } });
    expect(Date.now() - started).toBeLessThan(500);
    expect(seen?.displayName).toBe("Reader");
    release();
    await open;
    expect((await db().user.findUnique({ where: { id: user.id } }))?.displayName).toBe("Uncommitted");
  });

  it("a raw write and a Prisma transaction of the same thread wait for each other instead of deadlocking", async () => {
    const user = await createTestUser("Same thread");
    const customer = await customerOf(user.id, "Devi");
    const transaction = db().$transaction(async (tx) => {
      await tx.customer.update({ where: { id: customer.id }, data: { visits: 5 } });
      await new Promise((resolve) => setTimeout(resolve, 30));
      return tx.customer.findFirst({ where: { id: customer.id } });
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const started = Date.now();
    const raw = await withWriter((w) =>
      w.prepare(`UPDATE "Customer" SET "visits" = "visits" + 1 WHERE "id" = ?`).run(customer.id),
    );
    expect(raw.changes).toBe(1);
    expect(Date.now() - started).toBeLessThan(2_000);
    await transaction;
    const row = await db().customer.findFirst({ where: { id: customer.id } });
    expect(row?.visits).toBe(6);
  });
});
