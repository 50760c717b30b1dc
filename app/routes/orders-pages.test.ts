// @engines sqlite postgres
// The order screens' loaders and actions with a real session and database: what the form answers
// (the messages of docs/rules.md#order-form, the no-JavaScript row buttons) and the toasts the next
// page shows.
import { describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase as setUpTestDatabase } from "../../tests/helpers/db";

setUpTestDatabase();

const { db } = await import("~/db/prisma.server");
const { newId } = await import("~/lib/id");
const { signInAndRedirect } = await import("~/services/session.server");
const { flashOf } = await import("../../tests/helpers/requests");
const { createOrder, getOrder } = await import("~/services/orders.server");
const { OrderSchema } = await import("~/schemas/order");
const formRoute = await import("~/routes/orders-form");
const listRoute = await import("~/routes/orders");
const detailRoute = await import("~/routes/orders-detail");
const optionsRoute = await import("~/routes/orders-customer-options");
const { createCustomer } = await import("~/services/customers.server");
const { customers } = await import("~/models/customers/store.server");
const { CustomerApiSchema } = await import("~/schemas/customer");

const BASE = "http://localhost";

/** An order of one ₹250 mug for the customer. */
function mugOrder(userId: string, customerId: string) {
  return createOrder(userId, OrderSchema.parse({ customerId, items: [{ name: "Mug", quantity: 1, price: 250 }] }));
}

async function signedIn() {
  const user = await createTestUser();
  const res = await signInAndRedirect(new Request(`${BASE}/login`), user.id, "/");
  const cookie = (res.headers.get("Set-Cookie") ?? "").split(";")[0];
  const customer = await db().customer.create({
    data: { id: newId(), userId: user.id, firstName: "Rohan", lastName: "Verma", email: `rohan-${user.id}@example.in` },
  });
  await customers.indexCustomerForSearch(customer.id); // searchable, as the customer services make it
  return { user, cookie, customer };
}

function formRequest(cookie: string, path: string, fields: Record<string, string>) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  return new Request(`${BASE}${path}`, { method: "POST", headers: { Cookie: cookie }, body });
}

/** The form's answer as useForm reads it (Conform's submission.reply()). */
type FormResult = {
  initialValue: { items?: unknown[]; customer?: string } | null;
  error?: Record<string, string[] | null>;
};
async function resultOf(res: unknown): Promise<{ status: number; body: FormResult }> {
  // Actions answer data(...) objects (single fetch) or Responses (redirects).
  if (res instanceof Response) return { status: res.status, body: (await res.json()) as FormResult };
  const d = res as { data: FormResult; init?: { status?: number } };
  return { status: d.init?.status ?? 200, body: d.data };
}

const args = (request: Request, params: Record<string, string> = {}) => ({ request, params, context: {} });

/** The form's fields of one item, A: one at ₹1. */
const ONE_ITEM = { "items[0].name": "A", "items[0].quantity": "1", "items[0].price": "1" };

/** Posts the order form as the user of `cookie`, for a new order or the one `orderId` names: the action's answer. */
const postOrderForm = (cookie: string, fields: Record<string, string>, orderId?: string) =>
  orderId === undefined
    ? formRoute.action(args(formRequest(cookie, "/orders/new", fields)))
    : formRoute.action(args(formRequest(cookie, `/orders/edit/${orderId}`, fields), { id: orderId }));

describe("the order form", () => {
  it("creates an order from the customer's e-mail (no JavaScript) and says so in a toast", async () => {
    const { cookie, customer, user } = await signedIn();
    const res = await postOrderForm(cookie, {
      customer: customer.email.toUpperCase(),
      status: "Pending",
      tax: "18",
      "items[0].name": "Notebook",
      "items[0].quantity": "abc",
      "items[0].price": "120.50",
      "items[1].name": "Pen",
      "items[1].quantity": "3",
      "items[1].price": "10",
    });
    expect(res).toBeInstanceOf(Response);
    const r = res as Response;
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe("/orders");
    expect(await flashOf(r)).toEqual({ kind: "toast", type: "success", message: "Order created successfully" });
    const order = await db().order.findFirstOrThrow({
      where: { userId: user.id },
      include: { items: { orderBy: { position: "asc" } } },
    });
    expect(order.items.map((i) => [i.name, i.quantity, i.pricePaise])).toEqual([
      ["Notebook", 1, 12_050],
      ["Pen", 3, 1_000],
    ]);
    expect(order.amountPaise).toBe(15_050);
    expect(order.taxPaise).toBe(1_800);
  });

  it("answers 'Please select a customer' and 'Please fill in all item names'", async () => {
    const { cookie } = await signedIn();
    const none = await resultOf(await postOrderForm(cookie, ONE_ITEM));
    expect(none.status).toBe(400);
    expect(none.body.error?.[""]).toEqual(["Please select a customer"]);
    expect(none.body.error?.customerId).toEqual(["Please select a customer"]);

    const unknown = await resultOf(await postOrderForm(cookie, { customer: "nobody@example.in", ...ONE_ITEM }));
    expect(unknown.body.error?.customerId).toEqual(["Please select a customer"]);
    expect(unknown.body.initialValue?.customer).toBe("nobody@example.in");

    const { customer } = await signedIn();
    const { cookie: c2 } = await signedIn();
    const otherTenant = await resultOf(await postOrderForm(c2, { customerId: customer.id, ...ONE_ITEM }));
    expect(otherTenant.status).toBe(400);
    expect(otherTenant.body.error?.customerId).toEqual(["Please select a customer"]);
  });

  it("asks for every item name", async () => {
    const { cookie, customer } = await signedIn();
    const res = await resultOf(
      await postOrderForm(cookie, {
        customerId: customer.id,
        ...ONE_ITEM,
        "items[1].name": " ",
        "items[1].quantity": "1",
        "items[1].price": "1",
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error?.[""]).toEqual(["Please fill in all item names"]);
    expect(res.body.error?.["items[1].name"]).toEqual(["Please fill in all item names"]);
    expect(res.body.error?.["items[0].name"]).toBeUndefined();
  });

  it("adds and removes rows without JavaScript (Conform's insert and remove intents), saving nothing", async () => {
    const { cookie, customer, user } = await signedIn();
    // What the Add Item and Remove buttons send (form.insert / form.remove getButtonProps).
    const INTENT = "__intent__";
    const insert = JSON.stringify({
      type: "insert",
      payload: { name: "items", defaultValue: { name: "", description: "", quantity: "1", price: "0" } },
    });
    const row = {
      "items[0].name": "A",
      "items[0].description": "Blue",
      "items[0].quantity": "2",
      "items[0].price": "5",
    };
    const added = await resultOf(await postOrderForm(cookie, { [INTENT]: insert, customer: customer.email, ...row }));
    expect(added.status).toBe(200);
    expect(added.body.initialValue?.items).toEqual([
      { name: "A", description: "Blue", quantity: "2", price: "5" },
      { quantity: "1", price: "0" },
    ]);
    expect(added.body.initialValue?.customer).toBe(customer.email);
    const remove = JSON.stringify({ type: "remove", payload: { name: "items", index: 0 } });
    const removed = await resultOf(
      await postOrderForm(cookie, {
        [INTENT]: remove,
        ...row,
        "items[1].name": "B",
        "items[1].quantity": "1",
        "items[1].price": "3",
      }),
    );
    expect(removed.status).toBe(200);
    expect(removed.body.initialValue?.items).toEqual([{ name: "B", quantity: "1", price: "3" }]);
    expect(await db().order.count({ where: { userId: user.id } })).toBe(0);
  });

  it("updates an order, keeps its customer, and toasts 'Order updated successfully'", async () => {
    const { cookie, customer, user } = await signedIn();
    const order = await mugOrder(user.id, customer.id);
    const loaded = (await formRoute.loader(
      args(new Request(`${BASE}/orders/edit/${order._id}`, { headers: { Cookie: cookie } }), { id: order._id }),
    )) as { values: { items: unknown[] } };
    expect(loaded.values.items).toEqual([{ name: "Mug", description: "", quantity: "1", price: "250" }]);
    const res = await postOrderForm(
      cookie,
      {
        customerId: newId(),
        status: "Completed",
        tax: "45",
        "items[0].name": "Mug",
        "items[0].quantity": "4",
        "items[0].price": "250",
      },
      order._id,
    );
    expect(await flashOf(res as Response)).toEqual({
      kind: "toast",
      type: "success",
      message: "Order updated successfully",
    });
    const after = await getOrder(user.id, order._id);
    expect(after).toMatchObject({ customerId: customer.id, status: "Completed", amount: 1000, tax: 45 });
    const c = await db().customer.findUniqueOrThrow({ where: { id: customer.id } });
    expect(c.totalSpendPaise).toBe(104_500);
  });

  it("another tenant's order cannot be loaded or saved", async () => {
    const alice = await signedIn();
    const bob = await signedIn();
    const order = await mugOrder(alice.user.id, alice.customer.id);
    // The screens throw the load-failure message (docs/rules.md#messages) with a 404, for their error
    // boundary to show.
    const notFound = { data: "Failed to load order data. Please try again.", init: { status: 404 } };
    await expect(
      formRoute.loader(
        args(new Request(`${BASE}/orders/edit/${order._id}`, { headers: { Cookie: bob.cookie } }), { id: order._id }),
      ),
    ).rejects.toMatchObject(notFound);
    const saved = await resultOf(
      await postOrderForm(
        bob.cookie,
        {
          "items[0].name": "X",
          "items[0].quantity": "1",
          "items[0].price": "1",
        },
        order._id,
      ),
    );
    expect(saved.status).toBe(404);
    expect(saved.body.error?.[""]).toEqual(["Failed to save order: Order not found"]);
    await expect(
      detailRoute.loader(
        args(new Request(`${BASE}/orders/${order._id}`, { headers: { Cookie: bob.cookie } }), { id: order._id }),
      ),
    ).rejects.toMatchObject(notFound);
    expect(await getOrder(alice.user.id, order._id)).toMatchObject({ items: [{ name: "Mug" }] });
  });

  it("redirects to /login without a session", async () => {
    await expect(formRoute.loader(args(new Request(`${BASE}/orders/new`)))).rejects.toMatchObject({ status: 302 });
  });
});

describe("the order list", () => {
  it("deletes with a toast, and answers 404 'Delete failed: …' for an order that is not there", async () => {
    const { cookie, customer, user } = await signedIn();
    const order = await mugOrder(user.id, customer.id);
    const res = (await listRoute.action(
      args(formRequest(cookie, "/orders?q=rohan", { intent: "delete", id: order._id })),
    )) as Response;
    expect(res.headers.get("Location")).toBe("/orders?q=rohan");
    expect(await flashOf(res)).toMatchObject({ type: "success", message: "Order deleted successfully" });
    const again = listRoute.action(args(formRequest(cookie, "/orders", { intent: "delete", id: order._id })));
    await expect(again).rejects.toMatchObject({ data: "Delete failed: Order not found", init: { status: 404 } });
    const c = await db().customer.findUniqueOrThrow({ where: { id: customer.id } });
    expect([c.totalSpendPaise, c.visits]).toEqual([0, 0]);
  });

  it("lists a page with the total and searches", async () => {
    const { cookie, customer, user } = await signedIn();
    for (let i = 0; i < 3; i++) await mugOrder(user.id, customer.id);
    const page = await listRoute.loader(args(new Request(`${BASE}/orders?q=verma`, { headers: { Cookie: cookie } })));
    expect(page.page.total).toBe(3);
    expect(page.page.start).toBe(1);
    const none = await listRoute.loader(
      args(new Request(`${BASE}/orders?q=nobody&cursor=bad`, { headers: { Cookie: cookie } })),
    );
    expect(none.page.orders).toEqual([]);
  });

  it("the customer picker finds the signed-in user's customers by name or e-mail, and only theirs", async () => {
    const alice = await signedIn();
    const bob = await signedIn();
    const meera = await createCustomer(
      alice.user.id,
      CustomerApiSchema.parse({ firstName: "Meera", lastName: "Pillai", email: `meera-${alice.user.id}@example.in` }),
    );
    await createCustomer(
      bob.user.id,
      CustomerApiSchema.parse({ firstName: "Meera", lastName: "Pillai", email: `meera-${bob.user.id}@example.in` }),
    );
    const pick = async (cookie: string, q: string) => {
      const found = await optionsRoute.loader(
        args(
          new Request(`${BASE}/orders/customer-options?q=${encodeURIComponent(q)}`, { headers: { Cookie: cookie } }),
        ),
      );
      return (found as unknown as { data: { customers: { _id: string; firstName: string; email: string }[] } }).data
        .customers;
    };
    expect((await pick(alice.cookie, "meera pil")).map((c) => c._id)).toEqual([meera._id]);
    expect((await pick(alice.cookie, `meera-${alice.user.id}`)).map((c) => c._id)).toEqual([meera._id]);
    expect((await pick(alice.cookie, "")).map((c) => c.firstName).sort()).toEqual(["Meera", "Rohan"]);
    expect(await pick(alice.cookie, "nobody")).toEqual([]);
  });
});
