// The fields a segment builder row may test (the customer's figures, the tenant's fields, tags,
// what the customer did, membership of other segments) and what each offers: its operators, the
// rolling ones of dates, and the input its value is typed into. The rows themselves, their checks
// and conversions are ./segments-builder.ts's.
import type { FieldDefinition, FieldType } from "~/lib/custom-fields";
import { FIELD_TYPE_OPERATORS } from "~/lib/segment-fields";
import { ACTIVITY_KEYS, type ActivityKey, activityOperators, isActivityKey } from "~/lib/segment-activity";
import { CONSENT_LABELS, CONSENT_STATUSES } from "~/lib/consent";
import {
  type FieldOperator,
  type Operator,
  type SegmentField,
  DATE_OPERATORS,
  FIELD_KEY_PREFIX,
  FIELD_NAMES,
  IN_SEGMENT_KEY,
  NUMBER_OPERATORS,
  SEGMENT_FIELDS,
  TAGS_KEY,
  isField,
  operatorsFor,
} from "~/lib/segments";
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
