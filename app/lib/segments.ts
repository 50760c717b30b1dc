// The segment rules (docs/rules.md#segment-conditions), isomorphic: the fields and operators a
// segment may use, the condition tree and its Mongo-style mapping (`{ totalSpend: { $gt: 1000 } }`,
// several under `$and`/`$or`, groups nested). Its parser is ./segment-parse.ts, what the database
// compares ./segment-dates.ts, the words people read ./segment-descriptions.ts.
// Beside the customer's three figures a tree may test any field of the customer, built-in or the
// tenant's own (`{ "field:city": { "$eq": "Pune" } }`), and the customer's tags
// (`{ "tags": { "$in": ["vip"] } }`). The parser checks their operators and the shape of their
// values only: whether the tenant has the field, and whether the operator fits its type, is
// checked against the tenant's fields by ./segment-fields.ts.
import { isCalendarDate } from "~/lib/dates";
import { numericValue } from "~/lib/numbers";
import { type ActivityConditionNode, activityToConditions } from "~/lib/segment-activity";

export const SEGMENT_FIELDS = {
  totalSpend: { label: "Total Spend (₹)", short: "Total spend", type: "number" },
  visits: { label: "Visits", short: "Visits", type: "number" },
  lastActiveDate: { label: "Last Active Date", short: "Last active", type: "date" },
} as const;

export type SegmentField = keyof typeof SEGMENT_FIELDS;
export const FIELD_NAMES = Object.keys(SEGMENT_FIELDS) as SegmentField[];

export type Operator = "$gt" | "$gte" | "$lt" | "$lte" | "$eq";
export type Logic = "AND" | "OR";

/** Number operators, in the order the builder offers them. */
export const NUMBER_OPERATORS: readonly { value: Operator; label: string; symbol: string }[] = [
  { value: "$gt", label: "greater than", symbol: ">" },
  { value: "$gte", label: "greater than or equal to", symbol: "≥" },
  { value: "$lt", label: "less than", symbol: "<" },
  { value: "$lte", label: "less than or equal to", symbol: "≤" },
  { value: "$eq", label: "equal to", symbol: "=" },
];

/** Date operators: after ($gt), before ($lt), on or after ($gte), on or before ($lte). */
export const DATE_OPERATORS: readonly { value: Operator; label: string; symbol: string }[] = [
  { value: "$gt", label: "after", symbol: "after" },
  { value: "$lt", label: "before", symbol: "before" },
  { value: "$gte", label: "on or after", symbol: "on or after" },
  { value: "$lte", label: "on or before", symbol: "on or before" },
];

export function operatorsFor(field: SegmentField) {
  return SEGMENT_FIELDS[field].type === "date" ? DATE_OPERATORS : NUMBER_OPERATORS;
}

export function isField(value: unknown): value is SegmentField {
  return typeof value === "string" && Object.hasOwn(SEGMENT_FIELDS, value);
}

export function isOperatorFor(field: SegmentField, op: unknown): op is Operator {
  return operatorsFor(field).some((o) => o.value === op);
}

/** Changing the field resets the operator to the first of its type. */
export function firstOperator(field: SegmentField): Operator {
  return operatorsFor(field)[0].value;
}

export function operatorLabel(field: SegmentField, op: Operator): string {
  return operatorsFor(field).find((o) => o.value === op)?.label ?? op;
}

// ---------------------------------------------------------------------------------------------
// The validated tree

/**
 * A rolling date: the calendar day (India Standard Time) N days before the day the audience is
 * counted, so "in the last 30 days" moves with time (docs/rules.md#rolling-dates).
 */
export type RelativeDate = { $daysAgo: number };

/**
 * totalSpend in rupees, visits a count, lastActiveDate a date string (YYYY-MM-DD or ISO time) or a
 * rolling date.
 */
export type ConditionNode = {
  kind: "condition";
  field: SegmentField;
  op: Operator;
  value: number | string | RelativeDate;
};

/** The key prefix of a customer field in the mapping: `field:city`, `field:tier`. */
export const FIELD_KEY_PREFIX = "field:";
/** The key of the customer's tags in the mapping. */
export const TAGS_KEY = "tags";

/** The operators a customer field's condition may use (which ones fit which type: ./segment-fields.ts). */
export const FIELD_OPERATORS = [
  "$eq",
  "$ne",
  "$contains",
  "$startsWith",
  "$in",
  "$gt",
  "$gte",
  "$lt",
  "$lte",
  "$exists",
  "$anniversaryWithinDays",
] as const;
export type FieldOperator = (typeof FIELD_OPERATORS)[number];
export type FieldRangeOperator = "$gt" | "$gte" | "$lt" | "$lte";

/** A rolling day of a date field: N days before, or N days after, the day the audience is counted. */
export type RelativeDay = { $daysAgo: number } | { $daysAhead: number };

/**
 * A condition on one of the customer's fields, by the field's name. The value's shape says what is
 * compared, so the tree compiles without the tenant's field list: a string is a text, a choice or
 * (with a range operator) a date as YYYY-MM-DD; a number a number; true/false a yes/no; a list the
 * choices of `$in`. `$exists` holds true or false, `$anniversaryWithinDays` its days (0 to 366).
 * `today` is set when the tree is resolved at a moment (resolveRelativeDates): the IST day an
 * anniversary's window starts on.
 */
export type FieldConditionNode = {
  kind: "field";
  name: string;
  op: FieldOperator;
  value: string | number | boolean | string[] | RelativeDay;
  today?: string;
};

export type TagsOperator = "$in" | "$all" | "$nin";
export const TAGS_OPERATORS: readonly TagsOperator[] = ["$in", "$all", "$nin"];
/** A condition on the customer's tags: has any of ($in), all of ($all) or none of ($nin) these, without case. */
export type TagsConditionNode = { kind: "tags"; op: TagsOperator; value: string[] };

/** The key of a condition on membership of another of the tenant's segments. */
export const IN_SEGMENT_KEY = "inSegment";
export type InSegmentOperator = "$eq" | "$ne";
export const IN_SEGMENT_OPERATORS: readonly InSegmentOperator[] = ["$eq", "$ne"];

/**
 * A condition on membership of another segment of the tenant: the customer is in it (`$eq`) or is
 * not (`$ne`), as that segment's rules say at the moment the audience is counted. The parser knows
 * only the id; `target` is set by the segments service before an audience is counted
 * (app/services/segment-references.server.ts): the segment's name and its own tree (its references
 * set in turn), or null when it no longer exists, in which case nobody is in it.
 */
export type SegmentRefNode = {
  kind: "segment";
  op: InSegmentOperator;
  segmentId: string;
  target?: { name: string; tree: SegmentNode } | null;
};

export type GroupNode = { kind: "group"; logic: Logic; children: SegmentNode[] };
/**
 * One condition of any kind: a figure of the customer, one of its fields, its tags, what it did
 * (./segment-activity.ts), or its membership of another segment.
 */
export type LeafNode = ConditionNode | FieldConditionNode | TagsConditionNode | ActivityConditionNode | SegmentRefNode;
export type SegmentNode = LeafNode | GroupNode;

/** The Mongo-style mapping stored and sent over the API. */
export type Conditions = { [key: string]: unknown };

export const MAX_DEPTH = 5;
export const MAX_CONDITIONS = 50;
/** Rupees and visits beyond this are refused: far above any real customer, far below float trouble. */
export const MAX_NUMBER = 1e12;
/** The furthest a rolling date reaches back: 100 years, beyond any customer's history. */
export const MAX_DAYS_AGO = 36_500;
/** Why a rolling date was refused; the form shows the same words as the API. */
export const DAYS_AGO_MESSAGE = `the number of days must be a whole number from 0 to ${MAX_DAYS_AGO.toLocaleString("en-IN")}`;
/** The widest anniversary window: a whole year, a leap year's too. */
export const MAX_ANNIVERSARY_DAYS = 366;
/** The most values one `$in` (choices) or tag condition may list. */
export const MAX_LISTED_VALUES = 100;
/** A field's number beyond this is refused (as a stored value is: app/lib/custom-fields.ts). */
export const MAX_FIELD_NUMBER = 1e15;

export type ParseResult = { ok: true; tree: SegmentNode } | { ok: false; path: string; message: string };

export const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
/** India Standard Time, the product's calendar (see ~/lib/dates). */
export const IST_OFFSET_MS = 330 * 60_000;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isDateValue(value: unknown): value is string {
  if (typeof value !== "string") return false;
  if (isCalendarDate(value)) return true;
  return ISO_TIME.test(value) && isCalendarDate(value.slice(0, 10)) && Number.isFinite(Date.parse(value));
}

export function isRelativeDate(value: unknown): value is RelativeDate {
  return isPlainObject(value) && Object.hasOwn(value, "$daysAgo");
}

/** The days of a rolling date's `$daysAgo` (a number or its digits), or null when out of range. */
export function daysAgoValue(value: unknown): number | null {
  const n = numericValue(value);
  return n !== null && Number.isInteger(n) && n >= 0 && n <= MAX_DAYS_AGO ? n : null;
}

/** The tree as the Mongo-style mapping. A single condition is sent alone. */
export function toConditions(tree: SegmentNode): Conditions {
  if (tree.kind === "condition") return { [tree.field]: { [tree.op]: tree.value } };
  if (tree.kind === "field") return { [`${FIELD_KEY_PREFIX}${tree.name}`]: { [tree.op]: tree.value } };
  if (tree.kind === "tags") return { [TAGS_KEY]: { [tree.op]: tree.value } };
  if (tree.kind === "activity") return activityToConditions(tree);
  if (tree.kind === "segment") return { [IN_SEGMENT_KEY]: { [tree.op]: tree.segmentId } };
  if (tree.children.length === 1) return toConditions(tree.children[0]);
  return { [tree.logic === "OR" ? "$or" : "$and"]: tree.children.map(toConditions) };
}

/** The logicType stored with a segment: the top-level combinator. */
export function topLogic(tree: SegmentNode): Logic {
  return tree.kind === "group" && tree.children.length > 1 ? tree.logic : "AND";
}

export function countConditions(tree: SegmentNode): number {
  return tree.kind !== "group" ? 1 : tree.children.reduce((n, c) => n + countConditions(c), 0);
}

/** Whether a tree tests the customer's fields or tags (conditions answered from their own tables). */
export function usesCustomerValues(tree: SegmentNode): boolean {
  if (tree.kind === "group") return tree.children.some(usesCustomerValues);
  return tree.kind !== "condition";
}

/** What `pick` takes from the tree's nodes (groups walked into), each once, in order of appearance. */
export function distinctInTree(tree: SegmentNode, pick: (node: SegmentNode) => string | undefined): string[] {
  const found = new Set<string>();
  const walk = (node: SegmentNode) => {
    const value = pick(node);
    if (value !== undefined) found.add(value);
    if (node.kind === "group") node.children.forEach(walk);
  };
  walk(tree);
  return [...found];
}

/** The names of the fields a tree tests, each once, in order of appearance. */
export function fieldNamesOf(tree: SegmentNode): string[] {
  return distinctInTree(tree, (node) => (node.kind === "field" ? node.name : undefined));
}
