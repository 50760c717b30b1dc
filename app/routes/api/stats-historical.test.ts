// @engines sqlite postgres
// GET /api/stats/historical through its route module with a bearer token: 401 without one, the
// answer's shape, and the caller's own figures only.
import { describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase as setUpTestDatabase } from "../../../tests/helpers/db";

setUpTestDatabase();

const { createCustomer } = await import("~/services/customers.server");
const { issueToken } = await import("~/services/token.server");
const { weekStarts } = await import("~/lib/dashboard");
const route = await import("~/routes/api/stats-historical");

async function get(token: string | null) {
  const headers = new Headers();
  if (token) headers.set("Authorization", `Bearer ${token}`);
  const response = await route.loader({
    request: new Request(`http://localhost/api/stats/historical?_t=${Date.now()}`, { headers }),
    params: {},
    context: {},
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("GET /api/stats/historical", () => {
  it("is 401 without a token or with a bad one", async () => {
    expect((await get(null)).status).toBe(401);
    expect((await get("not-a-token")).status).toBe(401);
  });

  it("refuses other methods with a 405 that says to use GET", async () => {
    const response = await route.action({
      request: new Request("http://localhost/api/stats/historical", { method: "POST", body: "{}" }),
    });
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("GET");
    expect(await response.json()).toEqual({
      error: { code: "method_not_allowed", message: "Use GET for /api/stats/historical" },
    });
  });

  it("answers the previous counts and 12 weeks, with the caller's customers only", async () => {
    const me = await createTestUser("Stats");
    const other = await createTestUser("Stats other");
    for (const [i, u] of [me, me, other].entries())
      await createCustomer(u.id, {
        firstName: "Neha",
        lastName: `K${i}`,
        email: `neha${i}@example.com`,
        phone: "",
        address: "",
        company: "",
        notes: "",
      });

    const { status, body } = await get(await issueToken(me.id));
    expect(status).toBe(200);
    expect(body).toEqual({
      previousCustomers: 0,
      previousSegments: 0,
      previousCampaigns: 0,
      weekly: weekStarts(new Date()).map((weekStart, i) => ({
        weekStart,
        customersAdded: i === 11 ? 2 : 0,
        campaignsSent: 0,
      })),
    });
  });
});
