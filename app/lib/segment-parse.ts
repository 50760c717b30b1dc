// The segment parser: a Mongo-style condition mapping (from /api, a saved segment, the builder's
// form) read into a validated tree (./segments.ts's types), or the path and the words of the first
// bad part, as the user will read them ("conditions.$and[1].totalSpend.$gt: …").
import { isCalendarDate } from "~/lib/dates";
import { isId } from "~/lib/id";
import { numericValue } from "~/lib/numbers";
import { ACTIVITY_KEY_NAMES, isActivityKey, parseActivity } from "~/lib/segment-activity";
import { FIELD_NAME_PATTERN, MAX_TEXT_VALUE, textKeyOf } from "~/lib/custom-fields";
import { MAX_TAGS_PER_CUSTOMER, normaliseTag, tagKey, tagProblem } from "~/lib/tags";
import {
  DAYS_AGO_MESSAGE,
  FIELD_KEY_PREFIX,
  FIELD_NAMES,
  FIELD_OPERATORS,
  type FieldConditionNode,
  type FieldOperator,
  type FieldRangeOperator,
  IN_SEGMENT_KEY,
  IN_SEGMENT_OPERATORS,
  type InSegmentOperator,
  type LeafNode,
  type Logic,
  MAX_ANNIVERSARY_DAYS,
  MAX_CONDITIONS,
  MAX_DEPTH,
  MAX_FIELD_NUMBER,
  MAX_LISTED_VALUES,
  MAX_NUMBER,
  type ParseResult,
  SEGMENT_FIELDS,
  type SegmentNode,
  TAGS_KEY,
  TAGS_OPERATORS,
  type TagsOperator,
  daysAgoValue,
  isDateValue,
  isField,
  isOperatorFor,
  isPlainObject,
  isRelativeDate,
  operatorsFor,
} from "~/lib/segments";

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
