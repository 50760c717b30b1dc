// Message suggestions for a campaign, grounded in the segment's real figures. With an LLM set up
// (AI_BASE_URL, AI_API_KEY, AI_MODEL: any OpenAI-compatible chat-completions endpoint, such as
// OpenAI, Ollama, vLLM or llama.cpp's server) the figures are given to the model and its answer is
// checked with zod; without one, or when it fails, is malformed or takes more than 10 seconds, a
// local writer makes three suggestions from the same figures. A segment with no customers gets
// none (422): there are no figures to write from.
import { z } from "zod";
import { getEnv } from "~/env.server";
import { ApiError } from "~/lib/api.server";
import { logger } from "~/lib/logger.server";
import { formatRupees, paiseToRupees } from "~/lib/money";
import { insightFigures } from "~/models/insights/store.server";
import { EMPTY_SEGMENT } from "~/schemas/campaign";
import { getSegment, segmentWhere } from "~/services/segments.server";

export const AI_TIMEOUT_MS = 10_000;

export type MessageSuggestion = { message: string; tone: string; expectedResponse: string };
export type SuggestionsResult = { suggestions: MessageSuggestion[]; source: "llm" | "local" };

/** What the suggestions are made from: the segment as it is now. */
export type SegmentFigures = {
  name: string;
  customers: number;
  minSpend: number;
  maxSpend: number;
  averageSpend: number;
  minVisits: number;
  maxVisits: number;
  averageVisits: number;
  /** Share (0–1) of the audience not active in the last 30 days (or never). */
  inactiveShare: number;
};

export async function segmentFigures(userId: string, segmentId: string): Promise<SegmentFigures> {
  const segment = await getSegment(userId, segmentId);
  const where = await segmentWhere(userId, segment.id);
  const row = await insightFigures.audienceFigures(where, Date.now() - 30 * 86_400_000);
  return {
    name: segment.name,
    customers: row.n,
    minSpend: paiseToRupees(row.minSpend),
    maxSpend: paiseToRupees(row.maxSpend),
    averageSpend: Math.round(paiseToRupees(row.avgSpend)),
    minVisits: row.minVisits,
    maxVisits: row.maxVisits,
    averageVisits: Math.round(row.avgVisits * 10) / 10,
    inactiveShare: row.n ? row.inactive / row.n : 0,
  };
}

const SuggestionsSchema = z.object({
  suggestions: z
    .array(
      z.object({
        message: z.string().trim().min(10).max(1000),
        tone: z.string().trim().min(2).max(40),
        expectedResponse: z.string().trim().min(2).max(300),
      }),
    )
    .min(1)
    .max(5),
});

const ChatAnswerSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string() }) })).min(1),
});

/** One chat completion, its content parsed as JSON and checked with `schema`; throws on any failure. */
export async function chatJson<T extends z.ZodType>(
  schema: T,
  system: string,
  user: string,
  timeoutMs = AI_TIMEOUT_MS,
): Promise<z.infer<T>> {
  const env = getEnv();
  if (!env.AI_BASE_URL || !env.AI_MODEL) throw new Error("No LLM is set up (AI_BASE_URL and AI_MODEL)");
  const response = await fetch(`${env.AI_BASE_URL.replace(/\/$/, "")}/chat/completions`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      ...(env.AI_API_KEY ? { Authorization: `Bearer ${env.AI_API_KEY}` } : {}),
    },
    body: JSON.stringify({
      model: env.AI_MODEL,
      temperature: 0.7,
      response_format: { type: "json_object" },
      messages: [
        { role: "system", content: system },
        { role: "user", content: user },
      ],
    }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) throw new Error(`The LLM answered ${response.status}`);
  const answer = ChatAnswerSchema.parse(await response.json());
  const content = answer.choices[0].message.content.trim().replace(/^```(?:json)?\s*|\s*```$/g, "");
  return schema.parse(JSON.parse(content)) as z.infer<T>;
}

function describeFigures(f: SegmentFigures): string {
  return [
    `Segment: "${f.name}", ${f.customers} customers.`,
    `Total spend per customer: ${formatRupees(f.minSpend)} to ${formatRupees(f.maxSpend)}, average ${formatRupees(f.averageSpend)}.`,
    `Visits per customer: ${f.minVisits} to ${f.maxVisits}, average ${f.averageVisits}.`,
    `${Math.round(f.inactiveShare * 100)}% have not been active in the last 30 days.`,
  ].join("\n");
}

/** Three suggestions written here from the figures: the fallback, and the default without an LLM. */
export function localSuggestions(f: SegmentFigures, objective: string): MessageSuggestion[] {
  const big = f.averageSpend >= 10_000;
  const loyal = f.averageVisits >= 5;
  const lapsed = f.inactiveShare >= 0.5;
  const who = `${f.customers.toLocaleString("en-IN")} customers of "${f.name}"`;
  const goal = objective.trim() ? ` (${objective.trim().replace(/\.$/, "")})` : "";
  const suggestions: MessageSuggestion[] = [];
  if (lapsed) {
    suggestions.push({
      tone: "Warm",
      message: `Hi {NAME}, we have missed you! It has been a while since your last visit, so here is 15% off your next order with code WELCOMEBACK15. We would love to see you again.`,
      expectedResponse: `Win-back: ${Math.round(f.inactiveShare * 100)}% of the ${who} have not been active in 30 days${goal}.`,
    });
  } else {
    suggestions.push({
      tone: "Friendly",
      message: `Hi {NAME}, thank you for shopping with us! As a thank-you, enjoy 10% off your next purchase with code THANKYOU10.`,
      expectedResponse: `Steady: most of the ${who} were active in the last 30 days${goal}.`,
    });
  }
  if (big) {
    suggestions.push({
      tone: "Exclusive",
      message: `Dear {NAME}, as one of our most valued customers you get early access to our new collection, with free shipping on every order this week.`,
      expectedResponse: `High-value: they spend ${formatRupees(f.averageSpend)} on average, so early access suits them better than a discount.`,
    });
  } else {
    suggestions.push({
      tone: "Upbeat",
      message: `Hi {NAME}, our best sellers are back in stock! Order today and get free shipping, no minimum.`,
      expectedResponse: `Price-aware: an average spend of ${formatRupees(f.averageSpend)} responds to free shipping more than to premium offers.`,
    });
  }
  suggestions.push(
    loyal
      ? {
          tone: "Appreciative",
          message: `Hi {NAME}, thank you for coming back again and again! Here is a loyalty reward: 15% off with code LOYAL15, this week only.`,
          expectedResponse: `Loyal: ${f.averageVisits} visits on average, so a loyalty reward is likely to be used.`,
        }
      : {
          tone: "Urgent",
          message: `Hi {NAME}, 48 hours only: 10% off everything with code FLASH10. Do not miss out!`,
          expectedResponse: `Occasional buyers (${f.averageVisits} visits on average) respond to a deadline.`,
        },
  );
  return suggestions;
}

/** POST /api/ai/message-suggestions: from the LLM when one is set up and answers well, else local. */
export async function messageSuggestions(
  userId: string,
  input: { campaignObjective: string; segmentId: string },
  options: { timeoutMs?: number } = {},
): Promise<SuggestionsResult> {
  const figures = await segmentFigures(userId, input.segmentId);
  // Nobody to write for: figures of an empty audience would only make up a story ("0 customers").
  if (figures.customers === 0) {
    throw new ApiError("unprocessable", `${EMPTY_SEGMENT}: there is nobody to write a message for.`, {
      segmentId: EMPTY_SEGMENT,
    });
  }
  const env = getEnv();
  if (env.AI_BASE_URL && env.AI_MODEL) {
    try {
      const answer = await chatJson(
        SuggestionsSchema,
        "You write short marketing messages for an Indian retail business. Amounts are in rupees (₹). " +
          'Answer only with JSON: {"suggestions":[{"message":"…","tone":"…","expectedResponse":"…"}]} with exactly three suggestions. ' +
          "Each message greets the customer with the placeholder {NAME}, is under 300 characters, and uses only the figures given.",
        `Campaign objective: ${input.campaignObjective || "(none given)"}\n${describeFigures(figures)}`,
        options.timeoutMs,
      );
      return { suggestions: answer.suggestions.slice(0, 3), source: "llm" };
    } catch (error) {
      logger().warn({ reason: (error as Error).message }, "message suggestions: the LLM failed, writing them locally");
    }
  }
  return { suggestions: localSuggestions(figures, input.campaignObjective), source: "local" };
}
