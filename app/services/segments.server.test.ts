// The segments service against a real SQLite database: the list's stats (with real campaign
// counts), segments of one customer, tenant isolation, and the detail's first 10.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase as setUpTestDatabase } from "../../tests/helpers/db";

setUpTestDatabase();

const { db } = await import("~/db.server");
const { newId } = await import("~/lib/id");
const segments = await import("~/services/segments.server");
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
