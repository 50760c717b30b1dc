// The numbers check of the dashboard's AI insights (docs/rules.md#ai-insights): every number a
// text states must be one of the figures given, as a value (in any of its usual roundings) or
// inside a figure's name ("30 days", "top 10%", "Campaign 12"). An LLM answer that states any
// other number is refused.
import type { z } from "zod";
import type { InsightBlocks, InsightFigure } from "~/lib/insights";
import type { Lists } from "~/services/dashboard/insights/local-writer.server";
import { type AnswerSchema, BLOCK_SOURCES, LIST_KEYS } from "~/services/dashboard/insights/prompt.server";

const NUMBER = /\d(?:[\d,]*\d)?(?:\.\d+)?/g;

/** The numbers a text states, as numbers ("1,23,456" and "12.5%" read as 123456 and 12.5). */
export function numbersIn(text: string): number[] {
  return (text.match(NUMBER) ?? []).map((n) => Number(n.replaceAll(",", "")));
}

function allowedNumbers(figures: InsightFigure[]): Set<number> {
  const allowed = new Set<number>();
  for (const f of figures) {
    allowed.add(f.value);
    allowed.add(Math.round(f.value));
    allowed.add(Math.round(f.value * 10) / 10);
    for (const n of numbersIn(f.label)) allowed.add(n);
  }
  return allowed;
}

/** The numbers in `text` that are none of the figures (empty: the text passes). */
export function unknownNumbers(text: string, figures: InsightFigure[]): number[] {
  const allowed = allowedNumbers(figures);
  return numbersIn(text).filter((n) => !allowed.has(n));
}

/** The model's phrasing of the lists, or the reason it is refused. */
export function checkAnswer(
  lists: Lists,
  answer: z.infer<typeof AnswerSchema>,
): { ok: true; lists: Lists; blocks: InsightBlocks } | { ok: false; reason: string } {
  const phrased = {} as Lists;
  for (const key of LIST_KEYS) {
    const given = lists[key];
    const texts = answer[key];
    if (texts.length !== given.length)
      return { ok: false, reason: `${key} has ${texts.length} items, not ${given.length}` };
    phrased[key] = given.map((insight, i) => ({ ...insight, text: texts[i] }));
    for (let i = 0; i < texts.length; i++) {
      const unknown = unknownNumbers(texts[i], given[i].figures);
      if (unknown.length)
        return { ok: false, reason: `${key}[${i}] states ${unknown.join(", ")}, not among its figures` };
    }
  }
  for (const block of Object.keys(BLOCK_SOURCES) as (keyof InsightBlocks)[]) {
    const figures = BLOCK_SOURCES[block].flatMap((key) => lists[key].flatMap((i) => i.figures));
    const unknown = unknownNumbers(answer.blocks[block], figures);
    if (unknown.length)
      return { ok: false, reason: `the ${block} block states ${unknown.join(", ")}, not among its figures` };
  }
  return { ok: true, lists: phrased, blocks: answer.blocks };
}
