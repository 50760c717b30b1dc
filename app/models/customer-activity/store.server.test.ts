// A customer's order figures (CustomerActivity) follow every order write exactly, on both engines
// (a test under app/models runs on PostgreSQL too): created, edited, cancelled, deleted; and the
// seed fills them as an order write would.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, useTestConnection, useTestDatabase } from "../../../tests/helpers/db";
import { sqlRows } from "../../../tests/helpers/sql";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { customerActivity } from "~/models/customer-activity/store.server";
import { CustomerApiSchema } from "~/schemas/customer";
import { OrderSchema, OrderUpdateSchema } from "~/schemas/order";
import { createCustomer } from "~/services/customers.server";
import { createOrder, deleteOrder, updateOrder } from "~/services/orders.server";
import { seedTenant } from "~/services/seed.server";
import { db } from "~/db/prisma.server";
import { seedCampaignHistory } from "~/services/sending/history.server";

let userId: string;

beforeAll(async () => {
  userId = (await createTestUser("Activity")).id;
});

const order = (customerId: string, price: number, status?: string) =>
  OrderSchema.parse({
    customerId,
    items: [{ name: "Saree", quantity: 1, price }],
    tax: 0,
    ...(status ? { status } : {}),
  });

describe("order figures", () => {
  it("follow a create, an edit, a cancel and a delete", async () => {
    const c = await createCustomer(
      userId,
      CustomerApiSchema.parse({ firstName: "A", lastName: "B", email: "figures@example.com" }),
    );
    expect(await customerActivity.readOrderFigures(userId, c.id)).toBeNull();
    const first = await createOrder(userId, order(c.id, 100));
    const second = await createOrder(userId, order(c.id, 301));
    expect(await customerActivity.readOrderFigures(userId, c.id)).toMatchObject({
      orderCount: 2,
      orderSpendPaise: 40_100,
      averageOrderPaise: 20_050,
    });
    await updateOrder(
      userId,
      second.id,
      OrderUpdateSchema.parse({ items: [{ name: "Saree", quantity: 1, price: 300 }], tax: 0, status: "Cancelled" }),
    );
    const afterCancel = await customerActivity.readOrderFigures(userId, c.id);
    expect(afterCancel).toMatchObject({ orderCount: 1, orderSpendPaise: 10_000, averageOrderPaise: 10_000 });
    expect(afterCancel?.firstOrderAt?.toISOString()).toBe(first.createdAt);
    expect(afterCancel?.lastOrderAt?.toISOString()).toBe(first.createdAt);
    // An average of half a paisa rounds up: ₹100.00 and ₹100.01 average 10,000.5 paise.
    const third = await createOrder(userId, order(c.id, 100.01));
    expect(await customerActivity.readOrderFigures(userId, c.id)).toMatchObject({
      orderCount: 2,
      orderSpendPaise: 20_001,
      averageOrderPaise: 10_001,
    });
    await deleteOrder(userId, third.id);
    await deleteOrder(userId, first.id);
    expect(await customerActivity.readOrderFigures(userId, c.id)).toMatchObject({
      orderCount: 0,
      orderSpendPaise: 0,
      averageOrderPaise: 0,
      firstOrderAt: null,
      lastOrderAt: null,
    });
  });

  it("the seed leaves every customer's figures as their orders give them", async () => {
    const tenant = (await createTestUser("Seeded activity")).id;
    await seedTenant(tenant, { customers: 30, orders: 60, seed: 3 });
    const orders = await db().order.findMany({ where: { userId: tenant, status: { not: "Cancelled" } } });
    const expected = new Map<string, { n: number; spend: number }>();
    for (const o of orders) {
      const e = expected.get(o.customerId) ?? { n: 0, spend: 0 };
      e.n += 1;
      e.spend += Number(o.amountPaise) + Number(o.taxPaise);
      expected.set(o.customerId, e);
    }
    const rows = await db().customerActivity.findMany({ where: { userId: tenant } });
    expect(rows.length).toBe(expected.size);
    for (const row of rows) {
      const e = expected.get(row.customerId);
      expect(row.orderCount).toBe(e?.n);
      expect(Number(row.orderSpendPaise)).toBe(e?.spend);
      expect(Number(row.averageOrderPaise)).toBe(Math.round((e?.spend ?? 0) / (e?.n ?? 1)));
    }
  });
});

describe("order figures under concurrent writes", () => {
  it("orders created at once for one customer are all counted", async () => {
    const c = await createCustomer(
      userId,
      CustomerApiSchema.parse({ firstName: "C", lastName: "D", email: "busy@example.com" }),
    );
    await Promise.all(Array.from({ length: 8 }, (_, i) => createOrder(userId, order(c.id, 10 + i))));
    expect(await customerActivity.readOrderFigures(userId, c.id)).toMatchObject({
      orderCount: 8,
      orderSpendPaise: (10 + 11 + 12 + 13 + 14 + 15 + 16 + 17) * 100,
    });
  });
});

describe("engagement figures", () => {
  it("a seeded campaign history leaves each customer's last open and click as their delivery rows say", async () => {
    const tenant = (await createTestUser("Seeded engagement")).id;
    await seedTenant(tenant, { customers: 120, orders: 0, seed: 9 });
    await seedCampaignHistory(connection(), tenant, 3);
    const expected = await sqlRows<{ customerId: string; open: number | null; click: number | null }>(
      connection(),
      `SELECT "customerId", max("openedAt") AS "open", max("clickedAt") AS "click" FROM "Delivery"
       WHERE "userId" = ? AND "openedAt" IS NOT NULL GROUP BY "customerId" ORDER BY "customerId"`,
      [tenant],
    );
    const kept = await sqlRows<{ customerId: string; open: number | null; click: number | null }>(
      connection(),
      `SELECT "customerId", "lastOpenAt" AS "open", "lastClickAt" AS "click" FROM "CustomerActivity"
       WHERE "userId" = ? AND "lastOpenAt" IS NOT NULL ORDER BY "customerId"`,
      [tenant],
    );
    const plain = (rows: typeof kept) =>
      rows.map((r) => [
        r.customerId,
        r.open === null ? null : Number(r.open),
        r.click === null ? null : Number(r.click),
      ]);
    expect(expected.length).toBeGreaterThan(0);
    expect(plain(kept)).toEqual(plain(expected));
  });
});
