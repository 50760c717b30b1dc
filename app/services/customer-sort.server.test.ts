// @engines sqlite postgres
// The customer list's sorts against a real database (SQLite, and PostgreSQL in the postgres
// project): every sort both ways with ties, keyset paging forwards and backwards across pages of
// equal values, the last page, searches sorted, tenant isolation, the plans (each sort is a walk of
// its index, never a sort of the tenant), and GET /api/customers?sort=&order= with its refusals.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, TEST_ENGINE, useTestConnection, useTestDatabase } from "../../tests/helpers/db";
import { postgresPlan, sortsRows } from "../../tests/helpers/explain";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { readConnection } from "~/db/reader.server";
import type { User } from "~/generated/prisma/client";
import { ApiError } from "~/lib/api.server";
import { pageSummary } from "~/lib/customers";
import { loader as listLoader } from "~/routes/api/customers";
import { CustomerApiSchema } from "~/schemas/customer";
import type { Position } from "~/models/customers/rows";
import { customers } from "~/models/customers/store.server";
import { seedCustomer, seedCustomers } from "~/models/seed/test-customers";
import {
  createCustomer,
  CUSTOMER_SORTS,
  type CustomerDto,
  type CustomerSort,
  listCustomers,
  parseCursor,
  SEARCH_COUNT_CAP,
  type SortOrder,
} from "~/services/customers.server";
import { issueToken } from "~/services/token.server";

let alice: User;
let bob: User;
/** Alice's customers in the order they were added (the rowid order). */
const added: CustomerDto[] = [];

// Ties on purpose: equal spends, equal visits, never active (NULL), equal names in another case.
const ROWS: [string, string, number, number, string | null][] = [
  ["Priya", "Sharma", 500, 3, "2026-01-05"],
  ["Arjun", "Mehta", 0, 0, null],
  ["priya", "sharma", 500, 3, "2026-01-05"],
  ["Zoya", "Khan", 1200.5, 9, "2026-03-01"],
  ["Kavya", "Iyer", 500, 7, null],
  ["Rohan", "Das", 0, 0, null],
  ["Meera", "Nair", 500, 3, "2025-12-31"],
  ["Aditya", "Rao", 99.99, 1, "2026-03-01"],
  ["Sneha", "Joshi", 0, 0, null],
  ["Vikram", "Singh", 500, 3, "2026-01-05"],
  ["Anjali", "Gupta", 1200.5, 9, "2026-03-01"],
  ["Dev", "Patel", 0, 2, "2025-06-15"],
  ["Ishaan", "Bose", 75, 0, null],
];

const input = (first: string, last: string, spend: number, visits: number, lastActive: string | null, n: number) =>
  CustomerApiSchema.parse({
    firstName: first,
    lastName: last,
    email: `${first.toLowerCase()}.${last.toLowerCase()}.${n}@sort.in`,
    totalSpend: spend,
    visits,
    ...(lastActive ? { lastActive } : {}),
  });

beforeAll(async () => {
  alice = await createTestUser("Alice Sorter");
  bob = await createTestUser("Bob Sorter");
  for (const [n, [first, last, spend, visits, lastActive]] of ROWS.entries()) {
    added.push(await createCustomer(alice.id, input(first, last, spend, visits, lastActive, n)));
    // Another tenant's rows between Alice's, with values that would sort among hers.
    await createCustomer(bob.id, input(first, last, spend, visits, lastActive, n));
  }
});

/** The order the list must have, computed here from the customers' own values. */
function expected(sort: CustomerSort, order: SortOrder): string[] {
  const rank = new Map(added.map((c, i) => [c.id, i]));
  const time = (c: CustomerDto) => (c.lastActive === null ? -Infinity : Date.parse(c.lastActive));
  const key = (c: CustomerDto): (string | number)[] => {
    const spend = Math.round(c.totalSpend * 100);
    switch (sort) {
      case "name":
        return [`${c.firstName} ${c.lastName}`.toLowerCase()];
      case "totalSpend":
        return [spend, c.visits, time(c)];
      case "visits":
        return [c.visits, spend, time(c)];
      case "lastActive":
        return [time(c), spend, c.visits];
      case "createdAt":
        return [];
    }
  };
  const compare = (a: CustomerDto, b: CustomerDto) => {
    const ka = [...key(a), rank.get(a.id) ?? 0];
    const kb = [...key(b), rank.get(b.id) ?? 0];
    for (let i = 0; i < ka.length; i++) {
      if (ka[i] < kb[i]) return -1;
      if (ka[i] > kb[i]) return 1;
    }
    return 0;
  };
  const sorted = [...added].sort(compare);
  return (order === "asc" ? sorted : sorted.reverse()).map((c) => c.id);
}

const ids = (page: { customers: CustomerDto[] }) => page.customers.map((c) => c.id);
const ORDERS: SortOrder[] = ["asc", "desc"];

describe("sorted customer list", () => {
  it("puts ties in a fixed order: equal keys by the next figure, then by when they were added", () => {
    const bySpend = expected("totalSpend", "desc");
    // Zoya and Anjali: equal spend, visits and last active; Anjali was added later.
    expect(bySpend.slice(0, 2)).toEqual([added[10].id, added[3].id]);
    // Never active sorts before every date ascending.
    expect(expected("lastActive", "asc").slice(0, 4)).toEqual([added[1].id, added[5].id, added[8].id, added[12].id]);
  });

  for (const sort of CUSTOMER_SORTS)
    for (const order of ORDERS)
      it(`sorts by ${sort} ${order} and pages forwards, backwards and to the last page`, async () => {
        const want = expected(sort, order);
        // Forwards, 3 a page: every customer once, in order, across pages that split equal values.
        const forwards: string[] = [];
        let page = await listCustomers(alice.id, { sort, order, limit: 3 });
        expect(page).toMatchObject({ sort, order, total: ROWS.length, prevCursor: null, at: "first" });
        const pages = [page];
        for (;;) {
          forwards.push(...ids(page));
          if (!page.nextCursor) break;
          page = await listCustomers(alice.id, { sort, order, limit: 3, cursor: page.nextCursor });
          expect(page.prevCursor).not.toBeNull();
          pages.push(page);
        }
        expect(forwards).toEqual(want);
        expect(pages).toHaveLength(5);
        expect(page.at).toBe("last");

        // Previous from each page is the page before it.
        for (let i = pages.length - 1; i > 0; i--) {
          const back = await listCustomers(alice.id, { sort, order, limit: 3, before: pages[i].prevCursor });
          expect(ids(back)).toEqual(ids(pages[i - 1]));
          expect(back.nextCursor).not.toBeNull();
        }

        // The last page: the final 3 in this order; from it, Previous walks back to a full first page.
        const last = await listCustomers(alice.id, { sort, order, limit: 3, last: true });
        expect(ids(last)).toEqual(want.slice(-3));
        expect(last).toMatchObject({ nextCursor: null, at: "last" });
        const backwards: string[] = [...ids(last)];
        let back = last;
        while (back.prevCursor) {
          back = await listCustomers(alice.id, { sort, order, limit: 3, before: back.prevCursor });
          backwards.unshift(...ids(back).filter((id) => !backwards.includes(id)));
        }
        expect(backwards).toEqual(want);
        expect(ids(back)).toEqual(want.slice(0, 3));
        expect(back.at).toBe("first");
      });

  it.runIf(TEST_ENGINE === "postgres")(
    "serves each sort from its tenant-first index, both ways, with and without a cursor (no sort of the tenant)",
    async () => {
      // Every statement of a walk from the start, from a cursor inside each page and from the end,
      // both ways: an index scan of the tenant (its rows of equal keys ordered as they come, an
      // Incremental Sort), never a sort of what it read.
      let checked = 0;
      for (const sort of CUSTOMER_SORTS)
        for (const order of ORDERS) {
          const positions: (Position | null)[] = [null];
          for (let page = await listCustomers(alice.id, { sort, order, limit: 2 }); page.nextCursor;) {
            positions.push(parseCursor(sort, page.nextCursor));
            page = await listCustomers(alice.id, { sort, order, limit: 2, cursor: page.nextCursor });
          }
          for (const from of positions)
            for (const q of customers.walkQueries(alice.id, sort, order, from, 3)) {
              const plan = await postgresPlan(connection(), q.sql, q.params);
              const text = plan.join("\n");
              expect(text, q.sql).toMatch(/Index (Only )?Scan (Backward )?using "Customer_\w+" on "Customer" c/);
              expect(text, q.sql).toMatch(/Index Cond: \(.*"userId" = /);
              expect(sortsRows(plan), `${q.sql}\n${text}`).toBe(false);
              checked += 1;
            }
        }
      expect(checked).toBeGreaterThan(100);
    },
  );

  it.runIf(TEST_ENGINE === "sqlite")(
    "serves each sort from its tenant-first index, both ways, with and without a cursor (no sort of the tenant)",
    async () => {
      const sqlite = readConnection().db;
      for (const sort of CUSTOMER_SORTS)
        for (const order of ORDERS) {
          const first = await listCustomers(alice.id, { sort, order, limit: 2 });
          await listCustomers(alice.id, { sort, order, limit: 2, cursor: first.nextCursor });
          await listCustomers(alice.id, { sort, order, limit: 2, last: true });
        }
      const statements = [...readConnection().statements.keys()].filter((sql) => sql.includes("INDEXED BY"));
      expect(statements.length).toBeGreaterThan(20);
      for (const sql of statements) {
        const params = Array.from(sql.matchAll(/\?/g), () => null);
        const plan = (sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[])
          .map((r) => r.detail)
          .join("; ");
        expect(plan, sql).toMatch(/SEARCH c USING INDEX Customer_userId_\w+ \(userId=\?/);
        expect(plan, sql).not.toMatch(/TEMP B-TREE/);
      }
    },
  );

  it("keeps tenants apart: Bob's identical rows never show in Alice's pages, nor does her cursor show his", async () => {
    const aliceIds = new Set(added.map((c) => c.id));
    for (const sort of CUSTOMER_SORTS) {
      const page = await listCustomers(alice.id, { sort, limit: 100 });
      expect(page.customers.every((c) => aliceIds.has(c.id))).toBe(true);
      const firstOfAlice = await listCustomers(alice.id, { sort, limit: 4 });
      const bobs = await listCustomers(bob.id, { sort, limit: 100, cursor: firstOfAlice.nextCursor });
      expect(bobs.customers.length).toBeGreaterThan(0);
      expect(bobs.customers.some((c) => aliceIds.has(c.id))).toBe(false);
    }
  });

  it("refuses a cursor of another sort or one that was tampered with", async () => {
    const byName = await listCustomers(alice.id, { sort: "name", limit: 2 });
    const bySpend = await listCustomers(alice.id, { sort: "totalSpend", limit: 2 });
    const tampered = `name.${Buffer.from(JSON.stringify([1, 2])).toString("base64url")}`;
    for (const [sort, cursor] of [
      ["totalSpend", byName.nextCursor],
      ["name", bySpend.nextCursor],
      ["createdAt", byName.nextCursor],
      ["name", "name.!!!"],
      ["name", tampered],
      ["visits", "visits.WzEsMiwzXQ"],
    ] as const) {
      await expect(listCustomers(alice.id, { sort, cursor })).rejects.toBeInstanceOf(ApiError);
    }
  });

  it("sorts a search's matches too, and pages them", async () => {
    // "sharma" matches the two Priya Sharmas; "500" nobody; "a" (short) many.
    for (const sort of CUSTOMER_SORTS)
      for (const order of ORDERS) {
        const matching = new Set(
          added.filter((c) => `${c.firstName} ${c.lastName} ${c.email}`.toLowerCase().includes("a")).map((c) => c.id),
        );
        const want = expected(sort, order).filter((id) => matching.has(id));
        const seen: string[] = [];
        let page = await listCustomers(alice.id, { q: "a", sort, order, limit: 4 });
        expect(page.total).toBe(want.length);
        for (;;) {
          seen.push(...ids(page));
          if (!page.nextCursor) break;
          page = await listCustomers(alice.id, { q: "a", sort, order, limit: 4, cursor: page.nextCursor });
        }
        expect(seen).toEqual(want);
        const last = await listCustomers(alice.id, { q: "a", sort, order, limit: 4, last: true });
        expect(ids(last)).toEqual(want.slice(-4));
      }
    const sharma = await listCustomers(alice.id, { q: "sharma", sort: "name", order: "desc" });
    expect(ids(sharma)).toEqual([added[2].id, added[0].id]);
  });
});

describe("sorted search with more matches than are counted", () => {
  let busy: User;
  beforeAll(async () => {
    busy = await createTestUser("Busy Sorter");
    // Spends repeat every 7 rows and visits every 5, so pages cross long runs of equal values. In
    // one batch, as a seed or an import writes them (searchable and counted with it).
    const rows = Array.from({ length: 1300 }, (_, k) => {
      const i = k + 1;
      return seedCustomer(9_000_000 + i, {
        firstName: "Heron",
        lastName: `${i % 2 ? "Pond" : "Lake"}${i}`,
        email: `h${i}@heron.in`,
        totalSpendPaise: (i % 7) * 1000,
        visits: i % 5,
      });
    });
    expect(await seedCustomers([[busy.id, rows]])).toBe(1300);
  });

  it("walks the sort's index keeping the matches: the same order as the whole list filtered", async () => {
    const all: CustomerDto[] = [];
    let page = await listCustomers(busy.id, { sort: "totalSpend", order: "desc", limit: 1000 });
    all.push(...page.customers);
    page = await listCustomers(busy.id, { sort: "totalSpend", order: "desc", limit: 1000, cursor: page.nextCursor });
    all.push(...page.customers);
    expect(all).toHaveLength(1300);
    const want = all.filter((c) => c.lastName.startsWith("Pond")).map((c) => c.id);
    expect(want.length).toBe(650);

    const search = await listCustomers(busy.id, { q: "heron", sort: "totalSpend", order: "desc", limit: 50 });
    expect(search).toMatchObject({ total: SEARCH_COUNT_CAP, totalCapped: true });
    // "pond" has 650 matches: counted, sorted in memory; "heron" all 1,300: walked.
    const pond: string[] = [];
    let p = await listCustomers(busy.id, { q: "pond", sort: "totalSpend", order: "desc", limit: 200 });
    for (;;) {
      pond.push(...ids(p));
      if (!p.nextCursor) break;
      p = await listCustomers(busy.id, {
        q: "pond",
        sort: "totalSpend",
        order: "desc",
        limit: 200,
        cursor: p.nextCursor,
      });
    }
    expect(pond).toEqual(want);

    const heron: string[] = [];
    let h = search;
    for (;;) {
      heron.push(...ids(h));
      if (!h.nextCursor) break;
      h = await listCustomers(busy.id, {
        q: "heron",
        sort: "totalSpend",
        order: "desc",
        limit: 50,
        cursor: h.nextCursor,
      });
    }
    expect(heron).toEqual(all.map((c) => c.id));
    const last = await listCustomers(busy.id, { q: "heron", sort: "totalSpend", order: "desc", limit: 50, last: true });
    // Counted up to 1,000 only: the last page's position is unknown, and the footer says so.
    expect(last).toMatchObject({ at: "last", totalCapped: true });
    expect(pageSummary(null, last.customers.length, last.total, last.totalCapped)).toBe("50 of 1,000+");
    expect(ids(last)).toEqual(all.slice(-50).map((c) => c.id));
  });
});

async function get(user: User, path: string) {
  const request = new Request(`http://localhost${path}`, {
    headers: { Authorization: `Bearer ${await issueToken(user.id)}` },
  });
  const response = (await listLoader({ request, params: {}, context: {} } as LoaderFunctionArgs)) as Response;
  return { status: response.status, headers: response.headers, body: (await response.json()) as unknown };
}

describe("GET /api/customers?sort=&order=", () => {
  it("sorts, pages with X-Next-Cursor in the same sort, and defaults the order by column", async () => {
    for (const sort of CUSTOMER_SORTS)
      for (const order of ORDERS) {
        const seen: string[] = [];
        let answer = await get(alice, `/api/customers?sort=${sort}&order=${order}&limit=5`);
        for (;;) {
          expect(answer.status).toBe(200);
          expect(answer.headers.get("X-Total-Count")).toBe(String(ROWS.length));
          seen.push(...(answer.body as CustomerDto[]).map((c) => c.id));
          const next = answer.headers.get("X-Next-Cursor");
          if (!next) break;
          answer = await get(
            alice,
            `/api/customers?sort=${sort}&order=${order}&limit=5&cursor=${encodeURIComponent(next)}`,
          );
        }
        expect(seen).toEqual(expected(sort, order));
      }
    const byName = await get(alice, `/api/customers?sort=name`);
    expect((byName.body as CustomerDto[]).map((c) => c.id)).toEqual(expected("name", "asc"));
    const bySpend = await get(alice, `/api/customers?sort=totalSpend`);
    expect((bySpend.body as CustomerDto[]).map((c) => c.id)).toEqual(expected("totalSpend", "desc"));
    const plain = await get(alice, `/api/customers`);
    expect((plain.body as CustomerDto[]).map((c) => c.id)).toEqual(expected("createdAt", "desc"));
  });

  it("answers 400 with a message for a bad sort, order or cursor", async () => {
    const bad = await get(alice, `/api/customers?sort=email`);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("sort must be one of name, totalSpend, visits, lastActive, createdAt");
    const badOrder = await get(alice, `/api/customers?sort=name&order=up`);
    expect(badOrder.status).toBe(400);
    expect(JSON.stringify(badOrder.body)).toContain("order must be asc or desc");
    const first = await get(alice, `/api/customers?sort=name&limit=2`);
    const cursor = first.headers.get("X-Next-Cursor") ?? "";
    const wrongSort = await get(alice, `/api/customers?sort=visits&cursor=${encodeURIComponent(cursor)}`);
    expect(wrongSort.status).toBe(400);
    expect(JSON.stringify(wrongSort.body)).toContain("cursor is not valid");
  });
});
