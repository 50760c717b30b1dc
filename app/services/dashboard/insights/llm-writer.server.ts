// The LLM writer of the dashboard's AI insights: the lists the local writer made, rephrased by the
// configured LLM and checked against their figures before they are shown.
import type { InsightBlocks } from "~/lib/insights";
import { AI_TIMEOUT_MS, chatJson } from "~/services/ai.server";
import { checkAnswer } from "~/services/dashboard/insights/grounding.server";
import type { Lists } from "~/services/dashboard/insights/local-writer.server";
import { AnswerSchema, SYSTEM_PROMPT, promptOf } from "~/services/dashboard/insights/prompt.server";

/**
 * The LLM's phrasing of `lists`, or the reason it is refused (a number not among the figures, a
 * list of another length). Throws when the LLM fails, times out or answers in another shape.
 */
export async function phraseWithLlm(
  lists: Lists,
  timeoutMs: number = AI_TIMEOUT_MS,
): Promise<{ ok: true; lists: Lists; blocks: InsightBlocks } | { ok: false; reason: string }> {
  const answer = await chatJson(AnswerSchema, SYSTEM_PROMPT, promptOf(lists), timeoutMs);
  return checkAnswer(lists, answer);
}
