// The rule builder's rows (what the form edits and posts: values are still text), their checks with
// the product's messages for the builder, and their conversion to and from the validated tree. The
// form's schema (app/schemas/segment.ts) turns the rows into the API's conditions mapping.
//
// A row's field is the mapping's key: one of the customer's figures (`totalSpend`), one of its
// fields (`field:city`), or `tags`. Which operators and which value input a field's row offers
// follows the field's type, from the tenant's fields the page was given (builderFields() of
// ./segment-builder-fields.ts, which holds the fields and what each offers).
import { numericValue } from "~/lib/numbers";
import { ACTIVITY_KEYS, type ActivityKey, isActivityKey } from "~/lib/segment-activity";
import {
  type Conditions,
  type Logic,
  type SegmentField,
  type SegmentNode,
  FIELD_KEY_PREFIX,
  IN_SEGMENT_KEY,
  MAX_CONDITIONS,
  SEGMENT_FIELDS,
  TAGS_KEY,
  firstOperator,
  isDateValue,
  isField,
  isRelativeDate,
} from "~/lib/segments";
import { parseConditions } from "~/lib/segment-parse";
import { isRelativeDay } from "~/lib/segment-dates";
import {
  type BuilderCondition,
  CHOICES_SEPARATOR,
  type RelativeOperator,
  isRelativeOperator,
  windowOfOperator,
} from "~/lib/segment-builder-fields";

/** A row's list of choices, or of tags (separated by commas). */
export function listOf(value: string, separator: string): string[] {
  return value
    .split(separator)
    .map((v) => v.trim())
    .filter((v) => v !== "");
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
  windowRequired: "Enter the number of days (in the last N days)",
  invalidWindow: "The number of days must be a whole number from 1 to 36500",
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
  // "Is set" and "is empty" take no value.
  if (all.some((c) => c.value.trim() === "" && !c.op.startsWith("$exists:"))) return MESSAGES.valuesRequired;
  for (const c of all) {
    if (isActivityKey(c.field)) {
      const problem = activityProblem(c.field, c);
      if (problem) return problem;
      continue;
    }
    const type = isField(c.field) ? SEGMENT_FIELDS[c.field].type : null;
    if (type === "number" && numericValue(c.value) === null) return MESSAGES.invalidNumber;
    // A number of days is judged by the conditions schema, so the form says what the API says.
    if (type === "date" && !isRelativeOperator(c.op) && !isDateValue(c.value.trim())) return MESSAGES.invalidDate;
  }
  if (all.length > MAX_CONDITIONS) return `At most ${MAX_CONDITIONS} conditions are allowed`;
  return undefined;
}

/** The builder's message for a row on what a customer did (its window, a number, a date), or undefined. */
function activityProblem(key: ActivityKey, c: ConditionRow): string | undefined {
  const spec = ACTIVITY_KEYS[key];
  const window = /:within:/.test(c.op) ? windowOfOperator(c.op).trim() : null;
  if (window === null && spec.window === "required") return MESSAGES.windowRequired;
  if (window !== null && spec.window !== "none" && !/^\d+$/.test(window)) return MESSAGES.invalidWindow;
  if (window !== null && spec.window !== "none" && (Number(window) < 1 || Number(window) > 36_500))
    return MESSAGES.invalidWindow;
  if ((spec.kind === "count" || spec.kind === "rupees") && numericValue(c.value) === null)
    return MESSAGES.invalidNumber;
  if (spec.kind === "date" && !isRelativeOperator(c.op) && !isDateValue(c.value.trim())) return MESSAGES.invalidDate;
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

/**
 * A row's `{ operator: value }`: a rolling operator sends its days as `{ $daysAgo: N }` or
 * `{ $daysAhead: N }`, "is set" / "is empty" `{ $exists: true / false }`, a list of choices
 * `{ $in: [...] }` and tags their list (split at commas).
 */
function conditionValue(row: ConditionRow): Conditions {
  const value = row.value.trim();
  const rolling = /^(.+):(daysAgo|daysAhead)$/.exec(row.op);
  if (rolling) return { [rolling[1]]: { [rolling[2] === "daysAgo" ? "$daysAgo" : "$daysAhead"]: value } };
  if (row.op === "$exists:true" || row.op === "$exists:false") return { $exists: row.op === "$exists:true" };
  // A window of an activity condition ("at least 2 orders in the last 30 days") rides on the operator.
  const windowed = /^(\$\w+):within:\s*(\d+)\s*$/.exec(row.op);
  if (windowed) return { [windowed[1]]: value, withinDays: Number(windowed[2]) };
  if (row.field === "suppressed") return { [row.op]: value === "true" };
  if (row.field === TAGS_KEY) return { [row.op]: listOf(value, ",") };
  if (row.field.startsWith(FIELD_KEY_PREFIX) && row.op === "$in") return { $in: listOf(value, CHOICES_SEPARATOR) };
  return { [row.op]: value };
}

/**
 * The validated tree of a builder whose conditions passed validateConditions, its groups as they
 * are; each condition is read as the API reads it, through the mapping (throws when the parser
 * refuses one).
 */
export function builderToTree(node: BuilderNode): SegmentNode {
  if (node.kind === "group") return { kind: "group", logic: node.logic, children: node.children.map(builderToTree) };
  const row: ConditionRow = { kind: "condition", field: node.field, op: node.op, value: node.value };
  const parsed = parseConditions({ [row.field]: conditionValue(row) });
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.tree;
}

/** A field or tags condition as its row: the value as typed, a list one per line or separated by commas. */
function valueRow(node: Exclude<SegmentNode, { kind: "condition" } | { kind: "group" }>): {
  field: string;
  op: string;
  value: string;
} {
  if (node.kind === "tags") return { field: TAGS_KEY, op: node.op, value: node.value.join(", ") };
  if (node.kind === "segment") return { field: IN_SEGMENT_KEY, op: node.op, value: node.segmentId };
  if (node.kind === "activity") {
    const v = node.value;
    if (typeof v === "object") return { field: node.key, op: `${node.op}:daysAgo`, value: String(v.$daysAgo) };
    const op = node.withinDays !== undefined ? `${node.op}:within:${node.withinDays}` : node.op;
    return { field: node.key, op, value: String(v) };
  }
  const field = `${FIELD_KEY_PREFIX}${node.name}`;
  const v = node.value;
  if (node.op === "$exists") return { field, op: `$exists:${v === false ? "false" : "true"}`, value: "" };
  if (isRelativeDay(v)) {
    return "$daysAgo" in v
      ? { field, op: `${node.op}:daysAgo`, value: String(v.$daysAgo) }
      : { field, op: `${node.op}:daysAhead`, value: String(v.$daysAhead) };
  }
  if (Array.isArray(v)) return { field, op: node.op, value: v.join(CHOICES_SEPARATOR) };
  return { field, op: node.op, value: String(v) };
}

/** A builder showing the tree; the top level is always a group, as the builder edits one. */
export function treeToBuilder(tree: SegmentNode): BuilderGroup {
  const convert = (node: SegmentNode): BuilderNode => {
    if (node.kind === "group") {
      return { kind: "group", id: builderId(), logic: node.logic, children: node.children.map(convert) };
    }
    if (node.kind !== "condition") return { kind: "condition", id: builderId(), ...valueRow(node) };
    if (isRelativeDate(node.value) && node.op !== "$eq") {
      const op: RelativeOperator = `${node.op}:daysAgo`;
      return { kind: "condition", id: builderId(), field: node.field, op, value: String(node.value.$daysAgo) };
    }
    return { kind: "condition", id: builderId(), field: node.field, op: node.op, value: String(node.value) };
  };
  if (tree.kind !== "group") return { kind: "group", id: "root", logic: "AND", children: [convert(tree)] };
  return { kind: "group", id: "root", logic: tree.logic, children: tree.children.map(convert) };
}

/** The segment ids the rows' membership conditions hold. */
export function rowSegmentIds(root: BuilderRows | { children?: unknown }): string[] {
  const ids: string[] = [];
  const walk = (rows: unknown) => {
    if (!Array.isArray(rows)) return;
    for (const row of rows as { field?: unknown; value?: unknown; children?: unknown }[]) {
      if (row?.field === IN_SEGMENT_KEY && typeof row.value === "string" && !ids.includes(row.value))
        ids.push(row.value);
      walk(row?.children);
    }
  };
  walk(root.children);
  return ids;
}

/** The field names (without `field:`) the rows test. */
export function rowFieldNames(root: BuilderRows | { children?: unknown }): string[] {
  const names: string[] = [];
  const walk = (rows: unknown) => {
    if (!Array.isArray(rows)) return;
    for (const row of rows as { field?: unknown; children?: unknown }[]) {
      if (typeof row?.field === "string" && row.field.startsWith(FIELD_KEY_PREFIX)) {
        const name = row.field.slice(FIELD_KEY_PREFIX.length);
        if (!names.includes(name)) names.push(name);
      }
      walk(row?.children);
    }
  };
  walk(root.children);
  return names;
}
