// @engines sqlite postgres
// Customers against a real database (SQLite, and PostgreSQL in the postgres project): the service
// rules and the /api routes.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase, createTestUser, TEST_ENGINE, useTestConnection } from "../../tests/helpers/db";
import { postgresPlan } from "../../tests/helpers/explain";
import { sqlRow } from "../../tests/helpers/sql";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { db } from "~/db/prisma.server";
import type { User } from "~/generated/prisma/client";
import { ApiError } from "~/lib/api.server";
import { loader as listLoader, action as createAction } from "~/routes/api/customers";
import { loader as getLoader, action as idAction } from "~/routes/api/customers-id";
import { createOrder, updateOrder } from "~/services/orders.server";
import { issueToken } from "~/services/token.server";
import {
  countCustomers,
  createCustomer,
  customerDetail,
  deleteCustomer,
  getCustomer,
  listCustomers,
  SEARCH_COUNT_CAP,
  updateCustomer,
} from "~/services/customers.server";
import { customerMatchSql, customerMatchSqlPg, likePattern, tenantSearchRange } from "~/models/customers/search-sql";
import { type SeedCustomer, seedStore } from "~/models/seed/store.server";
import { readConnection } from "~/db/reader.server";
import { isPostgres } from "~/db/connection.server";
import { analyzeCustomersPg } from "~/db/planner-statistics.postgres.server";
import { CustomerApiSchema } from "~/schemas/customer";
import { pageSummary } from "~/lib/customers";

const input = (over: Record<string, unknown> = {}) =>
  CustomerApiSchema.parse({
    firstName: "Priya",
    lastName: "Sharma",
    email: `priya${Math.random().toString(36).slice(2)}@example.com`,
    ...over,
  });

async function call(
  handler: (args: LoaderFunctionArgs) => Promise<unknown>,
  user: User,
  path: string,
  init: { method?: string; body?: unknown; params?: Record<string, string> } = {},
) {
  const request = new Request(`http://localhost${path}`, {
    method: init.method ?? "GET",
    headers: { Authorization: `Bearer ${await issueToken(user.id)}`, "Content-Type": "application/json" },
    body: init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body),
  });
  const response = (await handler({
    request,
    params: init.params ?? {},
    context: {},
  } as LoaderFunctionArgs)) as Response;
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

let alice: User;
let bob: User;
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
    const first = await createOrder(alice.id, {
      customerId: c.id,
      status: "Completed",
      notes: "",
      tax: 18,
      items: [{ name: "Kurta", description: "", quantity: 2, price: 500 }],
    });
    const second = await createOrder(alice.id, {
      customerId: c.id,
      status: "Pending",
      notes: "",
      tax: 0,
      items: [{ name: "Saree", description: "", quantity: 1, price: 1200 }],
    });
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
    const o = await createOrder(alice.id, {
      customerId: c.id,
      status: "Pending",
      notes: "",
      tax: 0,
      items: [{ name: "Tea", description: "", quantity: 3, price: 100 }],
    });
    expect((await getCustomer(alice.id, c.id)).totalSpend).toBe(300);
    await updateOrder(alice.id, o.id, {
      status: "Cancelled",
      notes: "",
      tax: 0,
      items: [{ name: "Tea", description: "", quantity: 3, price: 100 }],
    });
    expect(await getCustomer(alice.id, c.id)).toMatchObject({ totalSpend: 0, visits: 0 });
  });
});

describe("customer detail", () => {
  it("lists the segments the customer belongs to", async () => {
    const owner = await createTestUser("Segmenter");
    const big = await createCustomer(owner.id, input({ totalSpend: 5000 }));
    const small = await createCustomer(owner.id, input({ totalSpend: 10 }));
    const { createSegment } = await import("~/services/segments.server");
    const { parseConditions } = await import("~/lib/segments");
    const parsed = parseConditions({ totalSpend: { $gt: 1000 } });
    if (!parsed.ok) throw new Error(parsed.message);
    const segment = await createSegment(owner.id, { name: "Big spenders", description: "", tree: parsed.tree });
    expect((await customerDetail(owner.id, big.id)).segments).toEqual([
      { _id: segment.id, id: segment.id, name: "Big spenders" },
    ]);
    expect((await customerDetail(owner.id, small.id)).segments).toEqual([]);
  });
});

describe("the paged list", () => {
  let tenant: User;
  beforeAll(async () => {
    tenant = await createTestUser("Pager");
    for (let i = 0; i < 7; i++)
      await createCustomer(
        tenant.id,
        input({ firstName: i % 2 ? "Anjali" : "Vikram", lastName: `Nair${i}`, email: `p${i}@shop.in` }),
      );
  });

  it("pages newest first with an exact total and a cursor that walks every customer once", async () => {
    const first = await listCustomers(tenant.id, { limit: 3 });
    expect(first.total).toBe(7);
    expect(first.customers.map((c) => c.email)).toEqual(["p6@shop.in", "p5@shop.in", "p4@shop.in"]);
    const second = await listCustomers(tenant.id, { limit: 3, cursor: first.nextCursor });
    const third = await listCustomers(tenant.id, { limit: 3, cursor: second.nextCursor });
    expect([...second.customers, ...third.customers].map((c) => c.email)).toEqual([
      "p3@shop.in",
      "p2@shop.in",
      "p1@shop.in",
      "p0@shop.in",
    ]);
    expect(third.nextCursor).toBeNull();
  });

  it("searches name or e-mail case-insensitively, with short and long terms", async () => {
    expect((await listCustomers(tenant.id, { q: "ANJALI" })).total).toBe(3);
    expect((await listCustomers(tenant.id, { q: "vikram nair4" })).customers.map((c) => c.email)).toEqual([
      "p4@shop.in",
    ]);
    expect((await listCustomers(tenant.id, { q: "p5@SHOP" })).customers).toHaveLength(1);
    expect((await listCustomers(tenant.id, { q: "r3" })).customers.map((c) => c.email)).toEqual(["p3@shop.in"]);
    expect((await listCustomers(tenant.id, { q: 'x"y' })).customers).toEqual([]);
  });

  it("keeps the total right after a delete", async () => {
    const c = await createCustomer(tenant.id, input());
    expect((await listCustomers(tenant.id)).total).toBe(8);
    await deleteCustomer(tenant.id, c.id);
    expect((await listCustomers(tenant.id)).total).toBe(7);
  });

  it("says where the user is", () => {
    expect(pageSummary(1, 50, 100000, false)).toBe("1–50 of 1,00,000");
    expect(pageSummary(51, 50, SEARCH_COUNT_CAP, true)).toBe("51–100 of 1,000+");
    expect(pageSummary(1, 0, 0, false)).toBe("0 of 0");
  });
});

describe("search stays inside its tenant", () => {
  // A busy tenant with more matches than the count cap, a quiet one with a few of its own.
  const TERM = "kestrel";
  let busy: User;
  let quiet: User;
  const sqlite = () => readConnection().db;
  /** The FTS5 scan's line of a statement's query plan. */
  const ftsScan = (sql: string, params: unknown[]) =>
    (
      sqlite()
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...params) as { detail: string }[]
    )
      .map((r) => r.detail)
      .find((d) => d.includes("VIRTUAL TABLE"));
  /** Entries of the search index holding `term`, every tenant's (PostgreSQL's index is "Customer"'s). */
  const indexed = async (term: string) =>
    TEST_ENGINE === "postgres"
      ? Number(
          (
            await sqlRow<{ n: number }>(
              connection(),
              `SELECT count(*)::int AS n FROM "Customer" c WHERE lower(c."firstName" || ' ' || c."lastName") LIKE ? OR c."email" LIKE ?`,
              [likePattern(term), likePattern(term)],
            )
          )?.n,
        )
      : Number(
          sqlite()
            .prepare(`SELECT count(*) FROM "customer_search" WHERE "customer_search" MATCH ?`)
            .pluck()
            .get(`"${term}"`),
        );

  beforeAll(async () => {
    busy = await createTestUser("Busy");
    quiet = await createTestUser("Quiet");
    // The way a seed or an import writes a batch: one INSERT ... SELECT, indexed and counted with it.
    const rows: SeedCustomer[] = Array.from({ length: 1200 }, (_, k) => {
      const i = k + 1;
      return {
        id: (7_000_000 + i).toString(16).padStart(24, "0"),
        firstName: "Kestrel",
        lastName: `Bird${i}`,
        email: `k${i}@kestrel.in`,
        phone: "",
        address: "",
        company: "",
        notes: "",
        totalSpendPaise: 0,
        visits: 0,
        lastActive: null,
        createdAt: 0,
      };
    });
    const seed = await seedStore.openSeedConnection();
    try {
      await seedStore.seedStartingPoint(seed, busy.id);
      expect(await seedStore.insertSeedCustomers(seed, busy.id, rows)).toHaveLength(1200);
    } finally {
      await seedStore.closeSeedConnection(seed);
    }
    for (const [first, email] of [
      ["Kestrel", "one@quiet.in"],
      ["Meera", "meera.kestrel@quiet.in"],
      ["Asha", "asha@quiet.in"],
    ]) {
      await createCustomer(quiet.id, input({ firstName: first, lastName: "Rao", email }));
    }
  });

  it("finds, counts and caps only the tenant's own matches", async () => {
    const own = await listCustomers(quiet.id, { q: TERM });
    expect(own.customers.map((c) => c.email)).toEqual(["meera.kestrel@quiet.in", "one@quiet.in"]);
    expect(own).toMatchObject({ total: 2, totalCapped: false, nextCursor: null });
    expect(await countCustomers(quiet.id, TERM)).toEqual({ total: 2, capped: false });
    expect(await countCustomers(quiet.id, "bird")).toEqual({ total: 0, capped: false });
    expect(await countCustomers(busy.id, TERM)).toEqual({ total: SEARCH_COUNT_CAP, capped: true });
    const headers = (await call(listLoader, quiet, `/api/customers?q=${TERM}`)).headers;
    expect(headers.get("X-Total-Count")).toBe("2");
    expect((await call(listLoader, busy, `/api/customers?q=${TERM}`)).headers.get("X-Total-Count")).toBe(
      String(SEARCH_COUNT_CAP),
    );
  });

  it.runIf(TEST_ENGINE === "postgres")(
    "looks the term up in the tenant's own entries of the trigram index, and scans no other tenant's rows",
    async () => {
      const pg = connection();
      if (!isPostgres(pg)) throw new Error("the postgres project's connection");
      // The search is written in the index's own expressions, so "Customer_search_idx" answers it
      // with the tenant and the term in its Index Cond ("userId" leads it, btree_gin): another
      // tenant's matches are never read. On these few rows the planner would rather test the term
      // row by row (cheap at 1,200 rows; at 200,000 it takes the index on its own, measured in the
      // report of the PostgreSQL work): priced as on a large tenant, a row's test costing more, it does so here.
      await analyzeCustomersPg(pg);
      for (const term of ["k1199@kestrel", "bird1199"]) {
        const rare = customerMatchSqlPg(busy.id, term, null, false);
        const plan = (
          await postgresPlan(pg, `${rare.sql} LIMIT 1001`, rare.params, ["SET LOCAL cpu_operator_cost = 1"])
        ).join("\n");
        for (const column of ["lower", "email"])
          expect(plan).toMatch(
            new RegExp(
              `Bitmap Index Scan on "Customer_search_idx".*\\n\\s+Index Cond: \\(\\("userId" = '\\w+'::text\\) AND \\(${column}`,
            ),
          );
      }
      // Every shape of the search (counting, ordered, paged) reads its own tenant's entries only.
      for (const [beforeId, ordered] of [
        [null, false],
        [null, true],
        ["ffffffffffffffffffffffff", true],
      ] as const) {
        const match = customerMatchSqlPg(quiet.id, TERM, beforeId, ordered);
        const plan = (await postgresPlan(pg, `${match.sql} LIMIT 1001`, match.params)).join("\n");
        expect(plan).not.toMatch(/Seq Scan/);
        const conditions = plan.match(/Index Cond: .*/g) ?? [];
        expect(conditions.length).toBeGreaterThan(0);
        for (const cond of conditions) expect(cond).toContain(`"userId" = `);
      }
    },
  );

  it.runIf(TEST_ENGINE === "sqlite")(
    "hands FTS5 the tenant's rowid range with the MATCH, so the lookup never reads another tenant's entries",
    () => {
      // FTS5 names the constraints it takes in its plan: M for the MATCH, > and < for rowid bounds.
      for (const [afterRowid, ordered] of [
        [null, true],
        [null, false],
        [123, true],
      ] as const) {
        const match = customerMatchSql(quiet.id, TERM, afterRowid, ordered);
        expect(ftsScan(match.sql, match.params)).toMatch(/VIRTUAL TABLE INDEX \d+:M\d*(><|<>)/);
      }
      // FTS5 ignores a rowid bound that is not an INTEGER (and the driver binds numbers as REAL).
      for (const afterRowid of [null, 123]) {
        const bounds = tenantSearchRange(quiet.id, afterRowid);
        expect(
          sqlite()
            .prepare(`SELECT typeof(${bounds.low}) AS low, typeof(${bounds.high}) AS high`)
            .get(...bounds.params),
        ).toEqual({ low: "integer", high: "integer" });
      }
      // A crafted cursor beyond the tenant's range does not reach into the next tenant's.
      const crafted = tenantSearchRange(quiet.id, 999_999_999_999_999);
      const [low, high] = sqlite()
        .prepare(`SELECT ${crafted.low}, ${crafted.high}`)
        .raw()
        .get(...crafted.params) as number[];
      expect(high - low).toBe(2 ** 40 - 1);
      // The range itself: every entry of the tenant inside it, none of the other tenant's.
      const range = (userId: string) => {
        const base = Number(sqlite().prepare(`SELECT rowid FROM "User" WHERE "id" = ?`).pluck().get(userId)) * 2 ** 40;
        return sqlite()
          .prepare(`SELECT count(*) FROM "customer_search" WHERE "customer_search" MATCH ? AND rowid BETWEEN ? AND ?`)
          .pluck()
          .get(`"${TERM}"`, base, base + 2 ** 40 - 1);
      };
      expect(range(quiet.id)).toBe(2);
      expect(range(busy.id)).toBe(1200);
    },
  );

  it("pages a search with more matches than the cap through the tenant's range, each match once", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof listCustomers>> = await listCustomers(busy.id, {
        q: TERM,
        limit: 500,
        cursor,
      });
      seen.push(...page.customers.map((c) => c.email));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(1200);
    expect(new Set(seen).size).toBe(1200);
    expect(seen.slice(0, 2)).toEqual(["k1200@kestrel.in", "k1199@kestrel.in"]);
    expect(seen.at(-1)).toBe("k1@kestrel.in");
  });

  it("keeps the index right through a rename, a delete and the deletion of a whole tenant", async () => {
    const c = await createCustomer(quiet.id, input({ firstName: "Falcon", lastName: "Rao", email: "falcon@quiet.in" }));
    expect((await listCustomers(quiet.id, { q: "falcon" })).total).toBe(1);
    await updateCustomer(quiet.id, c.id, input({ firstName: "Osprey", lastName: "Rao", email: "osprey@quiet.in" }));
    expect((await listCustomers(quiet.id, { q: "falcon" })).total).toBe(0);
    expect((await listCustomers(quiet.id, { q: "osprey" })).customers.map((x) => x.id)).toEqual([c.id]);
    await deleteCustomer(quiet.id, c.id);
    expect((await listCustomers(quiet.id, { q: "osprey" })).total).toBe(0);
    expect(await indexed("osprey")).toBe(0);

    // A deleted user's customers go by the foreign key's cascade; their index entries go too.
    expect(await indexed("bird")).toBe(1200);
    await db().user.delete({ where: { id: busy.id } });
    expect(await indexed("bird")).toBe(0);
    expect((await listCustomers(quiet.id, { q: TERM })).total).toBe(2);
    // A user made next may take the deleted user's rowid (SQLite reuses the highest): nothing stale.
    const next = await createTestUser("Next");
    expect((await listCustomers(next.id, { q: TERM })).total).toBe(0);
    await createCustomer(next.id, input({ firstName: "Kestrel", lastName: "New", email: "kestrel@next.in" }));
    expect((await listCustomers(next.id, { q: TERM })).customers.map((x) => x.email)).toEqual(["kestrel@next.in"]);
    if (TEST_ENGINE === "sqlite")
      await db().$executeRawUnsafe(
        `INSERT INTO "customer_search" ("customer_search", rank) VALUES ('integrity-check', 0)`,
      );
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
