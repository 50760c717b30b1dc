// @engines sqlite postgres
// /api/templates against a real database: the starters listed beside the tenant's own, making,
// reading, saving (never over a newer copy), duplicating and deleting a template, a template that
// does not parse refused with where it is, rendering for a real customer and for sample values, and
// one tenant never seeing or changing another's templates.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase } from "../helpers/db";
import { customerInput } from "../helpers/customer-input";
import { bearerFor, callRoute } from "../helpers/requests";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();

import { loader as listLoader, action as listAction } from "~/routes/api/templates";
import { loader as oneLoader, action as oneAction } from "~/routes/api/templates-id";
import { action as renderAction } from "~/routes/api/templates-id-render";
import { action as duplicateAction } from "~/routes/api/templates-id-duplicate";
import { createCustomer } from "~/services/customers.server";
import { createOrder } from "~/services/orders.server";

type Who = { id: string; bearer: string };
let alice: Who;
let bob: Who;

async function signedUp(name: string): Promise<Who> {
  const user = await createTestUser(name);
  return { id: user.id, bearer: await bearerFor(user.id) };
}

beforeAll(async () => {
  alice = await signedUp("Alice");
  bob = await signedUp("Bob");
});

const send = (who: Who, method: string, json?: unknown) => ({
  method,
  headers: { Authorization: `Bearer ${who.bearer}`, "Content-Type": "application/json" },
  ...(json === undefined ? {} : { body: JSON.stringify(json) }),
});

const html = (over: Record<string, unknown> = {}) => ({
  name: "Diwali offer",
  subject: "Hi {{ customer.first_name }}",
  format: "html",
  content: '<p>Hello {{ customer.first_name | default: "there" }}</p>',
  ...over,
});

const create = (who: Who, body: unknown) => callRoute(listAction, "/api/templates", send(who, "POST", body));
const get = (who: Who, id: string) =>
  callRoute(oneLoader, `/api/templates/${id}`, { headers: send(who, "GET").headers, params: { id } });
const put = (who: Who, id: string, body: unknown) =>
  callRoute(oneAction, `/api/templates/${id}`, { ...send(who, "PUT", body), params: { id } });
const remove = (who: Who, id: string) =>
  callRoute(oneAction, `/api/templates/${id}`, { ...send(who, "DELETE"), params: { id } });
const render = (who: Who, id: string, body: unknown) =>
  callRoute(renderAction, `/api/templates/${id}/render`, { ...send(who, "POST", body), params: { id } });

describe("/api/templates", () => {
  it("lists four starter templates made of blocks for a new tenant", async () => {
    const list = await callRoute(listLoader, "/api/templates", { headers: send(alice, "GET").headers });
    expect(list.status).toBe(200);
    const templates = list.body.templates as { name: string; format: string; starter: boolean }[];
    expect(templates.map((t) => t.name)).toEqual(["Newsletter", "Offer", "Welcome", "Order follow-up"]);
    expect(templates.every((t) => t.starter && t.format === "blocks")).toBe(true);
  });

  it("makes, reads, saves and deletes a template, the tenant's own listed first", async () => {
    const made = await create(alice, html());
    expect(made.status).toBe(201);
    expect(made.headers.get("Location")).toBe(`/api/templates/${made.body.id}`);
    expect(made.body).toMatchObject({
      name: "Diwali offer",
      format: "html",
      version: 1,
      starter: false,
      preheader: "",
      text: null,
    });
    const id = String(made.body.id);

    const list = await callRoute(listLoader, "/api/templates?search=DIWALI", { headers: send(alice, "GET").headers });
    expect((list.body.templates as { id: string }[]).map((t) => t.id)).toEqual([id]);

    const saved = await put(alice, id, html({ name: "Diwali sale", version: 1 }));
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ name: "Diwali sale", version: 2 });
    expect((await get(alice, id)).body.name).toBe("Diwali sale");

    expect((await remove(alice, id)).body).toEqual({ success: true, message: "Template deleted" });
    expect((await get(alice, id)).status).toBe(404);
  });

  it("refuses a save from an older copy and keeps the newer one", async () => {
    const id = String((await create(alice, html())).body.id);
    expect((await put(alice, id, html({ name: "From tab one", version: 1 }))).status).toBe(200);
    const stale = await put(alice, id, html({ name: "From tab two", version: 1 }));
    expect(stale.status).toBe(409);
    expect(stale.body.error?.message).toMatch(/saved elsewhere since you opened it \(version 2\)/);
    expect((await get(alice, id)).body).toMatchObject({ name: "From tab one", version: 2 });
  });

  it("refuses what does not parse with the problem and where it is, and keeps what was stored", async () => {
    const unclosed = await create(alice, html({ content: "<p>Hi\n{{ customer.first_name </p>" }));
    expect(unclosed.status).toBe(422);
    expect(unclosed.body.error?.message).toMatch(/^HTML: The tag .* is not closed \(line 2, column 1\)$/);

    const blocks = await create(alice, {
      name: "Blocks",
      subject: "Hi",
      format: "blocks",
      content: [
        { type: "heading", text: "Hello" },
        { type: "button", label: "Buy {% if x %}", href: "https://shop.example.in" },
      ],
    });
    expect(blocks.status).toBe(422);
    expect(blocks.body.error?.message).toMatch(/^Block 2 \(Button\), label: The tag \{% if x %\} is not closed/);

    const id = String((await create(alice, html())).body.id);
    const bad = await put(alice, id, html({ subject: "{{ customer.name | shout }}" }));
    expect(bad.status).toBe(422);
    expect(bad.body.error?.message).toMatch(/^Subject: There is no filter named shout/);
    expect((await get(alice, id)).body).toMatchObject({ subject: "Hi {{ customer.first_name }}", version: 1 });

    // A loop that makes too much text is refused at save, not found at send time.
    const loop = await create(
      alice,
      html({
        content:
          '{% assign a = "xxxxxxxxxx" %}{% for i in (1..30) %}{% assign a = a | append: a %}{% endfor %}<p>{{ a }}</p>',
      }),
    );
    expect(loop.status).toBe(422);
    expect(loop.body.error?.message).toMatch(/^Message: The template makes too much text/);
    expect((await put(alice, id, html({ version: 2_147_483_648 }))).status).toBe(400);

    expect((await create(alice, html({ format: "mjml" }))).status).toBe(400);
    expect((await create(alice, { ...html(), content: [{ type: "video" }], format: "blocks" })).status).toBe(400);
    expect((await create(alice, html({ content: "x".repeat(500_001) }))).status).toBe(400);
  });

  it("renders a template for a real customer with their last order, and for sample values", async () => {
    const customer = await createCustomer(alice.id, customerInput({ firstName: "Asha" }));
    await createOrder(alice.id, {
      customerId: customer.id,
      status: "Completed",
      notes: "",
      tax: 0,
      items: [{ name: "Chai", description: "", price: 320, quantity: 2 }],
    });
    const id = String(
      (
        await create(
          alice,
          html({
            content:
              '<p>{{ customer.first_name }} {{ customer.city | default: "somewhere" }} ₹{{ last_order.amount }}</p>',
          }),
        )
      ).body.id,
    );
    const forAsha = await render(alice, id, { customerId: customer.id });
    expect(forAsha.status).toBe(200);
    expect(forAsha.body.subject).toBe("Hi Asha");
    expect(forAsha.body.html).toContain("<p>Asha somewhere ₹640</p>");
    expect(forAsha.body.text).toMatch(/^Asha somewhere ₹640\n\n—\nSent by /);

    const sample = await render(alice, id, { sample: { customer: { first_name: "<b>Ravi</b>" } } });
    expect(sample.body.html).toContain("<p>&lt;b&gt;Ravi&lt;/b&gt; somewhere ₹</p>");

    const starter = await render(alice, "starter-welcome", { sample: { customer: {} } });
    expect(starter.body.subject).toMatch(/^Welcome to .*, friend$/);
    expect(starter.body.html).toContain('<meta name="viewport"');

    expect((await render(alice, id, { customerId: "0".repeat(24) })).status).toBe(404);
    expect((await render(alice, id, { nothing: true })).status).toBe(400);
  });

  it("duplicates a starter into a template of the tenant's own, and refuses to change a starter", async () => {
    const copy = await callRoute(duplicateAction, "/api/templates/starter-offer/duplicate", {
      ...send(alice, "POST"),
      params: { id: "starter-offer" },
    });
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({ name: "Offer", format: "blocks", starter: false, version: 1 });
    const again = await callRoute(duplicateAction, `/api/templates/${copy.body.id}/duplicate`, {
      ...send(alice, "POST"),
      params: { id: String(copy.body.id) },
    });
    expect(again.body.name).toBe("Copy of Offer");

    expect((await put(alice, "starter-offer", html())).status).toBe(400);
    expect((await remove(alice, "starter-offer")).status).toBe(400);
  });

  it("keeps each tenant's templates their own", async () => {
    const id = String((await create(alice, html({ name: "Alice's own" }))).body.id);
    expect((await get(bob, id)).status).toBe(404);
    expect((await put(bob, id, html({ name: "Taken" }))).status).toBe(404);
    expect((await remove(bob, id)).status).toBe(404);
    expect((await render(bob, id, { sample: { customer: {} } })).status).toBe(404);
    const bobs = await callRoute(listLoader, "/api/templates", { headers: send(bob, "GET").headers });
    expect((bobs.body.templates as { starter: boolean }[]).every((t) => t.starter)).toBe(true);
    expect((await get(alice, id)).body.name).toBe("Alice's own");
  });
});
