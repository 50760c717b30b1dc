import { describe, expect, it } from "vitest";
import {
  MESSAGES,
  addCondition,
  addGroup,
  builderFormEntries,
  builderFromForm,
  builderToTree,
  newBuilder,
  removeNode,
  setLogic,
  treeToBuilder,
  updateCondition,
  validateBuilder,
} from "~/lib/segments-builder";
import { toConditions } from "~/lib/segments";

const strip = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (k, v: unknown) => (k === "id" ? undefined : v)));

describe("the segment form (spec §4, §5)", () => {
  it("starts with one condition: totalSpend, greater than, empty value", () => {
    expect(strip(newBuilder())).toEqual({ kind: "group", logic: "AND", children: [{ kind: "condition", field: "totalSpend", op: "$gt", value: "" }] });
  });

  it("resets the operator when the field changes", () => {
    let b = updateCondition(newBuilder(), [0], { op: "$eq", value: "12" });
    b = updateCondition(b, [0], { field: "lastActiveDate" });
    expect(strip(b.children[0])).toEqual({ kind: "condition", field: "lastActiveDate", op: "$gt", value: "" });
    b = updateCondition(b, [0], { op: "$lte", value: "2025-01-01" });
    b = updateCondition(b, [0], { field: "visits" });
    expect(strip(b.children[0])).toEqual({ kind: "condition", field: "visits", op: "$gt", value: "" });
  });

  it("gives every validation message of spec §5", () => {
    expect(validateBuilder("", newBuilder())).toEqual({ name: MESSAGES.nameRequired, conditions: MESSAGES.valuesRequired });
    expect(validateBuilder("x", updateCondition(newBuilder(), [0], { value: "12abc" }))).toEqual({ conditions: "Invalid numeric value" });
    expect(validateBuilder("x", removeNode(newBuilder(), [0]))).toEqual({ conditions: "At least one condition is required" });
    expect(validateBuilder("x", updateCondition(newBuilder(), [0], { value: "12.5" }))).toEqual({});
    expect(MESSAGES).toMatchObject({
      nameRequired: "Segment name is required",
      valuesRequired: "All condition values are required",
      oneCondition: "At least one condition is required",
    });
  });

  it("builds nested groups with their own AND/OR", () => {
    let b = updateCondition(newBuilder(), [0], { value: "1000" });
    b = addGroup(b);
    b = updateCondition(b, [1, 0], { field: "visits", value: "3" });
    b = addCondition(b, [1]);
    b = updateCondition(b, [1, 1], { field: "lastActiveDate", op: "$gte", value: "2025-01-01" });
    b = setLogic(b, [1], "OR");
    expect(validateBuilder("Regulars", b)).toEqual({});
    expect(toConditions(builderToTree(b))).toEqual({
      $and: [{ totalSpend: { $gt: 1000 } }, { $or: [{ visits: { $gt: 3 } }, { lastActiveDate: { $gte: "2025-01-01" } }] }],
    });
    expect(validateBuilder("x", removeNode(removeNode(b, [1, 0]), [1, 0]))).toEqual({ conditions: MESSAGES.oneCondition });
  });

  it("posts as plain form fields and reads back the same builder", () => {
    let b = updateCondition(newBuilder(), [0], { value: "5" });
    b = addGroup(b);
    b = updateCondition(b, [1, 0], { field: "visits", op: "$lte", value: "2" });
    b = addGroup(b, [1]);
    b = updateCondition(b, [1, 1, 0], { value: "7" });
    b = setLogic(b, [], "OR");
    const back = builderFromForm(builderFormEntries(b));
    expect(strip(back)).toEqual(strip(b));
    expect(strip(treeToBuilder(builderToTree(b)))).toEqual(strip(b));
  });

  it("keeps a valid operator when a field changed without JavaScript", () => {
    const back = builderFromForm([
      ["n.0.kind", "condition"],
      ["n.0.field", "lastActiveDate"],
      ["n.0.op", "$eq"],
      ["n.0.value", "2025-01-01"],
      ["n.1.field", "bogus"],
      ["n.1.op", "$nope"],
      ["n.9.9.field", "visits"],
    ]);
    expect(strip(back.children)).toEqual([
      { kind: "condition", field: "lastActiveDate", op: "$gt", value: "2025-01-01" },
      { kind: "condition", field: "totalSpend", op: "$gt", value: "" },
    ]);
  });
});
