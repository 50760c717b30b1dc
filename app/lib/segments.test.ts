import { describe, expect, it } from "vitest";
import {
  DATE_OPERATORS,
  NUMBER_OPERATORS,
  SEGMENT_CHIP_CLASSES,
  describeTree,
  describeCondition,
  firstOperator,
  hasRelativeDates,
  istDateDaysAgo,
  parseConditions,
  resolveRelativeDates,
  toComparison,
  previewNote,
  segmentChipClass,
  toConditions,
  topLogic,
} from "~/lib/segments";

const bad = (input: unknown) => {
  const r = parseConditions(input);
  if (r.ok) throw new Error("expected a refusal");
  return r;
};

describe("fields and operators", () => {
  it("offers the number and date operators with their labels, and resets to the first of a type", () => {
    expect(NUMBER_OPERATORS.map((o) => o.value)).toEqual(["$gt", "$gte", "$lt", "$lte", "$eq"]);
    expect(DATE_OPERATORS.map((o) => [o.label, o.value])).toEqual([
      ["after", "$gt"],
      ["before", "$lt"],
      ["on or after", "$gte"],
      ["on or before", "$lte"],
    ]);
    expect(firstOperator("totalSpend")).toBe("$gt");
    expect(firstOperator("lastActiveDate")).toBe("$gt");
  });
});

describe("parseConditions", () => {
  it("reads one condition alone, and several under $and / $or, nested", () => {
    expect(parseConditions({ totalSpend: { $gt: 1000 } })).toEqual({
      ok: true,
      tree: { kind: "condition", field: "totalSpend", op: "$gt", value: 1000 },
    });
    const r = parseConditions({
      $or: [
        { visits: { $gte: "3" } },
        { $and: [{ lastActiveDate: { $lt: "2025-01-31" } }, { totalSpend: { $eq: 5 } }] },
      ],
    });
    expect(r.ok && r.tree).toEqual({
      kind: "group",
      logic: "OR",
      children: [
        { kind: "condition", field: "visits", op: "$gte", value: 3 },
        {
          kind: "group",
          logic: "AND",
          children: [
            { kind: "condition", field: "lastActiveDate", op: "$lt", value: "2025-01-31" },
            { kind: "condition", field: "totalSpend", op: "$eq", value: 5 },
          ],
        },
      ],
    });
  });

  it("reads several fields or operators in one mapping as AND", () => {
    const r = parseConditions({ totalSpend: { $gt: 1, $lt: 9 }, visits: { $eq: 2 } });
    expect(r.ok && r.tree.kind === "group" && r.tree.logic).toBe("AND");
    expect(r.ok && r.tree.kind === "group" && r.tree.children).toHaveLength(3);
  });

  it("names the bad part of a bad tree", () => {
    expect(bad({ age: { $gt: 3 } }).message).toMatch(/conditions\.age: unknown field "age"/);
    expect(bad({ visits: { $ne: 3 } }).message).toMatch(/conditions\.visits\.\$ne: unknown operator "\$ne"/);
    expect(bad({ lastActiveDate: { $eq: "2025-01-01" } }).path).toBe("conditions.lastActiveDate.$eq");
    expect(bad({ $and: [{ visits: { $gt: 1 } }, { visits: { $gt: "many" } }] }).message).toBe(
      "conditions.$and[1].visits.$gt: Invalid numeric value",
    );
    expect(bad({ lastActiveDate: { $gt: "2025-02-30" } }).message).toMatch(/Invalid date value/);
    expect(bad({ lastActiveDate: { $gt: "yesterday" } }).path).toBe("conditions.lastActiveDate.$gt");
    expect(bad({ $or: [] }).message).toMatch(/conditions\.\$or must be a non-empty list/);
    expect(bad({ $and: "x" }).path).toBe("conditions.$and");
    expect(bad({}).message).toMatch(/at least one condition is required/);
    expect(bad([1]).message).toMatch(/must be an object/);
    expect(bad("totalSpend > 5").message).toMatch(/must be an object/);
    expect(bad({ visits: 3 }).message).toMatch(/must map an operator to a value/);
    expect(bad({ visits: { $gt: Infinity } }).message).toMatch(/Invalid numeric value/);
    expect(bad({ totalSpend: { $gt: 1e13 } }).message).toMatch(/between/);
    expect(bad({ visits: { $gt: null } }).message).toMatch(/Invalid numeric value/);
  });

  it("refuses trees nested too deep or with too many conditions", () => {
    let deep: Record<string, unknown> = { visits: { $gt: 1 } };
    for (let i = 0; i < 7; i++) deep = { $and: [deep] };
    expect(bad(deep).message).toMatch(/nested at most 5 deep/);
    expect(bad({ $or: Array.from({ length: 51 }, () => ({ visits: { $gt: 1 } })) }).message).toMatch(
      /at most 50 conditions/,
    );
  });

  it("round-trips through the mapping, a single condition alone", () => {
    const input = {
      $and: [
        { totalSpend: { $gt: 1000 } },
        { $or: [{ visits: { $gte: 3 } }, { lastActiveDate: { $gte: "2025-01-01" } }] },
      ],
    };
    const r = parseConditions(input);
    expect(r.ok && toConditions(r.tree)).toEqual(input);
    expect(
      toConditions({
        kind: "group",
        logic: "OR",
        children: [{ kind: "condition", field: "visits", op: "$gt", value: 1 }],
      }),
    ).toEqual({
      visits: { $gt: 1 },
    });
    expect(r.ok && topLogic(r.tree)).toBe("AND");
    expect(r.ok && describeTree(r.tree)).toBe(
      "Total spend greater than ₹1,000 AND (Visits greater than or equal to 3 OR Last active on or after 2025-01-01)",
    );
  });
});

describe("rolling dates ($daysAgo)", () => {
  // 15 June 2025, 11:30 IST; and 00:30 IST on 16 June, still 15 June in UTC.
  const NOW = Date.parse("2025-06-15T06:00:00Z");
  const LATE = Date.parse("2025-06-15T19:00:00Z");

  it("is accepted wherever a date is, with N a whole number of days (digits too), and round-trips", () => {
    const input = {
      $or: [{ lastActiveDate: { $gte: { $daysAgo: 30 } } }, { lastActiveDate: { $lt: { $daysAgo: "90" } } }],
    };
    const r = parseConditions(input);
    expect(r.ok && toConditions(r.tree)).toEqual({
      $or: [{ lastActiveDate: { $gte: { $daysAgo: 30 } } }, { lastActiveDate: { $lt: { $daysAgo: 90 } } }],
    });
    for (const op of ["$gt", "$gte", "$lt", "$lte"]) {
      expect(parseConditions({ lastActiveDate: { [op]: { $daysAgo: 0 } } }).ok).toBe(true);
    }
    expect(parseConditions({ lastActiveDate: { $gte: { $daysAgo: 36500 } } }).ok).toBe(true);
  });

  it("refuses a negative, fractional, huge or non-numeric N, and anything beside $daysAgo, naming it", () => {
    const message =
      "conditions.lastActiveDate.$gte.$daysAgo: the number of days must be a whole number from 0 to 36,500";
    for (const n of [-1, 1.5, 36501, 1e9, "ten", "", null, true, [3], { n: 3 }]) {
      const refused = bad({ lastActiveDate: { $gte: { $daysAgo: n } } });
      expect(refused.message).toBe(message);
      expect(refused.path).toBe("conditions.lastActiveDate.$gte.$daysAgo");
    }
    expect(bad({ lastActiveDate: { $gte: { $daysAgo: 3, $hoursAgo: 1 } } }).message).toBe(
      'conditions.lastActiveDate.$gte: a rolling date is { "$daysAgo": N } and nothing else',
    );
    expect(bad({ lastActiveDate: { $gte: { $weeksAgo: 3 } } }).message).toMatch(/Invalid date value/);
    expect(bad({ visits: { $gt: { $daysAgo: 3 } } }).message).toBe("conditions.visits.$gt: Invalid numeric value");
  });

  it("is the calendar day in IST N days before now, compared as that day", () => {
    expect(istDateDaysAgo(0, NOW)).toBe("2025-06-15");
    expect(istDateDaysAgo(30, NOW)).toBe("2025-05-16");
    expect(istDateDaysAgo(0, LATE)).toBe("2025-06-16");
    const c = (op: "$gt" | "$gte" | "$lt" | "$lte") =>
      toComparison({ kind: "condition", field: "lastActiveDate", op, value: { $daysAgo: 30 } }, NOW);
    const may16 = Date.parse("2025-05-15T18:30:00Z"); // IST midnight starting 16 May
    expect(c("$gte")).toEqual({ column: "lastActive", op: "$gte", value: may16 });
    expect(c("$lt")).toEqual({ column: "lastActive", op: "$lt", value: may16 });
    expect(c("$gt")).toEqual({ column: "lastActive", op: "$gte", value: may16 + 86_400_000 });
    expect(c("$lte")).toEqual({ column: "lastActive", op: "$lt", value: may16 + 86_400_000 });
  });

  it("resolves a tree at a moment, leaving other values and a tree without rolling dates as they are", () => {
    const r = parseConditions({ $and: [{ visits: { $gt: 2 } }, { lastActiveDate: { $gte: { $daysAgo: 7 } } }] });
    if (!r.ok) throw new Error(r.message);
    expect(hasRelativeDates(r.tree)).toBe(true);
    const resolved = resolveRelativeDates(r.tree, NOW);
    expect(toConditions(resolved)).toEqual({
      $and: [{ visits: { $gt: 2 } }, { lastActiveDate: { $gte: "2025-06-08" } }],
    });
    expect(hasRelativeDates(resolved)).toBe(false);
    expect(resolveRelativeDates(resolved, NOW)).toBe(resolved);
  });

  it("reads as words", () => {
    const d = (op: "$gt" | "$gte" | "$lt" | "$lte", n: number) =>
      describeCondition({ kind: "condition", field: "lastActiveDate", op, value: { $daysAgo: n } });
    expect(d("$gte", 30)).toBe("Last active in the last 30 days");
    expect(d("$lt", 90)).toBe("Last active more than 90 days ago");
    expect(d("$gt", 1)).toBe("Last active less than 1 day ago");
    expect(d("$lte", 1000)).toBe("Last active 1,000 days or more ago");
    expect(d("$gte", 0)).toBe("Last active today");
    expect(d("$lt", 0)).toBe("Last active before today");
  });
});

describe("presentation", () => {
  it("derives the chip colour from the name", () => {
    expect(segmentChipClass("High spenders")).toBe(segmentChipClass("High spenders"));
    expect(SEGMENT_CHIP_CLASSES).toContain(segmentChipClass("Anything"));
    const colours = new Set(["A", "B", "C", "D", "E", "F", "G", "H"].map(segmentChipClass));
    expect(colours.size).toBeGreaterThan(3);
  });

  it("notes 'Showing all N' only above 10 customers", () => {
    expect(previewNote(10)).toBeNull();
    expect(previewNote(11)).toBe("Showing all 11");
    expect(previewNote(123456)).toBe("Showing all 1,23,456");
  });
});
