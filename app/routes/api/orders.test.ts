// @engines sqlite postgres
// /api/orders and /api/orders/{id} against a real database (SQLite; PostgreSQL in the postgres
// project): the payloads of docs/rules.md#payloads, paging headers, 400s with field messages, and
// tenant isolation (404).
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase as setUpTestDatabase } from "../../../tests/helpers/db";

setUpTestDatabase();

const { db } = await import("~/db/prisma.server");
const { newId } = await import("~/lib/id");
const { issueToken } = await import("~/services/token.server");
const list = await import("~/routes/api/orders");
const { customers } = await import("~/models/customers/store.server");
const one = await import("~/routes/api/orders-id");

type Json = Record<string, unknown>;
const BASE = "http://localhost";

async function caller(name = "Api User") {
  const user = await createTestUser(name);
  const token = await issueToken(user.id);
  const customer = await db().customer.create({
    data: {
      id: newId(),
      userId: user.id,
      firstName: "Kavya",
      lastName: "Iyer",
      email: `kavya-${user.id}@example.in`,
      phone: "+91 98450 12345",
    },
  });
  await customers.indexCustomerForSearch(customer.id); // searchable, as the customer services make it
  return { user, token, customer };
}

function req(token: string, path: string, method = "GET", body?: unknown) {
  return new Request(`${BASE}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}

const args = (request: Request, params: Record<string, string> = {}) => ({ request, params, context: {} });

async function post(token: string, body: unknown) {
  const res = await list.action(args(req(token, "/api/orders", "POST", body)));
  return { status: res.status, body: (await res.json()) as Json, res };
}

const validOrder = (customerId: string) => ({
  customerId,
  status: "Processing",
  notes: "Deliver before Diwali",
  tax: 90,
  amount: 5, // ignored: the server computes it
  items: [
    { name: "Silk saree", description: "Kanchipuram", quantity: 1, price: 4200 },
    { name: "Blouse piece", quantity: 2, price: 350.5 },
  ],
});

describe("POST /api/orders", () => {
  it("creates an order and answers 201 with the order payload", async () => {
    const { token, customer, user } = await caller();
    const { status, body, res } = await post(token, validOrder(customer.id));
    expect(status).toBe(201);
    expect(res.headers.get("X-User-Id")).toBe(user.id);
    expect(res.headers.get("Location")).toBe(`/api/orders/${body._id}`);
    expect(body).toMatchObject({
      customerId: customer.id,
      customer: {
        _id: customer.id,
        firstName: "Kavya",
        lastName: "Iyer",
        email: customer.email,
        phone: "+91 98450 12345",
      },
      status: "Processing",
      amount: 4901,
      tax: 90,
      total: 4991,
      notes: "Deliver before Diwali",
      items: [
        { name: "Silk saree", description: "Kanchipuram", quantity: 1, price: 4200 },
        { name: "Blouse piece", description: "", quantity: 2, price: 350.5 },
      ],
    });
    expect(body._id).toMatch(/^[0-9a-f]{24}$/);
    const c = await db().customer.findUniqueOrThrow({ where: { id: customer.id } });
    expect(c.totalSpendPaise).toBe(499_100);
    expect(c.visits).toBe(1);
  });

  it("accepts the customer as an object, as a write payload may carry it", async () => {
    const { token, customer } = await caller();
    const { status, body } = await post(token, {
      customer: { _id: customer.id },
      items: [{ name: "Diya", quantity: 12, price: 15 }],
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({ customerId: customer.id, status: "Pending", amount: 180, tax: 0 });
  });

  it("answers 400 with field messages for bad payloads of every field", async () => {
    const { token, customer, user } = await caller();
    const item = { name: "Diya", quantity: 1, price: 1 };
    const cases: [unknown, string, string][] = [
      [{ items: [item] }, "customerId", "Please select a customer"],
      [{ customerId: "", items: [item] }, "customerId", "Please select a customer"],
      [{ customerId: customer.id, items: [] }, "items", "Add at least one item"],
      [{ customerId: customer.id, items: "many" }, "items", "Add at least one item"],
      [{ customerId: customer.id, items: [{ ...item, name: "" }] }, "items.0.name", "Please fill in all item names"],
      [
        { customerId: customer.id, items: [{ ...item, quantity: 0 }] },
        "items.0.quantity",
        "Quantity must be at least 1",
      ],
      [
        { customerId: customer.id, items: [{ ...item, quantity: "two" }] },
        "items.0.quantity",
        "Quantity must be a number",
      ],
      [{ customerId: customer.id, items: [{ ...item, price: -5 }] }, "items.0.price", "Price must be 0 or more"],
      [
        { customerId: customer.id, items: [{ ...item, price: 1.001 }] },
        "items.0.price",
        "Price can have at most 2 decimal places",
      ],
      [
        { customerId: customer.id, items: [{ ...item, description: "x".repeat(1001) }] },
        "items.0.description",
        "At most 1000 characters",
      ],
      [{ customerId: customer.id, items: [item], tax: -1 }, "tax", "Tax must be 0 or more"],
      [{ customerId: customer.id, items: [item], tax: "lots" }, "tax", "Tax must be a number"],
      [
        { customerId: customer.id, items: [item], status: "Shipped" },
        "status",
        "Status must be one of Pending, Processing, Completed, Cancelled",
      ],
      [{ customerId: customer.id, items: [item], notes: "x".repeat(2001) }, "notes", "At most 2000 characters"],
    ];
    for (const [payload, field, message] of cases) {
      const { status, body } = await post(token, payload);
      expect(status, JSON.stringify(payload).slice(0, 80)).toBe(400);
      const error = body.error as { code: string; fields: Record<string, string> };
      expect(error.code).toBe("bad_request");
      expect(error.fields[field]).toBe(message);
    }
    expect(await db().order.count({ where: { userId: user.id } })).toBe(0);
  });

  it("answers 400 for a body that is not JSON or not an object", async () => {
    const { token } = await caller();
    expect((await post(token, "{not json")).status).toBe(400);
    expect((await post(token, [1, 2])).status).toBe(400);
  });

  it("refuses a customer of another tenant with 404", async () => {
    const alice = await caller("Alice");
    const bob = await caller("Bob");
    const { status, body } = await post(alice.token, validOrder(bob.customer.id));
    expect(status).toBe(404);
    expect(body.error).toMatchObject({
      code: "not_found",
      message: "Customer not found",
      fields: { customerId: "Please select a customer" },
    });
  });

  it("answers 401 without credentials", async () => {
    const res = await list.action(args(new Request(`${BASE}/api/orders`, { method: "POST", body: "{}" })));
    expect(res.status).toBe(401);
  });
});

describe("GET /api/orders", () => {
  let token: string;
  const ids: string[] = [];
  beforeAll(async () => {
    const c = await caller();
    token = c.token;
    for (let i = 0; i < 5; i++)
      ids.push(
        (await post(token, { customerId: c.customer.id, items: [{ name: `Item ${i}`, quantity: 1, price: 10 }] })).body
          ._id as string,
      );
  });

  it("answers an array, newest first, with X-Total-Count and X-Next-Cursor", async () => {
    const res = await list.loader(args(req(token, "/api/orders?limit=2&_t=123")));
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Total-Count")).toBe("5");
    const body = (await res.json()) as Json[];
    expect(body.map((o) => o._id)).toEqual([ids[4], ids[3]]);
    expect(body[0].customer).toMatchObject({ firstName: "Kavya" });
    const cursor = res.headers.get("X-Next-Cursor");
    expect(cursor).toBe(ids[3]);
    const last = await list.loader(args(req(token, `/api/orders?limit=10&cursor=${cursor}`)));
    expect(((await last.json()) as Json[]).map((o) => o._id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(last.headers.get("X-Next-Cursor")).toBeNull();
  });

  it("searches with q and defaults to 100", async () => {
    const res = await list.loader(args(req(token, "/api/orders?q=kavya")));
    expect(((await res.json()) as Json[]).length).toBe(5);
    const none = await list.loader(args(req(token, "/api/orders?q=zzz")));
    expect(await none.json()).toEqual([]);
    expect(none.headers.get("X-Total-Count")).toBe("0");
  });

  it("refuses a bad limit or cursor with 400", async () => {
    for (const q of ["limit=0", "limit=1001", "limit=abc", "cursor=nope"]) {
      const res = await list.loader(args(req(token, `/api/orders?${q}`)));
      expect(res.status, q).toBe(400);
    }
  });
});

describe("/api/orders/{id}", () => {
  it("reads, updates and deletes, keeping the customer's totals", async () => {
    const { token, customer } = await caller();
    const created = (await post(token, validOrder(customer.id))).body;
    const id = created._id as string;

    const got = await one.loader(args(req(token, `/api/orders/${id}`), { id }));
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual(created);

    const put = await one.action(
      args(
        req(token, `/api/orders/${id}`, "PUT", {
          status: "cancelled",
          items: [{ name: "Silk saree", quantity: 1, price: 4200 }],
        }),
        { id },
      ),
    );
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ status: "Cancelled", amount: 4200, tax: 0, customerId: customer.id });
    let c = await db().customer.findUniqueOrThrow({ where: { id: customer.id } });
    expect([c.totalSpendPaise, c.visits]).toEqual([0, 0]);

    const bad = await one.action(
      args(req(token, `/api/orders/${id}`, "PUT", { items: [{ name: "", quantity: 1, price: 1 }] }), { id }),
    );
    expect(bad.status).toBe(400);

    const del = await one.action(args(req(token, `/api/orders/${id}`, "DELETE"), { id }));
    expect(del.status).toBe(200);
    expect(await del.json()).toEqual({ success: true, message: "Order deleted successfully" });
    const gone = await one.loader(args(req(token, `/api/orders/${id}`), { id }));
    expect(gone.status).toBe(404);
    c = await db().customer.findUniqueOrThrow({ where: { id: customer.id } });
    expect([c.totalSpendPaise, c.visits]).toEqual([0, 0]);
  });

  it("another tenant's order and malformed ids are 404, never 500", async () => {
    const alice = await caller("Alice");
    const bob = await caller("Bob");
    const id = (await post(alice.token, validOrder(alice.customer.id))).body._id as string;
    for (const [method, body] of [
      ["GET"],
      ["PUT", { items: [{ name: "X", quantity: 1, price: 1 }] }],
      ["DELETE"],
    ] as const) {
      const request = req(bob.token, `/api/orders/${id}`, method, body);
      const res = method === "GET" ? await one.loader(args(request, { id })) : await one.action(args(request, { id }));
      expect(res.status, method).toBe(404);
    }
    for (const bad of ["123", "zzzzzzzzzzzzzzzzzzzzzzzz", "%27%20OR%201=1"]) {
      const res = await one.loader(args(req(alice.token, `/api/orders/${bad}`), { id: bad }));
      expect(res.status, bad).toBe(404);
    }
    const still = await one.loader(args(req(alice.token, `/api/orders/${id}`), { id }));
    expect(still.status).toBe(200);
  });

  it("refuses to move an order to another customer", async () => {
    const { token, customer, user } = await caller();
    const other = await db().customer.create({
      data: { id: newId(), userId: user.id, firstName: "B", lastName: "C", email: `b-${user.id}@example.in` },
    });
    const id = (await post(token, validOrder(customer.id))).body._id as string;
    const res = await one.action(
      args(
        req(token, `/api/orders/${id}`, "PUT", { customerId: other.id, items: [{ name: "X", quantity: 1, price: 1 }] }),
        { id },
      ),
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: Json }).error.message).toBe("The customer cannot be changed when editing");
  });
});
