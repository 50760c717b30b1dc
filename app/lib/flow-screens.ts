// What the flow screens say of a flow, its trigger and its steps (isomorphic: the list, the page).
import type { ChipColour } from "~/lib/campaigns";
import { waitInWords } from "~/lib/flows";
import type { FlowCondition, FlowStatus, FlowStep, FlowTrigger } from "~/schemas/flow";

export const FLOW_STATUS_CHIPS: Record<FlowStatus, { label: string; colour: ChipColour }> = {
  draft: { label: "Draft", colour: "default" },
  live: { label: "Live", colour: "success" },
  paused: { label: "Paused", colour: "warning" },
};

/** The product's own events, in words; any other name is the shop's (POST /api/events). */
const OWN_EVENT_WORDS: Record<string, string> = {
  customer_created: "someone becomes a customer",
  order_placed: "a customer places an order",
};

/** "When a customer places an order", "When your shop sends cart_abandoned (channel is web)". */
export function triggerInWords(trigger: FlowTrigger): string {
  const where = Object.entries(trigger.where ?? {})
    .map(([k, v]) => `${k} is ${String(v)}`)
    .join(", ");
  const what = OWN_EVENT_WORDS[trigger.event] ?? `your shop sends the event ${trigger.event}`;
  return `When ${what}${where ? ` (${where})` : ""}`;
}

/** "placed an order since entering", "opened the message of welcome". */
export function conditionInWords(condition: FlowCondition): string {
  if ("ordered" in condition) return "placed an order since entering";
  if ("opened" in condition) return `opened the message of “${condition.opened}”`;
  if ("clicked" in condition) return `clicked in the message of “${condition.clicked}”`;
  return `is tagged “${condition.tagged}”`;
}

/** What a step does, in a line; `templateName` names a send step's template. */
export function stepInWords(step: FlowStep, templateName: (id: string) => string): string {
  switch (step.type) {
    case "send":
      return `Send “${templateName(step.templateId)}”`;
    case "wait":
      return `Wait ${waitInWords(step.seconds)}`;
    case "condition":
      return `If the customer ${conditionInWords(step.if)}, go to “${step.then}”, otherwise to “${step.else}”`;
    case "tag":
      return [step.add ? `Tag “${step.add}”` : "", step.remove ? `Untag “${step.remove}”` : ""]
        .filter(Boolean)
        .join(", ");
    case "exit":
      return "Leave the flow";
  }
}
