// Segment conditions as the database compares them: a calendar day of India Standard Time as epoch
// milliseconds, rolling dates ("in the last 30 days") resolved to the day the audience is counted,
// a birthday's anniversary window as day-of-year ranges, and a customer-figure condition as a
// column comparison in paise and milliseconds. The rules themselves are ./segments.ts's.
import { monthDay } from "~/lib/custom-fields";
import { rupeesToPaise } from "~/lib/money";
import {
  type ConditionNode,
  DATE_ONLY,
  IST_OFFSET_MS,
  type Operator,
  type RelativeDay,
  type SegmentNode,
  isPlainObject,
  isRelativeDate,
} from "~/lib/segments";

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
