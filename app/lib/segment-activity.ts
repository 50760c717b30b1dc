// Segment conditions on what a customer did (docs/decisions/0041-custom-fields-and-tags.md),
// isomorphic: their orders (how many, in all or in the last N days; first and last order date;
// average order value; spend in the last N days; a product bought or not), the messages they
// engaged with (last open, last click, messages received in the last N days), and their consent
// and suppression. ./segments.ts parses the rest of the mapping and hands these keys here; the SQL
// is app/models/segments/audience/activity.ts.
//
// In the mapping: `{ "orderCount": { "$gte": 3 } }`, `{ "orderCount": { "$gte": 2, "withinDays": 30 } }`,
// `{ "lastOrderDate": { "$lt": { "$daysAgo": 60 } } }`, `{ "averageOrderValue": { "$gt": 2000 } }`,
// `{ "spendWithinDays": { "$gte": 5000, "withinDays": 90 } }`, `{ "boughtProduct": { "$eq": "Saree" } }`,
// `{ "lastOpenDate": { "$gte": { "$daysAgo": 90 } } }`, `{ "messagesReceived": { "$gte": 3, "withinDays": 30 } }`,
// `{ "consent": { "$eq": "subscribed" } }`, `{ "suppressed": { "$eq": true } }`.
import { isCalendarDate } from "~/lib/dates";
import { numericValue } from "~/lib/numbers";
import { CONSENT_STATUSES, CONSENT_LABELS, type ConsentStatus } from "~/lib/consent";

type Kind = "count" | "rupees" | "date" | "product" | "consent" | "boolean";

/** Each key: what it compares, whether it takes `withinDays` (a window of the last N days), its words. */
export const ACTIVITY_KEYS = {
  orderCount: { kind: "count", window: "optional", label: "Number of orders" },
  firstOrderDate: { kind: "date", window: "none", label: "First order" },
  lastOrderDate: { kind: "date", window: "none", label: "Last order" },
  averageOrderValue: { kind: "rupees", window: "none", label: "Average order value (₹)" },
  spendWithinDays: { kind: "rupees", window: "required", label: "Spend (₹)" },
  boughtProduct: { kind: "product", window: "none", label: "Bought product" },
  lastOpenDate: { kind: "date", window: "none", label: "Last open" },
  lastClickDate: { kind: "date", window: "none", label: "Last click" },
  messagesReceived: { kind: "count", window: "required", label: "Messages received" },
  consent: { kind: "consent", window: "none", label: "Consent" },
  suppressed: { kind: "boolean", window: "none", label: "Suppressed" },
} as const satisfies Record<string, { kind: Kind; window: "none" | "optional" | "required"; label: string }>;

export type ActivityKey = keyof typeof ACTIVITY_KEYS;
export const ACTIVITY_KEY_NAMES = Object.keys(ACTIVITY_KEYS) as ActivityKey[];

export type ActivityOperator = "$gt" | "$gte" | "$lt" | "$lte" | "$eq" | "$ne";

/** Whether figure `a` stands to `b` as the operator asks (a count's or an amount's test). */
export const figureHolds = (a: number, op: ActivityOperator, b: number): boolean =>
  op === "$gt"
    ? a > b
    : op === "$gte"
      ? a >= b
      : op === "$lt"
        ? a < b
        : op === "$lte"
          ? a <= b
          : op === "$eq"
            ? a === b
            : a !== b;

const OPERATORS_OF: Record<Kind, readonly ActivityOperator[]> = {
  count: ["$gt", "$gte", "$lt", "$lte", "$eq", "$ne"],
  rupees: ["$gt", "$gte", "$lt", "$lte", "$eq", "$ne"],
  date: ["$gt", "$gte", "$lt", "$lte"],
  product: ["$eq", "$ne"],
  consent: ["$eq", "$ne"],
  boolean: ["$eq"],
};

/** The operators a key takes, in the order the builder offers them. */
export function activityOperators(key: ActivityKey): readonly ActivityOperator[] {
  return OPERATORS_OF[ACTIVITY_KEYS[key].kind];
}

/** A rolling day of an activity date: N days before the day the audience is counted. */
export type ActivityRelativeDate = { $daysAgo: number };

/**
 * One condition on what a customer did. `value`: a count or rupees (number), a date (YYYY-MM-DD)
 * or rolling date, a product's name, a consent status, true/false. `withinDays`: the window of an
 * order count, a spend or messages received (the last N days).
 */
export type ActivityConditionNode = {
  kind: "activity";
  key: ActivityKey;
  op: ActivityOperator;
  value: number | string | boolean | ActivityRelativeDate;
  withinDays?: number;
  /** The window's first day (YYYY-MM-DD, IST), set when the tree is resolved at a moment. */
  since?: string;
};

export const MAX_WINDOW_DAYS = 36_500;
const MAX_PRODUCT_NAME = 200;
const MAX_ACTIVITY_NUMBER = 1e12;

export function isActivityKey(key: string): key is ActivityKey {
  return Object.hasOwn(ACTIVITY_KEYS, key);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const wholeDays = (v: unknown, max: number): number | null => {
  const n = numericValue(v);
  return n !== null && Number.isInteger(n) && n >= 0 && n <= max ? n : null;
};

export type ActivityParse = { ok: true; nodes: ActivityConditionNode[] } | { ok: false; path: string; message: string };

/** The conditions under one activity key: one per operator, each value of its key's kind. */
export function parseActivity(key: ActivityKey, item: unknown, keyPath: string): ActivityParse {
  const fail = (path: string, message: string): ActivityParse => ({ ok: false, path, message });
  const spec = ACTIVITY_KEYS[key];
  if (!isObject(item) || Object.keys(item).length === 0) {
    return fail(keyPath, `${keyPath} must map an operator to a value, like { "$gte": 2 }`);
  }
  let withinDays: number | undefined;
  if (Object.hasOwn(item, "withinDays")) {
    if (spec.window === "none") return fail(`${keyPath}.withinDays`, `${keyPath}: ${key} takes no withinDays`);
    const days = wholeDays(item.withinDays, MAX_WINDOW_DAYS);
    if (days === null || days === 0) {
      return fail(
        `${keyPath}.withinDays`,
        `${keyPath}.withinDays: the number of days must be a whole number from 1 to ${MAX_WINDOW_DAYS.toLocaleString("en-IN")}`,
      );
    }
    withinDays = days;
  } else if (spec.window === "required") {
    return fail(
      keyPath,
      `${keyPath}: ${key} needs withinDays, the last N days it counts (like { "$gte": 3, "withinDays": 30 })`,
    );
  }
  const nodes: ActivityConditionNode[] = [];
  const allowed = OPERATORS_OF[spec.kind];
  for (const [op, raw] of Object.entries(item)) {
    if (op === "withinDays") continue;
    const opPath = `${keyPath}.${op}`;
    if (!(allowed as readonly string[]).includes(op)) {
      return fail(opPath, `${opPath}: unknown operator "${op}" for ${key} (allowed: ${allowed.join(", ")})`);
    }
    const operator = op as ActivityOperator;
    const push = (value: ActivityConditionNode["value"]) =>
      nodes.push({ kind: "activity", key, op: operator, value, ...(withinDays !== undefined ? { withinDays } : {}) });
    switch (spec.kind) {
      case "count":
      case "rupees": {
        const n = numericValue(raw);
        if (n === null || n < 0 || n > MAX_ACTIVITY_NUMBER) {
          return fail(opPath, `${opPath}: the value must be a number from 0 to ${MAX_ACTIVITY_NUMBER}`);
        }
        if (spec.kind === "count" && !Number.isInteger(n))
          return fail(opPath, `${opPath}: the value must be a whole number`);
        push(n);
        break;
      }
      case "date": {
        if (isObject(raw)) {
          const days = Object.keys(raw).length === 1 ? wholeDays(raw.$daysAgo, MAX_WINDOW_DAYS) : null;
          if (days === null) {
            return fail(opPath, `${opPath}: a rolling date is { "$daysAgo": N }, N a whole number from 0 to 36,500`);
          }
          push({ $daysAgo: days });
        } else if (typeof raw === "string" && isCalendarDate(raw.trim())) {
          push(raw.trim());
        } else {
          return fail(opPath, `${opPath}: Invalid date value (use YYYY-MM-DD or { "$daysAgo": N })`);
        }
        break;
      }
      case "product": {
        const name = typeof raw === "string" ? raw.trim() : "";
        if (name === "" || name.length > MAX_PRODUCT_NAME) {
          return fail(opPath, `${opPath}: the product's name must be text of 1 to ${MAX_PRODUCT_NAME} characters`);
        }
        push(name);
        break;
      }
      case "consent": {
        if (typeof raw !== "string" || !(CONSENT_STATUSES as readonly string[]).includes(raw)) {
          return fail(opPath, `${opPath}: consent is one of ${CONSENT_STATUSES.join(", ")}`);
        }
        push(raw);
        break;
      }
      case "boolean": {
        if (typeof raw !== "boolean") return fail(opPath, `${opPath}: the value must be true or false`);
        push(raw);
        break;
      }
    }
  }
  if (nodes.length === 0) return fail(keyPath, `${keyPath} must map an operator to a value, like { "$gte": 2 }`);
  return { ok: true, nodes };
}

/** The condition as the mapping writes it. */
export function activityToConditions(node: ActivityConditionNode): Record<string, unknown> {
  return {
    [node.key]: { [node.op]: node.value, ...(node.withinDays !== undefined ? { withinDays: node.withinDays } : {}) },
  };
}

const WORDS: Record<ActivityOperator, string> = {
  $gt: "more than",
  $gte: "at least",
  $lt: "less than",
  $lte: "at most",
  $eq: "exactly",
  $ne: "not",
};

const DATE_WORDS: Record<ActivityOperator, string> = {
  $gt: "after",
  $gte: "on or after",
  $lt: "before",
  $lte: "on or before",
  $eq: "on",
  $ne: "not on",
};

const days = (n: number) => `${n.toLocaleString("en-IN")} day${n === 1 ? "" : "s"}`;

/** A condition in words: "Number of orders at least 3 in the last 30 days", "Last open in the last 90 days". */
export function describeActivity(node: ActivityConditionNode): string {
  const spec = ACTIVITY_KEYS[node.key];
  const within = node.withinDays !== undefined ? ` in the last ${days(node.withinDays)}` : "";
  const v = node.value;
  switch (spec.kind) {
    case "count":
      return `${spec.label} ${WORDS[node.op]} ${Number(v).toLocaleString("en-IN")}${within}`;
    case "rupees":
      return `${spec.label.replace(" (₹)", "")} ${WORDS[node.op]} ₹${Number(v).toLocaleString("en-IN")}${within}`;
    case "date":
      if (typeof v === "object" && v !== null && "$daysAgo" in v) {
        const n = v.$daysAgo;
        if (node.op === "$gte") return `${spec.label} in the last ${days(n)}`;
        if (node.op === "$lt") return `${spec.label} more than ${days(n)} ago`;
        return `${spec.label} ${DATE_WORDS[node.op]} ${days(n)} ago`;
      }
      return `${spec.label} ${DATE_WORDS[node.op]} ${String(v)}`;
    case "product":
      return node.op === "$eq" ? `Bought ${String(v)}` : `Never bought ${String(v)}`;
    case "consent":
      return `Consent ${node.op === "$eq" ? "is" : "is not"} ${CONSENT_LABELS[v as ConsentStatus]}`;
    case "boolean":
      return v === true ? "Suppressed" : "Not suppressed";
  }
}
