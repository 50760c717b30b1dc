// @engines sqlite postgres
// Flows against a real database, sent by the real delivery engine to a real SMTP server: a welcome
// series (welcome now, wait, if not ordered an offer) on the product's own customer_created event,
// with an order as its goal; every person gets each step's message once under its own Message-ID,
// the one who orders leaves the flow with the order as its revenue, and the figures per step add up.
// Events posted twice and two clocks at once move nobody twice; a clock whose claim ran out writes
// nothing. Bad flows are refused (400 for the shape, 422 for a flow that cannot go live) and
// another tenant's flow is a 404.
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerInput } from "../helpers/customer-input";
import { createTestUser, useTestConnection, useTestDatabase } from "../helpers/db";
import { bearerFor, callRoute } from "../helpers/requests";
import { type SmtpCapture, startSmtpCapture } from "../helpers/smtp";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { logger } from "~/lib/logger.server";
import { flows } from "~/models/flows/store.server";
import { action as eventsAction } from "~/routes/api/events";
import { action as flowsAction, loader as flowsLoader } from "~/routes/api/flows";
import { action as flowAction, loader as flowLoader } from "~/routes/api/flows-id";
import { loader as peopleLoader } from "~/routes/api/flows-id-people";
import { action as templatesAction } from "~/routes/api/templates";
import { action as templateAction } from "~/routes/api/templates-id";
import { importCustomers } from "~/services/customer-import.server";
import { createCustomer } from "~/services/customers.server";
import { EVENT_SETTLE_MS, runFlowClock } from "~/services/flows/flow-clock.server";
import { runEntry } from "~/services/flows/flow-steps.server";
import { customerPassages, type FlowDto, type FlowPersonDto, type FlowSummaryDto } from "~/services/flows/flows.server";
import { parseDefinition } from "~/schemas/flow";
import { createOrder } from "~/services/orders.server";
import { createDeliveryEngine } from "~/services/sending/engine.server";
import { smtpChannel } from "~/services/sending/smtp-channel.server";

type Who = { id: string; bearer: string };
let alice: Who;
let bob: Who;
let smtp: SmtpCapture;
let welcomeId: string;
let offerId: string;
const log = logger().child({ test: "flows" });

const json = (who: Who, method: string, body?: unknown) => ({
  method,
  headers: { Authorization: `Bearer ${who.bearer}`, "Content-Type": "application/json" },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

async function template(who: Who, name: string, subject: string): Promise<string> {
  const res = await callRoute(
    templatesAction,
    "/api/templates",
    json(who, "POST", { name, subject, format: "markdown", content: `Hello {{ customer.first_name }}. ${name}.` }),
  );
  expect(res.status).toBe(201);
  return String(res.body._id);
}

const welcomeSeries = (status = "live") => ({
  name: "Welcome series",
  trigger: { type: "event", event: "customer_created" },
  steps: [
    { id: "welcome", type: "send", templateId: welcomeId },
    { id: "pause", type: "wait", seconds: 1 },
    { id: "ordered", type: "condition", if: { ordered: true }, then: "done", else: "offer" },
    { id: "offer", type: "send", templateId: offerId },
    { id: "done", type: "exit" },
  ],
  goal: { ordered: true },
  status,
});

const postFlow = (who: Who, body: unknown) => callRoute(flowsAction, "/api/flows", json(who, "POST", body));
const getFlow = async (who: Who, id: string) =>
  callRoute(flowLoader, `/api/flows/${id}`, { ...json(who, "GET"), params: { id } });
const tick = (msAhead: number) => runFlowClock(Date.now() + msAhead, log);

/** Sends every pending message with the delivery engine over SMTP until none is pending. */
async function sendPending(): Promise<void> {
  const channel = smtpChannel({ url: `smtp://127.0.0.1:${smtp.port}`, maxConnections: 2 });
  const engine = createDeliveryEngine({ connection: connection(), channel, settings: { batchSize: 50, idleMs: 10 } });
  const running = engine.run();
  const before = smtp.messages.length;
  for (let i = 0; i < 200; i++) {
    await new Promise((r) => setTimeout(r, 25));
    if (smtp.messages.length > before && i > 10) break;
  }
  await engine.stop();
  await running;
  await channel.close();
}

beforeAll(async () => {
  const a = await createTestUser("Alice flows");
  const b = await createTestUser("Bob flows");
  alice = { id: a.id, bearer: await bearerFor(a.id) };
  bob = { id: b.id, bearer: await bearerFor(b.id) };
  smtp = await startSmtpCapture();
  welcomeId = await template(alice, "Welcome", "Welcome, {{ customer.first_name }}");
  offerId = await template(alice, "First order offer", "10% off your first order");
});

afterAll(async () => {
  await smtp.close();
});

describe("a flow that cannot run", () => {
  it("refuses a bad shape with a 400 that names the field, and a flow that cannot go live with a 422 saying why", async () => {
    const negative = await postFlow(alice, {
      ...welcomeSeries(),
      steps: [{ id: "w", type: "wait", seconds: -86_400 }],
    });
    expect(negative.status).toBe(400);
    expect(JSON.stringify(negative.body)).toContain("A wait must be at least 1 second");

    const segmentTrigger = await postFlow(alice, { ...welcomeSeries(), trigger: { type: "segment", segmentId: "x" } });
    expect(segmentTrigger.status).toBe(400);

    const loop = await postFlow(alice, {
      ...welcomeSeries(),
      steps: [
        { id: "a", type: "send", templateId: welcomeId },
        { id: "b", type: "condition", if: { ordered: true }, then: "c", else: "a" },
        { id: "c", type: "exit" },
      ],
    });
    expect(loop.status).toBe(422);
    expect(loop.body.error?.message).toBe(
      "This flow cannot go live: The steps go round in a loop (a → b → a): a flow must always move forward",
    );

    const gone = await template(alice, "Soon deleted", "Bye");
    expect(
      (await callRoute(templateAction, `/api/templates/${gone}`, { ...json(alice, "DELETE"), params: { id: gone } }))
        .status,
    ).toBe(200);
    const deleted = await postFlow(alice, {
      ...welcomeSeries(),
      steps: [{ id: "send", type: "send", templateId: gone }],
    });
    expect(deleted.status).toBe(422);
    expect(deleted.body.error?.message).toContain('Step "send" sends a template that does not exist');

    // Nothing refused was kept; a draft with a problem is kept, and says why it cannot go live.
    const draft = await postFlow(alice, {
      ...welcomeSeries("draft"),
      steps: [{ id: "s", type: "send", templateId: gone }],
    });
    expect(draft.status).toBe(200);
    const kept = draft.body as unknown as FlowDto;
    expect(kept.problems).toEqual(['Step "s" sends a template that does not exist (deleted?): choose another']);
    const list = (await callRoute(flowsLoader, "/api/flows", json(alice, "GET"))).body as unknown as {
      flows: FlowSummaryDto[];
    };
    expect(list.flows.map((f: { name: string }) => f.name)).toEqual(["Welcome series"]);
    expect(
      (await callRoute(flowAction, `/api/flows/${kept.id}`, { ...json(alice, "DELETE"), params: { id: kept.id } }))
        .status,
    ).toBe(200);
  });
});

describe("a welcome series", () => {
  let flowId: string;

  it("enters new customers, sends each step once, and ends with the order as its revenue for the one who orders", async () => {
    const made = await postFlow(alice, welcomeSeries());
    expect(made.status).toBe(200);
    const flow = made.body as unknown as FlowDto;
    flowId = flow.id;
    expect(flow).toMatchObject({ status: "live", version: 1, problems: [] });

    const asha = await createCustomer(alice.id, customerInput({ firstName: "Asha", email: "asha@flows.example" }));
    const ravi = await createCustomer(alice.id, customerInput({ firstName: "Ravi", email: "ravi@flows.example" }));
    // Bob's customers never enter Alice's flow.
    await createCustomer(bob.id, customerInput({ firstName: "Meera", email: "meera@flows.example" }));

    // They entered as they were made (the fast path); two clocks at once move each of them once.
    expect(((await getFlow(alice, flowId)).body as unknown as FlowDto).people.active).toBe(2);
    const [one, two] = await Promise.all([tick(0), tick(0)]);
    expect(one.moved + two.moved).toBe(2);
    await sendPending();
    expect(smtp.messages.map((m) => m.to).sort()).toEqual(["asha@flows.example", "ravi@flows.example"]);
    expect(smtp.messages.every((m) => m.raw.includes("Subject: Welcome, "))).toBe(true);

    // Ravi orders; at the next tick he converts (the goal), and Asha, who did not, gets the offer.
    await createOrder(alice.id, {
      customerId: ravi.id,
      status: "Completed",
      notes: "",
      tax: 0,
      items: [{ name: "Kurta", description: "", price: 1_499, quantity: 2 }],
    });
    await tick(6_000);
    await tick(6_000);
    await sendPending();
    const to = smtp.messages.map((m) => m.to);
    expect(to.filter((t) => t === "ravi@flows.example")).toHaveLength(1);
    expect(to.filter((t) => t === "asha@flows.example")).toHaveLength(2);
    expect(new Set(smtp.messages.map((m) => m.messageId)).size).toBe(3);

    const read = (await getFlow(alice, flowId)).body as unknown as FlowDto;
    expect(read.people).toEqual({ active: 0, done: 1, converted: 1 });
    expect(read.revenue).toBe(2_998);
    const step = (id: string) => read.steps.find((s: { id: string }) => s.id === id);
    expect(step("welcome")).toMatchObject({ entered: 2, sent: 2, waiting: 0 });
    expect(step("pause")).toMatchObject({ entered: 1 });
    expect(step("offer")).toMatchObject({ entered: 1, sent: 1 });
    expect(step("done")).toMatchObject({ entered: 1, exited: 1 });
    expect(step("welcome")).toMatchObject({ converted: 1, revenue: 2_998 });

    const people = (
      await callRoute(peopleLoader, `/api/flows/${flowId}/people`, { ...json(alice, "GET"), params: { id: flowId } })
    ).body as unknown as { people: FlowPersonDto[] };
    expect(
      people.people.map((p: { email: string; state: string; revenue: number }) => [p.email, p.state, p.revenue]).sort(),
    ).toEqual([
      ["asha@flows.example", "done", 0],
      ["ravi@flows.example", "converted", 2_998],
    ]);
    // The clock's own read of the same events, later, enters nobody again.
    expect((await tick(EVENT_SETTLE_MS + 2_000)).entered).toBe(0);

    // Asha's page tells her way through the flow.
    const passages = await customerPassages(alice.id, asha.id, 10);
    expect(passages.map((p) => `${p.flowName} · ${p.stepId}: ${p.outcome}`).sort()).toEqual([
      "Welcome series · done: exited",
      "Welcome series · offer: sent",
      "Welcome series · ordered: no",
      "Welcome series · pause: waited",
      "Welcome series · welcome: sent",
    ]);
    expect(await customerPassages(bob.id, asha.id, 10)).toEqual([]);
  });

  it("enters a person once however often the event that enters them is posted", async () => {
    const cart = await postFlow(alice, {
      name: "Abandoned cart",
      trigger: { type: "event", event: "cart_abandoned", where: { channel: "web" } },
      steps: [{ id: "remind", type: "send", templateId: offerId }],
      status: "live",
    });
    const cartId = (cart.body as unknown as FlowDto).id;
    const batch = {
      events: [
        { id: "cart-1", name: "cart_abandoned", email: "asha@flows.example", properties: { channel: "web" } },
        { id: "cart-2", name: "cart_abandoned", email: "ravi@flows.example", properties: { channel: "app" } },
      ],
    };
    for (let i = 0; i < 2; i++) {
      expect((await callRoute(eventsAction, "/api/events", json(alice, "POST", batch))).status).toBe(200);
    }
    await tick(3_000);
    await tick(3_000);
    const read = (await getFlow(alice, cartId)).body as unknown as FlowDto;
    // Ravi's cart was in the app: the trigger's where left him out.
    expect(read.steps[0]).toMatchObject({ entered: 1 });
    expect(read.people).toEqual({ active: 0, done: 1, converted: 0 });
  });

  it("writes nothing for a clock whose claim ran out, and keeps a changed flow's people on their version", async () => {
    const customer = await createCustomer(
      alice.id,
      customerInput({ firstName: "Kiran", email: "kiran@flows.example" }),
    );
    await tick(3_000);
    // Kiran waits at "pause"; two clocks claim him one after the other (the first's lease ran out).
    const due = Date.now() + 10_000;
    const [first] = await flows.claimDue(due, 10, 1);
    const [second] = await flows.claimDue(due + 5, 10, 60_000);
    expect(first?.customerId).toBe(customer.id);
    expect(second?.claims).toBe((first?.claims ?? 0) + 1);
    const definitionOf = async (id: string, version: number) =>
      parseDefinition((await flows.readDefinition(id, version)) ?? "{}");
    if (!first || !second) throw new Error("no claim");
    await runEntry(first, definitionOf, log);
    const stale = (await getFlow(alice, flowId)).body as unknown as FlowDto;
    expect(stale.steps.find((s: { id: string }) => s.id === "pause")).toMatchObject({ waiting: 1, entered: 1 });
    await runEntry(second, definitionOf, log);
    const moved = (await getFlow(alice, flowId)).body as unknown as FlowDto;
    expect(moved.steps.find((s: { id: string }) => s.id === "pause")).toMatchObject({ waiting: 0, entered: 2 });
    expect(moved.steps.find((s: { id: string }) => s.id === "offer")).toMatchObject({ entered: 2 });

    // A changed flow someone entered becomes version 2; its people stay on version 1.
    const changed = welcomeSeries();
    changed.steps[1] = { id: "pause", type: "wait", seconds: 2 * 86_400 };
    const put = await callRoute(flowAction, `/api/flows/${flowId}`, {
      ...json(alice, "PUT", changed),
      params: { id: flowId },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      version: 2,
      steps: expect.arrayContaining([expect.objectContaining({ id: "pause", seconds: 172_800 })]),
    });
    const people = (
      await callRoute(peopleLoader, `/api/flows/${flowId}/people`, { ...json(alice, "GET"), params: { id: flowId } })
    ).body as unknown as { people: FlowPersonDto[] };
    expect(new Set(people.people.map((p: { version: number }) => p.version))).toEqual(new Set([1]));
  });

  it("enters the new customers of a CSV import, once each, and not those it only updates", async () => {
    const before = (await getFlow(alice, flowId)).body as unknown as FlowDto;
    const file = [
      "firstName,lastName,email",
      "Neha,Kapoor,neha@flows.example",
      "Arjun,Mehta,arjun@flows.example",
      // Already a customer: updated, not created, so not welcomed again.
      "Asha,Rao,asha@flows.example",
    ].join("\n");
    const imported = await importCustomers(alice.id, Readable.from([file]));
    expect(imported).toMatchObject({ created: 2 });
    // An import's events are entered by the clock's read, once they are EVENT_SETTLE_MS old.
    expect((await tick(0)).entered).toBe(0);
    expect((await tick(EVENT_SETTLE_MS + 2_000)).entered).toBe(2);
    expect((await tick(EVENT_SETTLE_MS + 2_000)).entered).toBe(0);
    const after = (await getFlow(alice, flowId)).body as unknown as FlowDto;
    const welcome = (f: FlowDto) => f.steps.find((s) => s.id === "welcome")?.entered ?? 0;
    expect(welcome(after) - welcome(before)).toBe(2);
    const people = (
      await callRoute(peopleLoader, `/api/flows/${flowId}/people`, { ...json(alice, "GET"), params: { id: flowId } })
    ).body as unknown as { people: FlowPersonDto[] };
    expect(people.people.filter((p) => p.email === "asha@flows.example")).toHaveLength(1);
    expect(people.people.map((p) => p.email)).toEqual(
      expect.arrayContaining(["neha@flows.example", "arjun@flows.example"]),
    );
  });

  it("is another tenant's 404", async () => {
    expect((await getFlow(bob, flowId)).status).toBe(404);
    const put = await callRoute(flowAction, `/api/flows/${flowId}`, {
      ...json(bob, "PUT", welcomeSeries()),
      params: { id: flowId },
    });
    expect(put.status).toBe(404);
    const del = await callRoute(flowAction, `/api/flows/${flowId}`, { ...json(bob, "DELETE"), params: { id: flowId } });
    expect(del.status).toBe(404);
    expect((await callRoute(flowsLoader, "/api/flows", json(bob, "GET"))).body).toEqual({ flows: [] });
  });
});
