// @engines sqlite postgres
// The segment calls of the /api contract (docs/rules.md#the-api-contract) through their route
// modules, with a bearer token: what a caller gets back, tenant isolation, and bad payloads answered
// with 400s that name the bad part.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase as setUpTestDatabase } from "../../../tests/helpers/db";

setUpTestDatabase();

const { db } = await import("~/db/prisma.server");
const { newId } = await import("~/lib/id");
const { issueToken } = await import("~/services/token.server");
const list = await import("~/routes/api/segments");
const one = await import("~/routes/api/segments-id");
const audienceCount = await import("~/routes/api/segments-id-audience-count");
const audience = await import("~/routes/api/segments-id-audience");
const preview = await import("~/routes/api/segments-preview");

type User = { id: string; token: string };

async function user(name: string): Promise<User> {
  const u = await createTestUser(name);
  return { id: u.id, token: await issueToken(u.id) };
}

function request(u: User | null, method: string, path: string, body?: unknown): Request {
  const headers = new Headers();
  if (u) headers.set("Authorization", `Bearer ${u.token}`);
  if (body !== undefined) headers.set("Content-Type", "application/json");
  return new Request(`http://localhost${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}

type Args = { request: Request; params: Record<string, string>; context: Record<string, never> };
type Handler = (args: Args) => Promise<Response>;

async function call(handler: Handler, req: Request, params: Record<string, string> = {}) {
  const response = await handler({ request: req, params, context: {} });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

const get = (h: Handler, u: User | null, path: string, params?: Record<string, string>) =>
  call(h, request(u, "GET", path), params);
const send = (
  h: Handler,
  u: User | null,
  method: string,
  path: string,
  body?: unknown,
  params?: Record<string, string>,
) => call(h, request(u, method, path, body), params);

let alice: User;
let bob: User;
const customerIds: string[] = [];

beforeAll(async () => {
  alice = await user("Alice");
  bob = await user("Bob");
  const mk = (userId: string, i: number, spendRupees: number, visits: number) => ({
    id: newId(),
    userId,
    firstName: `Cust${i}`,
    lastName: "Test",
    email: `c${i}-${userId}@example.in`,
    phone: i % 2 ? "98450 00000" : "",
    totalSpendPaise: spendRupees * 100,
    visits,
    lastActive: new Date(Date.UTC(2025, 0, 1 + i)),
  });
  const aliceRows = Array.from({ length: 15 }, (_, i) => mk(alice.id, i, 1000 * (i + 1), i));
  customerIds.push(...aliceRows.map((r) => r.id));
  await db().customer.createMany({ data: aliceRows });
  // Bob's customers would match Alice's segments; they must never show up for her.
  await db().customer.createMany({ data: Array.from({ length: 30 }, (_, i) => mk(bob.id, i, 50_000, 50)) });
});

describe("POST /api/segments", () => {
  it("creates a segment, answers 201 with its audience size, and notifies NEW_SEGMENT", async () => {
    const res = await send(list.action as Handler, alice, "POST", "/api/segments", {
      name: "Big spenders",
      description: "Spent over 10,000",
      conditions: { totalSpend: { $gt: 10000 } },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("X-User-Id")).toBe(alice.id);
    expect(res.body).toMatchObject({
      name: "Big spenders",
      description: "Spent over 10,000",
      logicType: "AND",
      conditions: { totalSpend: { $gt: 10000 } },
      customerCount: 5,
    });
    expect(res.body._id).toMatch(/^[0-9a-f]{24}$/);
    const notes = await db().notification.findMany({ where: { userId: alice.id, type: "NEW_SEGMENT" } });
    expect(notes.map((n) => n.title)).toContain("New segment created");
    expect(notes.some((n) => n.details.includes("Big spenders"))).toBe(true);
  });

  it("combines a flat mapping of several fields with logicType OR", async () => {
    const res = await send(list.action as Handler, alice, "POST", "/api/segments", {
      name: "Either",
      conditions: { totalSpend: { $gte: 15000 }, visits: { $lt: 1 } },
      logicType: "OR",
    });
    expect(res.status).toBe(201);
    expect(res.body.logicType).toBe("OR");
    expect(res.body.conditions).toEqual({ $or: [{ totalSpend: { $gte: 15000 } }, { visits: { $lt: 1 } }] });
    expect(res.body.customerCount).toBe(2);
  });

  it("answers 400 naming the bad part", async () => {
    const cases: [unknown, RegExp][] = [
      [{ conditions: { visits: { $gt: 1 } } }, /name: Segment name is required/],
      [{ name: "  ", conditions: { visits: { $gt: 1 } } }, /Segment name is required/],
      [{ name: "x" }, /conditions are required/],
      [{ name: "x", conditions: { age: { $gt: 1 } } }, /conditions\.age: unknown field "age"/],
      [
        { name: "x", conditions: { $and: [{ visits: { $gt: 1 } }, { visits: { $regex: "." } }] } },
        /conditions\.\$and\[1\]\.visits\.\$regex: unknown operator/,
      ],
      [
        { name: "x", conditions: { totalSpend: { $gt: "lots" } } },
        /conditions\.totalSpend\.\$gt: Invalid numeric value/,
      ],
      [{ name: "x", conditions: { lastActiveDate: { $lt: "soon" } } }, /Invalid date value/],
      [{ name: "x", conditions: { visits: { $gt: 1 } }, logicType: "XOR" }, /logicType must be AND or OR/],
    ];
    for (const [body, message] of cases) {
      const res = await send(list.action as Handler, alice, "POST", "/api/segments", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("bad_request");
      expect(res.body.error.message).toMatch(message);
    }
    const notJson = await send(list.action as Handler, alice, "POST", "/api/segments", "{nope");
    expect(notJson.status).toBe(400);
    expect(notJson.body.error.message).toBe("The body is not valid JSON");
  });

  it("checks field conditions against the caller's fields: a 400 naming the path, on create, update and preview", async () => {
    const { createField } = await import("~/services/custom-fields.server");
    const dave = await user("Dave");
    await createField(dave.id, { name: "tier", label: "Tier", type: "choice", choices: ["Gold", "Silver"] });
    const cases: [unknown, string][] = [
      [{ "field:tier": { $gt: 5 } }, 'conditions.field:tier.$gt: operator "$gt" does not apply to a choice field'],
      [
        { $and: [{ visits: { $gt: 1 } }, { "field:nope": { $eq: "x" } }] },
        'conditions.$and[1].field:nope: unknown field "nope"',
      ],
      [
        { "field:city": { $gt: "2024-01-01" } },
        'conditions.field:city.$gt: operator "$gt" does not apply to a text field',
      ],
      // A field of another tenant is unknown here.
      [{ "field:tier": { $exists: true } }, ""],
    ];
    const made = await send(list.action as Handler, dave, "POST", "/api/segments", {
      name: "Gold",
      conditions: { "field:tier": { $in: ["gold"] }, tags: { $nin: ["churned"] } },
    });
    expect(made.status).toBe(201);
    expect(made.body.conditions).toEqual({
      $and: [{ "field:tier": { $in: ["Gold"] } }, { tags: { $nin: ["churned"] } }],
    });
    for (const [conditions, message] of cases) {
      if (!message) {
        const elsewhere = await send(list.action as Handler, alice, "POST", "/api/segments", { name: "x", conditions });
        expect(elsewhere.status).toBe(400);
        expect(elsewhere.body.error.message).toBe('conditions.field:tier: unknown field "tier"');
        continue;
      }
      const created = await send(list.action as Handler, dave, "POST", "/api/segments", { name: "x", conditions });
      expect(created.status, JSON.stringify(conditions)).toBe(400);
      expect(created.body.error).toMatchObject({ code: "bad_request", message });
      const updated = await send(
        one.action as Handler,
        dave,
        "PUT",
        `/api/segments/${made.body.id}`,
        { name: "x", conditions },
        { id: made.body.id },
      );
      expect(updated.status).toBe(400);
      expect(updated.body.error.message).toBe(message);
      const previewed = await send(preview.action as Handler, dave, "POST", "/api/segments/preview", { conditions });
      expect(previewed.status).toBe(400);
      expect(previewed.body.error.message).toBe(message);
    }
  });

  it("takes a rolling date { $daysAgo: N } and refuses a bad N with a 400 that names it", async () => {
    const carol = await user("Carol");
    const ok = await send(list.action as Handler, carol, "POST", "/api/segments", {
      name: "Recently active",
      conditions: { lastActiveDate: { $gte: { $daysAgo: 30 } } },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.conditions).toEqual({ lastActiveDate: { $gte: { $daysAgo: 30 } } });
    const message =
      "conditions.lastActiveDate.$gte.$daysAgo: the number of days must be a whole number from 0 to 36,500";
    for (const n of [-1, 2.5, 36_501, 1e12, "30 days", null]) {
      const body = { name: "Bad days", conditions: { lastActiveDate: { $gte: { $daysAgo: n } } } };
      const created = await send(list.action as Handler, carol, "POST", "/api/segments", body);
      expect(created.status, JSON.stringify(n)).toBe(400);
      expect(created.body.error.message).toContain(message);
      const updated = await send(one.action as Handler, carol, "PUT", `/api/segments/${ok.body._id}`, body, {
        id: ok.body._id,
      });
      expect(updated.status).toBe(400);
      expect(updated.body.error.message).toContain(message);
      const previewed = await send(preview.action as Handler, carol, "POST", "/api/segments/preview", {
        conditions: body.conditions,
      });
      expect(previewed.status).toBe(400);
      expect(previewed.body.error.message).toContain(message);
    }
    expect(await db().segment.count({ where: { userId: carol.id, name: "Bad days" } })).toBe(0);
  });

  it("saves a name another segment has, and says so in warnings (case and spaces aside)", async () => {
    const carol = await user("Carol");
    const first = await send(list.action as Handler, carol, "POST", "/api/segments", {
      name: "Weekend shoppers",
      conditions: { visits: { $gt: 2 } },
    });
    expect(first.status).toBe(201);
    expect(first.body.warnings).toEqual([]);
    const again = await send(list.action as Handler, carol, "POST", "/api/segments", {
      name: "  weekend SHOPPERS ",
      conditions: { visits: { $gt: 5 } },
    });
    expect(again.status).toBe(201);
    expect(again.body.name).toBe("weekend SHOPPERS");
    expect(again.body.warnings).toEqual(['A segment named "Weekend shoppers" already exists.']);
    // Saving a segment under its own name is no duplicate; another tenant's names do not count.
    const resaved = await send(
      one.action as Handler,
      carol,
      "PUT",
      `/api/segments/${first.body._id}`,
      { name: "Weekend Shoppers", conditions: { visits: { $gt: 3 } } },
      { id: first.body._id },
    );
    expect(resaved.status).toBe(200);
    expect(resaved.body.warnings).toEqual(['A segment named "weekend SHOPPERS" already exists.']);
    const bobs = await send(list.action as Handler, bob, "POST", "/api/segments", {
      name: "Weekend shoppers",
      conditions: { visits: { $gt: 2 } },
    });
    expect(bobs.body.warnings).toEqual([]);
  });

  it("answers 401 without credentials", async () => {
    const res = await send(list.action as Handler, null, "POST", "/api/segments", {
      name: "x",
      conditions: { visits: { $gt: 1 } },
    });
    expect(res.status).toBe(401);
  });
});

describe("GET /api/segments", () => {
  it("lists only the caller's segments with audience sizes, searched and sorted", async () => {
    await send(list.action as Handler, bob, "POST", "/api/segments", {
      name: "Bob's own",
      conditions: { visits: { $gt: 1 } },
    });
    const res = await get(list.loader as Handler, alice, "/api/segments?sort=name");
    expect(res.status).toBe(200);
    expect(res.body.map((s: { name: string }) => s.name)).toEqual(["Big spenders", "Either"]);
    expect(res.body.map((s: { customerCount: number }) => s.customerCount)).toEqual([5, 2]);
    const bySize = await get(list.loader as Handler, alice, "/api/segments?sort=size&dir=asc");
    expect(bySize.body.map((s: { name: string }) => s.name)).toEqual(["Either", "Big spenders"]);
    const search = await get(list.loader as Handler, alice, "/api/segments?q=big");
    expect(search.body.map((s: { name: string }) => s.name)).toEqual(["Big spenders"]);
    const bad = await get(list.loader as Handler, alice, "/api/segments?sort=colour");
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/sort must be name, size or date/);
  });
});

describe("/api/segments/{id}", () => {
  async function create(u: User, conditions: unknown, name = "Seg") {
    const res = await send(list.action as Handler, u, "POST", "/api/segments", { name, conditions });
    expect(res.status).toBe(201);
    return res.body._id as string;
  }

  it("reads, updates and deletes the caller's segment", async () => {
    const id = await create(alice, { visits: { $gte: 10 } });
    const read = await get(one.loader as Handler, alice, `/api/segments/${id}`, { id });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ _id: id, name: "Seg", conditions: { visits: { $gte: 10 } }, customerCount: 5 });

    const updated = await send(
      one.action as Handler,
      alice,
      "PUT",
      `/api/segments/${id}`,
      {
        name: "Seg 2",
        conditions: {
          $and: [{ visits: { $gte: 10 } }, { $or: [{ totalSpend: { $lt: 12000 } }, { totalSpend: { $eq: 15000 } }] }],
        },
      },
      { id },
    );
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: "Seg 2", customerCount: 2 });

    const refused = await send(
      one.action as Handler,
      alice,
      "PUT",
      `/api/segments/${id}`,
      { name: "x", conditions: { visits: {} } },
      { id },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/conditions\.visits must map an operator/);

    const deleted = await send(one.action as Handler, alice, "DELETE", `/api/segments/${id}`, undefined, { id });
    expect(deleted).toMatchObject({ status: 200, body: { success: true } });
    expect((await get(one.loader as Handler, alice, `/api/segments/${id}`, { id })).status).toBe(404);
  });

  it("treats another tenant's segment and malformed ids as not found", async () => {
    const id = await create(bob, { visits: { $gt: 1 } }, "Bob's");
    for (const [h, method] of [
      [one.loader, "GET"],
      [one.action, "PUT"],
      [one.action, "DELETE"],
      [audienceCount.loader, "GET"],
      [audience.loader, "GET"],
    ] as const) {
      const body = method === "PUT" ? { name: "Mine now", conditions: { visits: { $gt: 1 } } } : undefined;
      const res = await send(h as Handler, alice, method, `/api/segments/${id}`, body, { id });
      expect(res.status, `${method}`).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
    const malformed = await get(one.loader as Handler, alice, "/api/segments/nope", { id: "nope" });
    expect(malformed.status).toBe(404);
    expect((await get(one.loader as Handler, bob, `/api/segments/${id}`, { id })).body.name).toBe("Bob's");
  });

  it("counts the audience, and pages it with a cursor", async () => {
    const id = await create(alice, { totalSpend: { $gte: 3000 } });
    const count = await get(audienceCount.loader as Handler, alice, `/api/segments/${id}/audience-count`, { id });
    expect(count).toMatchObject({ status: 200, body: { count: 13 } });

    const first = await get(audience.loader as Handler, alice, `/api/segments/${id}/audience?limit=10`, { id });
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(10);
    expect(first.body[0]).toEqual({
      _id: customerIds[2],
      id: customerIds[2],
      firstName: "Cust2",
      lastName: "Test",
      email: `c2-${alice.id}@example.in`,
      phone: "",
      totalSpend: 3000,
      visits: 2,
      lastActive: "2025-01-03T00:00:00.000Z",
    });
    const cursor = first.headers.get("X-Next-Cursor");
    expect(cursor).toBe(customerIds[11]);
    const second = await get(
      audience.loader as Handler,
      alice,
      `/api/segments/${id}/audience?limit=10&cursor=${cursor}`,
      { id },
    );
    expect(second.body.map((c: { id: string }) => c.id)).toEqual(customerIds.slice(12));
    expect(second.headers.get("X-Next-Cursor")).toBeNull();

    const bad = await get(audience.loader as Handler, alice, `/api/segments/${id}/audience?limit=5000`, { id });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/limit must be at most 1000/);
  });
});

describe("POST /api/segments/preview", () => {
  it("answers the count and up to 10 sample customers of the caller only", async () => {
    const res = await send(preview.action as Handler, alice, "POST", "/api/segments/preview", {
      conditions: { visits: { $gte: 0 } },
    });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(15);
    expect(res.body.customers).toHaveLength(10);
    expect(Object.keys(res.body.customers[0]).sort()).toEqual(
      ["_id", "email", "firstName", "id", "lastActive", "lastName", "phone", "totalSpend", "visits"].sort(),
    );
    for (const c of res.body.customers) expect(customerIds).toContain(c._id);
    const none = await send(preview.action as Handler, alice, "POST", "/api/segments/preview", {
      conditions: { visits: { $gt: 49 } },
    });
    expect(none.body).toEqual({ count: 0, customers: [] });
    const bobs = await send(preview.action as Handler, bob, "POST", "/api/segments/preview", {
      conditions: { visits: { $gt: 49 } },
    });
    expect(bobs.body.count).toBe(30);
  });

  it("refuses bad conditions with a 400 naming the bad part", async () => {
    const res = await send(preview.action as Handler, alice, "POST", "/api/segments/preview", {
      conditions: { $nor: [] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/conditions\.\$nor: unknown field/);
    // A GET of the preview is a method it does not take: 405, naming POST.
    const get405 = await get(async (a) => preview.loader(a), alice, "/api/segments/preview");
    expect(get405.status).toBe(405);
    expect(get405.headers.get("Allow")).toBe("POST");
    expect(get405.body.error.code).toBe("method_not_allowed");
  });
});
