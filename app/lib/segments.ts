// The segment rules (docs/rules.md#segment-conditions), isomorphic: the fields and operators a
// segment may use, the condition tree and its Mongo-style mapping (`{ totalSpend: { $gt: 1000 } }`,
// several under `$and`/`$or`, groups nested), and its parser, which names the bad part of a bad tree.
// Beside the customer's three figures a tree may test any field of the customer, built-in or the
// tenant's own (`{ "field:city": { "$eq": "Pune" } }`), and the customer's tags
// (`{ "tags": { "$in": ["vip"] } }`). The parser checks their operators and the shape of their
// values only: whether the tenant has the field, and whether the operator fits its type, is
// checked against the tenant's fields by ./segment-fields.ts.
import { isCalendarDate } from "~/lib/dates";
import { isId } from "~/lib/id";
import { numericValue } from "~/lib/numbers";
import {
  ACTIVITY_KEY_NAMES,
  type ActivityConditionNode,
  activityToConditions,
  describeActivity,
  isActivityKey,
  parseActivity,
} from "~/lib/segment-activity";
import { BUILT_IN_FIELDS, FIELD_NAME_PATTERN, MAX_TEXT_VALUE, monthDay, textKeyOf } from "~/lib/custom-fields";
import { rupeesToPaise } from "~/lib/money";
import { MAX_TAGS_PER_CUSTOMER, normaliseTag, tagKey, tagProblem } from "~/lib/tags";

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

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
/** India Standard Time, the product's calendar (see ~/lib/dates). */
const IST_OFFSET_MS = 330 * 60_000;

function isPlainObject(value: unknown): value is Record<string, unknown> {
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

const LOGIC_KEYS: Record<string, Logic> = { $and: "AND", $or: "OR" };

/**
 * Parses the Mongo-style mapping into a tree, checking every field, operator and value against the
 * whitelist. A failure names the bad part by its path (e.g. `conditions.$and[1].visits.$ne`).
 */
export function parseConditions(input: unknown, root = "conditions"): ParseResult {
  let count = 0;
  const fail = (path: string, message: string): ParseResult => ({ ok: false, path, message });

  function node(value: unknown, path: string, depth: number): ParseResult {
    if (depth > MAX_DEPTH) return fail(path, `${path}: groups may be nested at most ${MAX_DEPTH} deep`);
    if (!isPlainObject(value)) return fail(path, `${path} must be an object like { "totalSpend": { "$gt": 1000 } }`);
    const keys = Object.keys(value);
    if (keys.length === 0) return fail(path, `${path}: at least one condition is required`);
    const parts: SegmentNode[] = [];
    for (const key of keys) {
      const keyPath = `${path}.${key}`;
      const item = value[key];
      if (Object.hasOwn(LOGIC_KEYS, key)) {
        if (!Array.isArray(item) || item.length === 0) {
          return fail(keyPath, `${keyPath} must be a non-empty list of conditions`);
        }
        const children: SegmentNode[] = [];
        for (let i = 0; i < item.length; i++) {
          const child = node(item[i], `${keyPath}[${i}]`, depth + 1);
          if (!child.ok) return child;
          children.push(child.tree);
        }
        parts.push({ kind: "group", logic: LOGIC_KEYS[key], children });
        continue;
      }
      if (key.startsWith(FIELD_KEY_PREFIX) || key === TAGS_KEY) {
        const read = key === TAGS_KEY ? tagsConditions(item, keyPath) : fieldConditions(key, item, keyPath);
        if (!read.ok) return read;
        count += read.nodes.length;
        if (count > MAX_CONDITIONS) return fail(keyPath, `${root}: at most ${MAX_CONDITIONS} conditions are allowed`);
        parts.push(...read.nodes);
        continue;
      }
      if (key === IN_SEGMENT_KEY) {
        const read = inSegmentConditions(item, keyPath);
        if (!read.ok) return read;
        count += read.nodes.length;
        if (count > MAX_CONDITIONS) return fail(keyPath, `${root}: at most ${MAX_CONDITIONS} conditions are allowed`);
        parts.push(...read.nodes);
        continue;
      }
      if (isActivityKey(key)) {
        const read = parseActivity(key, item, keyPath);
        if (!read.ok) return read;
        count += read.nodes.length;
        if (count > MAX_CONDITIONS) return fail(keyPath, `${root}: at most ${MAX_CONDITIONS} conditions are allowed`);
        parts.push(...read.nodes);
        continue;
      }
      if (!isField(key)) {
        return fail(
          keyPath,
          `${keyPath}: unknown field "${key}" (allowed: ${[...FIELD_NAMES, ...ACTIVITY_KEY_NAMES].join(", ")}, ${FIELD_KEY_PREFIX}<name>, ${TAGS_KEY}, ${IN_SEGMENT_KEY})`,
        );
      }
      if (!isPlainObject(item) || Object.keys(item).length === 0) {
        return fail(keyPath, `${keyPath} must map an operator to a value, like { "$gt": 1000 }`);
      }
      for (const [op, raw] of Object.entries(item)) {
        const opPath = `${keyPath}.${op}`;
        if (!isOperatorFor(key, op)) {
          const allowed = operatorsFor(key)
            .map((o) => o.value)
            .join(", ");
          return fail(opPath, `${opPath}: unknown operator "${op}" for ${key} (allowed: ${allowed})`);
        }
        count += 1;
        if (count > MAX_CONDITIONS) return fail(opPath, `${root}: at most ${MAX_CONDITIONS} conditions are allowed`);
        if (SEGMENT_FIELDS[key].type === "number") {
          const n = numericValue(raw);
          if (n === null) return fail(opPath, `${opPath}: Invalid numeric value`);
          if (Math.abs(n) > MAX_NUMBER)
            return fail(opPath, `${opPath}: the value must be between -${MAX_NUMBER} and ${MAX_NUMBER}`);
          parts.push({ kind: "condition", field: key, op, value: n });
        } else if (isRelativeDate(raw)) {
          const extra = Object.keys(raw).find((k) => k !== "$daysAgo");
          if (extra !== undefined) {
            return fail(`${opPath}.${extra}`, `${opPath}: a rolling date is { "$daysAgo": N } and nothing else`);
          }
          const days = daysAgoValue(raw.$daysAgo);
          if (days === null) return fail(`${opPath}.$daysAgo`, `${opPath}.$daysAgo: ${DAYS_AGO_MESSAGE}`);
          parts.push({ kind: "condition", field: key, op, value: { $daysAgo: days } });
        } else {
          if (!isDateValue(raw)) {
            return fail(
              opPath,
              `${opPath}: Invalid date value (use YYYY-MM-DD, an ISO date-time or { "$daysAgo": N })`,
            );
          }
          parts.push({ kind: "condition", field: key, op, value: raw });
        }
      }
    }
    return { ok: true, tree: parts.length === 1 ? parts[0] : { kind: "group", logic: "AND", children: parts } };
  }

  return node(input, root, 0);
}

type LeafResult = { ok: true; nodes: LeafNode[] } | { ok: false; path: string; message: string };

/** The conditions under the `inSegment` key: `{ "$eq": "<segment id>" }` or `{ "$ne": … }`. */
function inSegmentConditions(item: unknown, keyPath: string): LeafResult {
  if (!isPlainObject(item) || Object.keys(item).length === 0) {
    return {
      ok: false,
      path: keyPath,
      message: `${keyPath} must map an operator to a segment id, like { "$eq": "<id>" }`,
    };
  }
  const nodes: LeafNode[] = [];
  for (const [op, raw] of Object.entries(item)) {
    const opPath = `${keyPath}.${op}`;
    if (!(IN_SEGMENT_OPERATORS as readonly string[]).includes(op)) {
      return {
        ok: false,
        path: opPath,
        message: `${opPath}: unknown operator "${op}" for ${IN_SEGMENT_KEY} (allowed: ${IN_SEGMENT_OPERATORS.join(", ")})`,
      };
    }
    if (!isId(raw)) return { ok: false, path: opPath, message: `${opPath}: the value must be a segment id` };
    nodes.push({ kind: "segment", op: op as InSegmentOperator, segmentId: raw });
  }
  return { ok: true, nodes };
}
type OperandResult<T> = { ok: true; value: T } | { ok: false; path?: string; message: string };

const FIELD_VALUE_HINT = `like { "$eq": "Pune" }`;

/** The conditions under one `field:<name>` key: one per operator, each value of its operator's shape. */
function fieldConditions(key: string, item: unknown, keyPath: string): LeafResult {
  const name = key.slice(FIELD_KEY_PREFIX.length);
  if (!FIELD_NAME_PATTERN.test(name)) {
    return {
      ok: false,
      path: keyPath,
      message: `${keyPath}: "${name}" is not a field name (lowercase letters, digits and _, starting with a letter, at most 40)`,
    };
  }
  if (!isPlainObject(item) || Object.keys(item).length === 0) {
    return { ok: false, path: keyPath, message: `${keyPath} must map an operator to a value, ${FIELD_VALUE_HINT}` };
  }
  const nodes: LeafNode[] = [];
  for (const [op, raw] of Object.entries(item)) {
    const opPath = `${keyPath}.${op}`;
    if (!isFieldOperator(op)) {
      return {
        ok: false,
        path: opPath,
        message: `${opPath}: unknown operator "${op}" for a field (allowed: ${FIELD_OPERATORS.join(", ")})`,
      };
    }
    const value = fieldOperand(op, raw);
    if (!value.ok) {
      const path = !value.path
        ? opPath
        : value.path.startsWith("[")
          ? `${opPath}${value.path}`
          : `${opPath}.${value.path}`;
      return { ok: false, path, message: `${path}: ${value.message}` };
    }
    nodes.push({ kind: "field", name, op, value: value.value });
  }
  return { ok: true, nodes };
}

export function isFieldOperator(op: unknown): op is FieldOperator {
  return typeof op === "string" && (FIELD_OPERATORS as readonly string[]).includes(op);
}

export function isRangeOperator(op: string): op is FieldRangeOperator {
  return op === "$gt" || op === "$gte" || op === "$lt" || op === "$lte";
}

/** A text a condition compares with: one line, not empty, at most as long as a stored text. */
function conditionText(raw: unknown): OperandResult<string> {
  if (typeof raw !== "string") return { ok: false, message: "must be a text" };
  const text = raw.trim();
  if (text === "") return { ok: false, message: "must not be empty" };
  if (text.length > MAX_TEXT_VALUE) return { ok: false, message: `must be at most ${MAX_TEXT_VALUE} characters` };
  if (/[\r\n]/.test(text)) return { ok: false, message: "must be one line" };
  return { ok: true, value: text };
}

function fieldNumber(raw: unknown): number | null {
  const n = numericValue(raw);
  return n !== null && Math.abs(n) <= MAX_FIELD_NUMBER ? n : null;
}

/** The value of one field operator, in the shape the operator takes (the field's type is checked later). */
function fieldOperand(op: FieldOperator, raw: unknown): OperandResult<FieldConditionNode["value"]> {
  switch (op) {
    case "$exists":
      if (raw === true || raw === "true") return { ok: true, value: true };
      if (raw === false || raw === "false") return { ok: true, value: false };
      return { ok: false, message: "must be true (has a value) or false (is empty)" };
    case "$eq":
    case "$ne": {
      if (typeof raw === "boolean") return { ok: true, value: raw };
      if (typeof raw === "number") {
        const n = fieldNumber(raw);
        return n === null ? { ok: false, message: "must be a finite number" } : { ok: true, value: n };
      }
      if (typeof raw === "string") return conditionText(raw);
      return { ok: false, message: "must be a text, a number or true/false" };
    }
    case "$contains":
    case "$startsWith":
      return conditionText(raw);
    case "$in": {
      if (!Array.isArray(raw) || raw.length === 0) return { ok: false, message: "must be a non-empty list of texts" };
      if (raw.length > MAX_LISTED_VALUES)
        return { ok: false, message: `must list at most ${MAX_LISTED_VALUES} values` };
      const seen = new Map<string, string>();
      for (let i = 0; i < raw.length; i++) {
        const text = conditionText(typeof raw[i] === "number" ? String(raw[i]) : raw[i]);
        if (!text.ok) return { ok: false, path: `[${i}]`, message: text.message };
        if (!seen.has(textKeyOf(text.value))) seen.set(textKeyOf(text.value), text.value);
      }
      return { ok: true, value: [...seen.values()] };
    }
    case "$anniversaryWithinDays": {
      const n = numericValue(raw);
      if (n === null || !Number.isInteger(n) || n < 0 || n > MAX_ANNIVERSARY_DAYS) {
        return { ok: false, message: `the number of days must be a whole number from 0 to ${MAX_ANNIVERSARY_DAYS}` };
      }
      return { ok: true, value: n };
    }
    default: {
      // $gt, $gte, $lt, $lte: a number, a date, or a rolling day.
      if (isPlainObject(raw)) {
        const keys = Object.keys(raw);
        const unit = keys[0];
        if (keys.length !== 1 || (unit !== "$daysAgo" && unit !== "$daysAhead")) {
          return { ok: false, message: `a rolling day is { "$daysAgo": N } or { "$daysAhead": N } and nothing else` };
        }
        const days = daysAgoValue(raw[unit]);
        if (days === null) return { ok: false, path: unit, message: DAYS_AGO_MESSAGE };
        return { ok: true, value: unit === "$daysAgo" ? { $daysAgo: days } : { $daysAhead: days } };
      }
      if (typeof raw === "string" && isCalendarDate(raw.trim())) return { ok: true, value: raw.trim() };
      const n = fieldNumber(raw);
      if (n !== null) return { ok: true, value: n };
      return {
        ok: false,
        message: `must be a number, a date like 2024-05-31, { "$daysAgo": N } or { "$daysAhead": N }`,
      };
    }
  }
}

/** The conditions under `tags`: one per operator, each a list of tags (kept once per spelling). */
function tagsConditions(item: unknown, keyPath: string): LeafResult {
  if (!isPlainObject(item) || Object.keys(item).length === 0) {
    return { ok: false, path: keyPath, message: `${keyPath} must map an operator to a list, like { "$in": ["vip"] }` };
  }
  const nodes: LeafNode[] = [];
  for (const [op, raw] of Object.entries(item)) {
    const opPath = `${keyPath}.${op}`;
    if (!(TAGS_OPERATORS as readonly string[]).includes(op)) {
      return {
        ok: false,
        path: opPath,
        message: `${opPath}: unknown operator "${op}" for tags (allowed: ${TAGS_OPERATORS.join(", ")})`,
      };
    }
    if (!Array.isArray(raw) || raw.length === 0) {
      return { ok: false, path: opPath, message: `${opPath}: must be a non-empty list of tags` };
    }
    if (raw.length > MAX_TAGS_PER_CUSTOMER) {
      return { ok: false, path: opPath, message: `${opPath}: must list at most ${MAX_TAGS_PER_CUSTOMER} tags` };
    }
    const seen = new Map<string, string>();
    for (let i = 0; i < raw.length; i++) {
      const problem = tagProblem(raw[i]);
      if (problem) return { ok: false, path: `${opPath}[${i}]`, message: `${opPath}[${i}]: ${problem}` };
      const tag = normaliseTag(raw[i] as string);
      if (!seen.has(tagKey(tag))) seen.set(tagKey(tag), tag);
    }
    nodes.push({ kind: "tags", op: op as TagsOperator, value: [...seen.values()] });
  }
  return { ok: true, nodes };
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

/** The names of the fields a tree tests, each once, in order of appearance. */
export function fieldNamesOf(tree: SegmentNode): string[] {
  const names = new Set<string>();
  const walk = (node: SegmentNode) => {
    if (node.kind === "field") names.add(node.name);
    else if (node.kind === "group") node.children.forEach(walk);
  };
  walk(tree);
  return [...names];
}

// ---------------------------------------------------------------------------------------------
// Values as the database compares them: paise and epoch milliseconds

export type ColumnComparison = { column: "totalSpendPaise" | "visits" | "lastActive"; op: Operator; value: number };

/** Start of a calendar day in India Standard Time, as epoch milliseconds. */
export function istDayStart(date: string): number {
  const m = DATE_ONLY.exec(date);
  if (!m) throw new Error(`Not a date: ${date}`);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) - IST_OFFSET_MS;
}

const DAY_MS = 86_400_000;

/** The calendar day (YYYY-MM-DD, India Standard Time) `days` before the day of `now`. */
export function istDateDaysAgo(days: number, now: number): string {
  return new Date(now + IST_OFFSET_MS - days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The tree with each rolling date replaced by the calendar day it names at `now`. Counting,
 * previews, pages and the campaign snapshot resolve the tree when they run, so a rolling date is
 * evaluated at that moment; the result only changes at midnight IST, so compiled plans keyed by it
 * are reused all day.
 */
export function resolveRelativeDates(tree: SegmentNode, now: number): SegmentNode {
  if (tree.kind === "condition") {
    return isRelativeDate(tree.value) ? { ...tree, value: istDateDaysAgo(tree.value.$daysAgo, now) } : tree;
  }
  if (tree.kind === "tags") return tree;
  if (tree.kind === "segment") {
    if (!tree.target) return tree;
    const inner = resolveRelativeDates(tree.target.tree, now);
    return inner === tree.target.tree ? tree : { ...tree, target: { ...tree.target, tree: inner } };
  }
  if (tree.kind === "activity") {
    // A rolling date becomes its day, a window its first day, as of `now`.
    const value = isRelativeDate(tree.value) ? istDateDaysAgo(tree.value.$daysAgo, now) : tree.value;
    const since =
      tree.withinDays !== undefined && tree.since === undefined ? istDateDaysAgo(tree.withinDays, now) : tree.since;
    return value === tree.value && since === tree.since ? tree : { ...tree, value, ...(since ? { since } : {}) };
  }
  if (tree.kind === "field") {
    if (tree.op === "$anniversaryWithinDays") return tree.today ? tree : { ...tree, today: istDateDaysAgo(0, now) };
    return isRelativeDay(tree.value) ? { ...tree, value: relativeDayDate(tree.value, now) } : tree;
  }
  let changed = false;
  const children = tree.children.map((c) => {
    const r = resolveRelativeDates(c, now);
    if (r !== c) changed = true;
    return r;
  });
  return changed ? { ...tree, children } : tree;
}

/** Whether a tree holds a rolling date (its audience depends on the day it is counted). */
export function hasRelativeDates(tree: SegmentNode): boolean {
  switch (tree.kind) {
    case "condition":
      return isRelativeDate(tree.value);
    case "field":
      return (tree.op === "$anniversaryWithinDays" && !tree.today) || isRelativeDay(tree.value);
    case "tags":
      return false;
    case "segment":
      return tree.target ? hasRelativeDates(tree.target.tree) : false;
    case "activity":
      return isRelativeDate(tree.value) || (tree.withinDays !== undefined && tree.since === undefined);
    default:
      return tree.children.some(hasRelativeDates);
  }
}

export function isRelativeDay(value: unknown): value is RelativeDay {
  return isPlainObject(value) && (Object.hasOwn(value, "$daysAgo") || Object.hasOwn(value, "$daysAhead"));
}

/** The calendar day (YYYY-MM-DD, IST) a rolling day names at `now`. */
export function relativeDayDate(day: RelativeDay, now: number): string {
  return "$daysAgo" in day ? istDateDaysAgo(day.$daysAgo, now) : istDateDaysAgo(-day.$daysAhead, now);
}

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/**
 * The month-days (MMDD, as a date's `numberValue` holds them) an anniversary window covers: from
 * `today` (YYYY-MM-DD) to `days` days after it, as one range or, when it wraps the year's end, two
 * (`[1126, 1231]` and `[101, 105]`). MMDD numbers no date has (132, 230) fall inside the ranges
 * harmlessly. 29 February is celebrated on 28 February in a year without one, so a window that
 * ends on that 28 February takes it too; a window of 365 days or more is the whole year.
 */
export function anniversaryRanges(today: string, days: number): [number, number][] {
  if (days >= 365) return [[101, 1231]];
  const start = Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 1, Number(today.slice(8, 10)));
  const end = new Date(start + days * DAY_MS).toISOString().slice(0, 10);
  const from = monthDay(today);
  let to = monthDay(end);
  if (to === 228 && !isLeapYear(Number(end.slice(0, 4)))) to = 229;
  return to >= from
    ? [[from, to]]
    : [
        [from, 1231],
        [101, to],
      ];
}

/**
 * A condition as a comparison on a column. Rupees become integer paise (rounded to the paise).
 * A calendar date means the whole day in IST: after D is from the next day on, on or before D is
 * up to the end of D. A full ISO time compares at that instant.
 */
export function toComparison(c: ConditionNode, now: number = Date.now()): ColumnComparison {
  if (c.field === "totalSpend") return { column: "totalSpendPaise", op: c.op, value: rupeesToPaise(Number(c.value)) };
  if (c.field === "visits") return { column: "visits", op: c.op, value: Number(c.value) };
  // A rolling date is its calendar day at `now`, compared as that day is.
  const value = isRelativeDate(c.value) ? istDateDaysAgo(c.value.$daysAgo, now) : String(c.value);
  if (!DATE_ONLY.test(value)) return { column: "lastActive", op: c.op, value: Date.parse(value) };
  const start = istDayStart(value);
  switch (c.op) {
    case "$gt":
      return { column: "lastActive", op: "$gte", value: start + DAY_MS };
    case "$gte":
      return { column: "lastActive", op: "$gte", value: start };
    case "$lt":
      return { column: "lastActive", op: "$lt", value: start };
    case "$lte":
      return { column: "lastActive", op: "$lt", value: start + DAY_MS };
    default:
      throw new Error(`Operator ${c.op} is not offered for dates`);
  }
}

// ---------------------------------------------------------------------------------------------
// Presentation

/** A rolling date in words: "in the last 30 days", "more than 90 days ago"; 0 days is today. */
export function describeRelative(op: Operator, days: number): string {
  const d = `${days.toLocaleString("en-IN")} day${days === 1 ? "" : "s"}`;
  if (days === 0) {
    return { $gt: "after today", $gte: "today", $lt: "before today", $lte: "on or before today", $eq: "today" }[op];
  }
  switch (op) {
    case "$gte":
      return `in the last ${d}`;
    case "$gt":
      return `less than ${d} ago`;
    case "$lt":
      return `more than ${d} ago`;
    case "$lte":
      return `${d} or more ago`;
    default:
      return `${d} ago`;
  }
}

export function describeCondition(c: ConditionNode): string {
  const field = SEGMENT_FIELDS[c.field];
  if (isRelativeDate(c.value)) return `${field.short} ${describeRelative(c.op, c.value.$daysAgo)}`;
  const value =
    c.field === "totalSpend"
      ? `₹${Number(c.value).toLocaleString("en-IN")}`
      : c.field === "visits"
        ? String(c.value)
        : String(c.value)
            .slice(0, DATE_ONLY.test(String(c.value)) ? 10 : 16)
            .replace("T", " ");
  return `${field.short} ${operatorLabel(c.field, c.op)} ${value}`;
}

/** The labels of the tenant's fields by name, for words; a field not given is named by the built-in list or its name. */
export type FieldLabels = ReadonlyMap<string, string> | Readonly<Record<string, string>>;

/** A field's label for words: the tenant's, a built-in one's, or its name made readable ("loyalty_tier" → "Loyalty tier"). */
export function fieldLabel(name: string, labels?: FieldLabels): string {
  const given =
    labels instanceof Map ? labels.get(name) : labels ? (labels as Record<string, string>)[name] : undefined;
  if (typeof given === "string") return given;
  const builtIn = BUILT_IN_FIELDS.find((f) => f.name === name);
  if (builtIn) return builtIn.label;
  const words = name.replace(/_+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const FIELD_OPERATOR_WORDS: Record<Exclude<FieldOperator, "$exists" | "$anniversaryWithinDays">, string> = {
  $eq: "is",
  $ne: "is not",
  $contains: "contains",
  $startsWith: "starts with",
  $in: "is any of",
  $gt: "greater than",
  $gte: "greater than or equal to",
  $lt: "less than",
  $lte: "less than or equal to",
};
const DATE_OPERATOR_WORDS: Record<FieldRangeOperator, string> = {
  $gt: "after",
  $gte: "on or after",
  $lt: "before",
  $lte: "on or before",
};
const TAGS_OPERATOR_WORDS: Record<TagsOperator, string> = {
  $in: "has any of",
  $all: "has all of",
  $nin: "has none of",
};

const days = (n: number) => `${n.toLocaleString("en-IN")} day${n === 1 ? "" : "s"}`;

/** A rolling day in words: "30 days ago", "today", "7 days from now". */
function describeRelativeDay(day: RelativeDay): string {
  const n = "$daysAgo" in day ? day.$daysAgo : day.$daysAhead;
  if (n === 0) return "today";
  return "$daysAgo" in day ? `${days(n)} ago` : `${days(n)} from now`;
}

/**
 * A field condition in words: "City is Pune", "Tier is any of gold, silver", "Score not equal to
 * 5", "Renewal on or before 30 days from now", "Birthday anniversary within 7 days", "City is empty".
 */
export function describeFieldCondition(c: FieldConditionNode, labels?: FieldLabels): string {
  const label = fieldLabel(c.name, labels);
  const v = c.value;
  if (c.op === "$exists") return `${label} ${v === false ? "is empty" : "is set"}`;
  if (c.op === "$anniversaryWithinDays") {
    const n = Number(v);
    return `${label} anniversary ${n === 0 ? "today" : `within ${days(n)}`}`;
  }
  if (isRangeOperator(c.op)) {
    if (isRelativeDay(v)) return `${label} ${DATE_OPERATOR_WORDS[c.op]} ${describeRelativeDay(v)}`;
    if (typeof v === "string") return `${label} ${DATE_OPERATOR_WORDS[c.op]} ${v}`;
    return `${label} ${FIELD_OPERATOR_WORDS[c.op]} ${Number(v).toLocaleString("en-IN", { maximumFractionDigits: 6 })}`;
  }
  if (Array.isArray(v)) return `${label} ${FIELD_OPERATOR_WORDS[c.op]} ${v.join(", ")}`;
  if (typeof v === "boolean") return `${label} ${c.op === "$ne" ? "is not" : "is"} ${v ? "Yes" : "No"}`;
  if (typeof v === "number") {
    const n = v.toLocaleString("en-IN", { maximumFractionDigits: 6 });
    return `${label} ${c.op === "$ne" ? "not equal to" : "equal to"} ${n}`;
  }
  return `${label} ${FIELD_OPERATOR_WORDS[c.op]} ${String(v)}`;
}

/** A tags condition in words: "Tags has any of vip, trade fair". */
export function describeTagsCondition(c: TagsConditionNode): string {
  return `Tags ${TAGS_OPERATOR_WORDS[c.op]} ${c.value.join(", ")}`;
}

/**
 * A membership condition in words: 'In segment "VIP"', 'Not in segment "VIP"'; the name from the
 * node's target, or from `names` (the tenant's segments by id); a segment no longer there is said so.
 */
export function describeSegmentCondition(c: SegmentRefNode, names?: Readonly<Record<string, string>>): string {
  const name = c.target?.name ?? names?.[c.segmentId];
  const which = name === undefined ? "a deleted segment" : `segment "${name}"`;
  return `${c.op === "$eq" ? "In" : "Not in"} ${which}`;
}

/**
 * The whole tree in words, groups in brackets; `labels` names the tenant's fields, `segmentNames`
 * its segments by id.
 */
export function describeTree(
  tree: SegmentNode,
  labels?: FieldLabels,
  segmentNames?: Readonly<Record<string, string>>,
): string {
  const walk = (node: SegmentNode, nested: boolean): string => {
    if (node.kind === "condition") return describeCondition(node);
    if (node.kind === "segment") return describeSegmentCondition(node, segmentNames);
    if (node.kind === "field") return describeFieldCondition(node, labels);
    if (node.kind === "tags") return describeTagsCondition(node);
    if (node.kind === "activity") return describeActivity(node);
    const inner = node.children.map((c) => walk(c, true)).join(` ${node.logic} `);
    return nested && node.children.length > 1 ? `(${inner})` : inner;
  };
  return walk(tree, false);
}

const CHIP_COLOURS = [
  "bg-blue-100 text-blue-800",
  "bg-emerald-100 text-emerald-800",
  "bg-amber-100 text-amber-800",
  "bg-rose-100 text-rose-800",
  "bg-violet-100 text-violet-800",
  "bg-cyan-100 text-cyan-800",
  "bg-orange-100 text-orange-800",
  "bg-lime-100 text-lime-800",
  "bg-fuchsia-100 text-fuchsia-800",
  "bg-teal-100 text-teal-800",
] as const;

/** The chip colour of a segment, derived from its name: the same name always gets the same colour. */
export function segmentChipClass(name: string): string {
  let hash = 0;
  for (const ch of name.trim().toLowerCase()) hash = (hash * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
  return CHIP_COLOURS[hash % CHIP_COLOURS.length];
}

export const SEGMENT_CHIP_CLASSES = CHIP_COLOURS;

/** Names compared as a user reads them: case and surrounding spaces do not matter. */
export function sameSegmentName(a: string, b: string): boolean {
  return a.trim().toLocaleLowerCase("en-IN") === b.trim().toLocaleLowerCase("en-IN");
}

/**
 * The warning for a name another of the user's segments already has (docs/rules.md#segment-names):
 * two segments may share a name, but the user is told, in the form and in the API's answer.
 */
export function duplicateNameWarning(name: string, otherNames: readonly string[]): string | null {
  const existing = name.trim() === "" ? undefined : otherNames.find((other) => sameSegmentName(other, name));
  return existing === undefined ? null : `A segment named "${existing}" already exists.`;
}

export const AUDIENCE_SAMPLE_SIZE = 10;

/** The preview panel's note, only above 10 customers (docs/rules.md#audience-preview). */
export function previewNote(count: number): string | null {
  return count > AUDIENCE_SAMPLE_SIZE ? `Showing all ${count.toLocaleString("en-IN")}` : null;
}
