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
const { parseConditions } = await import("~/lib/segment-parse");

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

describe("segments on the customer's fields and tags", () => {
  let tenant: string;
  const people: Record<string, string> = {};

  beforeAll(async () => {
    const { createField, checkFieldValues, fieldCatalog, writeCustomerFieldValues } =
      await import("~/services/custom-fields.server");
    tenant = (await createTestUser("Fields")).id;
    await createField(tenant, { name: "tier", label: "Loyalty tier", type: "choice", choices: ["Gold", "Silver"] });
    await createField(tenant, { name: "score", label: "Score", type: "number" });
    const catalog = await fieldCatalog(tenant);
    const rows: [string, Record<string, unknown>, string[]][] = [
      ["Asha", { city: "Pune", tier: "gold", score: 9, birthday: "1990-03-03" }, ["VIP", "Trade fair"]],
      ["Ravi", { city: "Mumbai", tier: "Silver", score: 2 }, ["trade fair"]],
      ["Meera", {}, []],
    ];
    for (const [name, fields, tags] of rows) {
      const id = newId();
      people[name] = id;
      await db().customer.create({
        data: { id, userId: tenant, firstName: name, lastName: "F", email: `${name}-${tenant}@example.in` },
      });
      await writeCustomerFieldValues(tenant, id, checkFieldValues(fields, catalog, false));
      for (const tag of tags) {
        const key = tag.toLowerCase();
        const found = await db().tag.findFirst({ where: { userId: tenant, key } });
        const tagId =
          found?.id ?? (await db().tag.create({ data: { id: newId(), userId: tenant, name: tag, key } })).id;
        await db().customerTag.create({ data: { tagId, customerId: id, userId: tenant } });
      }
    }
  });

  it("refuses an unknown field or an operator its type does not take with a 400 naming the path", async () => {
    const refused = (conditions: unknown) =>
      segments.createSegment(tenant, { name: "Bad", description: "", tree: tree(conditions) });
    await expect(refused({ "field:tierx": { $eq: "gold" } })).rejects.toMatchObject({
      status: 400,
      message: 'conditions.field:tierx: unknown field "tierx"',
      fields: { conditions: 'conditions.field:tierx: unknown field "tierx"' },
    });
    await expect(refused({ $or: [{ visits: { $gt: 1 } }, { "field:tier": { $gt: 5 } }] })).rejects.toMatchObject({
      status: 400,
      message: 'conditions.$or[1].field:tier.$gt: operator "$gt" does not apply to a choice field',
    });
    await expect(segments.previewAudience(tenant, tree({ "field:tier": { $in: ["platinum"] } }))).rejects.toMatchObject(
      {
        status: 400,
        message: 'conditions.field:tier.$in: "platinum" is not one of the choices of Loyalty tier (Gold, Silver)',
      },
    );
    const some = await segments.createSegment(tenant, {
      name: "Ok",
      description: "",
      tree: tree({ visits: { $gte: 0 } }),
    });
    await expect(
      segments.updateSegment(tenant, some.id, {
        name: "Ok",
        description: "",
        tree: tree({ "field:score": { $eq: "x" } }),
      }),
    ).rejects.toMatchObject({ status: 400, message: "conditions.field:score.$eq: Score takes a number" });
    expect(await db().segment.count({ where: { userId: tenant, name: "Bad" } })).toBe(0);
  });

  it("counts, stores its fields' values, and names the customers' segments", async () => {
    const gold = await segments.createSegment(tenant, {
      name: "Gold in Pune",
      description: "",
      tree: tree({ $and: [{ "field:tier": { $in: ["GOLD"] } }, { "field:city": { $eq: "pune" } }] }),
    });
    expect(gold.customerCount).toBe(1);
    expect(gold.conditions).toEqual({ $and: [{ "field:tier": { $in: ["Gold"] } }, { "field:city": { $eq: "pune" } }] });
    const fair = await segments.createSegment(tenant, {
      name: "Trade fair",
      description: "",
      tree: tree({ $or: [{ tags: { $in: ["TRADE FAIR"] } }, { "field:score": { $gt: "100" } }] }),
    });
    expect(fair.customerCount).toBe(2);
    expect(fair.conditions).toEqual({ $or: [{ tags: { $in: ["TRADE FAIR"] } }, { "field:score": { $gt: 100 } }] });
    expect((await segments.previewAudience(tenant, tree({ tags: { $nin: ["vip"] } }))).count).toBe(2);
    expect((await segments.previewAudience(tenant, tree({ "field:city": { $exists: false } }))).count).toBe(1);
    expect((await segments.segmentsForCustomer(tenant, people.Asha)).map((s) => s.name).sort()).toEqual([
      "Gold in Pune",
      "Ok",
      "Trade fair",
    ]);
    const overview = await segments.segmentOverview(tenant, gold.id);
    expect(overview.fieldLabels).toEqual({ tier: "Loyalty tier", city: "City" });
    expect(overview.warnings).toEqual([]);
    // A campaign's snapshot takes the same customers.
    const content = { name: "Fair", subject: "Hello", message: "Hi {NAME}", description: "", segmentId: fair.id };
    const launched = await launch(tenant, content);
    expect(launched.audienceSize).toBe(2);
    const reached = await db().delivery.findMany({ where: { campaignId: launched.id }, select: { customerId: true } });
    expect(reached.map((d) => d.customerId).sort()).toEqual([people.Asha, people.Ravi].sort());
  });

  it("counts a segment whose field was deleted since as nobody having a value, and says so", async () => {
    const { deleteField } = await import("~/services/custom-fields.server");
    const has = await segments.createSegment(tenant, {
      name: "Scored",
      description: "",
      tree: tree({ "field:score": { $gte: 0 } }),
    });
    const hasNot = await segments.createSegment(tenant, {
      name: "Not nine",
      description: "",
      tree: tree({ "field:score": { $ne: 9 } }),
    });
    expect([has.customerCount, hasNot.customerCount]).toEqual([2, 2]);
    await deleteField(tenant, "score");
    expect(await segments.segmentAudienceCount(tenant, has.id)).toBe(0);
    expect(await segments.segmentAudienceCount(tenant, hasNot.id)).toBe(3);
    const listed = await segments.listSegments(tenant);
    const notes = await segments.segmentFieldNotes(tenant, listed);
    const byName = Object.fromEntries(listed.map((s) => [s.name, notes[s.id] ?? []]));
    expect(byName).toEqual({
      Ok: [],
      "Gold in Pune": [],
      "Trade fair": ["Uses a deleted field: score"],
      Scored: ["Uses a deleted field: score"],
      "Not nine": ["Uses a deleted field: score"],
    });
    const overview = await segments.segmentOverview(tenant, has.id);
    expect([overview.count, overview.warnings]).toEqual([0, ["Uses a deleted field: score"]]);
    // Saving it again is refused until the condition is changed.
    await expect(
      segments.updateSegment(tenant, has.id, {
        name: "Scored",
        description: "",
        tree: tree({ "field:score": { $gte: 0 } }),
      }),
    ).rejects.toMatchObject({ status: 400, message: 'conditions.field:score: unknown field "score"' });
  });
});

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

  beforeAll(async () => {
    tenant = (await createTestUser("Includer")).id;
    // Spend 0, 1000, …, 5000 rupees; visits 0 to 5.
    for (let i = 0; i < 6; i++) await customer(i, i * 1000, i);
  });

  it("counts is in and is not in as the included segment's rules say now, on every door of the audience", async () => {
    const big = await segments.createSegment(tenant, {
      name: "Big spenders",
      description: "",
      tree: tree({ totalSpend: { $gte: 3000 } }),
    });
    const bigRegulars = await segments.createSegment(tenant, {
      name: "Big regulars",
      description: "",
      tree: tree({ $and: [{ inSegment: { $eq: big.id } }, { visits: { $gte: 4 } }] }),
    });
    const others = await segments.createSegment(tenant, {
      name: "Everyone else",
      description: "",
      tree: tree({ inSegment: { $ne: big.id } }),
    });
    expect([big.customerCount, bigRegulars.customerCount, others.customerCount]).toEqual([3, 2, 3]);
    expect(await segments.segmentAudienceCount(tenant, bigRegulars.id)).toBe(2);
    const page = await segments.segmentAudience(tenant, others.id, { limit: 10 });
    expect(page.customers.map((c) => c.firstName).sort()).toEqual(["M0", "M1", "M2"]);
    const preview = await segments.previewAudience(tenant, tree({ inSegment: { $eq: bigRegulars.id } }));
    expect(preview.count).toBe(2);

    // Changing the included segment changes every segment that includes it.
    await segments.updateSegment(tenant, big.id, {
      name: "Big spenders",
      description: "",
      tree: tree({ totalSpend: { $gte: 5000 } }),
    });
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
    const a = await segments.createSegment(tenant, { name: "A", description: "", tree: tree({ visits: { $gte: 1 } }) });
    const b = await segments.createSegment(tenant, {
      name: "B",
      description: "",
      tree: tree({ inSegment: { $eq: a.id } }),
    });
    await expect(
      segments.updateSegment(tenant, a.id, { name: "A", description: "", tree: tree({ inSegment: { $ne: a.id } }) }),
    ).rejects.toMatchObject({
      status: 400,
      message: 'conditions.inSegment: a segment cannot include itself ("A" → "A")',
    });
    await expect(
      segments.updateSegment(tenant, a.id, {
        name: "A",
        description: "",
        tree: tree({ $or: [{ visits: { $gte: 1 } }, { inSegment: { $eq: b.id } }] }),
      }),
    ).rejects.toMatchObject({
      status: 400,
      message: 'conditions.inSegment: a segment cannot include itself ("A" → "B" → "A")',
    });
    // Nothing was changed by the refused saves.
    expect((await segments.getSegment(tenant, a.id)).conditions).toEqual({ visits: { $gte: 1 } });

    const theirs = await segments.createSegment(otherId, {
      name: "Theirs",
      description: "",
      tree: tree({ visits: { $gte: 0 } }),
    });
    for (const id of [theirs.id, newId()]) {
      await expect(
        segments.createSegment(tenant, { name: "C", description: "", tree: tree({ inSegment: { $eq: id } }) }),
      ).rejects.toMatchObject({ status: 400, message: `conditions.inSegment: there is no segment with the id ${id}` });
      await expect(segments.previewAudience(tenant, tree({ inSegment: { $eq: id } }))).rejects.toMatchObject({
        status: 400,
      });
    }
  });

  it("includes at most five deep", async () => {
    let previous = await segments.createSegment(tenant, {
      name: "L0",
      description: "",
      tree: tree({ visits: { $gte: 0 } }),
    });
    for (let level = 1; level <= 5; level++) {
      previous = await segments.createSegment(tenant, {
        name: `L${level}`,
        description: "",
        tree: tree({ inSegment: { $eq: previous.id } }),
      });
      expect(previous.customerCount).toBe(6);
    }
    await expect(
      segments.createSegment(tenant, { name: "L6", description: "", tree: tree({ inSegment: { $eq: previous.id } }) }),
    ).rejects.toMatchObject({
      status: 400,
      message: "conditions.inSegment: segments may include segments at most 5 deep",
    });
  });

  it("refuses a change that would take a segment including this one past the limits, naming it", async () => {
    const leaf = await segments.createSegment(tenant, {
      name: "Leaf",
      description: "",
      tree: tree({ visits: { $gte: 0 } }),
    });
    let top = leaf;
    for (let level = 1; level <= 5; level++) {
      top = await segments.createSegment(tenant, {
        name: `Chain ${level}`,
        description: "",
        tree: tree({ inSegment: { $eq: top.id } }),
      });
    }
    const other = await segments.createSegment(tenant, {
      name: "Other",
      description: "",
      tree: tree({ visits: { $gte: 3 } }),
    });
    // "Chain 5" reaches "Leaf" five deep: "Leaf" may not now include another segment.
    await expect(
      segments.updateSegment(tenant, leaf.id, {
        name: "Leaf",
        description: "",
        tree: tree({ inSegment: { $eq: other.id } }),
      }),
    ).rejects.toMatchObject({
      status: 400,
      message: 'conditions: the segment "Chain 5" includes this one: segments may include segments at most 5 deep',
    });
    expect((await segments.getSegment(tenant, leaf.id)).conditions).toEqual({ visits: { $gte: 0 } });
    expect(await segments.segmentAudienceCount(tenant, top.id)).toBe(6);
  });

  it("refuses to delete a segment another includes, and says which", async () => {
    const base = await segments.createSegment(tenant, {
      name: "Base",
      description: "",
      tree: tree({ visits: { $gte: 2 } }),
    });
    const user = await segments.createSegment(tenant, {
      name: "Uses base",
      description: "",
      tree: tree({ $and: [{ visits: { $lte: 4 } }, { inSegment: { $ne: base.id } }] }),
    });
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
    const gone = await segments.createSegment(tenant, {
      name: "Gone",
      description: "",
      tree: tree({ visits: { $gte: 5 } }),
    });
    const inGone = await segments.createSegment(tenant, {
      name: "In gone",
      description: "",
      tree: tree({ inSegment: { $eq: gone.id } }),
    });
    const notInGone = await segments.createSegment(tenant, {
      name: "Not in gone",
      description: "",
      tree: tree({ inSegment: { $ne: gone.id } }),
    });
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
