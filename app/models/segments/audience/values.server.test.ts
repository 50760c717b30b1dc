// Conditions on the customer's fields and tags as SQL (./values.ts through ./where.ts): the text
// each dialect gets, values always bound and in the order of their placeholders, the negations as
// NOT IN / NOT EXISTS, and the plans that read the tenant-first indexes of the value tables. That
// every kind of condition counts what a plain evaluation of the rows says, on both engines:
// ./dialects.property.test.ts.
import { describe, expect, it } from "vitest";
import {
  TEST_ENGINE,
  createTestUser,
  useTestConnection as testConnection,
  useTestDatabase as setUpTestDatabase,
} from "../../../../tests/helpers/db";
import { postgresPlan } from "../../../../tests/helpers/explain";
import { segmentAudience } from "~/models/segments/audience/store.server";
import { tree } from "~/models/segments/audience/test-customers";
import { countSql } from "~/models/segments/audience/rows";
import {
  compileComplement,
  compilePostgresComplement,
  compileSegmentWhere,
  compileTree,
} from "~/models/segments/audience/where";

setUpTestDatabase();
const connection = testConnection();

const VALUES = `SELECT v."customerId" FROM "CustomerFieldValue" v WHERE v."userId" = ? AND v."name" = ?`;
const TAGGED = `SELECT ct."customerId" FROM "CustomerTag" ct JOIN "Tag" t ON t."id" = ct."tagId" WHERE t."userId" = ?`;

describe("field and tag conditions as SQL", () => {
  it("are a test of the customer's id against the tenant's value rows, every value bound", () => {
    expect(compileTree(tree({ "field:city": { $eq: " Pune " } }), "sqlite", 1, false, "u1")).toEqual({
      sql: `"id" IN (${VALUES} AND v."textKey" = ?)`,
      params: ["u1", "city", "pune"],
    });
    expect(compileTree(tree({ "field:city": { $ne: "Pune" } }), "sqlite", 1, false, "u1").sql).toBe(
      `"id" NOT IN (${VALUES} AND v."textKey" = ?)`,
    );
    expect(compileTree(tree({ "field:city": { $exists: false } }), "sqlite", 1, false, "u1")).toEqual({
      sql: `"id" NOT IN (${VALUES})`,
      params: ["u1", "city"],
    });
    expect(compileTree(tree({ "field:city": { $contains: "50%_off\\" } }), "sqlite", 1, false, "u1")).toEqual({
      sql: `"id" IN (${VALUES} AND v."textKey" LIKE ? ESCAPE '\\')`,
      params: ["u1", "city", "%50\\%\\_off\\\\%"],
    });
    expect(compileTree(tree({ "field:score": { $gte: "2.5" } }), "sqlite", 1, false, "u1")).toEqual({
      sql: `"id" IN (${VALUES} AND v."numberValue" >= ?)`,
      params: ["u1", "score", 2.5],
    });
    expect(compileTree(tree({ "field:vip": { $eq: false } }), "sqlite", 1, false, "u1").params).toEqual([
      "u1",
      "vip",
      "false",
    ]);
    expect(compileTree(tree({ "field:tier": { $in: ["Gold", "SILVER"] } }), "sqlite", 1, false, "u1")).toEqual({
      sql: `"id" IN (${VALUES} AND v."textKey" IN (?, ?))`,
      params: ["u1", "tier", "gold", "silver"],
    });
    expect(compileTree(tree({ tags: { $nin: ["VIP", "Trade  Fair"] } }), "sqlite", 1, false, "u1")).toEqual({
      sql: `"id" NOT IN (${TAGGED} AND t."key" IN (?, ?))`,
      params: ["u1", "vip", "trade fair"],
    });
    expect(compileTree(tree({ tags: { $all: ["vip", "b2b"] } }), "sqlite", 1, false, "u1")).toEqual({
      sql: `"id" IN (${TAGGED} AND t."key" IN (?, ?) GROUP BY ct."customerId" HAVING count(*) = ?)`,
      params: ["u1", "vip", "b2b", 2],
    });
    // Nothing of the tenant's values is compiled without the tenant.
    expect(() => compileTree(tree({ tags: { $in: ["vip"] } }))).toThrow(/with its tenant/);
  });

  it("write an anniversary over the year's end as two ranges of the month-day, bound in order", () => {
    // 26 November 2026 in IST: 40 days reach 5 January.
    const now = Date.UTC(2026, 10, 26, 6, 0);
    const where = compileSegmentWhere("u1", tree({ "field:birthday": { $anniversaryWithinDays: 40 } }), "sqlite", now);
    expect(where).toEqual({
      sql: `"userId" = ? AND "id" IN (${VALUES} AND v."numberValue" >= ? AND v."numberValue" <= ? UNION ALL ${VALUES} AND v."numberValue" >= ? AND v."numberValue" <= ?)`,
      params: ["u1", "u1", "birthday", 1126, 1231, "u1", "birthday", 101, 105],
    });
    const pg = compileSegmentWhere("u1", tree({ "field:birthday": { $anniversaryWithinDays: 40 } }), "postgres", now);
    expect(pg).toEqual({
      sql: `"userId" = $1 AND EXISTS (SELECT 1 FROM "CustomerFieldValue" v WHERE v."customerId" = "Customer"."id" AND v."userId" = $2 AND v."name" = $3 AND ((v."numberValue" >= $4::float8 AND v."numberValue" <= $5::float8) OR (v."numberValue" >= $6::float8 AND v."numberValue" <= $7::float8)))`,
      params: ["u1", "u1", "birthday", 1126, 1231, 101, 105],
    });
    // A rolling day is the day it names at the moment compiled.
    expect(
      compileSegmentWhere("u1", tree({ "field:renewal": { $lte: { $daysAhead: 30 } } }), "sqlite", now).params,
    ).toEqual(["u1", "u1", "renewal", "2026-12-26"]);
  });

  it("are EXISTS and NOT EXISTS on PostgreSQL, numbered on from the tree's other values", () => {
    const t = tree({
      $and: [{ visits: { $gt: 2 } }, { "field:city": { $ne: "Pune" } }, { tags: { $all: ["a", "b"] } }],
    });
    expect(compileTree(t, "postgres", 2, false, "u1")).toEqual({
      sql:
        `("visits" > $2::bigint AND NOT EXISTS (SELECT 1 FROM "CustomerFieldValue" v WHERE v."customerId" = "Customer"."id" AND v."userId" = $3 AND v."name" = $4 AND ((v."textKey" = $5))) AND ` +
        `(EXISTS (SELECT 1 FROM "CustomerTag" ct JOIN "Tag" t ON t."id" = ct."tagId" WHERE ct."customerId" = "Customer"."id" AND t."userId" = $6 AND t."key" IN ($7)) AND ` +
        `EXISTS (SELECT 1 FROM "CustomerTag" ct JOIN "Tag" t ON t."id" = ct."tagId" WHERE ct."customerId" = "Customer"."id" AND t."userId" = $8 AND t."key" IN ($9))))`,
      params: [2, "u1", "city", "pune", "u1", "a", "u1", "b"],
    });
  });

  it("turn round exactly: IN becomes NOT IN, EXISTS NOT EXISTS, every tag any tag missing", () => {
    const t = tree({ $or: [{ "field:city": { $ne: "Pune" } }, { tags: { $all: ["a", "b"] } }] });
    expect(compileComplement(t, "u1")).toEqual({
      sql: `("id" IN (${VALUES} AND v."textKey" = ?) AND "id" NOT IN (${TAGGED} AND t."key" IN (?, ?) GROUP BY ct."customerId" HAVING count(*) = ?))`,
      params: ["u1", "city", "pune", "u1", "a", "b", 2],
    });
    expect(compilePostgresComplement(t, 1, false, "u1").sql).toBe(
      `(EXISTS (SELECT 1 FROM "CustomerFieldValue" v WHERE v."customerId" = "Customer"."id" AND v."userId" = $1 AND v."name" = $2 AND ((v."textKey" = $3))) AND ` +
        `(NOT EXISTS (SELECT 1 FROM "CustomerTag" ct JOIN "Tag" t ON t."id" = ct."tagId" WHERE ct."customerId" = "Customer"."id" AND t."userId" = $4 AND t."key" IN ($5)) OR ` +
        `NOT EXISTS (SELECT 1 FROM "CustomerTag" ct JOIN "Tag" t ON t."id" = ct."tagId" WHERE ct."customerId" = "Customer"."id" AND t."userId" = $6 AND t."key" IN ($7))))`,
    );
  });
});

describe("field and tag conditions in the database", () => {
  const planOf = async (conditions: unknown) => {
    const user = await createTestUser("Plans");
    const q = countSql(compileSegmentWhere(user.id, tree(conditions), TEST_ENGINE), TEST_ENGINE);
    return (
      TEST_ENGINE === "postgres"
        ? await postgresPlan(connection(), q.sql, q.params)
        : await segmentAudience.explainPlan(q)
    ).join("\n");
  };

  it("read the values' and tags' tenant-first indexes", async () => {
    expect(await planOf({ "field:city": { $eq: "Pune" } })).toMatch(
      /CustomerFieldValue_userId_name_textKey_customerId_idx/,
    );
    expect(await planOf({ "field:score": { $gt: 3 } })).toMatch(
      /CustomerFieldValue_userId_name_numberValue_customerId_idx/,
    );
    expect(await planOf({ "field:city": { $exists: false } })).toMatch(
      /CustomerFieldValue_userId_name_\w+_customerId_idx/,
    );
    // A tag by its key (or, probing from a customer, by its id), its customers by either key of CustomerTag.
    const tags = await planOf({ tags: { $in: ["vip"] } });
    expect(tags).toMatch(/Tag_userId_key_key|Tag_pkey|sqlite_autoindex_Tag/);
    expect(tags).toMatch(/CustomerTag_pkey|CustomerTag_customerId_tagId_idx|sqlite_autoindex_CustomerTag/);
    // No value table is read whole.
    for (const plan of [tags, await planOf({ "field:city": { $ne: "Pune" } })]) {
      expect(plan).not.toMatch(
        /SCAN (TABLE )?(CustomerFieldValue|CustomerTag|Tag)\b|Seq Scan on "?(CustomerFieldValue|CustomerTag|Tag)/,
      );
    }
  });

  it("count a tenant's customers by their values and tags, and nobody else's", async () => {
    const { db } = await import("~/db/prisma.server");
    const { newId } = await import("~/lib/id");
    const owner = await createTestUser("Owner");
    const other = await createTestUser("Other");
    const make = async (userId: string, city: string | null, tag: string | null) => {
      const id = newId();
      await db().customer.create({ data: { id, userId, firstName: "F", lastName: "L", email: `${id}@example.in` } });
      if (city) {
        await db().customerFieldValue.create({
          data: { userId, customerId: id, name: "city", value: city, textKey: city.toLowerCase(), numberValue: null },
        });
      }
      if (tag) {
        const found = await db().tag.findFirst({ where: { userId, key: tag.toLowerCase() } });
        const tagId =
          found?.id ?? (await db().tag.create({ data: { id: newId(), userId, name: tag, key: tag.toLowerCase() } })).id;
        await db().customerTag.create({ data: { tagId, customerId: id, userId } });
      }
      return id;
    };
    const pune = await make(owner.id, "Pune", "VIP");
    const mumbai = await make(owner.id, "Mumbai", null);
    const nothing = await make(owner.id, null, null);
    await make(other.id, "Pune", "VIP");
    const count = (conditions: unknown) => segmentAudience.sqlAudienceCount(owner.id, tree(conditions));
    expect(await count({ "field:city": { $eq: "PUNE" } })).toBe(1);
    expect(await count({ "field:city": { $ne: "pune" } })).toBe(2);
    expect(await count({ "field:city": { $exists: false } })).toBe(1);
    expect(await count({ tags: { $in: ["vip"] } })).toBe(1);
    expect(await count({ tags: { $nin: ["vip"] } })).toBe(2);
    expect(await count({ $or: [{ tags: { $in: ["vip"] } }, { "field:city": { $startsWith: "mum" } }] })).toBe(2);
    const page = await segmentAudience.sqlAudiencePage(owner.id, tree({ tags: { $nin: ["vip"] } }), 10);
    expect(page.map((r) => r.id)).toEqual([mumbai, nothing].sort());
    expect(
      await segmentAudience.sqlMatchesForCustomer(owner.id, pune, [
        tree({ tags: { $all: ["VIP"] } }),
        tree({ "field:city": { $contains: "un" } }),
        tree({ "field:city": { $eq: "Mumbai" } }),
      ]),
    ).toEqual([true, true, false]);
  });
});
