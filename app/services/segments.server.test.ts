// @engines sqlite postgres
// The segments service against a real database (SQLite; PostgreSQL in the postgres project): the list's stats (with real campaign
// counts), segments of one customer, tenant isolation, the detail's first 10, and rolling dates
// evaluated when counted and when a campaign launches.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestUser, useTestDatabase as setUpTestDatabase } from "../../tests/helpers/db";
import { parsedTree as tree } from "../../tests/helpers/segment-trees";
import { segmentInput } from "~/services/segment-test-input";

setUpTestDatabase();

const { db } = await import("~/db/prisma.server");
const { newId } = await import("~/lib/id");
const segments = await import("~/services/segments.server");
const { saveDraft } = await import("~/services/campaigns/drafts.server");
const { launch } = await import("~/services/campaigns/launch.server");

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
    const a = await segments.createSegment(userId, segmentInput("Top", { totalSpend: { $gte: 9000 } }));
    await segments.createSegment(userId, segmentInput("All", { visits: { $gte: 0 } }));
    await segments.createSegment(otherId, segmentInput("Not mine", { visits: { $gte: 0 } }));
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
    const created = await segments.createSegment(
      tenant,
      segmentInput("Active this week", { lastActiveDate: { $gte: { $daysAgo: 7 } } }),
    );
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
    const refused = (conditions: unknown) => segments.createSegment(tenant, segmentInput("Bad", conditions));
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
    const some = await segments.createSegment(tenant, segmentInput("Ok", { visits: { $gte: 0 } }));
    await expect(
      segments.updateSegment(tenant, some.id, segmentInput("Ok", { "field:score": { $eq: "x" } })),
    ).rejects.toMatchObject({ status: 400, message: "conditions.field:score.$eq: Score takes a number" });
    expect(await db().segment.count({ where: { userId: tenant, name: "Bad" } })).toBe(0);
  });

  it("counts, stores its fields' values, and names the customers' segments", async () => {
    const gold = await segments.createSegment(
      tenant,
      segmentInput("Gold in Pune", { $and: [{ "field:tier": { $in: ["GOLD"] } }, { "field:city": { $eq: "pune" } }] }),
    );
    expect(gold.customerCount).toBe(1);
    expect(gold.conditions).toEqual({ $and: [{ "field:tier": { $in: ["Gold"] } }, { "field:city": { $eq: "pune" } }] });
    const fair = await segments.createSegment(
      tenant,
      segmentInput("Trade fair", { $or: [{ tags: { $in: ["TRADE FAIR"] } }, { "field:score": { $gt: "100" } }] }),
    );
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
    const has = await segments.createSegment(tenant, segmentInput("Scored", { "field:score": { $gte: 0 } }));
    const hasNot = await segments.createSegment(tenant, segmentInput("Not nine", { "field:score": { $ne: 9 } }));
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
      segments.updateSegment(tenant, has.id, segmentInput("Scored", { "field:score": { $gte: 0 } })),
    ).rejects.toMatchObject({ status: 400, message: 'conditions.field:score: unknown field "score"' });
  });
});
