// The 'Use AI' dialog (docs/rules.md#use-ai): a description is interpreted locally, by keyword, into
// conditions. Spend, visits and days of activity are recognised; the defaults are spend greater
// than 1000 without a number, visits greater than 3, activity within 30 days, and totalSpend
// greater than 500 when nothing matched. Activity is a rolling date ("in the last 60 days" stays
// the last 60 days as time passes), never a fixed calendar day.
import {
  type BuilderCondition,
  type BuilderGroup,
  type BuilderOperator,
  MESSAGES,
  builderId,
} from "~/lib/segments-builder";
import { type Logic, type Operator, MAX_DAYS_AGO, MAX_NUMBER } from "~/lib/segments";

export const AI_DEFAULTS = {
  spend: 1000,
  visits: 3,
  activityDays: 30,
  fallbackSpend: 500,
} as const;

export type AiResult = { ok: true; builder: BuilderGroup } | { ok: false; message: string };

type Topic = "spend" | "visits" | "activity";

const TOPICS: { topic: Topic; pattern: RegExp }[] = [
  { topic: "spend", pattern: /\b(spen[dt]\w*|purchas\w*|bought|buyers?|revenue)\b/g },
  { topic: "visits", pattern: /\b(visit\w*)\b/g },
  {
    topic: "activity",
    pattern:
      /\b(active|activity|inactive|dormant|lapsed|engaged|recent\w*|last seen|\d+\s*(?:days?|weeks?|months?)|days?)\b/g,
  },
];

const AMOUNT = /(?:₹|rs\.?|inr)?\s*(\d[\d,]*(?:\.\d+)?)\s*(k|thousand|lakhs?|lacs?)?\b/;
const PERIOD = /(\d+)\s*(days?|weeks?|months?)\b/;
const INACTIVE =
  /\b(inactive|dormant|lapsed|not active|no activity|haven'?t|have not|hasn'?t|has not|not seen|not visited)\b/;

/** The comparison a phrase asks for; greater than unless the words say otherwise. */
function operatorOf(phrase: string): Operator {
  if (/\b(at most|no more than|up to|or less|or fewer|maximum|max)\b/.test(phrase)) return "$lte";
  if (/\b(less than|fewer than|under|below|lower than|less)\b/.test(phrase)) return "$lt";
  if (/\b(at least|or more|minimum|min|no less than)\b/.test(phrase) || phrase.includes("+")) return "$gte";
  if (/\b(exactly|equal to|equals)\b/.test(phrase)) return "$eq";
  return "$gt";
}

function amountOf(match: RegExpExecArray): number {
  const n = Number(match[1].replace(/,/g, ""));
  const unit = match[2] ?? "";
  if (unit === "k" || unit === "thousand") return n * 1000;
  if (unit.startsWith("lakh") || unit.startsWith("lac")) return n * 100_000;
  return n;
}

const condition = (
  field: BuilderCondition["field"],
  op: BuilderOperator,
  value: string | number,
): BuilderCondition => ({
  kind: "condition",
  id: builderId(),
  field,
  op,
  value: String(value),
});

export function interpretDescription(description: string): AiResult {
  const text = description.trim().toLowerCase();
  if (text === "") return { ok: false, message: MESSAGES.aiEmpty };
  if (!/\p{L}/u.test(text) || text.length > 1000) return { ok: false, message: MESSAGES.aiFailed };

  // Where each topic is mentioned; the words up to the next mention belong to it.
  const mentions: { topic: Topic; start: number; end: number }[] = [];
  for (const { topic, pattern } of TOPICS) {
    for (const m of text.matchAll(pattern)) mentions.push({ topic, start: m.index, end: m.index + m[0].length });
  }
  mentions.sort((a, b) => a.start - b.start);
  const seen = new Set<Topic>();
  const conditions: BuilderCondition[] = [];

  for (let i = 0; i < mentions.length; i++) {
    const { topic, start, end } = mentions[i];
    if (seen.has(topic)) continue;
    seen.add(topic);
    const prevEnd = i > 0 ? mentions[i - 1].end : 0;
    const nextStart = i + 1 < mentions.length ? mentions[i + 1].start : text.length;
    const after = text.slice(end, nextStart);
    const before = text.slice(prevEnd, start);

    if (topic === "activity") {
      const period = PERIOD.exec(text.slice(Math.max(prevEnd, start - 20), nextStart)) ?? PERIOD.exec(text);
      let days: number = AI_DEFAULTS.activityDays;
      if (period) {
        const n = Number(period[1]);
        days = period[2].startsWith("week") ? n * 7 : period[2].startsWith("month") ? n * 30 : n;
      }
      if (!Number.isSafeInteger(days) || days > MAX_DAYS_AGO) return { ok: false, message: MESSAGES.aiFailed };
      // Active in the last N days, or (inactive) last active more than N days ago: together they
      // are every customer with a last active date.
      const inactive = INACTIVE.test(text);
      conditions.push(condition("lastActiveDate", inactive ? "$lt:daysAgo" : "$gte:daysAgo", days));
      continue;
    }

    // A number after the keyword ("spent over 5000"), else just before it ("5000+ spenders").
    const numberAfter = AMOUNT.exec(after.replace(PERIOD, " "));
    const numberBefore = numberAfter ? null : AMOUNT.exec(before.replace(PERIOD, " "));
    const match = numberAfter ?? numberBefore;
    // The words around the number say how to compare ("more than 5000", "2 lakh or more").
    const phrase = numberAfter ? after.slice(0, numberAfter.index + numberAfter[0].length + 12) : before;
    const op = match ? operatorOf(phrase) : "$gt";
    const value = match ? amountOf(match) : topic === "spend" ? AI_DEFAULTS.spend : AI_DEFAULTS.visits;
    if (!Number.isFinite(value) || value > MAX_NUMBER) return { ok: false, message: MESSAGES.aiFailed };
    conditions.push(condition(topic === "spend" ? "totalSpend" : "visits", op, value));
  }

  if (conditions.length === 0) conditions.push(condition("totalSpend", "$gt", AI_DEFAULTS.fallbackSpend));
  const logic: Logic = conditions.length > 1 && /\bor\b/.test(text) ? "OR" : "AND";
  return { ok: true, builder: { kind: "group", id: "root", logic, children: conditions } };
}
