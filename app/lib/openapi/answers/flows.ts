// The /api answers about flows (docs/decisions/0046-flows.md): a flow with its figures per step,
// the list, and its people.
import { z } from "zod";
import { FLOW_STATUSES, FlowConditionSchema, FlowReentrySchema, FlowTriggerSchema, STEP_SHAPES } from "~/schemas/flow";
import type { FlowDto, FlowPersonDto, FlowSummaryDto } from "~/services/flows/flows.server";
import { count, id, isoTime, type Out, same } from "./common";

const rupees = z.number().meta({ description: "Rupees" });

/** What every step's answer adds to its definition (every version's passages added). */
const STEP_FIGURES = {
  entered: count.meta({ description: "Passages through the step" }),
  waiting: count.meta({ description: "People at the step now (a wait's, waiting)" }),
  sent: count.meta({ description: "Messages the step's send handed to the channel" }),
  opened: count,
  clicked: count,
  converted: count.meta({ description: "People who passed the step and reached the goal" }),
  revenue: rupees.meta({ description: "The goal's orders of those people, in rupees" }),
  exited: count.meta({ description: "People who left the flow at the step (an exit)" }),
  campaignId: id.nullable().meta({ description: "The campaign the step's messages go out under (its delivery log)" }),
};

const FlowStepAnswerSchema = z.discriminatedUnion("type", [
  z.strictObject({ ...STEP_SHAPES.send, ...STEP_FIGURES }),
  z.strictObject({ ...STEP_SHAPES.wait, ...STEP_FIGURES }),
  z.strictObject({ ...STEP_SHAPES.condition, ...STEP_FIGURES }),
  z.strictObject({ ...STEP_SHAPES.tag, ...STEP_FIGURES }),
  z.strictObject({ ...STEP_SHAPES.exit, ...STEP_FIGURES }),
]);

const summary = {
  id,
  name: z.string(),
  status: z.enum(FLOW_STATUSES),
  version: z.number().int().min(1).meta({ description: "The version new entries take" }),
  people: z.strictObject({ active: count, done: count, converted: count }),
  revenue: rupees.meta({ description: "The goal's orders, in rupees" }),
  createdAt: isoTime,
  updatedAt: isoTime,
};

export const FlowSummaryAnswerSchema = z.strictObject(summary);

export const FlowAnswerSchema = z.strictObject({
  ...summary,
  trigger: FlowTriggerSchema,
  steps: z.array(FlowStepAnswerSchema),
  goal: FlowConditionSchema.optional(),
  reentry: FlowReentrySchema,
  problems: z.array(z.string()).meta({ description: "Why the flow cannot go live (empty when it can)" }),
});

export const FlowListSchema = z.strictObject({ flows: z.array(FlowSummaryAnswerSchema) });

export const FlowPersonAnswerSchema = z.strictObject({
  customerId: id,
  name: z.string(),
  email: z.string(),
  version: z.number().int().min(1),
  stepId: z.string().meta({ description: "The step they are at (empty once out)" }),
  state: z.enum(["active", "done", "converted"]),
  enteredAt: isoTime,
  dueAt: isoTime.nullable().meta({ description: "When their step runs (active people)" }),
  endedAt: isoTime.nullable(),
  revenue: rupees,
});

export const FlowPeopleSchema = z.strictObject({ people: z.array(FlowPersonAnswerSchema) });

export const FLOW_DTO_CHECKS = [
  same<Out<typeof FlowAnswerSchema>, FlowDto>(true),
  same<Out<typeof FlowSummaryAnswerSchema>, FlowSummaryDto>(true),
  same<Out<typeof FlowPersonAnswerSchema>, FlowPersonDto>(true),
];
