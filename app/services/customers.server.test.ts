// @engines sqlite postgres
// Customers against a real database (SQLite, and PostgreSQL in the postgres project): the service
// rules (create, read, update, delete, totals that follow orders, the segments of one customer) and
// the /api routes. The paged list and its search: customer-search.server.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase, createTestUser } from "../../tests/helpers/db";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();

import { db } from "~/db/prisma.server";
import type { User } from "~/generated/prisma/client";
import { ApiError } from "~/lib/api.server";
import type { OrderInput, OrderItemInput } from "~/schemas/order";
import { loader as listLoader, action as createAction } from "~/routes/api/customers";
import { loader as getLoader, action as idAction } from "~/routes/api/customers-id";
import { createOrder, updateOrder } from "~/services/orders.server";
import {
  createCustomer,
  customerDetail,
  deleteCustomer,
  getCustomer,
  listCustomers,
  updateCustomer,
} from "~/services/customers.server";
import { call, input } from "~/services/customer-test-calls";

let alice: User;
let bob: User;

/** An order of one item (no notes, no description) for the customer. */
function oneItem(
  customerId: string,
  status: OrderInput["status"],
  tax: number,
  item: Omit<OrderItemInput, "description">,
) {
  return { customerId, status, notes: "", tax, items: [{ ...item, description: "" }] };
}

beforeAll(async () => {
  alice = await createTestUser("Alice");
  bob = await createTestUser("Bob");
});

describe("customers service", () => {
  it("creates, reads, updates and lists a customer with rupee amounts", async () => {
    const c = await createCustomer(
      alice.id,
      input({ firstName: "Rahul", lastName: "Verma", totalSpend: 1500.25, visits: 7, lastActive: "2024-05-01" }),
    );
    expect(c).toMatchObject({
      _id: c.id,
      firstName: "Rahul",
      totalSpend: 1500.25,
      visits: 7,
      lastActive: "2024-05-01T00:00:00.000Z",
    });
    const updated = await updateCustomer(
      alice.id,
      c.id,
      input({ firstName: "Rahul", lastName: "Varma", email: c.email }),
    );
    expect(updated.lastName).toBe("Varma");
    expect(updated.totalSpend).toBe(1500.25); // not given: kept
    expect((await getCustomer(alice.id, c.id)).lastName).toBe("Varma");
    const found = await listCustomers(alice.id, { q: "varma" });
    expect(found.customers.map((x) => x.id)).toEqual([c.id]);
  });

  it("refuses a duplicate e-mail in the tenant with a 409 (case-insensitive), allows it in another tenant", async () => {
    const email = "dup@example.com";
    await createCustomer(alice.id, input({ email }));
    const error = await createCustomer(alice.id, input({ email: "DUP@example.com" })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(409);
    expect((error as ApiError).message).toBe("A customer with this email already exists");
    await expect(createCustomer(bob.id, input({ email }))).resolves.toMatchObject({ email });
    const other = await createCustomer(alice.id, input());
    await expect(updateCustomer(alice.id, other.id, input({ email }))).rejects.toMatchObject({ status: 409 });
  });

  it("hides another tenant's customer as not found", async () => {
    const c = await createCustomer(alice.id, input());
    await expect(getCustomer(bob.id, c.id)).rejects.toMatchObject({ status: 404, message: "Customer not found" });
    await expect(updateCustomer(bob.id, c.id, input())).rejects.toMatchObject({ status: 404 });
    await expect(deleteCustomer(bob.id, c.id)).rejects.toMatchObject({ status: 404 });
    await expect(getCustomer(alice.id, "not-an-id")).rejects.toMatchObject({ status: 404 });
    expect((await listCustomers(bob.id, { q: c.email })).customers).toEqual([]);
  });

  it("deletes a customer with their orders in one go", async () => {
    const c = await createCustomer(alice.id, input());
    const first = await createOrder(
      alice.id,
      oneItem(c.id, "Completed", 18, { name: "Kurta", quantity: 2, price: 500 }),
    );
    const second = await createOrder(
      alice.id,
      oneItem(c.id, "Pending", 0, { name: "Saree", quantity: 1, price: 1200 }),
    );
    const detail = await customerDetail(alice.id, c.id);
    // Newest first (the id breaks a tie of one millisecond), each as the order itself says (the
    // detail reads them in one statement on PostgreSQL).
    const newestFirst = [first, second].sort(
      (a, b) => b.createdAt.localeCompare(a.createdAt) || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0),
    );
    expect(detail.orders).toEqual(
      newestFirst.map((o) => ({
        _id: o.id,
        id: o.id,
        date: o.createdAt,
        amount: o.amount,
        total: o.total,
        status: o.status,
      })),
    );
    expect((await customerDetail(alice.id, c.id, 1)).orders.map((o) => o.id)).toEqual([newestFirst[0]?.id]);
    expect(detail.segments).toEqual([]);
    expect(detail.totalSpend).toBe(2218);
    expect(detail.visits).toBe(2);
    expect(await deleteCustomer(alice.id, c.id)).toEqual({ ordersDeleted: 2 });
    expect(await db().order.count({ where: { customerId: c.id } })).toBe(0);
    await expect(getCustomer(alice.id, c.id)).rejects.toMatchObject({ status: 404 });
  });

  it("follows order totals: cancelling an order takes it out of totalSpend and visits", async () => {
    const c = await createCustomer(alice.id, input());
    const o = await createOrder(alice.id, oneItem(c.id, "Pending", 0, { name: "Tea", quantity: 3, price: 100 }));
    expect((await getCustomer(alice.id, c.id)).totalSpend).toBe(300);
    await updateOrder(alice.id, o.id, oneItem(c.id, "Cancelled", 0, { name: "Tea", quantity: 3, price: 100 }));
    expect(await getCustomer(alice.id, c.id)).toMatchObject({ totalSpend: 0, visits: 0 });
  });
});

describe("customer detail", () => {
  it("lists the segments the customer belongs to", async () => {
    const owner = await createTestUser("Segmenter");
    const big = await createCustomer(owner.id, input({ totalSpend: 5000 }));
    const small = await createCustomer(owner.id, input({ totalSpend: 10 }));
    const { createSegment } = await import("~/services/segments.server");
    const { parseConditions } = await import("~/lib/segment-parse");
    const parsed = parseConditions({ totalSpend: { $gt: 1000 } });
    if (!parsed.ok) throw new Error(parsed.message);
    const segment = await createSegment(owner.id, { name: "Big spenders", description: "", tree: parsed.tree });
    expect((await customerDetail(owner.id, big.id)).segments).toEqual([
      { _id: segment.id, id: segment.id, name: "Big spenders" },
    ]);
    expect((await customerDetail(owner.id, small.id)).segments).toEqual([]);
  });
});

describe("/api/customers", () => {
  it("POST creates (201), GET lists with X-Total-Count and X-Next-Cursor, GET id includes segments and orders", async () => {
    const user = await createTestUser("Api");
    const created = await call(createAction, user, "/api/customers", {
      method: "POST",
      body: {
        firstName: "Sneha",
        lastName: "Iyer",
        email: "sneha@example.com",
        phone: "+91 98765 43210",
        totalSpend: 99.5,
      },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("X-User-Id")).toBe(user.id);
    expect(created.body).toMatchObject({ firstName: "Sneha", email: "sneha@example.com", totalSpend: 99.5, visits: 0 });
    await call(createAction, user, "/api/customers", {
      method: "POST",
      body: { firstName: "Kavya", lastName: "Reddy", email: "kavya@example.com" },
    });
    const page = await call(listLoader, user, "/api/customers?limit=1");
    expect(page.status).toBe(200);
    expect(Array.isArray(page.body)).toBe(true);
    expect(page.body[0].email).toBe("kavya@example.com");
    expect(page.headers.get("X-Total-Count")).toBe("2");
    const next = page.headers.get("X-Next-Cursor");
    expect(next).toBeTruthy();
    const rest = await call(listLoader, user, `/api/customers?limit=1&cursor=${next}`);
    expect(rest.body.map((c: { email: string }) => c.email)).toEqual(["sneha@example.com"]);
    expect(rest.headers.get("X-Next-Cursor")).toBeNull();
    const one = await call(getLoader, user, `/api/customers/${created.body.id}`, { params: { id: created.body.id } });
    expect(one.body).toMatchObject({ id: created.body.id, segments: [], orders: [] });
  });

  it("answers 400 with a message per bad field", async () => {
    const user = await createTestUser("Bad");
    const bad = await call(createAction, user, "/api/customers", {
      method: "POST",
      body: {
        firstName: "",
        lastName: 5,
        email: "nope",
        phone: "1".repeat(41),
        totalSpend: "lots",
        visits: -2,
        lastActive: "someday",
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({
      firstName: "First name is required",
      lastName: "Last name is required",
      email: "Enter a valid email address",
      phone: "Phone must be at most 40 characters",
      totalSpend: "Total spend must be a number of rupees, 0 or more",
      visits: "Visits must be a whole number, 0 or more",
      lastActive: "Last active must be a date like 2024-05-31",
    });
    expect((await call(createAction, user, "/api/customers", { method: "POST", body: "{not json" })).status).toBe(400);
    expect((await call(listLoader, user, "/api/customers?limit=5000")).body.error.fields.limit).toBe(
      "limit must be at most 1000",
    );
    expect((await call(listLoader, user, "/api/customers?cursor=abc")).status).toBe(400);
  });

  it("answers 409 for a duplicate e-mail and 404 for another tenant's or a malformed id", async () => {
    const owner = await createTestUser("Owner");
    const stranger = await createTestUser("Stranger");
    const body = { firstName: "Arjun", lastName: "Das", email: "arjun@example.com" };
    const c = await call(createAction, owner, "/api/customers", { method: "POST", body });
    const dup = await call(createAction, owner, "/api/customers", { method: "POST", body });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatchObject({ code: "conflict", message: "A customer with this email already exists" });
    const id = c.body.id as string;
    for (const [handler, method] of [
      [getLoader, "GET"],
      [idAction, "PUT"],
      [idAction, "DELETE"],
    ] as const) {
      const r = await call(handler, stranger, `/api/customers/${id}`, {
        method,
        params: { id },
        body: method === "PUT" ? body : undefined,
      });
      expect(r.status).toBe(404);
    }
    expect((await call(getLoader, owner, "/api/customers/zzz", { params: { id: "zzz" } })).status).toBe(404);
    const put = await call(idAction, owner, `/api/customers/${id}`, {
      method: "PUT",
      params: { id },
      body: { ...body, company: "Das & Sons" },
    });
    expect(put.body.company).toBe("Das & Sons");
    const del = await call(idAction, owner, `/api/customers/${id}`, { method: "DELETE", params: { id } });
    expect(del.status).toBe(200);
    expect((await call(getLoader, owner, `/api/customers/${id}`, { params: { id } })).status).toBe(404);
  });

  it("sends a NEW_CUSTOMERS notification after every 15 new customers", async () => {
    const user = await createTestUser("Notify");
    for (let i = 0; i < 14; i++) await createCustomer(user.id, input());
    const count = () => db().notification.count({ where: { userId: user.id, type: "NEW_CUSTOMERS" } });
    expect(await count()).toBe(0);
    await createCustomer(user.id, input());
    expect(await count()).toBe(1);
  });
});
