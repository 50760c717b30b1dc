// @engines sqlite postgres
// Orders against a real database (SQLite, and PostgreSQL in the postgres project): customer totals after every kind of write, tenant
// isolation, paging and search.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, TEST_ENGINE, useTestDatabase as setUpTestDatabase } from "../../tests/helpers/db";

setUpTestDatabase();

const { db } = await import("~/db/prisma.server");
const { newId } = await import("~/lib/id");
const orders = await import("~/services/orders.server");
const { orders: orderStore } = await import("~/models/orders/store.server");
const { OrderSchema, OrderUpdateSchema } = await import("~/schemas/order");
const { customers: customerStore } = await import("~/models/customers/store.server");

async function makeCustomer(
  userId: string,
  data: Partial<{
    firstName: string;
    lastName: string;
    email: string;
    totalSpendPaise: number;
    visits: number;
    lastActive: Date;
  }> = {},
) {
  const customer = await db().customer.create({
    data: {
      id: newId(),
      userId,
      firstName: data.firstName ?? "Priya",
      lastName: data.lastName ?? "Sharma",
      email: data.email ?? `c${Math.random().toString(36).slice(2)}@example.in`,
      totalSpendPaise: data.totalSpendPaise ?? 0,
      visits: data.visits ?? 0,
      lastActive: data.lastActive ?? null,
    },
  });
  // Searchable by name, as the customer services make every customer they write.
  await customerStore.indexCustomerForSearch(customer.id);
  return customer;
}

const totals = async (id: string) => {
  const c = await db().customer.findUniqueOrThrow({ where: { id } });
  return { spend: c.totalSpendPaise, visits: c.visits, lastActive: c.lastActive };
};

const order = (customerId: string, extra: Record<string, unknown> = {}) =>
  OrderSchema.parse({
    customerId,
    items: [
      { name: "Saree", quantity: 2, price: 1500 },
      { name: "Dupatta", quantity: 1, price: 250.25 },
    ],
    tax: 100,
    ...extra,
  });

describe("creating an order", () => {
  it("computes the amount from the items and stores the rows in order", async () => {
    const user = await createTestUser();
    const c = await makeCustomer(user.id);
    const created = await orders.createOrder(user.id, order(c.id));
    expect(created.amount).toBe(3250.25);
    expect(created.tax).toBe(100);
    expect(created.total).toBe(3350.25);
    expect(created.status).toBe("Pending");
    expect(created.items.map((i) => i.name)).toEqual(["Saree", "Dupatta"]);
    expect(created.items[0]).toMatchObject({ quantity: 2, price: 1500, total: 3000 });
    expect(created.customer).toEqual({
      _id: c.id,
      id: c.id,
      firstName: "Priya",
      lastName: "Sharma",
      email: c.email,
      phone: "",
    });
    const fetched = await orders.getOrder(user.id, created._id);
    expect(fetched).toEqual(created);
  });

  it("ignores an amount sent by the caller", async () => {
    const user = await createTestUser();
    const c = await makeCustomer(user.id);
    const created = await orders.createOrder(
      user.id,
      OrderSchema.parse({ customerId: c.id, amount: 1, items: [{ name: "A", quantity: 3, price: 10 }] }),
    );
    expect(created.amount).toBe(30);
  });

  it("refuses a customer of another tenant, a malformed id and an unknown id", async () => {
    const alice = await createTestUser("Alice");
    const bob = await createTestUser("Bob");
    const bobs = await makeCustomer(bob.id);
    for (const id of [bobs.id, "not-an-id", newId()]) {
      await expect(orders.createOrder(alice.id, order(id))).rejects.toMatchObject({
        status: 404,
        fields: { customerId: "Please select a customer" },
      });
    }
    expect(await db().order.count({ where: { userId: alice.id } })).toBe(0);
    expect(await totals(bobs.id)).toMatchObject({ spend: 0, visits: 0 });
  });
});

describe("customer totals follow the non-cancelled orders", () => {
  it("create, edit the amount, cancel, un-cancel and delete", async () => {
    const user = await createTestUser();
    const c = await makeCustomer(user.id);

    const first = await orders.createOrder(user.id, order(c.id));
    const t = await totals(c.id);
    expect(t.spend).toBe(335_025); // total (subtotal + tax), in paise
    expect(t.visits).toBe(1);
    expect(t.lastActive?.toISOString()).toBe(first.createdAt);

    const second = await orders.createOrder(
      user.id,
      OrderSchema.parse({ customerId: c.id, items: [{ name: "Bangle", quantity: 4, price: 25 }] }),
    );
    expect(await totals(c.id)).toMatchObject({ spend: 335_025 + 10_000, visits: 2 });
    expect((await totals(c.id)).lastActive?.toISOString()).toBe(second.createdAt);

    // Edit the amount: the old contribution goes out, the new one comes in.
    await orders.updateOrder(
      user.id,
      second._id,
      OrderUpdateSchema.parse({ items: [{ name: "Bangle", quantity: 10, price: 25 }], tax: 5 }),
    );
    expect(await totals(c.id)).toMatchObject({ spend: 335_025 + 25_500, visits: 2 });

    // Cancel: it stops counting.
    const cancelled = await orders.updateOrder(
      user.id,
      first._id,
      OrderUpdateSchema.parse({
        status: "Cancelled",
        items: [
          { name: "Saree", quantity: 2, price: 1500 },
          { name: "Dupatta", quantity: 1, price: 250.25 },
        ],
        tax: 100,
      }),
    );
    expect(cancelled.status).toBe("Cancelled");
    expect(await totals(c.id)).toMatchObject({ spend: 25_500, visits: 1 });

    // Editing a cancelled order changes nothing.
    await orders.updateOrder(
      user.id,
      first._id,
      OrderUpdateSchema.parse({ status: "Cancelled", items: [{ name: "Saree", quantity: 9, price: 1500 }] }),
    );
    expect(await totals(c.id)).toMatchObject({ spend: 25_500, visits: 1 });

    // Un-cancel with a new amount: it counts again.
    await orders.updateOrder(
      user.id,
      first._id,
      OrderUpdateSchema.parse({ status: "Completed", items: [{ name: "Saree", quantity: 1, price: 1000 }] }),
    );
    expect(await totals(c.id)).toMatchObject({ spend: 25_500 + 100_000, visits: 2 });

    // Delete: its contribution goes.
    await orders.deleteOrder(user.id, second._id);
    expect(await totals(c.id)).toMatchObject({ spend: 100_000, visits: 1 });
    await orders.deleteOrder(user.id, first._id);
    expect(await totals(c.id)).toMatchObject({ spend: 0, visits: 0 });
    // lastActive only moves forward: it stays at the newest order's date.
    expect((await totals(c.id)).lastActive?.toISOString()).toBe(second.createdAt);
  });

  it("keeps starting values from an import and adds to them", async () => {
    const user = await createTestUser();
    const lastActive = new Date("2030-01-01T00:00:00Z");
    const c = await makeCustomer(user.id, { totalSpendPaise: 5_000_000, visits: 12, lastActive });
    const o = await orders.createOrder(
      user.id,
      OrderSchema.parse({ customerId: c.id, items: [{ name: "Lamp", quantity: 1, price: 800 }], tax: 144 }),
    );
    expect(await totals(c.id)).toEqual({ spend: 5_094_400, visits: 13, lastActive });
    await orders.deleteOrder(user.id, o._id);
    expect(await totals(c.id)).toEqual({ spend: 5_000_000, visits: 12, lastActive });
  });

  it("a cancelled order created as such adds nothing, and totals never go below zero", async () => {
    const user = await createTestUser();
    const c = await makeCustomer(user.id);
    const o = await orders.createOrder(user.id, order(c.id, { status: "Cancelled" }));
    expect(await totals(c.id)).toEqual({ spend: 0, visits: 0, lastActive: null });
    const counting = await orders.createOrder(user.id, order(c.id));
    await db().customer.update({ where: { id: c.id }, data: { totalSpendPaise: 10, visits: 0 } });
    await orders.deleteOrder(user.id, counting._id);
    expect(await totals(c.id)).toMatchObject({ spend: 0, visits: 0 });
    await orders.deleteOrder(user.id, o._id);
  });

  it("the customer cannot be changed when editing", async () => {
    const user = await createTestUser();
    const a = await makeCustomer(user.id);
    const b = await makeCustomer(user.id);
    const o = await orders.createOrder(user.id, order(a.id));
    await expect(
      orders.updateOrder(
        user.id,
        o._id,
        OrderUpdateSchema.parse({ customerId: b.id, items: [{ name: "X", quantity: 1, price: 1 }] }),
      ),
    ).rejects.toMatchObject({
      status: 400,
      message: "The customer cannot be changed when editing",
    });
    expect(await totals(b.id)).toMatchObject({ spend: 0, visits: 0 });
    expect((await orders.getOrder(user.id, o._id)).amount).toBe(3250.25);
  });
});

describe("orders written at the same time", () => {
  // On PostgreSQL two transactions run side by side (SQLite has one writer): each must read the
  // customer's totals and the order as the other left them, or one write's delta is lost.
  it("orders created at once for one customer all count", async () => {
    const user = await createTestUser();
    const c = await makeCustomer(user.id);
    await Promise.all(
      Array.from({ length: 8 }, () =>
        orders.createOrder(
          user.id,
          OrderSchema.parse({ customerId: c.id, items: [{ name: "Lamp", quantity: 1, price: 10 }] }),
        ),
      ),
    );
    expect(await totals(c.id)).toMatchObject({ spend: 8_000, visits: 8 });
  });

  it("edits of one order at once leave the totals of the edit that stayed", async () => {
    const user = await createTestUser();
    const c = await makeCustomer(user.id);
    const o = await orders.createOrder(
      user.id,
      OrderSchema.parse({ customerId: c.id, items: [{ name: "Lamp", quantity: 1, price: 10 }] }),
    );
    await Promise.all(
      [20, 30, 40, 50, 60, 70].map((price) =>
        orders.updateOrder(user.id, o._id, OrderUpdateSchema.parse({ items: [{ name: "Lamp", quantity: 1, price }] })),
      ),
    );
    const kept = await orders.getOrder(user.id, o._id);
    expect(await totals(c.id)).toMatchObject({ spend: Math.round(kept.total * 100), visits: 1 });
  });

  it("an order created while its customer is deleted is made before the delete, or refused as not found", async () => {
    const user = await createTestUser();
    const outcomes = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const c = await makeCustomer(user.id);
      const [created] = await Promise.allSettled([
        orders.createOrder(
          user.id,
          OrderSchema.parse({ customerId: c.id, items: [{ name: "Lamp", quantity: 1, price: 10 }] }),
        ),
        new Promise((resolve) => setTimeout(resolve, i % 6)).then(() => db().customer.delete({ where: { id: c.id } })),
      ]);
      const reason = created.status === "rejected" ? (created.reason as { status?: number; code?: string }) : null;
      outcomes.add(reason ? String(reason.status ?? reason.code) : "created");
    }
    expect([...outcomes].filter((o) => o !== "created" && o !== "404")).toEqual([]);
    expect(await db().order.count({ where: { userId: user.id } })).toBe(0);
  });

  it("one order deleted twice at once: one delete takes it, the other finds no order", async () => {
    const user = await createTestUser();
    const c = await makeCustomer(user.id, { totalSpendPaise: 5_000, visits: 3 });
    const o = await orders.createOrder(
      user.id,
      OrderSchema.parse({ customerId: c.id, items: [{ name: "Lamp", quantity: 1, price: 10 }] }),
    );
    const results = await Promise.allSettled([orders.deleteOrder(user.id, o._id), orders.deleteOrder(user.id, o._id)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected");
    expect(refused?.status === "rejected" ? refused.reason : null).toMatchObject({ status: 404 });
    expect(await totals(c.id)).toMatchObject({ spend: 5_000, visits: 3 });
  });
});

describe("tenant isolation", () => {
  it("another tenant's order is not found for read, update and delete", async () => {
    const alice = await createTestUser("Alice");
    const bob = await createTestUser("Bob");
    const c = await makeCustomer(alice.id);
    const o = await orders.createOrder(alice.id, order(c.id));
    await expect(orders.getOrder(bob.id, o._id)).rejects.toMatchObject({ status: 404, message: "Order not found" });
    await expect(
      orders.updateOrder(bob.id, o._id, OrderUpdateSchema.parse({ items: [{ name: "X", quantity: 1, price: 1 }] })),
    ).rejects.toMatchObject({ status: 404 });
    await expect(orders.deleteOrder(bob.id, o._id)).rejects.toMatchObject({ status: 404 });
    expect((await orders.listOrders(bob.id)).total).toBe(0);
    expect((await orders.getOrder(alice.id, o._id)).amount).toBe(3250.25);
    expect(await orders.recentOrdersForCustomer(bob.id, c.id)).toEqual([]);
  });

  it("malformed ids are not found", async () => {
    const user = await createTestUser();
    await expect(orders.getOrder(user.id, "xyz")).rejects.toMatchObject({ status: 404 });
    await expect(orders.deleteOrder(user.id, "'; DROP TABLE x")).rejects.toMatchObject({ status: 404 });
  });
});

describe("listing", () => {
  let userId: string;
  const ids: string[] = [];
  beforeAll(async () => {
    const user = await createTestUser();
    userId = user.id;
    const priya = await makeCustomer(userId, { firstName: "Priya", lastName: "Sharma" });
    const arjun = await makeCustomer(userId, { firstName: "Arjun", lastName: "Mehta" });
    for (let i = 0; i < 7; i++) {
      const o = await orders.createOrder(
        userId,
        OrderSchema.parse({
          customerId: i % 2 ? arjun.id : priya.id,
          items: [{ name: `Item ${i}`, quantity: 1, price: i + 1 }],
        }),
      );
      ids.push(o._id);
    }
  });

  it("pages newest first with the total, the position and cursors both ways", async () => {
    const p1 = await orders.listOrders(userId, { limit: 3 });
    expect(p1.orders.map((o) => o._id)).toEqual([ids[6], ids[5], ids[4]]);
    expect(p1).toMatchObject({ total: 7, start: 1, prevCursor: null, nextCursor: ids[4] });
    const p2 = await orders.listOrders(userId, { limit: 3, cursor: p1.nextCursor! });
    expect(p2.orders.map((o) => o._id)).toEqual([ids[3], ids[2], ids[1]]);
    expect(p2).toMatchObject({ start: 4, prevCursor: ids[3], nextCursor: ids[1] });
    const p3 = await orders.listOrders(userId, { limit: 3, cursor: p2.nextCursor! });
    expect(p3.orders.map((o) => o._id)).toEqual([ids[0]]);
    expect(p3).toMatchObject({ start: 7, nextCursor: null });
    const back = await orders.listOrders(userId, { limit: 3, before: p2.prevCursor! });
    expect(back.orders.map((o) => o._id)).toEqual([ids[6], ids[5], ids[4]]);
    expect(back).toMatchObject({ start: 1, prevCursor: null, nextCursor: ids[4] });
  });

  it("searches on customer name (any case, full name) or order id", async () => {
    expect((await orders.listOrders(userId, { q: "priya" })).total).toBe(4);
    expect((await orders.listOrders(userId, { q: "ARJUN mehta" })).total).toBe(3);
    expect((await orders.listOrders(userId, { q: "Priya Mehta" })).total).toBe(0);
    expect((await orders.listOrders(userId, { q: "ya sh" })).total).toBe(4); // across first and last name
    expect((await orders.listOrders(userId, { q: "Me" })).total).toBe(3); // short terms too
    expect((await orders.listOrders(userId, { q: '"; DROP TABLE "Order"; --' })).total).toBe(0);
    const byId = await orders.listOrders(userId, { q: ids[2].slice(-6).toUpperCase() });
    expect(byId.orders.map((o) => o._id)).toEqual([ids[2]]);
    expect((await orders.listOrders(userId, { q: "nobody" })).orders).toEqual([]);
  });

  it("a search of three characters or more finds the customer's e-mail in any case, as the name", async () => {
    const user = await createTestUser();
    const kavya = await makeCustomer(user.id, {
      firstName: "Kavya",
      lastName: "Iyer",
      email: "Kavya.Iyer@Example.COM",
    });
    await orders.createOrder(
      user.id,
      OrderSchema.parse({ customerId: kavya.id, items: [{ name: "Lamp", quantity: 1, price: 10 }] }),
    );
    for (const q of ["example.com", "EXAMPLE.COM", "iyer@ex", "Kavya.Iyer@Example.COM"])
      expect((await orders.listOrders(user.id, { q })).total, q).toBe(1);
  });

  it("a name search finds only the tenant's orders and looks only in the tenant's part of the search index", async () => {
    const other = await createTestUser();
    const otherPriya = await makeCustomer(other.id, { firstName: "Priya", lastName: "Sharma" });
    await orders.createOrder(
      other.id,
      OrderSchema.parse({ customerId: otherPriya.id, items: [{ name: "Kurta", quantity: 1, price: 10 }] }),
    );
    expect((await orders.listOrders(userId, { q: "priya" })).total).toBe(4);
    expect((await orders.listOrders(other.id, { q: "priya" })).total).toBe(1);
    expect((await orders.listOrders(other.id, { q: "arjun" })).total).toBe(0);
    // SQLite's plan: FTS5 names the constraints it takes, M for the MATCH, > and < for rowid bounds.
    // PostgreSQL's trigram index has the tenant as its first column (baseline migration); a plan
    // of a test's few rows would say nothing of it, so only the answers above are checked there.
    if (TEST_ENGINE === "sqlite") {
      const plan = await orderStore.orderSearchPlan(other.id, "priya");
      expect(plan.find((d) => d.includes("VIRTUAL TABLE"))).toMatch(/VIRTUAL TABLE INDEX \d+:M\d*(><|<>)/);
    }
  });

  it("refuses a malformed cursor", async () => {
    await expect(orders.listOrders(userId, { cursor: "abc" })).rejects.toMatchObject({ status: 400 });
  });

  it("gives the customer's recent orders, newest first", async () => {
    const customerId = (await orders.getOrder(userId, ids[0])).customerId;
    const recent = await orders.recentOrdersForCustomer(userId, customerId, 2);
    expect(recent.map((o) => o._id)).toEqual([ids[6], ids[4]]);
    expect(recent[0]).toMatchObject({ amount: 7, status: "Pending" });
  });

  it("finds a customer by id or e-mail for the form's no-JavaScript fallback", async () => {
    const arjun = await db().customer.findFirstOrThrow({ where: { userId, firstName: "Arjun" } });
    expect((await orders.findCustomerByRef(userId, arjun.email.toUpperCase()))?._id).toBe(arjun.id);
    expect((await orders.findCustomerByRef(userId, arjun.id))?._id).toBe(arjun.id);
    expect(await orders.findCustomerByRef(userId, "nobody@example.in")).toBeNull();
    const other = await createTestUser();
    expect(await orders.findCustomerByRef(other.id, arjun.id)).toBeNull();
  });
});
