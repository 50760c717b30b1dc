// The segment rules (docs/rules.md#segment-conditions), isomorphic: the fields and operators a
// segment may use, the condition tree and its Mongo-style mapping (`{ totalSpend: { $gt: 1000 } }`,
// several under `$and`/`$or`, groups nested), and its parser, which names the bad part of a bad tree.
import { rupeesToPaise } from "~/lib/money";

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
export type GroupNode = { kind: "group"; logic: Logic; children: SegmentNode[] };
export type SegmentNode = ConditionNode | GroupNode;

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

export type ParseResult = { ok: true; tree: SegmentNode } | { ok: false; path: string; message: string };

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
/** India Standard Time, the product's calendar (see ~/lib/dates). */
const IST_OFFSET_MS = 330 * 60_000;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A calendar date string is valid when it round-trips (no 2024-02-30). */
function validDateOnly(value: string): boolean {
  const m = DATE_ONLY.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

export function isDateValue(value: unknown): value is string {
  if (typeof value !== "string") return false;
  if (validDateOnly(value)) return true;
  return ISO_TIME.test(value) && validDateOnly(value.slice(0, 10)) && Number.isFinite(Date.parse(value));
}

export function isRelativeDate(value: unknown): value is RelativeDate {
  return isPlainObject(value) && Object.hasOwn(value, "$daysAgo");
}

/** The days of a rolling date's `$daysAgo` (a number or its digits), or null when out of range. */
export function daysAgoValue(value: unknown): number | null {
  const n = numericValue(value);
  return n !== null && Number.isInteger(n) && n >= 0 && n <= MAX_DAYS_AGO ? n : null;
}

/** A number, or a string that is exactly a decimal number ("1000", "12.5"). */
export function numericValue(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string" && /^\s*-?(\d+(\.\d*)?|\.\d+)\s*$/.test(value)) return Number(value);
  return null;
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
      if (!isField(key)) {
        return fail(keyPath, `${keyPath}: unknown field "${key}" (allowed: ${FIELD_NAMES.join(", ")})`);
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

/** The tree as the Mongo-style mapping. A single condition is sent alone. */
export function toConditions(tree: SegmentNode): Conditions {
  if (tree.kind === "condition") return { [tree.field]: { [tree.op]: tree.value } };
  if (tree.children.length === 1) return toConditions(tree.children[0]);
  return { [tree.logic === "OR" ? "$or" : "$and"]: tree.children.map(toConditions) };
}

/** The logicType stored with a segment: the top-level combinator. */
export function topLogic(tree: SegmentNode): Logic {
  return tree.kind === "group" && tree.children.length > 1 ? tree.logic : "AND";
}

export function countConditions(tree: SegmentNode): number {
  return tree.kind === "condition" ? 1 : tree.children.reduce((n, c) => n + countConditions(c), 0);
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
  return tree.kind === "condition" ? isRelativeDate(tree.value) : tree.children.some(hasRelativeDates);
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

export function describeTree(tree: SegmentNode, nested = false): string {
  if (tree.kind === "condition") return describeCondition(tree);
  const inner = tree.children.map((c) => describeTree(c, true)).join(` ${tree.logic} `);
  return nested && tree.children.length > 1 ? `(${inner})` : inner;
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
