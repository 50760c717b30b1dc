// @engines sqlite postgres
// The /customers page loader with sorting and paging in the address: the position it reports for
// the footer at each end and in between, a bad sort or order refused with a 400 and its message,
// and a cursor of another sort (an old address) opening the first page instead.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase as setUpTestDatabase } from "../helpers/db";
import { args, cookieFor, makeRequest } from "../helpers/requests";

setUpTestDatabase();

const customersPage = await import("~/routes/customers");
const { createCustomer } = await import("~/services/customers.server");
const { CustomerApiSchema } = await import("~/schemas/customer");

type PageData = Awaited<ReturnType<typeof customersPage.loader>>;

let cookie: string;
const TOTAL = 57;

beforeAll(async () => {
  const user = await createTestUser("Page Sorter");
  cookie = await cookieFor(user.id);
  for (let i = 0; i < TOTAL; i++)
    await createCustomer(
      user.id,
      CustomerApiSchema.parse({
        firstName: `Guest${String(i).padStart(2, "0")}`,
        lastName: "Shah",
        email: `guest${i}@sort-page.in`,
        totalSpend: (i * 13) % TOTAL,
        visits: i % 4,
      }),
    );
});

async function load(query: string): Promise<PageData> {
  return customersPage.loader(args(makeRequest(`/customers${query}`, { auth: { cookie } })));
}

async function refusal(query: string): Promise<{ status: number; text: string }> {
  try {
    await load(query);
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, text: await thrown.text() };
    throw thrown;
  }
  throw new Error(`${query} was not refused`);
}

describe("/customers sorted and paged", () => {
  it("reports where the page stands: 1 on the first, total − shown + 1 on the last, carried between", async () => {
    const first = await load("?sort=totalSpend&order=asc");
    expect(first).toMatchObject({ start: 1, page: { sort: "totalSpend", order: "asc", total: TOTAL, at: "first" } });
    expect(first.page.customers[0].totalSpend).toBe(0);
    const last = await load("?sort=totalSpend&order=asc&last=1");
    expect(last).toMatchObject({ start: TOTAL - 50 + 1, page: { at: "last", nextCursor: null } });
    expect(last.page.customers.at(-1)?.totalSpend).toBe(TOTAL - 1);
    const second = await load(
      `?sort=totalSpend&order=asc&cursor=${encodeURIComponent(first.page.nextCursor ?? "")}&start=51`,
    );
    expect(second).toMatchObject({ start: 51, page: { at: "last" } });
    expect(second.page.customers).toHaveLength(TOTAL - 50);
    // Previous from the last page: back to a full first page.
    const back = await load(`?sort=totalSpend&order=asc&before=${encodeURIComponent(last.page.prevCursor ?? "")}`);
    expect(back).toMatchObject({ start: 1, page: { at: "first" } });
    expect(back.page.customers.map((c) => c.id)).toEqual(first.page.customers.map((c) => c.id));
  });

  it("refuses a sort or order that is not one of ours with a 400 that says which", async () => {
    expect(await refusal("?sort=email")).toEqual({
      status: 400,
      text: "sort must be one of name, totalSpend, visits, lastActive, createdAt",
    });
    expect(await refusal("?sort=name&order=sideways")).toEqual({ status: 400, text: "order must be asc or desc" });
  });

  it("opens the first page for a cursor of another sort, and takes the natural order of a sort given alone", async () => {
    const byName = await load("?sort=name");
    expect(byName.page.order).toBe("asc");
    expect(byName.page.customers[0].firstName).toBe("Guest00");
    const stale = await load(`?sort=visits&cursor=${encodeURIComponent(byName.page.nextCursor ?? "")}&start=51`);
    expect(stale).toMatchObject({ start: 1, page: { sort: "visits", order: "desc", at: "first" } });
    expect(stale.page.customers[0].visits).toBe(3);
  });
});
