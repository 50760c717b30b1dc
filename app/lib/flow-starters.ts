// The starter flows a marketer begins from (docs/decisions/0046-flows.md): the common automations
// of a shop, each a draft made from the starter templates, to be changed and set live. A birthday
// flow needs date triggers, which flows do not have yet, so it is not offered.
import type { FlowDefinition } from "~/schemas/flow";

export type FlowStarter = { key: string; name: string; description: string; definition: FlowDefinition };

const DAY = 86_400;

export const FLOW_STARTERS: readonly FlowStarter[] = [
  {
    key: "welcome",
    name: "Welcome series",
    description: "Welcome each new customer, then after two days send an offer to those who have not ordered yet.",
    definition: {
      trigger: { type: "event", event: "customer_created" },
      steps: [
        { id: "welcome", type: "send", templateId: "starter-welcome" },
        { id: "two-days", type: "wait", seconds: 2 * DAY },
        { id: "ordered", type: "condition", if: { ordered: true }, then: "end", else: "offer" },
        { id: "offer", type: "send", templateId: "starter-offer" },
        { id: "end", type: "exit" },
      ],
      goal: { ordered: true },
      reentry: "never",
    },
  },
  {
    key: "post-purchase",
    name: "Thank you and review request",
    description: "A day after each order, thank the customer; a week later, ask how it was.",
    definition: {
      trigger: { type: "event", event: "order_placed" },
      steps: [
        { id: "one-day", type: "wait", seconds: DAY },
        { id: "thanks", type: "send", templateId: "starter-order-follow-up" },
        { id: "a-week", type: "wait", seconds: 7 * DAY },
        { id: "review", type: "send", templateId: "starter-newsletter" },
      ],
      reentry: { afterDays: 30 },
    },
  },
  {
    key: "win-back",
    name: "Win-back",
    description: "Sixty days after a customer's last order, send an offer; a new order starts the count again.",
    definition: {
      trigger: { type: "event", event: "order_placed" },
      steps: [
        { id: "sixty-days", type: "wait", seconds: 60 * DAY },
        { id: "miss-you", type: "send", templateId: "starter-offer" },
      ],
      goal: { ordered: true },
      reentry: { afterDays: 1 },
    },
  },
  {
    key: "abandoned-cart",
    name: "Abandoned cart",
    description:
      "An hour after your shop posts a cart_abandoned event to /api/events, remind the customer, unless they ordered meanwhile.",
    definition: {
      trigger: { type: "event", event: "cart_abandoned" },
      steps: [
        { id: "an-hour", type: "wait", seconds: 3_600 },
        { id: "ordered", type: "condition", if: { ordered: true }, then: "end", else: "remind" },
        { id: "remind", type: "send", templateId: "starter-offer" },
        { id: "end", type: "exit" },
      ],
      goal: { ordered: true },
      reentry: { afterDays: 1 },
    },
  },
];

export const flowStarter = (key: string) => FLOW_STARTERS.find((s) => s.key === key) ?? null;
