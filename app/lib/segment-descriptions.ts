// Segment conditions as people read them: each condition and a whole tree in words (the segment
// page, the preview, the AI's description), a segment's chip colour, the duplicate-name warning and
// the preview's note. The rules themselves are ./segments.ts's.
import { BUILT_IN_FIELDS } from "~/lib/custom-fields";
import { describeActivity } from "~/lib/segment-activity";
import {
  type ConditionNode,
  DATE_ONLY,
  type FieldConditionNode,
  type FieldOperator,
  type FieldRangeOperator,
  type Operator,
  type RelativeDay,
  SEGMENT_FIELDS,
  type SegmentNode,
  type SegmentRefNode,
  type TagsConditionNode,
  type TagsOperator,
  isRelativeDate,
  operatorLabel,
} from "~/lib/segments";
import { isRangeOperator } from "~/lib/segment-parse";
import { isRelativeDay } from "~/lib/segment-dates";

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
