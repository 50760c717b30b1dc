// @engines sqlite postgres
// The segments service against a real database (SQLite; PostgreSQL in the postgres project): the list's stats (with real campaign
// counts), segments of one customer, tenant isolation, the detail's first 10, and rolling dates
// evaluated when counted and when a campaign launches.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestUser, useTestDatabase as setUpTestDatabase } from "../../tests/helpers/db";

setUpTestDatabase();

const { db } = await import("~/db/prisma.server");
const { newId } = await import("~/lib/id");
const segments = await import("~/services/segments.server");
const { saveDraft } = await import("~/services/campaigns/drafts.server");
const { launch } = await import("~/services/campaigns/launch.server");
const { parseConditions } = await import("~/lib/segments");

const tree = (conditions: unknown) => {
  const parsed = parseConditions(conditions);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.tree;
};

let userId: string;
let otherId: string;
const ids: string[] = [];

beforeAll(async () => {
  userId = (await createTestUser("Owner")).id;
  otherId = (await createTestUser("Other")).id;
  for (let i = 0; i < 12; i++) {
    const id = newId();
    ids.push(id);
    await db().customer.create({
      data: {
        id,
        userId,
        firstName: `F${i}`,
        lastName: "L",
        email: `f${i}@example.in`,
        totalSpendPaise: i * 100_000,
        visits: i,
      },
    });
  }
});

describe("segments service", () => {
  it("lists with audience sizes and computes the four stats, counting real campaigns", async () => {
    const a = await segments.createSegment(userId, {
      name: "Top",
      description: "",
      tree: tree({ totalSpend: { $gte: 9000 } }),
    });
    await segments.createSegment(userId, { name: "All", description: "", tree: tree({ visits: { $gte: 0 } }) });
    await segments.createSegment(otherId, { name: "Not mine", description: "", tree: tree({ visits: { $gte: 0 } }) });
    let list = await segments.listSegments(userId, { sort: "size", dir: "desc" });
    expect(list.map((s) => [s.name, s.customerCount])).toEqual([
      ["All", 12],
      ["Top", 3],
    ]);
    expect(await segments.segmentStats(userId, list)).toEqual({
      totalSegments: 2,
      totalAudience: 15,
      avgSegmentSize: 8,
      campaignsCreated: 0,
    });
    await db().campaign.create({ data: { id: newId(), userId, segmentId: a.id, name: "C", message: "Hi {NAME}" } });
    list = await segments.listSegments(userId);
    expect((await segments.segmentStats(userId, list)).campaignsCreated).toBe(1);
  });

  it("finds the segments that contain a customer, and none of another tenant", async () => {
    expect(await segments.segmentsForCustomer(userId, ids[11])).toEqual(
      (await segments.listSegments(userId, { sort: "name" })).map((s) => ({ id: s.id, name: s.name })),
    );
    expect((await segments.segmentsForCustomer(userId, ids[0])).map((s) => s.name)).toEqual(["All"]);
    expect(await segments.segmentsForCustomer(otherId, ids[0])).toEqual([]);
    expect(await segments.segmentsForCustomer(userId, "not-an-id")).toEqual([]);
  });

  it("shows the first 10 customers of a segment with its count", async () => {
    const all = (await segments.listSegments(userId)).find((s) => s.name === "All");
    const overview = await segments.segmentOverview(userId, all!.id);
    expect(overview.count).toBe(12);
    expect(overview.customers.map((c) => c.id)).toEqual(ids.slice(0, 10));
    await expect(segments.segmentOverview(otherId, all!.id)).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("rolling dates, evaluated when the audience is counted", () => {
  /** Noon in India on a March 2025 day. */
  const march = (day: number) => new Date(Date.UTC(2025, 2, day, 6, 30));
  let tenant: string;
  let recent: string;
  const customers: string[] = [];

  beforeAll(async () => {
    tenant = (await createTestUser("Rolling")).id;
    for (const day of [1, 10, 15]) {
      const id = newId();
      customers.push(id);
      await db().customer.create({
        data: {
          id,
          userId: tenant,
          firstName: `Active${day}`,
          lastName: "March",
          email: `active${day}-${tenant}@example.in`,
          lastActive: march(day),
        },
      });
    }
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  const at = (day: number) => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(march(day));
  };

  it("moves the count, the list, the detail and the preview as days pass", async () => {
    at(16);
    const created = await segments.createSegment(tenant, {
      name: "Active this week",
      description: "",
      tree: tree({ lastActiveDate: { $gte: { $daysAgo: 7 } } }),
    });
    recent = created.id;
    // On 16 March the last 7 days start on 9 March.
    expect(created.customerCount).toBe(2);
    expect(await segments.segmentAudienceCount(tenant, recent)).toBe(2);
    at(20); // from 13 March on
    expect(await segments.segmentAudienceCount(tenant, recent)).toBe(1);
    expect((await segments.listSegments(tenant)).map((s) => s.customerCount)).toEqual([1]);
    const overview = await segments.segmentOverview(tenant, recent);
    expect([overview.count, overview.customers.map((c) => c.firstName)]).toEqual([1, ["Active15"]]);
    expect((await segments.previewAudience(tenant, tree({ lastActiveDate: { $lt: { $daysAgo: 7 } } }))).count).toBe(2);
    expect((await segments.segmentsForCustomer(tenant, customers[2])).map((s) => s.name)).toEqual(["Active this week"]);
    at(25); // from 18 March on: nobody
    expect(await segments.segmentAudienceCount(tenant, recent)).toBe(0);
    expect(await segments.segmentsForCustomer(tenant, customers[2])).toEqual([]);
  });

  it("freezes a campaign's audience as it is at launch, not when its draft was saved", async () => {
    const content = { name: "Comeback", subject: "Hello", message: "Hi {NAME}", description: "", segmentId: recent };
    at(16);
    const draft = await saveDraft(tenant, content);
    expect(draft.audienceSize).toBe(2);
    at(20);
    const launched = await launch(tenant, content, { draftId: draft.id });
    expect(launched.id).toBe(draft.id);
    expect(launched.audienceSize).toBe(1);
    expect(await db().delivery.count({ where: { campaignId: launched.id } })).toBe(1);
    at(25);
    await expect(launch(tenant, { ...content, name: "Too late" })).rejects.toMatchObject({
      status: 422,
    });
  });
});
