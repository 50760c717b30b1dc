// @engines sqlite postgres
// GET /api/ai/insights through its route module on a real database: refused without credentials,
// the spec's shape for a bearer token or a session cookie, each tenant its own answer, and only GET.
import { describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase as setUpTestDatabase } from "../helpers/db";
import { args, bearerFor, cookieFor, makeRequest } from "../helpers/requests";

setUpTestDatabase();

const route = await import("~/routes/api/ai-insights");
const { seedTenant } = await import("~/services/seed.server");
const { db } = await import("~/db/prisma.server");
const { newId } = await import("~/lib/id");

async function addCampaigns(userId: string, names: string[]) {
  for (const [i, name] of names.entries()) {
    const now = new Date();
    await db().campaign.create({
      data: {
        id: newId(),
        userId,
        name,
        message: "Hi",
        status: "Completed",
        audienceSize: 10,
        launchedAt: now,
        createdAt: now,
        updatedAt: now,
        deliveredCount: 9 - i,
        failedCount: 1 + i,
        openedCount: 3,
      },
    });
  }
}

type Body = {
  customerTrends: { text: string; figures: { label: string; value: number; unit: string }[] }[];
  segmentRecommendations: unknown[];
  campaignSuggestions: { text: string; href?: string }[];
  growthPredictions: unknown[];
  blocks: { campaignPerformance: string; segmentInsight: string; recentActivity: string };
  writer: string;
  generatedAt: string;
  enoughData: boolean;
  counts: { customers: number; campaigns: number; segments: number };
};

describe("GET /api/ai/insights", () => {
  it("is refused without credentials (401) and with a bad token", async () => {
    const res = await route.loader(args(makeRequest("/api/ai/insights")));
    expect(res.status).toBe(401);
    const bad = await route.loader(args(makeRequest("/api/ai/insights", { auth: { bearer: "not-a-token" } })));
    expect(bad.status).toBe(401);
  });

  it("answers the spec's shape with the card's blocks and who wrote them, from the caller's own data", async () => {
    const user = await createTestUser("Insights route");
    await seedTenant(user.id, { customers: 40, orders: 0, seed: 5 });
    await addCampaigns(user.id, ["Alpha Launch", "Beta Launch", "Gamma Launch"]);
    const other = await createTestUser("Someone else");

    const res = await route.loader(
      args(makeRequest("/api/ai/insights", { auth: { bearer: await bearerFor(user.id) } })),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("application/json");
    const body = (await res.json()) as Body;
    expect(body).toMatchObject({
      enoughData: true,
      writer: "local",
      counts: { customers: 40, campaigns: 3, segments: 0 },
    });
    for (const key of ["customerTrends", "segmentRecommendations", "campaignSuggestions", "growthPredictions"] as const)
      expect(body[key].length).toBeGreaterThan(0);
    expect(body.customerTrends[0].figures[0]).toEqual({
      label: "New customers this month",
      value: expect.any(Number),
      unit: "count",
    });
    expect(body.campaignSuggestions[0].text).toContain('"Alpha Launch" delivered 90.0%');
    expect(body.blocks.campaignPerformance).toContain("Alpha Launch");
    expect(body.blocks.segmentInsight).toBe("You have no segments yet: create one to target a group of customers.");
    expect(body.blocks.recentActivity.length).toBeGreaterThan(20);
    expect(new Date(body.generatedAt).toString()).not.toBe("Invalid Date");

    // Another user, signed in with the session cookie: their own (empty) account.
    const theirs = await route.loader(
      args(makeRequest("/api/ai/insights", { auth: { cookie: await cookieFor(other.id) } })),
    );
    expect(theirs.status).toBe(200);
    expect(await theirs.json()).toMatchObject({
      enoughData: false,
      counts: { customers: 0, campaigns: 0, segments: 0 },
      campaignSuggestions: [],
      blocks: { campaignPerformance: "", segmentInsight: "", recentActivity: "" },
    });
  });

  it("serves GET only", async () => {
    const user = await createTestUser();
    const res = await route.action(
      args(makeRequest("/api/ai/insights", { method: "POST", auth: { bearer: await bearerFor(user.id) }, json: {} })),
    );
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("GET");
  });
});
