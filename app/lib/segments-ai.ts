// The 'Use AI' dialog (docs/rules.md#use-ai): a description is interpreted locally, by keyword, into
// conditions. A product bought, opens in the last N days, a birthday this week or in the next N
// days, a city after "in", a tag and a number of orders are recognised first (phraseConditions);
// then spend, visits and days of activity; the defaults are spend greater
// than 1000 without a number, visits greater than 3, activity within 30 days, and totalSpend
// greater than 500 when nothing matched. Activity is a rolling date ("in the last 60 days" stays
// the last 60 days as time passes), never a fixed calendar day.
import { type BuilderGroup, MESSAGES, builderId } from "~/lib/segments-builder";
import { type BuilderCondition, type BuilderOperator } from "~/lib/segment-builder-fields";
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
  op: BuilderOperator | string,
  value: string | number,
): BuilderCondition => ({
  kind: "condition",
  id: builderId(),
  field,
  op,
  value: String(value),
});

/** Where a phrase's words end: a comma, a full stop, "and", "or", "in", "who", "with", or the end. */
const PHRASE_END = String.raw`(?=\s*(?:[,.;!?]|\band\b|\bor\b|\bin\b|\bwho\b|\bwith\b|\bthat\b|\bopened\b|\bclicked\b|$))`;
/** Words after "bought" that are about spending, not a product ("bought over 5000"). */
const NOT_A_PRODUCT =
  /^(more|over|above|under|less|at|for|something|anything|worth|items?|products?|things?|stuff|recently|once|twice|\d)/;
/** Words after "in" that start with a capital but are not a city. */
const NOT_A_CITY =
  /^(The|Last|Next|This|January|February|March|April|May|June|July|August|September|October|November|December)$/;

const toDays = (n: number, unit: string) => (unit.startsWith("week") ? n * 7 : unit.startsWith("month") ? n * 30 : n);

/**
 * The phrases about a customer's fields, tags and what they did, each a condition where it was
 * written: "bought a saree", "opened something in 90 days", "birthday this week", "in Pune",
 * "tagged vip", "more than 2 orders". `text` is the description in lower case, `original` as typed
 * (the city keeps its capital). Each phrase found is blanked out of the text returned, so the
 * spend, visits and activity keywords do not read it again.
 */
function phraseConditions(
  original: string,
  text: string,
): { found: { at: number; condition: BuilderCondition }[]; rest: string } | null {
  const found: { at: number; condition: BuilderCondition }[] = [];
  let rest = text;
  const take = (at: number, length: number, c: BuilderCondition) => {
    found.push({ at, condition: c });
    rest = rest.slice(0, at) + " ".repeat(length) + rest.slice(at + length);
  };
  const sameIndices = original.length === text.length;

  for (const m of text.matchAll(
    new RegExp(String.raw`\bbought\s+(?:an?\s+|the\s+|some\s+)?(\p{L}[\p{L}\p{N} '-]*?)${PHRASE_END}`, "gu"),
  )) {
    if (NOT_A_PRODUCT.test(m[1])) continue;
    const start = m.index + m[0].length - m[1].length;
    const name = sameIndices ? original.slice(start, start + m[1].length) : m[1];
    take(m.index, m[0].length, condition("boughtProduct", "$eq", name.trim()));
  }
  for (const m of rest.matchAll(
    /\bopen(?:ed|s)?\b[^,.;]*?\b(?:in|within|over)\s+(?:the\s+)?(?:last\s+|past\s+)?(\d+)\s*(days?|weeks?|months?)\b/g,
  )) {
    const days = toDays(Number(m[1]), m[2]);
    if (!Number.isSafeInteger(days) || days > MAX_DAYS_AGO) return null;
    take(m.index, m[0].length, condition("lastOpenDate", "$gte:daysAgo", days));
  }
  for (const m of rest.matchAll(
    /\bbirthdays?\b(?:\s+(?:is\s+)?(this week|(?:in|within) the next (\d+) days?|(?:in|within) (\d+) days?|this month))?/g,
  )) {
    const days = m[1] === undefined || m[1] === "this week" ? 7 : m[1] === "this month" ? 30 : Number(m[2] ?? m[3]);
    if (!Number.isSafeInteger(days) || days > 366) return null;
    take(m.index, m[0].length, condition("field:birthday", "$anniversaryWithinDays", days));
  }
  for (const m of rest.matchAll(
    new RegExp(
      String.raw`\b(?:tagged|with (?:the )?tags?)\s+["']?([\p{L}\p{N}][\p{L}\p{N} _-]*?)["']?${PHRASE_END}`,
      "gu",
    ),
  )) {
    const start = m.index + m[0].indexOf(m[1], m[0].length - m[1].length - 1);
    const tag = sameIndices ? original.slice(start, start + m[1].length) : m[1];
    take(m.index, m[0].length, condition("tags", "$in", tag.trim()));
  }
  for (const m of rest.matchAll(
    /\b(more than|over|above|at least|no less than|fewer than|less than|under|at most|no more than|exactly)?\s*(\d+)\s*(\+)?\s*(?:or more\s+)?orders?\b/g,
  )) {
    const n = Number(m[2]);
    if (!Number.isSafeInteger(n)) return null;
    const op: Operator = m[3] ? "$gte" : m[1] ? operatorOf(m[1]) : "$gte";
    take(m.index, m[0].length, condition("orderCount", op, n));
  }
  if (sameIndices) {
    for (const m of original.matchAll(/\bin\s+(\p{Lu}\p{L}+(?:\s+\p{Lu}\p{L}+)*)/gu)) {
      if (NOT_A_CITY.test(m[1]) || rest.slice(m.index, m.index + m[0].length).trim() === "") continue;
      take(m.index, m[0].length, condition("field:city", "$eq", m[1]));
    }
  }
  return { found, rest };
}

export function interpretDescription(description: string): AiResult {
  const original = description.trim();
  const lower = original.toLowerCase();
  if (lower === "") return { ok: false, message: MESSAGES.aiEmpty };
  if (!/\p{L}/u.test(lower) || lower.length > 1000) return { ok: false, message: MESSAGES.aiFailed };
  const phrases = phraseConditions(original, lower);
  if (!phrases) return { ok: false, message: MESSAGES.aiFailed };
  const text = phrases.rest;

  // Where each topic is mentioned; the words up to the next mention belong to it.
  const mentions: { topic: Topic; start: number; end: number }[] = [];
  for (const { topic, pattern } of TOPICS) {
    for (const m of text.matchAll(pattern)) mentions.push({ topic, start: m.index, end: m.index + m[0].length });
  }
  mentions.sort((a, b) => a.start - b.start);
  const seen = new Set<Topic>();
  const placed: { at: number; condition: BuilderCondition }[] = [...phrases.found];
  const conditions = { push: (c: BuilderCondition) => placed.push({ at: current, condition: c }) };
  let current = 0;

  for (let i = 0; i < mentions.length; i++) {
    const { topic, start, end } = mentions[i];
    if (seen.has(topic)) continue;
    current = start;
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

  // The conditions in the order the description gives them.
  const children = placed.sort((a, b) => a.at - b.at).map((p) => p.condition);
  if (children.length === 0) children.push(condition("totalSpend", "$gt", AI_DEFAULTS.fallbackSpend));
  const logic: Logic = children.length > 1 && /\bor\b/.test(lower) ? "OR" : "AND";
  return { ok: true, builder: { kind: "group", id: "root", logic, children } };
}
