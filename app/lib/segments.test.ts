import { describe, expect, it } from "vitest";
import {
  DATE_OPERATORS,
  NUMBER_OPERATORS,
  countConditions,
  fieldNamesOf,
  usesCustomerValues,
  firstOperator,
  toConditions,
  topLogic,
} from "~/lib/segments";
import { parseConditions } from "~/lib/segment-parse";
import {
  anniversaryRanges,
  hasRelativeDates,
  istDateDaysAgo,
  resolveRelativeDates,
  toComparison,
} from "~/lib/segment-dates";
import {
  SEGMENT_CHIP_CLASSES,
  describeTree,
  fieldLabel,
  describeCondition,
  previewNote,
  segmentChipClass,
} from "~/lib/segment-descriptions";

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

describe("conditions on the customer's fields and tags", () => {
  // 26 November 2026, 11:30 IST.
  const NOW = Date.UTC(2026, 10, 26, 6, 0);

  it("reads `field:<name>` with every operator, each value in its operator's shape", () => {
    const r = parseConditions({
      $and: [
        { "field:city": { $eq: " Pune " } },
        { "field:tier": { $in: ["gold", "Silver", "GOLD"] } },
        { "field:score": { $gt: "2.5", $ne: 7 } },
        { "field:vip": { $eq: true } },
        { "field:renewal": { $lte: { $daysAhead: 30 }, $gte: "2026-01-01" } },
        { "field:birthday": { $anniversaryWithinDays: "7" } },
        { "field:notes_x": { $exists: "false" } },
        { tags: { $all: ["VIP", " trade  fair ", "vip"] } },
      ],
    });
    if (!r.ok) throw new Error(r.message);
    expect(r.tree.kind === "group" && r.tree.children).toEqual([
      { kind: "field", name: "city", op: "$eq", value: "Pune" },
      { kind: "field", name: "tier", op: "$in", value: ["gold", "Silver"] },
      {
        kind: "group",
        logic: "AND",
        children: [
          { kind: "field", name: "score", op: "$gt", value: 2.5 },
          { kind: "field", name: "score", op: "$ne", value: 7 },
        ],
      },
      { kind: "field", name: "vip", op: "$eq", value: true },
      {
        kind: "group",
        logic: "AND",
        children: [
          { kind: "field", name: "renewal", op: "$lte", value: { $daysAhead: 30 } },
          { kind: "field", name: "renewal", op: "$gte", value: "2026-01-01" },
        ],
      },
      { kind: "field", name: "birthday", op: "$anniversaryWithinDays", value: 7 },
      { kind: "field", name: "notes_x", op: "$exists", value: false },
      { kind: "tags", op: "$all", value: ["VIP", "trade fair"] },
    ]);
    expect(countConditions(r.tree)).toBe(10);
    expect(usesCustomerValues(r.tree)).toBe(true);
    expect(usesCustomerValues(tree({ visits: { $gt: 1 } }))).toBe(false);
    expect(fieldNamesOf(r.tree)).toEqual(["city", "tier", "score", "vip", "renewal", "birthday", "notes_x"]);
  });

  it("round-trips through the mapping", () => {
    const input = {
      $or: [
        { "field:city": { $startsWith: "pu" } },
        { tags: { $nin: ["vip"] } },
        { $and: [{ "field:birthday": { $anniversaryWithinDays: 7 } }, { totalSpend: { $gt: 1000 } }] },
      ],
    };
    const r = parseConditions(input);
    expect(r.ok && toConditions(r.tree)).toEqual(input);
    expect(r.ok && topLogic(r.tree)).toBe("OR");
  });

  it("names the bad part: the key, the operator, the value", () => {
    expect(bad({ "field:Tier": { $eq: "x" } }).message).toBe(
      'conditions.field:Tier: "Tier" is not a field name (lowercase letters, digits and _, starting with a letter, at most 40)',
    );
    expect(bad({ "field:tier": "gold" }).message).toMatch(/^conditions\.field:tier must map an operator to a value/);
    expect(bad({ "field:tier": { $regex: "g" } }).message).toMatch(
      /^conditions\.field:tier\.\$regex: unknown operator "\$regex" for a field \(allowed: \$eq, \$ne, /,
    );
    expect(bad({ "field:city": { $eq: "" } }).message).toBe("conditions.field:city.$eq: must not be empty");
    expect(bad({ "field:city": { $contains: 3 } }).message).toBe("conditions.field:city.$contains: must be a text");
    expect(bad({ "field:city": { $eq: "a\nb" } }).message).toBe("conditions.field:city.$eq: must be one line");
    expect(bad({ "field:city": { $eq: "x".repeat(501) } }).message).toMatch(/at most 500 characters/);
    expect(bad({ "field:city": { $exists: "yes" } }).message).toBe(
      "conditions.field:city.$exists: must be true (has a value) or false (is empty)",
    );
    expect(bad({ "field:tier": { $in: [] } }).message).toBe(
      "conditions.field:tier.$in: must be a non-empty list of texts",
    );
    expect(bad({ "field:tier": { $in: ["gold", ""] } }).path).toBe("conditions.field:tier.$in[1]");
    expect(bad({ "field:score": { $gt: "lots" } }).message).toBe(
      'conditions.field:score.$gt: must be a number, a date like 2024-05-31, { "$daysAgo": N } or { "$daysAhead": N }',
    );
    expect(bad({ "field:score": { $gt: 1e16 } }).path).toBe("conditions.field:score.$gt");
    expect(bad({ "field:renewal": { $gt: "2026-02-30" } }).path).toBe("conditions.field:renewal.$gt");
    expect(bad({ "field:renewal": { $gt: { $daysAhead: -1 } } }).message).toBe(
      "conditions.field:renewal.$gt.$daysAhead: the number of days must be a whole number from 0 to 36,500",
    );
    expect(bad({ "field:renewal": { $gt: { $weeksAgo: 1 } } }).message).toMatch(/a rolling day is/);
    for (const n of [-1, 367, 1.5, "soon"]) {
      expect(bad({ "field:birthday": { $anniversaryWithinDays: n } }).message).toBe(
        "conditions.field:birthday.$anniversaryWithinDays: the number of days must be a whole number from 0 to 366",
      );
    }
    expect(bad({ tags: { $has: ["vip"] } }).message).toBe(
      'conditions.tags.$has: unknown operator "$has" for tags (allowed: $in, $all, $nin)',
    );
    expect(bad({ tags: { $in: "vip" } }).message).toBe("conditions.tags.$in: must be a non-empty list of tags");
    expect(bad({ tags: { $in: ["ok", "a;b"] } }).message).toBe('conditions.tags.$in[1]: A tag must not contain ";"');
    expect(bad({ age: { $gt: 3 } }).message).toBe(
      'conditions.age: unknown field "age" (allowed: totalSpend, visits, lastActiveDate, orderCount, firstOrderDate, lastOrderDate, averageOrderValue, spendWithinDays, boughtProduct, lastOpenDate, lastClickDate, messagesReceived, consent, suppressed, field:<name>, tags, inSegment)',
    );
    expect(bad({ $or: Array.from({ length: 51 }, () => ({ tags: { $in: ["x"] } })) }).message).toMatch(
      /at most 50 conditions/,
    );
  });

  it("reads membership of another segment, writes it back, and refuses what is not a segment id", () => {
    const id = "6b0b2d0fe51d04438d3de1a0";
    const t = tree({ $and: [{ inSegment: { $eq: id } }, { inSegment: { $ne: id } }] });
    expect(t).toEqual({
      kind: "group",
      logic: "AND",
      children: [
        { kind: "segment", op: "$eq", segmentId: id },
        { kind: "segment", op: "$ne", segmentId: id },
      ],
    });
    expect(toConditions(t)).toEqual({ $and: [{ inSegment: { $eq: id } }, { inSegment: { $ne: id } }] });
    expect(describeTree(t, undefined, { [id]: "VIP" })).toBe('In segment "VIP" AND Not in segment "VIP"');
    expect(describeTree(tree({ inSegment: { $eq: id } }))).toBe("In a deleted segment");
    expect(bad({ inSegment: { $eq: "VIP" } }).message).toBe("conditions.inSegment.$eq: the value must be a segment id");
    expect(bad({ inSegment: { $in: [id] } }).message).toBe(
      'conditions.inSegment.$in: unknown operator "$in" for inSegment (allowed: $eq, $ne)',
    );
    expect(bad({ inSegment: id }).message).toBe(
      'conditions.inSegment must map an operator to a segment id, like { "$eq": "<id>" }',
    );
  });

  it("resolves rolling days and anniversaries at a moment, as the IST calendar says", () => {
    const t = tree({
      $and: [
        { "field:renewal": { $lte: { $daysAhead: 30 } } },
        { "field:renewal": { $gte: { $daysAgo: 7 } } },
        { "field:birthday": { $anniversaryWithinDays: 7 } },
        { tags: { $in: ["vip"] } },
      ],
    });
    expect(hasRelativeDates(t)).toBe(true);
    const resolved = resolveRelativeDates(t, NOW);
    expect(resolved.kind === "group" && resolved.children).toEqual([
      { kind: "field", name: "renewal", op: "$lte", value: "2026-12-26" },
      { kind: "field", name: "renewal", op: "$gte", value: "2026-11-19" },
      { kind: "field", name: "birthday", op: "$anniversaryWithinDays", value: 7, today: "2026-11-26" },
      { kind: "tags", op: "$in", value: ["vip"] },
    ]);
    expect(hasRelativeDates(resolved)).toBe(false);
    expect(resolveRelativeDates(resolved, NOW + 86_400_000)).toBe(resolved);
    // The stored mapping keeps the rolling form.
    expect(toConditions(t)).toEqual({
      $and: [
        { "field:renewal": { $lte: { $daysAhead: 30 } } },
        { "field:renewal": { $gte: { $daysAgo: 7 } } },
        { "field:birthday": { $anniversaryWithinDays: 7 } },
        { tags: { $in: ["vip"] } },
      ],
    });
  });

  it("turns an anniversary window into month-day ranges, over the year's end and 29 February", () => {
    expect(anniversaryRanges("2026-11-26", 0)).toEqual([[1126, 1126]]);
    expect(anniversaryRanges("2026-11-26", 7)).toEqual([[1126, 1203]]);
    expect(anniversaryRanges("2026-11-26", 35)).toEqual([[1126, 1231]]);
    expect(anniversaryRanges("2026-11-26", 36)).toEqual([
      [1126, 1231],
      [101, 101],
    ]);
    // Ending on 28 February of a year without a 29th: those born on 29 February are in.
    expect(anniversaryRanges("2026-11-26", 94)).toEqual([
      [1126, 1231],
      [101, 229],
    ]);
    expect(anniversaryRanges("2027-02-28", 0)).toEqual([[228, 229]]);
    expect(anniversaryRanges("2028-02-28", 0)).toEqual([[228, 228]]);
    expect(anniversaryRanges("2028-02-29", 0)).toEqual([[229, 229]]);
    expect(anniversaryRanges("2027-03-01", 0)).toEqual([[301, 301]]);
    expect(anniversaryRanges("2026-11-26", 364)).toEqual([
      [1126, 1231],
      [101, 1125],
    ]);
    expect(anniversaryRanges("2026-11-26", 365)).toEqual([[101, 1231]]);
    expect(anniversaryRanges("2026-11-26", 366)).toEqual([[101, 1231]]);
  });

  it("reads as words", () => {
    const words = (conditions: unknown, labels?: Record<string, string>) => describeTree(tree(conditions), labels);
    expect(words({ "field:city": { $eq: "Pune" } })).toBe("City is Pune");
    expect(words({ "field:city": { $ne: "Pune" } })).toBe("City is not Pune");
    expect(words({ "field:city": { $contains: "pu" } })).toBe("City contains pu");
    expect(words({ "field:time_zone": { $startsWith: "Asia/" } })).toBe("Time zone starts with Asia/");
    expect(words({ "field:city": { $exists: true } })).toBe("City is set");
    expect(words({ "field:city": { $exists: false } })).toBe("City is empty");
    expect(words({ "field:tier": { $in: ["gold", "silver"] } }, { tier: "Loyalty tier" })).toBe(
      "Loyalty tier is any of gold, silver",
    );
    expect(words({ "field:loyalty_tier": { $eq: "gold" } })).toBe("Loyalty tier is gold");
    expect(words({ "field:score": { $gte: 1000 } })).toBe("Score greater than or equal to 1,000");
    expect(words({ "field:score": { $ne: 5 } })).toBe("Score not equal to 5");
    expect(words({ "field:score": { $eq: 5 } })).toBe("Score equal to 5");
    expect(words({ "field:vip": { $eq: true } })).toBe("Vip is Yes");
    expect(words({ "field:renewal": { $lt: "2026-01-01" } })).toBe("Renewal before 2026-01-01");
    expect(words({ "field:renewal": { $gte: { $daysAgo: 30 } } })).toBe("Renewal on or after 30 days ago");
    expect(words({ "field:renewal": { $lte: { $daysAhead: 1 } } })).toBe("Renewal on or before 1 day from now");
    expect(words({ "field:renewal": { $lte: { $daysAhead: 0 } } })).toBe("Renewal on or before today");
    expect(words({ "field:birthday": { $anniversaryWithinDays: 7 } })).toBe("Birthday anniversary within 7 days");
    expect(words({ "field:birthday": { $anniversaryWithinDays: 0 } })).toBe("Birthday anniversary today");
    expect(words({ tags: { $in: ["vip", "trade fair"] } })).toBe("Tags has any of vip, trade fair");
    expect(words({ tags: { $all: ["vip"] } })).toBe("Tags has all of vip");
    expect(words({ tags: { $nin: ["vip"] } })).toBe("Tags has none of vip");
    expect(words({ $or: [{ "field:city": { $eq: "Pune" } }, { visits: { $gt: 3 } }] })).toBe(
      "City is Pune OR Visits greater than 3",
    );
    expect(fieldLabel("city")).toBe("City");
    expect(fieldLabel("tier", new Map([["tier", "Tier (retired)"]]))).toBe("Tier (retired)");
  });
});

function tree(conditions: unknown) {
  const r = parseConditions(conditions);
  if (!r.ok) throw new Error(r.message);
  return r.tree;
}
