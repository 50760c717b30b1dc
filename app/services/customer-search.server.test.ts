// @engines sqlite postgres
// The customers' paged list and its search against a real database (SQLite, and PostgreSQL in the
// postgres project): pages newest first with an exact total and a cursor, search by name or e-mail,
// and a search that stays inside its tenant (counts, caps, its range of the index). The service's
// other rules and the /api routes: customers.server.test.ts.
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
import { loader as listLoader } from "~/routes/api/customers";
import {
  countCustomers,
  createCustomer,
  deleteCustomer,
  listCustomers,
  SEARCH_COUNT_CAP,
  updateCustomer,
} from "~/services/customers.server";
import { customerMatchSql, customerMatchSqlPg, likePattern, tenantSearchRange } from "~/models/customers/search-sql";
import { seedCustomer, seedCustomers } from "~/models/seed/test-customers";
import { readConnection } from "~/db/reader.server";
import { isPostgres } from "~/db/connection.server";
import { analyzeCustomersPg } from "~/db/planner-statistics.postgres.server";
import { call, input } from "~/services/customer-test-calls";
import { pageSummary } from "~/lib/customers";

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
    const rows = Array.from({ length: 1200 }, (_, k) =>
      seedCustomer(7_000_000 + k + 1, {
        firstName: "Kestrel",
        lastName: `Bird${k + 1}`,
        email: `k${k + 1}@kestrel.in`,
      }),
    );
    expect(await seedCustomers([[busy.id, rows]])).toBe(1200);
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
