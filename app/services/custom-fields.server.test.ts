// @engines sqlite postgres
// Customer fields and tags against a real database (SQLite, and PostgreSQL in the postgres
// project): what a field may be, the values a customer may hold and how they are kept, tags
// compared without case, renames that merge, bulk tagging of a segment, and one tenant never
// seeing another's fields, values or tags.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase } from "../../tests/helpers/db";
import { rejection } from "../../tests/helpers/promises";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();

import { ApiError } from "~/lib/api.server";
import { CustomerApiSchema } from "~/schemas/customer";
import { NewFieldSchema } from "~/schemas/custom-field";
import {
  createField,
  deleteField,
  fieldDefinitions,
  fieldValueCount,
  getField,
  updateField,
} from "~/services/custom-fields.server";
import {
  createCustomer,
  customerDetail,
  deleteCustomer,
  getCustomer,
  updateCustomer,
} from "~/services/customers.server";
import { createSegment } from "~/services/segments.server";
import {
  addCustomerTags,
  deleteTag,
  listTags,
  removeCustomerTag,
  renameTag,
  tagInBulk,
  untagInBulk,
} from "~/services/tags.server";

let owner: string;
let other: string;

const customer = (over: Record<string, unknown> = {}) =>
  CustomerApiSchema.parse({
    firstName: "Priya",
    lastName: "Sharma",
    email: `priya.${Math.random().toString(36).slice(2)}@example.com`,
    ...over,
  });

/** The ApiError a promise is refused with (fails when it resolves). */
async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await rejection(promise);
  if (error instanceof ApiError) return error;
  throw error ?? new Error("expected a refusal");
}

beforeAll(async () => {
  owner = (await createTestUser("Fields owner")).id;
  other = (await createTestUser("Fields other")).id;
  await createField(
    owner,
    NewFieldSchema.parse({
      name: "tier",
      label: "Tier",
      type: "choice",
      choices: ["Gold", "Silver"],
      defaultValue: "Silver",
    }),
  );
  await createField(owner, NewFieldSchema.parse({ name: "points", label: "Points", type: "number" }));
  await createField(owner, NewFieldSchema.parse({ name: "member", label: "Member", type: "boolean" }));
});

describe("field definitions", () => {
  it("lists the built-in fields first, then the tenant's own in order; another tenant sees only the built-in ones", async () => {
    expect((await fieldDefinitions(owner)).map((f) => f.name)).toEqual([
      "city",
      "state",
      "country",
      "birthday",
      "time_zone",
      "tier",
      "points",
      "member",
    ]);
    expect((await fieldDefinitions(other)).every((f) => f.builtIn)).toBe(true);
    expect((await refusal(getField(other, "tier"))).status).toBe(404);
    expect((await refusal(updateField(other, "tier", { label: "Mine" }))).status).toBe(404);
    expect((await refusal(deleteField(other, "tier"))).status).toBe(404);
  });

  it("refuses a taken name (409), a reserved or malformed one, a choice field without choices, a bad default", async () => {
    expect(
      (await refusal(createField(owner, NewFieldSchema.parse({ name: "tier", label: "T", type: "text" })))).status,
    ).toBe(409);
    expect(NewFieldSchema.safeParse({ name: "email", label: "E", type: "text" }).success).toBe(false);
    expect(NewFieldSchema.safeParse({ name: "Loyalty Tier", label: "L", type: "text" }).success).toBe(false);
    expect(NewFieldSchema.safeParse({ name: "size", label: "Size", type: "choice" }).success).toBe(false);
    const bad = await refusal(
      createField(
        owner,
        NewFieldSchema.parse({ name: "since", label: "Since", type: "date", defaultValue: "2024-02-30" }),
      ),
    );
    expect(bad.message).toBe("defaultValue must be a date like 2024-05-31");
  });

  it("renames, moves and retires a field; built-in fields cannot be changed", async () => {
    expect(await updateField(owner, "member", { label: "Club member", position: 1 })).toMatchObject({
      label: "Club member",
    });
    expect((await fieldDefinitions(owner)).map((f) => f.name).slice(5)).toEqual(["member", "tier", "points"]);
    expect((await updateField(owner, "points", { retired: true })).retired).toBe(true);
    expect((await updateField(owner, "points", { retired: false })).retired).toBe(false);
    expect((await refusal(updateField(owner, "city", { label: "Town" }))).status).toBe(400);
    expect((await refusal(deleteField(owner, "birthday"))).status).toBe(400);
  });

  it("refuses choices for a field of another type, and a choice field left without choices, under its choices", async () => {
    const notChoice = await refusal(updateField(owner, "points", { choices: ["1", "2"] }));
    expect([notChoice.status, notChoice.message, notChoice.fields]).toEqual([
      400,
      "Only a choice field has choices",
      { choices: "Only a choice field has choices" },
    ]);
    const none = await refusal(updateField(owner, "tier", { choices: [] }));
    expect([none.status, none.message, none.fields]).toEqual([
      400,
      "A choice field needs at least one choice",
      { choices: "A choice field needs at least one choice" },
    ]);
    expect((await getField(owner, "tier")).choices).toEqual(["Gold", "Silver"]);
  });
});

describe("a customer's values", () => {
  it("are checked by type, stored canonically, given back typed, and defaults fill a create", async () => {
    const created = await createCustomer(
      owner,
      customer({ fields: { city: " Pune ", birthday: "1990-12-02", points: "12.5", member: "yes", tier: "gold" } }),
    );
    expect(created.fields).toEqual({ city: "Pune", birthday: "1990-12-02", points: 12.5, member: true, tier: "Gold" });
    const plain = await createCustomer(owner, customer());
    expect(plain.fields).toEqual({ tier: "Silver" });
  });

  it("refuses a value of the wrong type, an unknown or a retired field, naming the field; nothing is stored", async () => {
    const email = `wrong.${Date.now()}@example.com`;
    for (const [fields, message] of [
      [{ points: "many" }, "fields.points: Points must be a number"],
      [{ tier: "Platinum" }, "fields.tier: Tier must be one of: Gold, Silver"],
      [{ birthday: "31/12/1990" }, "fields.birthday: Birthday must be a date like 2024-05-31"],
      [{ time_zone: "Mars/Olympus" }, "fields.time_zone: Time zone must be a time zone name like Asia/Kolkata"],
      [{ height: 180 }, 'fields.height: unknown field "height" (define it first: POST /api/fields)'],
    ] as const) {
      const error = await refusal(createCustomer(owner, customer({ email, fields })));
      expect(error.status).toBe(400);
      expect(error.message).toBe(message);
    }
    await updateField(owner, "points", { retired: true });
    try {
      expect((await refusal(createCustomer(owner, customer({ email, fields: { points: 3 } })))).message).toBe(
        'fields.points: the field "Points" is retired',
      );
    } finally {
      await updateField(owner, "points", { retired: false });
    }
    // Nothing of the refused creates was stored.
    const error = await refusal(getCustomer(owner, "0123456789abcdef01234567"));
    expect(error.status).toBe(404);
  });

  it("an update changes only the fields it names (null clears one); leaving fields and tags out keeps them", async () => {
    const created = await createCustomer(owner, customer({ fields: { city: "Pune", points: 10 }, tags: ["VIP"] }));
    const base = { firstName: "Priya", lastName: "Sharma", email: created.email };
    const changed = await updateCustomer(
      owner,
      created.id,
      CustomerApiSchema.parse({ ...base, fields: { city: null, state: "MH" } }),
    );
    expect(changed.fields).toEqual({ state: "MH", points: 10, tier: "Silver" });
    expect(changed.tags).toEqual(["VIP"]);
    const kept = await updateCustomer(owner, created.id, CustomerApiSchema.parse({ ...base, lastName: "S" }));
    expect(kept.fields).toEqual(changed.fields);
    expect(kept.tags).toEqual(["VIP"]);
    const detail = await customerDetail(owner, created.id);
    expect(detail.fields).toEqual(changed.fields);
  });

  it("a field's delete takes every value of it, and the count said so beforehand", async () => {
    await createField(owner, NewFieldSchema.parse({ name: "shoe_size", label: "Shoe size", type: "number" }));
    const a = await createCustomer(owner, customer({ fields: { shoe_size: 7 } }));
    await createCustomer(owner, customer({ fields: { shoe_size: 9 } }));
    expect(await fieldValueCount(owner, "shoe_size")).toBe(2);
    expect(await deleteField(owner, "shoe_size")).toEqual({ valuesDeleted: 2 });
    expect((await getCustomer(owner, a.id)).fields).not.toHaveProperty("shoe_size");
    expect(await fieldValueCount(owner, "shoe_size")).toBe(0);
  });

  it("a customer's delete takes their values and tags with them", async () => {
    const gone = await createCustomer(owner, customer({ fields: { city: "Agra" }, tags: ["Gone soon"] }));
    await deleteCustomer(owner, gone.id);
    expect((await listTags(owner)).find((t) => t.name === "Gone soon")?.customers).toBe(0);
  });
});

describe("tags", () => {
  it("are one tag whatever the case, keep the first spelling, and refuse an empty or overlong tag", async () => {
    const c = await createCustomer(owner, customer({ tags: ["Trade Fair", "trade fair", "Diwali"] }));
    expect(c.tags).toEqual(["Diwali", "Trade Fair"]);
    expect(await addCustomerTags(owner, c.id, ["DIWALI", "New"])).toEqual(["Diwali", "New", "Trade Fair"]);
    expect((await refusal(addCustomerTags(owner, c.id, ["x".repeat(51)]))).message).toBe(
      `tags: A tag must be at most 50 characters: "${"x".repeat(51)}"`,
    );
    expect((await refusal(addCustomerTags(owner, c.id, ["  "]))).status).toBe(400);
    expect(await removeCustomerTag(owner, c.id, "new")).toEqual(["Diwali", "Trade Fair"]);
    expect((await refusal(removeCustomerTag(owner, c.id, "new"))).status).toBe(404);
  });

  it("tag a segment's whole audience, untag a selection, rename onto another tag to merge, and delete", async () => {
    const tenant = (await createTestUser("Tag bulk")).id;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await createCustomer(tenant, customer({ visits: i, tags: i === 0 ? ["Old"] : [] }))).id);
    }
    const segment = await createSegment(tenant, {
      name: "Two visits or more",
      description: "",
      tree: { kind: "condition", field: "visits", op: "$gte", value: 2 },
    });
    expect(await tagInBulk(tenant, "Regular", { segmentId: segment.id })).toEqual({ tag: "Regular", tagged: 3 });
    // Again: nobody is tagged twice.
    expect(await tagInBulk(tenant, "regular", { segmentId: segment.id })).toEqual({ tag: "Regular", tagged: 0 });
    expect(await untagInBulk(tenant, "Regular", [ids[4]])).toEqual({ untagged: 1 });
    expect(await renameTag(tenant, "old", "REGULAR")).toEqual({ name: "Regular", customers: 3 });
    expect(await listTags(tenant)).toEqual([{ name: "Regular", customers: 3 }]);
    expect(await deleteTag(tenant, "regular")).toEqual({ untagged: 3 });
    expect(await listTags(tenant)).toEqual([]);
    expect((await getCustomer(tenant, ids[2])).tags).toEqual([]);
  });

  it("another tenant's customers, segments and tags are out of reach", async () => {
    const mine = await createCustomer(owner, customer({ tags: ["Private"] }));
    expect((await refusal(addCustomerTags(other, mine.id, ["Theirs"]))).status).toBe(404);
    expect(await tagInBulk(other, "Theirs", { customerIds: [mine.id] })).toEqual({ tag: "Theirs", tagged: 0 });
    expect((await refusal(renameTag(other, "private", "Mine"))).status).toBe(404);
    expect((await refusal(deleteTag(other, "private"))).status).toBe(404);
    expect((await listTags(other)).map((t) => t.name)).toEqual(["Theirs"]);
    expect((await getCustomer(owner, mine.id)).tags).toEqual(["Private"]);
  });
});

describe("the seed", () => {
  it("defines the fields it is asked for, fills them and the built-in ones by their types, and spreads tags", async () => {
    const tenant = (await createTestUser("Seeded fields")).id;
    const { seedTenant } = await import("~/services/seed.server");
    await seedTenant(tenant, { customers: 200, orders: 0, fields: 4, tags: 5, seed: 5 });
    const fields = await fieldDefinitions(tenant);
    expect(fields.filter((f) => !f.builtIn).map((f) => f.name)).toEqual([
      "tier",
      "points",
      "member_since",
      "newsletter",
    ]);
    // Every customer has a city and country; values read back typed.
    expect(await fieldValueCount(tenant, "city")).toBe(200);
    expect(await fieldValueCount(tenant, "country")).toBe(200);
    const points = await fieldValueCount(tenant, "points");
    expect(points).toBeGreaterThan(100);
    expect(points).toBeLessThan(200);
    const tags = await listTags(tenant);
    expect(tags.map((t) => t.name).sort()).toEqual(
      ["Diwali 2025", "Trade fair Mumbai", "VIP", "Wholesale", "Newsletter signup"].sort(),
    );
    const vip = tags.find((t) => t.name === "VIP")?.customers ?? 0;
    const last = tags.find((t) => t.name === "Newsletter signup")?.customers ?? 0;
    expect(vip).toBeGreaterThan(last);
  });
});
