// The rule builder's rows (what the form edits and posts: values are still text), their checks with
// the product's messages for the builder, and their conversion to and from the validated tree. The
// form's schema (app/schemas/segment.ts) turns the rows into the API's conditions mapping.
import {
  type Conditions,
  type Logic,
  type Operator,
  type SegmentField,
  type SegmentNode,
  MAX_CONDITIONS,
  SEGMENT_FIELDS,
  firstOperator,
  isDateValue,
  isField,
  isRelativeDate,
  numericValue,
  operatorsFor,
} from "~/lib/segments";

/**
 * The builder's operator: an API operator, or for a date a rolling one (`$gte:daysAgo`), whose
 * value is a number of days and which is sent as `{ $gte: { $daysAgo: N } }`.
 */
export type BuilderOperator = Operator | RelativeOperator;
export type RelativeOperator = `${Exclude<Operator, "$eq">}:daysAgo`;

export type BuilderCondition = {
  kind: "condition";
  id: string;
  field: SegmentField;
  op: BuilderOperator;
  value: string;
};

/**
 * The rolling operators of a date. The builder offers the first two; the others come from a
 * segment made through the API and are listed only on the row that holds one.
 */
export const RELATIVE_OPERATORS: readonly { value: RelativeOperator; label: string; offered: boolean }[] = [
  { value: "$gte:daysAgo", label: "in the last N days", offered: true },
  { value: "$lt:daysAgo", label: "more than N days ago", offered: true },
  { value: "$gt:daysAgo", label: "less than N days ago", offered: false },
  { value: "$lte:daysAgo", label: "N or more days ago", offered: false },
];

export function isRelativeOperator(op: unknown): op is RelativeOperator {
  return RELATIVE_OPERATORS.some((o) => o.value === op);
}

/** The API operator a builder operator compares with. */
export function apiOperator(op: BuilderOperator): Operator {
  return (isRelativeOperator(op) ? op.slice(0, op.indexOf(":")) : op) as Operator;
}

/** The operators a row of `field` offers, with the row's current rolling one if it is not offered. */
export function builderOperators(field: SegmentField, current?: string): { value: string; label: string }[] {
  const plain = operatorsFor(field).map(({ value, label }) => ({ value, label }));
  if (SEGMENT_FIELDS[field].type !== "date") return plain;
  return [...plain, ...RELATIVE_OPERATORS.filter((o) => o.offered || o.value === current)];
}
export type BuilderGroup = { kind: "group"; id: string; logic: Logic; children: BuilderNode[] };
export type BuilderNode = BuilderCondition | BuilderGroup;

export const MESSAGES = {
  nameRequired: "Segment name is required",
  valuesRequired: "All condition values are required",
  invalidNumber: "Invalid numeric value",
  invalidDate: "Invalid date value",
  daysRequired: "Enter a number of days",
  oneCondition: "At least one condition is required",
  aiEmpty: "Please enter a description",
  aiFailed: "Failed to process your request. Please try different wording.",
} as const;

/** Group nesting the builder offers: groups inside the top level, and groups inside those. */
export const BUILDER_MAX_GROUP_DEPTH = 2;

// React keys for builder rows. The server and the browser both make them (the page opens with the
// server's builder), so each process gets its own prefix and no two rows ever share a key.
const ID_PREFIX = Math.random().toString(36).slice(2, 8);
let nextId = 0;
export const builderId = () => `${ID_PREFIX}${(nextId += 1).toString(36)}`;

/** A new segment starts with one condition: totalSpend, greater than, empty value. */
export function newCondition(field: SegmentField = "totalSpend"): BuilderCondition {
  return { kind: "condition", id: builderId(), field, op: firstOperator(field), value: "" };
}

export function newGroup(logic: Logic = "AND"): BuilderGroup {
  return { kind: "group", id: builderId(), logic, children: [newCondition()] };
}

export function newBuilder(): BuilderGroup {
  return { kind: "group", id: "root", logic: "AND", children: [newCondition()] };
}

/**
 * The builder as the form posts it: field and operator are whatever was sent (a hand-made post may
 * send anything), so they are plain text here and are checked against the whitelist by the API's
 * conditions schema.
 */
export type ConditionRow = { kind: "condition"; field: string; op: string; value: string };
export type GroupRow = { kind: "group"; logic: Logic; children: BuilderRow[] };
export type BuilderRow = ConditionRow | GroupRow;
/** The top level of the builder: how its rows combine, and the rows. */
export type BuilderRows = { logic: Logic; children: BuilderRow[] };

/** The row a new condition starts as: totalSpend, greater than, empty value. */
export function newConditionRow(): ConditionRow {
  const { kind, field, op, value } = newCondition();
  return { kind, field, op, value };
}

/** A new group starts with one condition and the other logic than the group it sits in. */
export function newGroupRow(parentLogic: Logic): GroupRow {
  return { kind: "group", logic: parentLogic === "AND" ? "OR" : "AND", children: [newConditionRow()] };
}

/** The rows of a builder (the form's values for it): the same tree without React keys. */
export function builderRows(root: BuilderGroup): BuilderRows {
  const row = (node: BuilderNode): BuilderRow =>
    node.kind === "condition"
      ? { kind: "condition", field: node.field, op: node.op, value: node.value }
      : { kind: "group", logic: node.logic, children: node.children.map(row) };
  return { logic: root.logic, children: root.children.map(row) };
}

// ---------------------------------------------------------------------------------------------
// Checks and conversion

function conditionsOf(rows: readonly BuilderRow[]): ConditionRow[] {
  return rows.flatMap((row) => (row.kind === "condition" ? [row] : conditionsOf(row.children)));
}

function hasEmptyGroup(rows: readonly BuilderRow[]): boolean {
  return rows.length === 0 || rows.some((row) => row.kind === "group" && hasEmptyGroup(row.children));
}

/**
 * The first of the builder's own messages that applies to the rows, or undefined. A field or an
 * operator outside the whitelist is not judged here: the conditions schema refuses it with the API's
 * message.
 */
export function validateConditions(root: BuilderRows): string | undefined {
  const all = conditionsOf(root.children);
  if (all.length === 0 || hasEmptyGroup(root.children)) return MESSAGES.oneCondition;
  if (all.some((c) => c.value.trim() === "")) return MESSAGES.valuesRequired;
  for (const c of all) {
    const type = isField(c.field) ? SEGMENT_FIELDS[c.field].type : null;
    if (type === "number" && numericValue(c.value) === null) return MESSAGES.invalidNumber;
    // A number of days is judged by the conditions schema, so the form says what the API says.
    if (type === "date" && !isRelativeOperator(c.op) && !isDateValue(c.value.trim())) return MESSAGES.invalidDate;
  }
  if (all.length > MAX_CONDITIONS) return `At most ${MAX_CONDITIONS} conditions are allowed`;
  return undefined;
}

/**
 * The rows as the API's conditions mapping, field, operator and value as posted (values trimmed),
 * so the conditions schema judges a form exactly as it judges an API call. A single row is sent
 * alone, as toConditions does.
 */
export function rowsToConditions(root: BuilderRows): Conditions {
  const group = (logic: Logic, rows: readonly BuilderRow[]): Conditions =>
    rows.length === 1 ? one(rows[0]) : { [logic === "OR" ? "$or" : "$and"]: rows.map(one) };
  // Computed keys make own properties, so a posted "__proto__" stays a key the schema refuses.
  const one = (row: BuilderRow): Conditions =>
    row.kind === "condition" ? { [row.field]: conditionValue(row) } : group(row.logic, row.children);
  return group(root.logic, root.children);
}

/** A row's `{ operator: value }`; a rolling operator sends its days as `{ $daysAgo: N }`. */
function conditionValue(row: ConditionRow): Conditions {
  const value = row.value.trim();
  if (!isRelativeOperator(row.op)) return { [row.op]: value };
  return { [apiOperator(row.op)]: { $daysAgo: value } };
}

/** The validated tree of a builder whose conditions passed validateConditions. */
export function builderToTree(node: BuilderNode): SegmentNode {
  if (node.kind === "condition") {
    const op = apiOperator(node.op);
    if (isRelativeOperator(node.op)) {
      return { kind: "condition", field: node.field, op, value: { $daysAgo: Number(numericValue(node.value)) } };
    }
    const value = SEGMENT_FIELDS[node.field].type === "number" ? Number(numericValue(node.value)) : node.value.trim();
    return { kind: "condition", field: node.field, op, value };
  }
  return { kind: "group", logic: node.logic, children: node.children.map(builderToTree) };
}

/** A builder showing the tree; the top level is always a group, as the builder edits one. */
export function treeToBuilder(tree: SegmentNode): BuilderGroup {
  const convert = (node: SegmentNode): BuilderNode => {
    if (node.kind === "group") {
      return { kind: "group", id: builderId(), logic: node.logic, children: node.children.map(convert) };
    }
    if (isRelativeDate(node.value) && node.op !== "$eq") {
      const op: RelativeOperator = `${node.op}:daysAgo`;
      return { kind: "condition", id: builderId(), field: node.field, op, value: String(node.value.$daysAgo) };
    }
    return { kind: "condition", id: builderId(), field: node.field, op: node.op, value: String(node.value) };
  };
  if (tree.kind === "condition") return { kind: "group", id: "root", logic: "AND", children: [convert(tree)] };
  return { kind: "group", id: "root", logic: tree.logic, children: tree.children.map(convert) };
}
