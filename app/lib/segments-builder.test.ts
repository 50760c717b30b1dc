import { describe, expect, it } from "vitest";
import { BUILT_IN_FIELDS, type FieldDefinition } from "~/lib/custom-fields";
import { ownField } from "~/lib/own-field-fixture";
import {
  type BuilderRows,
  MESSAGES,
  builderRows,
  rowFieldNames,
  builderToTree,
  newBuilder,
  newGroupRow,
  rowsToConditions,
  treeToBuilder,
  validateConditions,
} from "~/lib/segments-builder";
import {
  builderFields,
  builderOperators,
  fieldOperators,
  firstFieldOperator,
  valueInputOf,
} from "~/lib/segment-builder-fields";
import { toConditions } from "~/lib/segments";
import { parseConditions } from "~/lib/segment-parse";

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

describe("the builder's rows on the customer's fields and tags", () => {
  const catalog: FieldDefinition[] = [
    ...BUILT_IN_FIELDS,
    ownField("tier", "choice", { choices: ["Gold", "Silver"] }),
    ownField("score", "number"),
    ownField("vip", "boolean"),
    ownField("renewal", "date"),
    ownField("old", "text", { retired: true }),
  ];
  const offered = builderFields(catalog);
  const of = (key: string) => {
    const found = builderFields(catalog, ["old", "gone"]).find((f) => f.key === key);
    if (!found) throw new Error(key);
    return found;
  };

  it("offer the customer's figures and built-in fields, the tenant's own, then tags; a retired one only where used", () => {
    expect(offered.filter((f) => f.window === undefined).map((f) => [f.group, f.key])).toEqual([
      ["Customer", "totalSpend"],
      ["Customer", "visits"],
      ["Customer", "lastActiveDate"],
      ["Customer", "field:city"],
      ["Customer", "field:state"],
      ["Customer", "field:country"],
      ["Customer", "field:birthday"],
      ["Customer", "field:time_zone"],
      ["Fields", "field:tier"],
      ["Fields", "field:score"],
      ["Fields", "field:vip"],
      ["Fields", "field:renewal"],
      ["Tags", "tags"],
    ]);
    const opened = builderFields(catalog, ["old", "gone"]);
    expect(opened.filter((f) => f.status).map((f) => [f.key, f.label, f.status])).toEqual([
      ["field:old", "Old (retired)", "retired"],
      ["field:gone", "Gone (deleted)", "deleted"],
    ]);
    expect(
      rowFieldNames({ logic: "AND", children: [condition("field:old", "$eq", "x"), condition("visits", "$gt", "1")] }),
    ).toEqual(["old"]);
  });

  it("offer the operators of the field's type, and the value input each takes", () => {
    const labels = (key: string) => fieldOperators(of(key)).map((o) => o.label);
    expect(labels("field:city")).toEqual(["is", "is not", "contains", "starts with", "is set", "is empty"]);
    expect(labels("field:tier")).toEqual(["is any of", "is", "is not", "is set", "is empty"]);
    expect(labels("field:score")).toEqual([
      "greater than",
      "greater than or equal to",
      "less than",
      "less than or equal to",
      "equal to",
      "not equal to",
      "is set",
      "is empty",
    ]);
    expect(labels("field:renewal")).toEqual([
      "after",
      "before",
      "on or after",
      "on or before",
      "on or after N days ago",
      "before N days ago",
      "on or before N days from now",
      "after N days from now",
      "anniversary within N days",
      "is set",
      "is empty",
    ]);
    expect(labels("field:vip")).toEqual(["is", "is set", "is empty"]);
    expect(labels("tags")).toEqual(["has any of", "has all of", "has none of"]);
    expect(labels("visits")).toEqual(builderOperators("visits").map((o) => o.label));
    // A rolling operator the builder does not offer is listed on the row that holds it.
    expect(fieldOperators(of("field:renewal"), "$gte:daysAhead").at(-1)).toEqual({
      value: "$gte:daysAhead",
      label: "on or after N days from now",
    });
    expect(firstFieldOperator(of("field:tier"))).toBe("$in");
    const input = (key: string, op: string) => valueInputOf(of(key), op);
    expect(input("field:city", "$contains")).toBe("text");
    expect(input("field:city", "$exists:false")).toBe("none");
    expect(input("field:tier", "$in")).toBe("choices");
    expect(input("field:tier", "$eq")).toBe("choice");
    expect(input("field:vip", "$eq")).toBe("yesno");
    expect(input("field:score", "$gt")).toBe("number");
    expect(input("field:renewal", "$gt")).toBe("date");
    expect(input("field:renewal", "$lte:daysAhead")).toBe("days");
    expect(input("field:birthday", "$anniversaryWithinDays")).toBe("days");
    expect(input("tags", "$all")).toBe("tags");
  });

  it("become the API's mapping: lists, rolling days, is set / is empty without a value", () => {
    const rows: BuilderRows = {
      logic: "AND",
      children: [
        condition("field:tier", "$in", "Gold\nSilver\n"),
        condition("field:city", "$exists:false", ""),
        condition("field:renewal", "$lte:daysAhead", " 30 "),
        condition("field:birthday", "$anniversaryWithinDays", "7"),
        condition("field:vip", "$eq", "true"),
        condition("tags", "$nin", " vip, trade fair ,, "),
      ],
    };
    expect(validateConditions(rows)).toBeUndefined();
    expect(rowsToConditions(rows)).toEqual({
      $and: [
        { "field:tier": { $in: ["Gold", "Silver"] } },
        { "field:city": { $exists: false } },
        { "field:renewal": { $lte: { $daysAhead: "30" } } },
        { "field:birthday": { $anniversaryWithinDays: "7" } },
        { "field:vip": { $eq: "true" } },
        { tags: { $nin: ["vip", "trade fair"] } },
      ],
    });
    const parsed = parseConditions(rowsToConditions(rows));
    if (!parsed.ok) throw new Error(parsed.message);
    // Opened again, each row is what was posted (lists one per line, tags separated by commas).
    expect(builderRows(treeToBuilder(parsed.tree)).children).toEqual([
      condition("field:tier", "$in", "Gold\nSilver"),
      condition("field:city", "$exists:false", ""),
      condition("field:renewal", "$lte:daysAhead", "30"),
      condition("field:birthday", "$anniversaryWithinDays", "7"),
      condition("field:vip", "$eq", "true"),
      condition("tags", "$nin", "vip, trade fair"),
    ]);
    // A value is still required where the operator takes one.
    expect(validateConditions({ logic: "AND", children: [condition("field:city", "$eq", " ")] })).toBe(
      MESSAGES.valuesRequired,
    );
  });

  it("offer the conditions on what a customer did, grouped Orders, Engagement and Consent", () => {
    const fields = builderFields(BUILT_IN_FIELDS);
    const groups = (g: string) => fields.filter((f) => f.group === g).map((f) => f.label);
    expect(groups("Orders")).toEqual([
      "Number of orders",
      "First order",
      "Last order",
      "Average order value (₹)",
      "Spend (₹)",
      "Bought product",
    ]);
    expect(groups("Engagement")).toEqual(["Last open", "Last click", "Messages received"]);
    expect(groups("Consent")).toEqual(["Consent", "Suppressed"]);
    const field = (key: string) => fields.find((f) => f.key === key)!;
    expect(fieldOperators(field("orderCount")).map((o) => o.value)).toEqual([
      "$gt",
      "$gte",
      "$lt",
      "$lte",
      "$eq",
      "$ne",
    ]);
    expect(fieldOperators(field("lastOpenDate")).map((o) => o.label)).toEqual([
      "after",
      "on or after",
      "before",
      "on or before",
      "in the last N days",
      "more than N days ago",
    ]);
    expect(fieldOperators(field("boughtProduct")).map((o) => o.label)).toEqual(["bought", "never bought"]);
    expect(field("orderCount").window).toBe("optional");
    expect(field("spendWithinDays").window).toBe("required");
    expect(field("consent").choiceLabels?.never_asked).toBe("Never asked");
    expect(valueInputOf(field("orderCount"), "$gte")).toBe("number");
    expect(valueInputOf(field("lastOrderDate"), "$lt")).toBe("date");
    expect(valueInputOf(field("lastOrderDate"), "$lt:daysAgo")).toBe("days");
    expect(valueInputOf(field("boughtProduct"), "$eq")).toBe("text");
    expect(valueInputOf(field("consent"), "$eq")).toBe("choice");
    expect(valueInputOf(field("suppressed"), "$eq")).toBe("yesno");
  });

  it("turn activity rows, windows riding on the operator, into the mapping and back unchanged", () => {
    const rows: BuilderRows = {
      logic: "AND",
      children: [
        condition("orderCount", "$gte", "2"),
        condition("orderCount", "$gte:within:30", "2"),
        condition("spendWithinDays", "$gt:within:90", "5000"),
        condition("lastOpenDate", "$gte:daysAgo", "90"),
        condition("firstOrderDate", "$lt", "2025-01-01"),
        condition("boughtProduct", "$eq", "Saree"),
        condition("messagesReceived", "$lt:within:7", "3"),
        condition("consent", "$ne", "unsubscribed"),
        condition("suppressed", "$eq", "false"),
      ],
    };
    expect(validateConditions(rows)).toBeUndefined();
    const mapping = rowsToConditions(rows);
    const parsed = parseConditions(mapping);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(toConditions(parsed.tree)).toEqual({
      $and: [
        { orderCount: { $gte: 2 } },
        { orderCount: { $gte: 2, withinDays: 30 } },
        { spendWithinDays: { $gt: 5000, withinDays: 90 } },
        { lastOpenDate: { $gte: { $daysAgo: 90 } } },
        { firstOrderDate: { $lt: "2025-01-01" } },
        { boughtProduct: { $eq: "Saree" } },
        { messagesReceived: { $lt: 3, withinDays: 7 } },
        { consent: { $ne: "unsubscribed" } },
        { suppressed: { $eq: false } },
      ],
    });
    expect(builderRows(treeToBuilder(parsed.tree))).toEqual(rows);
  });

  it("say what an activity row is missing: a window, a number, a date", () => {
    const one = (field: string, op: string, value: string): BuilderRows => ({
      logic: "AND",
      children: [condition(field, op, value)],
    });
    expect(validateConditions(one("spendWithinDays", "$gt", "100"))).toBe(MESSAGES.windowRequired);
    expect(validateConditions(one("messagesReceived", "$gte:within:abc", "1"))).toBe(MESSAGES.invalidWindow);
    expect(validateConditions(one("orderCount", "$gte:within:0", "1"))).toBe(MESSAGES.invalidWindow);
    expect(validateConditions(one("orderCount", "$gte", "two"))).toBe(MESSAGES.invalidNumber);
    expect(validateConditions(one("lastOrderDate", "$gte", "yesterday"))).toBe(MESSAGES.invalidDate);
    expect(validateConditions(one("orderCount", "$gte:within:30", "2"))).toBeUndefined();
  });
});
