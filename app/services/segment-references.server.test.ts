// @engines sqlite postgres
// Segments that include other segments (inSegment), through the segments service against a real
// database: is in and is not in counted by the included segment's rules as they are now, on every
// door of the audience; loops, another tenant's segment, depth and size refused on save, naming the
// segment; an included segment's delete refused; an included segment gone counted as nobody in it.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase as setUpTestDatabase } from "../../tests/helpers/db";
import { parsedTree as tree } from "../../tests/helpers/segment-trees";
import { segmentInput } from "~/services/segment-test-input";

setUpTestDatabase();

const { db } = await import("~/db/prisma.server");
const { newId } = await import("~/lib/id");
const segments = await import("~/services/segments.server");
const { launch } = await import("~/services/campaigns/launch.server");

describe("segments that include other segments", () => {
  let tenant: string;
  const customer = async (n: number, spend: number, visits: number) => {
    const id = newId();
    await db().customer.create({
      data: {
        id,
        userId: tenant,
        firstName: `M${n}`,
        lastName: "L",
        email: `m${n}@example.in`,
        totalSpendPaise: spend * 100,
        visits,
      },
    });
    return id;
  };

  let otherId: string;
  beforeAll(async () => {
    tenant = (await createTestUser("Includer")).id;
    otherId = (await createTestUser("Other")).id;
    // Spend 0, 1000, …, 5000 rupees; visits 0 to 5.
    for (let i = 0; i < 6; i++) await customer(i, i * 1000, i);
  });

  it("counts is in and is not in as the included segment's rules say now, on every door of the audience", async () => {
    const big = await segments.createSegment(tenant, segmentInput("Big spenders", { totalSpend: { $gte: 3000 } }));
    const bigRegulars = await segments.createSegment(
      tenant,
      segmentInput("Big regulars", { $and: [{ inSegment: { $eq: big.id } }, { visits: { $gte: 4 } }] }),
    );
    const others = await segments.createSegment(tenant, segmentInput("Everyone else", { inSegment: { $ne: big.id } }));
    expect([big.customerCount, bigRegulars.customerCount, others.customerCount]).toEqual([3, 2, 3]);
    expect(await segments.segmentAudienceCount(tenant, bigRegulars.id)).toBe(2);
    const page = await segments.segmentAudience(tenant, others.id, { limit: 10 });
    expect(page.customers.map((c) => c.firstName).sort()).toEqual(["M0", "M1", "M2"]);
    const preview = await segments.previewAudience(tenant, tree({ inSegment: { $eq: bigRegulars.id } }));
    expect(preview.count).toBe(2);

    // Changing the included segment changes every segment that includes it.
    await segments.updateSegment(tenant, big.id, segmentInput("Big spenders", { totalSpend: { $gte: 5000 } }));
    const listed = await segments.listSegments(tenant, { sort: "name", dir: "asc" });
    expect(listed.map((s) => [s.name, s.customerCount])).toEqual([
      ["Big regulars", 1],
      ["Big spenders", 1],
      ["Everyone else", 5],
    ]);

    // The detail says the conditions in words, with the included segment's name.
    const overview = await segments.segmentOverview(tenant, bigRegulars.id);
    expect(overview.segmentNames).toEqual({ [big.id]: "Big spenders" });
    expect(overview.count).toBe(1);

    // A customer's chips, and the WHERE a campaign snapshot is taken with.
    const [richest] = (await segments.segmentAudience(tenant, big.id, { limit: 1 })).customers;
    expect(richest.firstName).toBe("M5");
    const chips = await segments.segmentsForCustomer(tenant, richest.id);
    expect(chips.map((c) => c.name).sort()).toEqual(["Big regulars", "Big spenders"]);
    const where = await segments.segmentWhere(tenant, others.id);
    expect(where.sql).toContain("IS NOT TRUE");
  });

  it("refuses a segment that includes itself, through any chain, or one that is not the tenant's", async () => {
    const a = await segments.createSegment(tenant, segmentInput("A", { visits: { $gte: 1 } }));
    const b = await segments.createSegment(tenant, segmentInput("B", { inSegment: { $eq: a.id } }));
    await expect(
      segments.updateSegment(tenant, a.id, segmentInput("A", { inSegment: { $ne: a.id } })),
    ).rejects.toMatchObject({
      status: 400,
      message: 'conditions.inSegment: a segment cannot include itself ("A" → "A")',
    });
    await expect(
      segments.updateSegment(
        tenant,
        a.id,
        segmentInput("A", { $or: [{ visits: { $gte: 1 } }, { inSegment: { $eq: b.id } }] }),
      ),
    ).rejects.toMatchObject({
      status: 400,
      message: 'conditions.inSegment: a segment cannot include itself ("A" → "B" → "A")',
    });
    // Nothing was changed by the refused saves.
    expect((await segments.getSegment(tenant, a.id)).conditions).toEqual({ visits: { $gte: 1 } });

    const theirs = await segments.createSegment(otherId, segmentInput("Theirs", { visits: { $gte: 0 } }));
    for (const id of [theirs.id, newId()]) {
      await expect(segments.createSegment(tenant, segmentInput("C", { inSegment: { $eq: id } }))).rejects.toMatchObject(
        { status: 400, message: `conditions.inSegment: there is no segment with the id ${id}` },
      );
      await expect(segments.previewAudience(tenant, tree({ inSegment: { $eq: id } }))).rejects.toMatchObject({
        status: 400,
      });
    }
  });

  it("includes at most five deep", async () => {
    let previous = await segments.createSegment(tenant, segmentInput("L0", { visits: { $gte: 0 } }));
    for (let level = 1; level <= 5; level++) {
      previous = await segments.createSegment(tenant, segmentInput(`L${level}`, { inSegment: { $eq: previous.id } }));
      expect(previous.customerCount).toBe(6);
    }
    await expect(
      segments.createSegment(tenant, segmentInput("L6", { inSegment: { $eq: previous.id } })),
    ).rejects.toMatchObject({
      status: 400,
      message: "conditions.inSegment: segments may include segments at most 5 deep",
    });
  });

  it("refuses a change that would take a segment including this one past the limits, naming it", async () => {
    const leaf = await segments.createSegment(tenant, segmentInput("Leaf", { visits: { $gte: 0 } }));
    let top = leaf;
    for (let level = 1; level <= 5; level++) {
      top = await segments.createSegment(tenant, segmentInput(`Chain ${level}`, { inSegment: { $eq: top.id } }));
    }
    const other = await segments.createSegment(tenant, segmentInput("Other", { visits: { $gte: 3 } }));
    // "Chain 5" reaches "Leaf" five deep: "Leaf" may not now include another segment.
    await expect(
      segments.updateSegment(tenant, leaf.id, segmentInput("Leaf", { inSegment: { $eq: other.id } })),
    ).rejects.toMatchObject({
      status: 400,
      message: 'conditions: the segment "Chain 5" includes this one: segments may include segments at most 5 deep',
    });
    expect((await segments.getSegment(tenant, leaf.id)).conditions).toEqual({ visits: { $gte: 0 } });
    expect(await segments.segmentAudienceCount(tenant, top.id)).toBe(6);
  });

  it("refuses to delete a segment another includes, and says which", async () => {
    const base = await segments.createSegment(tenant, segmentInput("Base", { visits: { $gte: 2 } }));
    const user = await segments.createSegment(
      tenant,
      segmentInput("Uses base", { $and: [{ visits: { $lte: 4 } }, { inSegment: { $ne: base.id } }] }),
    );
    await expect(segments.deleteSegment(tenant, base.id)).rejects.toMatchObject({
      status: 409,
      message: 'the segment "Uses base" includes this segment: remove that condition first',
    });
    expect(await segments.segmentAudienceCount(tenant, base.id)).toBe(4);
    await segments.deleteSegment(tenant, user.id);
    await segments.deleteSegment(tenant, base.id);
    await expect(segments.getSegment(tenant, base.id)).rejects.toMatchObject({ status: 404 });
  });

  it("counts a segment whose included segment is gone as nobody being in it, and says so", async () => {
    const gone = await segments.createSegment(tenant, segmentInput("Gone", { visits: { $gte: 5 } }));
    const inGone = await segments.createSegment(tenant, segmentInput("In gone", { inSegment: { $eq: gone.id } }));
    const notInGone = await segments.createSegment(
      tenant,
      segmentInput("Not in gone", { inSegment: { $ne: gone.id } }),
    );
    // A delete that raced past the check: the row is removed under the service.
    await db().segment.delete({ where: { id: gone.id } });
    expect(await segments.segmentAudienceCount(tenant, inGone.id)).toBe(0);
    expect(await segments.segmentAudienceCount(tenant, notInGone.id)).toBe(6);
    const overview = await segments.segmentOverview(tenant, inGone.id);
    expect([overview.count, overview.warnings]).toEqual([0, ["Uses a deleted segment: nobody is in it"]]);
    // A launch does not send to "everyone not in" a segment that is gone: it is refused, saying why.
    await expect(
      launch(tenant, {
        name: "Not them",
        subject: "Hi",
        message: "Hi {NAME}",
        description: "",
        segmentId: notInGone.id,
      }),
    ).rejects.toMatchObject({
      status: 422,
      message: `The segment "Not in gone" cannot be sent to: there is no segment with the id ${gone.id}. Edit its conditions and launch again.`,
    });
    await segments.deleteSegment(tenant, inGone.id);
    await segments.deleteSegment(tenant, notInGone.id);
  });
});
