// 'Use AI' of the segment form (docs/rules.md#use-ai): a description becomes segment conditions.
// With an LLM set up (AI_BASE_URL, AI_MODEL, AI_API_KEY: the chat-completions endpoint of the
// message suggestions and the insights, through chatJson() of ./ai.server.ts) the LLM writes the
// conditions mapping from the description and a compact account of the condition language with
// the tenant's own fields; its answer counts only when the parser (parseConditions), the tenant's
// fields (checkedSegmentTree) and the builder's form all take it. Without an LLM, or when it fails,
// takes more than 10 seconds or answers anything else, the local writer (interpretDescription() of
// app/lib/segments-ai.ts) reads the description by keyword, as it always has. Either way the answer
// says which one wrote it.
import { z } from "zod";
import { getEnv } from "~/env.server";
import { ApiError } from "~/lib/api.server";
import type { FieldDefinition } from "~/lib/custom-fields";
import { CONSENT_STATUSES } from "~/lib/consent";
import { logger } from "~/lib/logger.server";
import { ACTIVITY_KEYS, ACTIVITY_KEY_NAMES, MAX_WINDOW_DAYS, activityOperators } from "~/lib/segment-activity";
import { FIELD_TYPE_OPERATORS, FIELD_TYPE_WORDS, type FieldCatalog } from "~/lib/segment-fields";
import {
  type Conditions,
  DATE_OPERATORS,
  FIELD_KEY_PREFIX,
  IN_SEGMENT_KEY,
  MAX_ANNIVERSARY_DAYS,
  MAX_CONDITIONS,
  MAX_DAYS_AGO,
  NUMBER_OPERATORS,
  SEGMENT_FIELDS,
  type SegmentNode,
  TAGS_KEY,
  TAGS_OPERATORS,
  fieldNamesOf,
  toConditions,
} from "~/lib/segments";
import { parseConditions } from "~/lib/segment-parse";
import { istDateDaysAgo } from "~/lib/segment-dates";
import { describeTree } from "~/lib/segment-descriptions";
import { interpretDescription } from "~/lib/segments-ai";
import {
  BUILDER_MAX_GROUP_DEPTH,
  type BuilderRows,
  MESSAGES,
  builderRows,
  builderToTree,
  treeToBuilder,
} from "~/lib/segments-builder";
import { BuilderConditionsSchema } from "~/schemas/segment";
import { AI_TIMEOUT_MS, chatJson } from "~/services/ai.server";
import { fieldCatalog } from "~/services/custom-fields.server";
import { withSegmentReference } from "~/services/segment-references.server";
import { checkedSegmentTree, otherSegments } from "~/services/segments.server";

/** Which writer answered: the configured LLM, or the local keyword rules. */
export type SegmentWriter = "llm" | "local";

/** POST /api/segments/describe's answer. */
export type SegmentDescription = {
  /** The Mongo-style mapping, as POST /api/segments and /api/segments/preview take it. */
  conditions: Conditions;
  /** The same conditions as the segment form's builder rows. */
  builder: BuilderRows;
  /** The conditions in words, the tenant's field labels used. */
  summary: string;
  writer: SegmentWriter;
};

/** The most choices of one field the prompt lists; a field may have 100, and any of them is taken. */
export const PROMPT_CHOICES = 20;

const list = (items: readonly string[]) => items.join(", ");
const quoted = (text: string) => JSON.stringify(text);

const ACTIVITY_VALUES = {
  count: "a whole number",
  rupees: "rupees",
  date: `"YYYY-MM-DD" or {"$daysAgo": N}`,
  product: "the product's name",
  consent: `one of ${list(CONSENT_STATUSES.map(quoted))}`,
  boolean: "true or false",
} as const;

const WINDOWS = {
  none: "",
  optional: `; may take "withinDays": N to count only the last N days`,
  required: `; needs "withinDays": N, the last N days it counts`,
} as const;

/** One of the tenant's fields as the prompt lists it: key, label, type, choices, operators. */
function fieldLine(field: FieldDefinition): string {
  const choices =
    field.type === "choice" && field.choices.length > 0
      ? ` of ${list(field.choices.slice(0, PROMPT_CHOICES).map(quoted))}${field.choices.length > PROMPT_CHOICES ? ", …" : ""}`
      : "";
  return `- ${FIELD_KEY_PREFIX}${field.name}: ${quoted(field.label)}, ${FIELD_TYPE_WORDS[field.type]}${choices}; ${list(FIELD_TYPE_OPERATORS[field.type])}`;
}

/** The most of the tenant's segments the prompt lists for membership conditions. */
const PROMPT_SEGMENTS = 50;

/**
 * The instructions: the answer's shape, the condition language (the customer's figures, what they
 * did, the tenant's fields that are not retired, tags, membership of the tenant's `segments`,
 * groups) and today's date for rolling dates.
 */
export function segmentPrompt(
  catalog: FieldCatalog,
  now: number = Date.now(),
  segments: readonly { id: string; name: string }[] = [],
): string {
  const fields = [...catalog.values()].filter((f) => !f.retired);
  const figure = (key: keyof typeof SEGMENT_FIELDS, what: string, value: string) => {
    const ops = (SEGMENT_FIELDS[key].type === "date" ? DATE_OPERATORS : NUMBER_OPERATORS).map((o) =>
      SEGMENT_FIELDS[key].type === "date" ? `${o.value} (${o.label})` : o.value,
    );
    return `- ${key}: ${what}; ${list(ops)}; ${value}`;
  };
  return [
    "You write the conditions of a customer segment for the CRM of an Indian retail business, from the marketer's description. " +
      'Answer only with JSON: {"conditions": <mapping>}.',
    "",
    'A condition is {"<key>": {"<operator>": <value>}}. Conditions are combined with {"$and": [<mapping>, …]} (all hold) ' +
      `or {"$or": [<mapping>, …]} (any holds); groups may nest, at most ${BUILDER_MAX_GROUP_DEPTH} deep, with at most ${MAX_CONDITIONS} conditions in all. ` +
      "Use only the keys, operators and values below, and only what the description asks for. Amounts are in rupees. " +
      `Today is ${istDateDaysAgo(0, now)} (India Standard Time). A rolling date {"$daysAgo": N} is the day N days before today ` +
      `(N a whole number from 0 to ${MAX_DAYS_AGO}): "in the last N days" is {"$gte": {"$daysAgo": N}}, "more than N days ago" ` +
      'is {"$lt": {"$daysAgo": N}}. A week is 7 days, a month 30.',
    "",
    "The customer's figures:",
    figure("totalSpend", "total spend in rupees", "a number"),
    figure("visits", "number of visits", "a whole number"),
    figure("lastActiveDate", "the day last active", `"YYYY-MM-DD" or {"$daysAgo": N}`),
    "",
    "What the customer did:",
    ...ACTIVITY_KEY_NAMES.map((key) => {
      const spec = ACTIVITY_KEYS[key];
      return `- ${key}: ${spec.label}; ${list(activityOperators(key))}; ${ACTIVITY_VALUES[spec.kind]}${WINDOWS[spec.window]}`;
    }),
    `  (withinDays is a whole number from 1 to ${MAX_WINDOW_DAYS}; boughtProduct $eq is bought, $ne never bought.)`,
    "",
    `The customer's fields, as "${FIELD_KEY_PREFIX}<name>": label, type, operators (texts and choices compare without case):`,
    ...fields.map(fieldLine),
    "Values: a text field takes a text; a number field a number; a yes/no field true or false; a choice field one of its choices " +
      '($in a list of them); a date field "YYYY-MM-DD", {"$daysAgo": N} or {"$daysAhead": N}. ' +
      `$anniversaryWithinDays N (0 to ${MAX_ANNIVERSARY_DAYS}) holds when the date's day and month come within the next N days ` +
      '(a birthday this week is {"field:birthday": {"$anniversaryWithinDays": 7}}). $exists true is a field with a value, false an empty one.',
    "",
    `The customer's tags: "${TAGS_KEY}" with ${list(TAGS_OPERATORS)} (has any of, all of, none of) ` +
      'and a list of tag names: {"tags": {"$in": ["vip"]}}.',
    ...(segments.length === 0
      ? []
      : [
          "",
          `Membership of one of the business's segments: "${IN_SEGMENT_KEY}" with $eq (is in it) or $ne (is not in it) and the ` +
            'segment\'s id: {"inSegment": {"$eq": "<id>"}}. Its segments, id: name:',
          ...segments.slice(0, PROMPT_SEGMENTS).map((seg) => `- ${seg.id}: ${quoted(seg.name)}`),
        ]),
    "",
    'Example: "Customers in Mumbai who spent over 5000 in the last 90 days" is ' +
      '{"conditions": {"$and": [{"field:city": {"$eq": "Mumbai"}}, {"spendWithinDays": {"$gt": 5000, "withinDays": 90}}]}}.',
  ].join("\n");
}

/** The LLM's answer: `{ "conditions": mapping }`, or the bare mapping. */
const AnswerSchema = z.record(z.string(), z.unknown());

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The conditions an answer holds, read as the API reads them, against the tenant's fields. */
async function checkedAnswer(userId: string, answer: Record<string, unknown>, catalog: FieldCatalog) {
  const mapping = isMapping(answer.conditions) ? answer.conditions : answer;
  const parsed = parseConditions(mapping);
  if (!parsed.ok) throw new Error(`its conditions were refused: ${parsed.message}`);
  // A retired field stays on the segments that use it, but is not offered to new ones.
  const retired = fieldNamesOf(parsed.tree).find((name) => catalog.get(name)?.retired);
  if (retired) throw new Error(`its conditions use the retired field "${retired}"`);
  const tree = await checkedSegmentTree(userId, parsed.tree);
  // A segment it names must be one of the tenant's (never another tenant's), without a loop.
  await withSegmentReference(userId, tree, { strict: true });
  return tree;
}

/** The answer of a tree: its mapping, its builder rows (which the form must take), its words. */
function described(
  tree: SegmentNode,
  writer: SegmentWriter,
  catalog?: FieldCatalog,
  segmentNames?: Readonly<Record<string, string>>,
): SegmentDescription {
  const builder = builderRows(treeToBuilder(tree));
  const form = BuilderConditionsSchema.safeParse(builder);
  if (!form.success) throw new Error(`the form refuses its rows: ${form.error.issues[0]?.message ?? ""}`);
  const labels = catalog ? new Map([...catalog].map(([name, f]) => [name, f.label])) : undefined;
  return { conditions: toConditions(tree), builder, summary: describeTree(tree, labels, segmentNames), writer };
}

/** The conditions the LLM writes for `description`; throws on any failure of the LLM or its answer. */
async function llmConditions(userId: string, description: string, timeoutMs: number): Promise<SegmentDescription> {
  const [catalog, all] = await Promise.all([fieldCatalog(userId), otherSegments(userId)]);
  // The newest first (ids are time-ordered), so a long list keeps the segments in use now.
  const segments = [...all].sort((a, b) => (a.id < b.id ? 1 : -1));
  const answer = await chatJson(AnswerSchema, segmentPrompt(catalog, Date.now(), segments), description, timeoutMs);
  const names = Object.fromEntries(segments.map((seg) => [seg.id, seg.name]));
  return described(await checkedAnswer(userId, answer, catalog), "llm", catalog, names);
}

/** The local writer's conditions, its rows as it wrote them; a 422 when it cannot read the description. */
function localConditions(description: string): SegmentDescription {
  const result = interpretDescription(description);
  if (!result.ok) {
    throw new ApiError(result.message === MESSAGES.aiEmpty ? "bad_request" : "unprocessable", result.message, {
      description: result.message,
    });
  }
  let tree: SegmentNode;
  try {
    tree = builderToTree(result.builder);
  } catch {
    throw new ApiError("unprocessable", MESSAGES.aiFailed, { description: MESSAGES.aiFailed });
  }
  return {
    conditions: toConditions(tree),
    builder: builderRows(result.builder),
    summary: describeTree(tree),
    writer: "local",
  };
}

/**
 * POST /api/segments/describe: the conditions of `description`, from the LLM when one is set up and
 * its answer holds, else from the local writer. Only the local writer's refusal is an error (422,
 * 'Failed to process your request. Please try different wording.').
 */
export async function describeSegment(
  userId: string,
  description: string,
  options: { timeoutMs?: number } = {},
): Promise<SegmentDescription> {
  const env = getEnv();
  if (env.AI_BASE_URL && env.AI_MODEL && description.trim() !== "") {
    try {
      return await llmConditions(userId, description.trim(), options.timeoutMs ?? AI_TIMEOUT_MS);
    } catch (error) {
      logger().warn(
        { reason: error instanceof Error ? error.message : String(error) },
        "segment conditions: the LLM failed, writing them locally",
      );
    }
  }
  return localConditions(description);
}
