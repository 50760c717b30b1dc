// The rule builder's rows (what the form edits and posts: values are still text), their checks with
// the product's messages for the builder, and their conversion to and from the validated tree. The
// form's schema (app/schemas/segment.ts) turns the rows into the API's conditions mapping.
//
// A row's field is the mapping's key: one of the customer's figures (`totalSpend`), one of its
// fields (`field:city`), or `tags`. Which operators and which value input a field's row offers
// follows the field's type, from the tenant's fields the page was given (builderFields()).
import { numericValue } from "~/lib/numbers";
import type { FieldDefinition, FieldType } from "~/lib/custom-fields";
import { FIELD_TYPE_OPERATORS } from "~/lib/segment-fields";
import { ACTIVITY_KEYS, type ActivityKey, activityOperators, isActivityKey } from "~/lib/segment-activity";
import { CONSENT_LABELS, CONSENT_STATUSES } from "~/lib/consent";
import {
  type Conditions,
  type FieldOperator,
  type Logic,
  type Operator,
  type SegmentField,
  type SegmentNode,
  DATE_OPERATORS,
  FIELD_KEY_PREFIX,
  FIELD_NAMES,
  IN_SEGMENT_KEY,
  MAX_CONDITIONS,
  NUMBER_OPERATORS,
  SEGMENT_FIELDS,
  TAGS_KEY,
  firstOperator,
  isDateValue,
  isField,
  isRelativeDate,
  operatorsFor,
} from "~/lib/segments";
import { parseConditions } from "~/lib/segment-parse";
import { isRelativeDay } from "~/lib/segment-dates";
import { fieldLabel } from "~/lib/segment-descriptions";

/**
 * The builder's operator: an API operator, or for a date a rolling one (`$gte:daysAgo`), whose
 * value is a number of days and which is sent as `{ $gte: { $daysAgo: N } }`.
 */
export type BuilderOperator = Operator | RelativeOperator;
export type RelativeOperator = `${Exclude<Operator, "$eq">}:daysAgo`;

/**
 * One condition of the builder: `field` is the mapping's key (`totalSpend`, `field:city`, `tags`),
 * `op` an API operator or one of the builder's own (`$gte:daysAgo`, `$lte:daysAhead`,
 * `$exists:true`), `value` the text typed (a list of choices one per line, tags separated by commas).
 */
export type BuilderCondition = {
  kind: "condition";
  id: string;
  field: string;
  op: string;
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
// ---------------------------------------------------------------------------------------------
// The fields a row may test, and what each offers

/** Where the field picker lists a field. */
export type BuilderFieldGroup = "Customer" | "Fields" | "Tags" | "Orders" | "Engagement" | "Consent" | "Segments";

/** A field as the builder offers it. */
export type BuilderField = {
  /** The mapping's key: `totalSpend`, `field:city`, `tags`. */
  key: string;
  label: string;
  group: BuilderFieldGroup;
  /** The customer's figures are numbers and a date; a field has its type; tags are tags. */
  type: FieldType | "tags";
  /** A choice field's choices. */
  choices: string[];
  /** A field an opened segment uses that is retired (not offered to other rows) or deleted. */
  status?: "retired" | "deleted";
  /** The words a choice is shown with, when they are not the choice itself (consent's statuses). */
  choiceLabels?: Record<string, string>;
  /** What a condition on what the customer did takes as its window of the last N days. */
  window?: "none" | "optional" | "required";
};

/** The customer's three figures, first in the picker. */
const FIGURE_FIELDS: BuilderField[] = FIELD_NAMES.map((f) => ({
  key: f,
  label: SEGMENT_FIELDS[f].label,
  group: "Customer",
  type: SEGMENT_FIELDS[f].type,
  choices: [],
}));

/** The groups of the conditions on what a customer did, in the picker's order. */
const ACTIVITY_GROUPS: Record<ActivityKey, BuilderFieldGroup> = {
  orderCount: "Orders",
  firstOrderDate: "Orders",
  lastOrderDate: "Orders",
  averageOrderValue: "Orders",
  spendWithinDays: "Orders",
  boughtProduct: "Orders",
  lastOpenDate: "Engagement",
  lastClickDate: "Engagement",
  messagesReceived: "Engagement",
  consent: "Consent",
  suppressed: "Consent",
};

const ACTIVITY_TYPES = {
  count: "number",
  rupees: "number",
  date: "date",
  product: "text",
  consent: "choice",
  boolean: "boolean",
} as const satisfies Record<(typeof ACTIVITY_KEYS)[ActivityKey]["kind"], FieldType>;

/** The conditions on what a customer did: Orders, Engagement, Consent. */
const ACTIVITY_FIELDS: BuilderField[] = (Object.keys(ACTIVITY_GROUPS) as ActivityKey[]).map((key) => {
  const spec = ACTIVITY_KEYS[key];
  return {
    key,
    label: spec.label,
    group: ACTIVITY_GROUPS[key],
    type: ACTIVITY_TYPES[spec.kind],
    choices: spec.kind === "consent" ? [...CONSENT_STATUSES] : [],
    ...(spec.kind === "consent" ? { choiceLabels: CONSENT_LABELS } : {}),
    window: spec.window,
  };
});

const TAGS_FIELD: BuilderField = { key: TAGS_KEY, label: "Tags", group: "Tags", type: "tags", choices: [] };

/** A segment a row may test membership of. */
export type SegmentChoice = { id: string; name: string };

/**
 * Membership of another segment ("Segments"): its choices are the tenant's other segments by id,
 * shown by name; one the rows use (`used`) that no longer exists is listed as a deleted segment.
 * Not offered when there is no other segment and no row uses one.
 */
function membershipField(segments: readonly SegmentChoice[], used: readonly string[]): BuilderField[] {
  const gone = used.filter((id) => !segments.some((s) => s.id === id));
  if (segments.length === 0 && gone.length === 0) return [];
  const choiceLabels: Record<string, string> = {};
  for (const s of segments) choiceLabels[s.id] = s.name;
  for (const id of gone) choiceLabels[id] = "(deleted segment)";
  return [
    {
      key: IN_SEGMENT_KEY,
      label: "Segment",
      group: "Segments",
      type: "choice",
      choices: [...segments.map((s) => s.id), ...gone],
      choiceLabels,
    },
  ];
}

/**
 * The fields the builder offers: the customer's figures and built-in fields ("Customer"), the
 * tenant's own fields ("Fields"; retired ones only where `used`), tags ("Tags"), what the customer
 * did, and membership of the tenant's other `segments` (the ids in `usedSegments` are the ones the
 * rows hold). A field `used` by the rows that the tenant no longer has is listed as deleted, so its
 * row still shows.
 */
export function builderFields(
  catalog: readonly FieldDefinition[],
  used: readonly string[] = [],
  segments: readonly SegmentChoice[] = [],
  usedSegments: readonly string[] = [],
): BuilderField[] {
  const inUse = new Set(used);
  const known = new Set(catalog.map((f) => f.name));
  const field = (f: FieldDefinition): BuilderField => ({
    key: `${FIELD_KEY_PREFIX}${f.name}`,
    label: f.retired ? `${f.label} (retired)` : f.label,
    group: f.builtIn ? "Customer" : "Fields",
    type: f.type,
    choices: f.choices,
    ...(f.retired ? { status: "retired" as const } : {}),
  });
  const deleted: BuilderField[] = [...inUse]
    .filter((name) => !known.has(name))
    .map((name) => ({
      key: `${FIELD_KEY_PREFIX}${name}`,
      label: `${fieldLabel(name)} (deleted)`,
      group: "Fields",
      type: "text",
      choices: [],
      status: "deleted",
    }));
  return [
    ...FIGURE_FIELDS,
    ...catalog.filter((f) => f.builtIn).map(field),
    ...catalog.filter((f) => !f.builtIn && (!f.retired || inUse.has(f.name))).map(field),
    ...deleted,
    TAGS_FIELD,
    ...ACTIVITY_FIELDS,
    ...membershipField(segments, usedSegments),
  ];
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

/** A field's operator as the builder lists it. */
export type OperatorOption = { value: string; label: string };

const FIELD_OPERATOR_LABELS: Record<FieldType, Partial<Record<FieldOperator, string>>> = {
  text: { $eq: "is", $ne: "is not", $contains: "contains", $startsWith: "starts with" },
  choice: { $in: "is any of", $eq: "is", $ne: "is not" },
  number: {
    ...Object.fromEntries(NUMBER_OPERATORS.map((o) => [o.value, o.label])),
    $ne: "not equal to",
  },
  date: {
    ...Object.fromEntries(DATE_OPERATORS.map((o) => [o.value, o.label])),
    $anniversaryWithinDays: "anniversary within N days",
  },
  boolean: { $eq: "is" },
};

/** A date field's rolling operators: the builder offers these four; another comes only with a row that holds it. */
const DATE_RELATIVE_OPERATORS: readonly OperatorOption[] = [
  { value: "$gte:daysAgo", label: "on or after N days ago" },
  { value: "$lt:daysAgo", label: "before N days ago" },
  { value: "$lte:daysAhead", label: "on or before N days from now" },
  { value: "$gt:daysAhead", label: "after N days from now" },
];

const EXISTS_OPERATORS: readonly OperatorOption[] = [
  { value: "$exists:true", label: "is set" },
  { value: "$exists:false", label: "is empty" },
];

const TAGS_OPERATOR_OPTIONS: readonly OperatorOption[] = [
  { value: "$in", label: "has any of" },
  { value: "$all", label: "has all of" },
  { value: "$nin", label: "has none of" },
];

/** The words of a rolling operator no row is offered (`$gt:daysAgo`: "after N days ago"). */
function relativeLabel(op: string): string | null {
  const m = /^(\$gt|\$gte|\$lt|\$lte):(daysAgo|daysAhead)$/.exec(op);
  if (!m) return null;
  const words = DATE_OPERATORS.find((o) => o.value === m[1])?.label ?? m[1];
  return `${words} N days ${m[2] === "daysAgo" ? "ago" : "from now"}`;
}

const ACTIVITY_OPERATOR_LABELS: Record<string, Record<string, string>> = {
  number: { $gt: "more than", $gte: "at least", $lt: "less than", $lte: "at most", $eq: "exactly", $ne: "not" },
  date: { $gt: "after", $gte: "on or after", $lt: "before", $lte: "on or before" },
  text: { $eq: "is", $ne: "is not" },
  choice: { $eq: "is", $ne: "is not" },
  boolean: { $eq: "is" },
};

const MEMBERSHIP_OPERATORS: readonly OperatorOption[] = [
  { value: "$eq", label: "is in" },
  { value: "$ne", label: "is not in" },
];

const PRODUCT_OPERATORS: readonly OperatorOption[] = [
  { value: "$eq", label: "bought" },
  { value: "$ne", label: "never bought" },
];

/** An activity row's operator without its window (`$gte:within:30` is `$gte`). */
export function baseOperator(op: string): string {
  return op.replace(/:within:.*$/, "");
}

/** The window of an activity row's operator (`$gte:within:30` is "30"), or "" without one. */
export function windowOfOperator(op: string): string {
  const m = /:within:(.*)$/.exec(op);
  return m ? m[1] : "";
}

/** The operators of a condition on what a customer did: its key's, a date's rolling ones too. */
function activityFieldOperators(key: ActivityKey, current?: string): OperatorOption[] {
  if (key === "boughtProduct") return [...PRODUCT_OPERATORS];
  const type = ACTIVITY_TYPES[ACTIVITY_KEYS[key].kind];
  const options: OperatorOption[] = activityOperators(key).map((op) => ({
    value: op,
    label: ACTIVITY_OPERATOR_LABELS[type][op] ?? op,
  }));
  if (type !== "date") return options;
  options.push(...RELATIVE_OPERATORS.filter((o) => o.offered).map(({ value, label }) => ({ value, label })));
  const label = current && !options.some((o) => o.value === current) ? relativeLabel(current) : null;
  if (current && label && current.endsWith(":daysAgo")) options.push({ value: current, label });
  return options;
}

/** The operators a row of `field` offers, with the row's `current` one when it is not among them. */
export function fieldOperators(field: BuilderField, current?: string): OperatorOption[] {
  if (field.type === "tags") return [...TAGS_OPERATOR_OPTIONS];
  if (field.key === IN_SEGMENT_KEY) return [...MEMBERSHIP_OPERATORS];
  if (isActivityKey(field.key) && field.window !== undefined) return activityFieldOperators(field.key, current);
  if (field.group === "Customer" && isField(field.key)) return builderOperators(field.key, current);
  const type = field.type;
  const options: OperatorOption[] = [];
  for (const op of FIELD_TYPE_OPERATORS[type]) {
    if (op === "$exists") continue;
    options.push({ value: op, label: FIELD_OPERATOR_LABELS[type][op] ?? op });
    // The rolling days after the calendar ones, before the anniversary.
    if (type === "date" && op === "$lte") options.push(...DATE_RELATIVE_OPERATORS);
  }
  options.push(...EXISTS_OPERATORS);
  if (current && !options.some((o) => o.value === current)) {
    const label = type === "date" ? relativeLabel(current) : null;
    if (label) options.push({ value: current, label });
  }
  return options;
}

/** The first operator of a field's rows (what a row starts at, or resets to when its field changes). */
export function firstFieldOperator(field: BuilderField): string {
  return fieldOperators(field)[0].value;
}

/** What a row's value is typed into. */
export type ValueInput = "none" | "days" | "date" | "number" | "text" | "choice" | "choices" | "yesno" | "tags";

/** The value input of a row of `field` with operator `op`. */
export function valueInputOf(field: BuilderField, op: string): ValueInput {
  if (op.startsWith("$exists:")) return "none";
  if (field.key === "suppressed" && field.window !== undefined) return "yesno";
  if (/:days(Ago|Ahead)$/.test(op) || op === "$anniversaryWithinDays") return "days";
  switch (field.type) {
    case "tags":
      return "tags";
    case "date":
      return "date";
    case "number":
      return "number";
    case "boolean":
      return "yesno";
    case "choice":
      return op === "$in" ? "choices" : "choice";
    default:
      return "text";
  }
}

/** The separator of a list of choices in a row's value (a multiple select posts each; the form joins them). */
export const CHOICES_SEPARATOR = "\n";

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
