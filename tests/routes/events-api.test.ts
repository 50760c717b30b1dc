// @engines sqlite postgres
// POST /api/events against a real database: events from the shop's systems kept once per their id
// (the same batch again, and the same id twice in one batch, keep nothing more), found by customer
// id or e-mail, an unknown e-mail refused or made a customer when asked, another tenant's customer
// refused and never shown, and every kind of bad input a 4xx that says what is wrong; GET lists them
// newest first.
import { beforeAll, describe, expect, it } from "vitest";
import { customerInput } from "../helpers/customer-input";
import { createTestUser, useTestDatabase } from "../helpers/db";
import { args, bearerFor, callRoute, cookieFor, ORIGIN } from "../helpers/requests";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();

import { propertiesLine } from "~/components/customers/events-card";
import { action, loader } from "~/routes/api/events";
import { loader as customerPage } from "~/routes/customers-detail";
import { createCustomer, listCustomers } from "~/services/customers.server";

type Who = { id: string; bearer: string };
let alice: Who;
let bob: Who;
let asha: { id: string; email: string };
let bobsCustomer: string;

beforeAll(async () => {
  const a = await createTestUser("Alice events");
  const b = await createTestUser("Bob events");
  alice = { id: a.id, bearer: await bearerFor(a.id) };
  bob = { id: b.id, bearer: await bearerFor(b.id) };
  const made = await createCustomer(alice.id, customerInput({ firstName: "Asha", email: "asha@shop.example" }));
  asha = { id: made.id, email: made.email };
  bobsCustomer = (await createCustomer(bob.id, customerInput({ firstName: "Ravi" }))).id;
});

const post = (who: Who, body: unknown) =>
  callRoute(action, "/api/events", {
    method: "POST",
    headers: { Authorization: `Bearer ${who.bearer}`, "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const list = (who: Who, query = "") =>
  callRoute(loader, `/api/events${query}`, { headers: { Authorization: `Bearer ${who.bearer}` } });

describe("POST /api/events", () => {
  it("keeps each event once: the same batch again, and an id twice in one batch, keep nothing more", async () => {
    const batch = {
      events: [
        {
          id: "cart-1001",
          name: "cart_abandoned",
          customerId: asha.id,
          properties: { items: [{ sku: "KURTA-BLUE", qty: 1 }], url: "https://shop.example/cart/1001" },
          occurredAt: "2026-11-28T09:00:00Z",
        },
        { id: "review-77", name: "review_written", email: "ASHA@shop.example", properties: { stars: 5 } },
      ],
    };
    const first = await post(alice, batch);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ accepted: 2, duplicates: 0, customersCreated: 0, refused: [] });
    const again = await post(alice, batch);
    expect(again.body).toEqual({ accepted: 0, duplicates: 2, customersCreated: 0, refused: [] });
    const twice = await post(alice, {
      events: [
        { id: "visit-1", name: "page_viewed", customerId: asha.id },
        { id: "visit-1", name: "page_viewed", customerId: asha.id },
      ],
    });
    expect(twice.body).toMatchObject({ accepted: 1, duplicates: 1 });

    const listed = await list(alice, `?customerId=${asha.id}`);
    expect(listed.status).toBe(200);
    const events = listed.body.events as unknown as { id: string; name: string; properties: unknown }[];
    // Beside the shop's, the product's own: the customer's creation.
    expect(events.map((e) => e.id).sort()).toEqual(["cart-1001", `crm:customer:${asha.id}`, "review-77", "visit-1"]);
    expect(events.find((e) => e.id.startsWith("crm:"))).toMatchObject({
      name: "customer_created",
      properties: {},
    });
    expect(events.find((e) => e.id === "cart-1001")).toMatchObject({
      name: "cart_abandoned",
      customerId: asha.id,
      occurredAt: "2026-11-28T09:00:00.000Z",
      properties: { items: [{ sku: "KURTA-BLUE", qty: 1 }], url: "https://shop.example/cart/1001" },
    });
    // The newest first: the cart (yesterday) comes after those without a time (now).
    expect(events[events.length - 1]?.id).toBe("cart-1001");
    const carts = await list(alice, "?name=cart_abandoned");
    expect((carts.body.events as unknown as unknown[]).length).toBe(1);
  });

  it("refuses an unknown e-mail, or makes the customer when asked, once for two events of theirs", async () => {
    const unknown = await post(alice, {
      events: [
        { id: "signup-1", name: "newsletter_signup", email: "new.person@shop.example" },
        { id: "visit-2", name: "page_viewed", customerId: asha.id },
      ],
    });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toMatchObject({ accepted: 1, customersCreated: 0 });
    expect(unknown.body.refused).toEqual([
      {
        index: 0,
        id: "signup-1",
        message:
          "No customer has the e-mail new.person@shop.example: send createCustomers: true with customer: { firstName, lastName } to make one",
      },
    ]);
    const created = await post(alice, {
      createCustomers: true,
      events: [
        {
          id: "signup-1",
          name: "newsletter_signup",
          email: "new.person@shop.example",
          customer: { firstName: "Neha", lastName: "Kapoor" },
        },
        { id: "signup-1b", name: "coupon_sent", email: "new.person@shop.example" },
        { id: "signup-2", name: "newsletter_signup", email: "nameless@shop.example" },
      ],
    });
    expect(created.body).toMatchObject({ accepted: 2, duplicates: 0, customersCreated: 1 });
    expect(created.body.refused).toEqual([
      {
        index: 2,
        id: "signup-2",
        message:
          "No customer has the e-mail nameless@shop.example: give the event customer: { firstName, lastName } to make one",
      },
    ]);
    const found = await listCustomers(alice.id, { q: "new.person@shop.example" });
    expect(found.customers.map((c) => `${c.firstName} ${c.lastName}`)).toEqual(["Neha Kapoor"]);
  });

  it("never takes or shows another tenant's customer, and a batch that keeps nothing is a 422", async () => {
    const refused = await post(alice, {
      events: [{ id: "steal-1", name: "cart_abandoned", customerId: bobsCustomer }],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error?.message).toBe(
      `No event was kept: event 1 (steal-1): Customer ${bobsCustomer} not found`,
    );
    // Bob sees only his own: his customer's creation.
    expect((await list(bob)).body.events).toEqual([
      expect.objectContaining({ id: `crm:customer:${bobsCustomer}`, customerId: bobsCustomer }),
    ]);
    await post(bob, { events: [{ id: "bob-1", name: "cart_abandoned", customerId: bobsCustomer }] });
    const alices = (await list(alice)).body.events as unknown as { id: string }[];
    expect(alices.map((e) => e.id)).not.toContain("bob-1");
  });

  it("answers bad input with a 4xx that says what is wrong, and keeps nothing of it", async () => {
    const before = ((await list(alice, "?limit=500")).body.events as unknown as unknown[]).length;
    const cases: [unknown, number, RegExp][] = [
      [{ events: [] }, 400, /Send at least one event/],
      [
        { events: Array.from({ length: 1001 }, (_, i) => ({ id: `e${i}`, name: "x", customerId: asha.id })) },
        400,
        /at most 1,000 events/,
      ],
      [{ events: [{ id: "a", name: "9lives", customerId: asha.id }] }, 400, /name must start with a letter/],
      [{ events: [{ id: "a", name: "viewed" }] }, 400, /Give customerId or email/],
      [
        { events: [{ id: "a", name: "viewed", customerId: asha.id, properties: { blob: "x".repeat(20_000) } }] },
        400,
        /properties must be at most 16,384 bytes/,
      ],
      [
        { events: [{ id: "a", name: "viewed", customerId: asha.id, occurredAt: "2099-01-01T00:00:00Z" }] },
        400,
        /more than a day ahead/,
      ],
      [{ events: [{ id: "a", name: "viewed", customerId: asha.id, occurredAt: "yesterday" }] }, 400, /ISO date/],
      [{ events: [{ id: "a", name: "viewed", customerId: asha.id, secret: 1 }] }, 400, /.+/],
      ["{not json", 400, /not valid JSON/],
      [
        { events: [{ id: "a", name: "viewed", customerId: asha.id, properties: { blob: "x".repeat(2_000_000) } }] },
        413,
        /larger than/,
      ],
    ];
    for (const [body, status, message] of cases) {
      const answer = await post(alice, body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(answer.body.error?.message ?? "").toMatch(message);
    }
    expect((await list(alice, "?limit=0")).status).toBe(400);
    expect(((await list(alice, "?limit=500")).body.events as unknown as unknown[]).length).toBe(before);
  });

  it("shows a customer's newest events on their page, their properties in one short line", async () => {
    const cookie = await cookieFor(alice.id);
    const page = (await customerPage(
      args(new Request(`${ORIGIN}/customers/${asha.id}`, { headers: { Cookie: cookie } }), { id: asha.id }),
    )) as { events: { id: string; name: string; properties: Record<string, unknown> }[] };
    expect(page.events.map((e) => e.id)).toContain("cart-1001");
    const cart = page.events.find((e) => e.id === "cart-1001");
    expect(propertiesLine(cart?.properties ?? {})).toBe("items: 1 item · url: https://shop.example/cart/1001");
  });
});
