import { describe, expect, it } from "vitest";
import {
  type BuilderRows,
  MESSAGES,
  builderRows,
  builderOperators,
  builderToTree,
  newBuilder,
  newGroupRow,
  rowsToConditions,
  treeToBuilder,
  validateConditions,
} from "~/lib/segments-builder";
import { parseConditions, toConditions } from "~/lib/segments";

const condition = (field: string, op: string, value: string) => ({ kind: "condition" as const, field, op, value });

describe("the segment builder's rows", () => {
  it("start with one condition: totalSpend, greater than, empty value", () => {
    expect(builderRows(newBuilder())).toEqual({ logic: "AND", children: [condition("totalSpend", "$gt", "")] });
  });

  it("give the builder's messages", () => {
    const one = (value: string, field = "totalSpend"): BuilderRows => ({
      logic: "AND",
      children: [condition(field, "$gt", value)],
    });
    expect(validateConditions(one(""))).toBe("All condition values are required");
    expect(validateConditions(one("  "))).toBe(MESSAGES.valuesRequired);
    expect(validateConditions(one("12abc"))).toBe("Invalid numeric value");
    expect(validateConditions(one("2025-02-30", "lastActiveDate"))).toBe("Invalid date value");
    expect(validateConditions({ logic: "AND", children: [] })).toBe("At least one condition is required");
    expect(
      validateConditions({
        logic: "AND",
        children: [condition("visits", "$gt", "1"), { kind: "group", logic: "OR", children: [] }],
      }),
    ).toBe(MESSAGES.oneCondition);
    expect(validateConditions(one("12.5"))).toBeUndefined();
    // A field outside the whitelist is the conditions schema's to refuse, with the API's message.
    expect(validateConditions(one("1", "zzz"))).toBeUndefined();
  });

  it("become the API's mapping, nested groups with their own logic, a single row alone", () => {
    const rows: BuilderRows = {
      logic: "AND",
      children: [
        condition("totalSpend", "$gt", " 1000 "),
        {
          kind: "group",
          logic: "OR",
          children: [condition("visits", "$gt", "3"), condition("lastActiveDate", "$gte", "2025-01-01")],
        },
      ],
    };
    expect(rowsToConditions(rows)).toEqual({
      $and: [
        { totalSpend: { $gt: "1000" } },
        { $or: [{ visits: { $gt: "3" } }, { lastActiveDate: { $gte: "2025-01-01" } }] },
      ],
    });
    const parsed = parseConditions(rowsToConditions(rows));
    expect(parsed.ok && toConditions(parsed.tree)).toEqual({
      $and: [
        { totalSpend: { $gt: 1000 } },
        { $or: [{ visits: { $gt: 3 } }, { lastActiveDate: { $gte: "2025-01-01" } }] },
      ],
    });
    expect(rowsToConditions({ logic: "OR", children: [condition("visits", "$lte", "2")] })).toEqual({
      visits: { $lte: "2" },
    });
  });

  it("keep what was posted, so an unknown field or operator reaches the schema as it was sent", () => {
    const mapping = rowsToConditions({
      logic: "AND",
      children: [condition("zzz", "$where", "1"), condition("__proto__", "$gt", "1")],
    });
    expect(mapping).toEqual({ $and: [{ zzz: { $where: "1" } }, { ["__proto__"]: { $gt: "1" } }] });
    expect(parseConditions(mapping)).toMatchObject({
      ok: false,
      message: expect.stringContaining('unknown field "zzz"'),
    });
  });

  it("show a saved tree and read back the same tree", () => {
    const tree = builderToTree(
      treeToBuilder({
        kind: "group",
        logic: "OR",
        children: [
          { kind: "condition", field: "totalSpend", op: "$gt", value: 5 },
          { kind: "group", logic: "AND", children: [{ kind: "condition", field: "visits", op: "$lte", value: 2 }] },
        ],
      }),
    );
    const rows = builderRows(treeToBuilder(tree));
    expect(rows).toEqual({
      logic: "OR",
      children: [
        condition("totalSpend", "$gt", "5"),
        { kind: "group", logic: "AND", children: [condition("visits", "$lte", "2")] },
      ],
    });
    const parsed = parseConditions(rowsToConditions(rows));
    expect(parsed.ok && toConditions(parsed.tree)).toEqual(toConditions(tree));
  });

  it("add a group with the other logic and one empty condition", () => {
    expect(newGroupRow("AND")).toEqual({ kind: "group", logic: "OR", children: [condition("totalSpend", "$gt", "")] });
    expect(newGroupRow("OR").logic).toBe("AND");
  });

  it("offer rolling dates for a date, sent as { $daysAgo: N } and opened again as days", () => {
    expect(builderOperators("lastActiveDate").map((o) => o.label)).toEqual([
      "after",
      "before",
      "on or after",
      "on or before",
      "in the last N days",
      "more than N days ago",
    ]);
    // An operator the builder does not offer is listed on the row that holds it.
    expect(builderOperators("lastActiveDate", "$lte:daysAgo").map((o) => o.value)).toContain("$lte:daysAgo");
    expect(builderOperators("visits").map((o) => o.value)).toEqual(["$gt", "$gte", "$lt", "$lte", "$eq"]);

    const rows: BuilderRows = {
      logic: "OR",
      children: [condition("lastActiveDate", "$gte:daysAgo", " 30 "), condition("lastActiveDate", "$lt:daysAgo", "90")],
    };
    // A number of days is no date, but the builder leaves judging it to the conditions schema.
    expect(validateConditions(rows)).toBeUndefined();
    expect(rowsToConditions(rows)).toEqual({
      $or: [{ lastActiveDate: { $gte: { $daysAgo: "30" } } }, { lastActiveDate: { $lt: { $daysAgo: "90" } } }],
    });
    const parsed = parseConditions(rowsToConditions(rows));
    if (!parsed.ok) throw new Error(parsed.message);
    expect(builderRows(treeToBuilder(parsed.tree))).toEqual(
      rows.children && { ...rows, children: [condition("lastActiveDate", "$gte:daysAgo", "30"), rows.children[1]] },
    );
    const bad = parseConditions(
      rowsToConditions({ logic: "AND", children: [condition("lastActiveDate", "$gte:daysAgo", "-2")] }),
    );
    expect(!bad.ok && bad.message).toBe(
      "conditions.lastActiveDate.$gte.$daysAgo: the number of days must be a whole number from 0 to 36,500",
    );
    // A rolling operator on a number field is refused as the API refuses it.
    const misplaced = parseConditions(
      rowsToConditions({ logic: "AND", children: [condition("visits", "$gt:daysAgo", "3")] }),
    );
    expect(!misplaced.ok && misplaced.message).toBe("conditions.visits.$gt: Invalid numeric value");
  });
});
