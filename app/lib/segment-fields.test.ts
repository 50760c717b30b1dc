// The field conditions of a segment against the tenant's fields: unknown fields, operators the
// type does not take, values made the type's, and what a stored segment says about deleted fields.
import { describe, expect, it } from "vitest";
import { BUILT_IN_FIELDS, type FieldDefinition } from "~/lib/custom-fields";
import { checkTreeFields, segmentFieldWarnings } from "~/lib/segment-fields";
import { toConditions } from "~/lib/segments";
import { parsedTree } from "../../tests/helpers/segment-trees";

const field = (name: string, type: FieldDefinition["type"], choices: string[] = [], retired = false) => ({
  name,
  label: name.charAt(0).toUpperCase() + name.slice(1),
  type,
  choices,
  defaultValue: null,
  builtIn: false,
  retired,
});
const catalog = new Map<string, FieldDefinition>(
  [
    ...BUILT_IN_FIELDS,
    field("tier", "choice", ["Gold", "Silver"]),
    field("score", "number"),
    field("vip", "boolean"),
    field("old", "text", [], true),
  ].map((f) => [f.name, f]),
);

const tree = parsedTree;
const check = (conditions: unknown) => checkTreeFields(tree(conditions), catalog);
const problem = (conditions: unknown) => {
  const r = check(conditions);
  if (r.ok) throw new Error("expected a refusal");
  return r.message;
};
const checked = (conditions: unknown) => {
  const r = check(conditions);
  if (!r.ok) throw new Error(r.message);
  return toConditions(r.tree);
};

describe("a segment's field conditions against the tenant's fields", () => {
  it("refuses an unknown field and an operator its type does not take, naming the path", () => {
    expect(problem({ "field:tierx": { $eq: "gold" } })).toBe('conditions.field:tierx: unknown field "tierx"');
    expect(problem({ "field:tier": { $gt: 5 } })).toBe(
      'conditions.field:tier.$gt: operator "$gt" does not apply to a choice field',
    );
    expect(problem({ $and: [{ visits: { $gt: 1 } }, { "field:vip": { $ne: true } }] })).toBe(
      'conditions.$and[1].field:vip.$ne: operator "$ne" does not apply to a yes/no field',
    );
    expect(problem({ "field:city": { $in: ["Pune"] } })).toBe(
      'conditions.field:city.$in: operator "$in" does not apply to a text field',
    );
    expect(problem({ "field:birthday": { $eq: "2000-01-01" } })).toBe(
      'conditions.field:birthday.$eq: operator "$eq" does not apply to a date field',
    );
    expect(problem({ "field:score": { $anniversaryWithinDays: 3 } })).toBe(
      'conditions.field:score.$anniversaryWithinDays: operator "$anniversaryWithinDays" does not apply to a number field',
    );
  });

  it("refuses a value the type cannot hold, and a choice the field does not have", () => {
    expect(problem({ "field:score": { $eq: "many" } })).toBe("conditions.field:score.$eq: Score takes a number");
    expect(problem({ "field:score": { $gt: "2026-01-01" } })).toBe("conditions.field:score.$gt: Score takes a number");
    expect(problem({ "field:birthday": { $gt: 5 } })).toMatch(
      /^conditions\.field:birthday\.\$gt: Birthday takes a date/,
    );
    expect(problem({ "field:vip": { $eq: "maybe" } })).toBe("conditions.field:vip.$eq: Vip takes true or false");
    expect(problem({ "field:city": { $eq: true } })).toBe("conditions.field:city.$eq: City takes a text");
    expect(problem({ "field:tier": { $in: ["gold", "platinum"] } })).toBe(
      'conditions.field:tier.$in: "platinum" is not one of the choices of Tier (Gold, Silver)',
    );
  });

  it("makes each value its field's: numbers, yes/no, choices as the field spells them", () => {
    expect(
      checked({
        $and: [
          { "field:score": { $eq: "7", $ne: "2.5" } },
          { "field:vip": { $eq: "yes" } },
          { "field:tier": { $in: ["GOLD", "gold", "silver"] } },
          { "field:tier": { $ne: "silver" } },
          { "field:city": { $eq: 411001 } },
          { "field:old": { $exists: true } },
          { tags: { $in: ["vip"] } },
        ],
      }),
    ).toEqual({
      $and: [
        { $and: [{ "field:score": { $eq: 7 } }, { "field:score": { $ne: 2.5 } }] },
        { "field:vip": { $eq: true } },
        { "field:tier": { $in: ["Gold", "Silver"] } },
        { "field:tier": { $ne: "Silver" } },
        { "field:city": { $eq: "411001" } },
        { "field:old": { $exists: true } },
        { tags: { $in: ["vip"] } },
      ],
    });
    // A tree without field conditions comes back as it was.
    const plain = tree({ visits: { $gt: 1 } });
    expect(checkTreeFields(plain, catalog)).toEqual({ ok: true, tree: plain });
  });

  it("says which fields a stored segment uses that were deleted, or no longer fit", () => {
    const warnings = (conditions: unknown) => segmentFieldWarnings(tree(conditions), catalog);
    expect(warnings({ "field:city": { $eq: "Pune" } })).toEqual([]);
    expect(warnings({ $or: [{ "field:gone": { $eq: "x" } }, { "field:city": { $eq: "Pune" } }] })).toEqual([
      "Uses a deleted field: gone",
    ]);
    expect(
      warnings({
        $and: [{ "field:gone": { $eq: "x" } }, { "field:lost": { $exists: true } }, { "field:tier": { $gt: 1 } }],
      }),
    ).toEqual(["Uses deleted fields: gone, lost", "A condition no longer fits its field: Tier"]);
  });
});
