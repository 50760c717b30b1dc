// A flow as /api/flows takes it (docs/decisions/0046-flows.md): a name, one trigger (an event, with
// conditions on its properties), steps run in order (a condition branches to named steps), an
// optional goal, re-entry and a status. The shape is checked here (a 400 naming the field); what
// makes a well-shaped flow unable to run (a cycle, a step named that does not exist, a template
// deleted) is found by flowProblems() (app/lib/flows.ts) and keeps it from going live (a 422).
import { z } from "zod";
import { tagProblem } from "~/lib/tags";
import { listLimitSchema } from "~/schemas/list-limit";
import { singleLine } from "~/schemas/text";

export const MAX_FLOW_STEPS = 50;
/** The longest wait: a year (and a day, for leap years). */
export const MAX_WAIT_SECONDS = 366 * 24 * 60 * 60;
export const FLOW_STATUSES = ["draft", "live", "paused"] as const;
export type FlowStatus = (typeof FLOW_STATUSES)[number];

const EVENT_NAME = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/;
const STEP_ID = /^[A-Za-z0-9_-]{1,40}$/;

const stepId = (label: string) =>
  z
    .string({ message: `${label} must name a step by its id` })
    .regex(STEP_ID, `${label} must be a step id: letters, digits, _ or - (at most 40)`);

const tagName = (label: string) =>
  z.string({ message: `${label} must be a tag` }).superRefine((value, ctx) => {
    const problem = tagProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: `${label}: ${problem}` });
  });

/** What an event's properties must hold for the trigger to fire: equal values, compared as JSON. */
const whereSchema = z
  .record(z.string().min(1).max(64), z.union([z.string().max(200), z.number(), z.boolean()]), {
    message: "where must map property names to a text, number or true/false each",
  })
  .refine((value) => Object.keys(value).length <= 10, "where may hold at most 10 properties");

export const FlowTriggerSchema = z.discriminatedUnion(
  "type",
  [
    z.strictObject({
      type: z.literal("event"),
      event: z
        .string({ message: "trigger.event is required, like order_placed" })
        .regex(EVENT_NAME, "trigger.event must be an event name, like order_placed or cart_abandoned"),
      where: whereSchema.optional(),
    }),
  ],
  {
    message:
      'trigger.type must be "event": a flow starts on an event, such as order_placed, customer_created or one your systems post to /api/events',
  },
);
export type FlowTrigger = z.infer<typeof FlowTriggerSchema>;

/** A condition on the person (a step's test, or the goal). */
export const FlowConditionSchema = z.union(
  [
    z.strictObject({ ordered: z.literal(true) }),
    z.strictObject({ opened: stepId("opened") }),
    z.strictObject({ clicked: stepId("clicked") }),
    z.strictObject({ tagged: tagName("tagged") }),
  ],
  { message: 'A condition is { "ordered": true }, { "opened": stepId }, { "clicked": stepId } or { "tagged": tag }' },
);
export type FlowCondition = z.infer<typeof FlowConditionSchema>;

const id = stepId("id");

/** Each kind of step's fields (the answers of /api/flows add its figures to them). */
export const STEP_SHAPES = {
  send: {
    id,
    type: z.literal("send"),
    templateId: z.string({ message: "templateId is required: the template the step sends" }).min(1).max(100),
  },
  wait: {
    id,
    type: z.literal("wait"),
    seconds: z
      .number({ message: "seconds is required: how long to wait" })
      .int("seconds must be a whole number")
      .min(1, "A wait must be at least 1 second")
      .max(MAX_WAIT_SECONDS, "A wait may be at most a year"),
  },
  condition: { id, type: z.literal("condition"), if: FlowConditionSchema, then: stepId("then"), else: stepId("else") },
  tag: { id, type: z.literal("tag"), add: tagName("add").optional(), remove: tagName("remove").optional() },
  exit: { id, type: z.literal("exit") },
};

export const FlowStepSchema = z.discriminatedUnion(
  "type",
  [
    z.strictObject(STEP_SHAPES.send),
    z.strictObject(STEP_SHAPES.wait),
    z.strictObject(STEP_SHAPES.condition),
    z
      .strictObject(STEP_SHAPES.tag)
      .refine((s) => s.add !== undefined || s.remove !== undefined, "A tag step adds a tag, removes one, or both"),
    z.strictObject(STEP_SHAPES.exit),
  ],
  { message: 'Each step has a type: "send", "wait", "condition", "tag" or "exit"' },
);
export type FlowStep = z.infer<typeof FlowStepSchema>;

export const FlowReentrySchema = z.union(
  [
    z.literal("never"),
    z.strictObject({
      afterDays: z
        .number({ message: "reentry.afterDays must be a number of days" })
        .int("reentry.afterDays must be a whole number")
        .min(1, "reentry.afterDays must be at least 1")
        .max(3650, "reentry.afterDays may be at most 3650"),
    }),
  ],
  { message: 'reentry is "never" or { "afterDays": N }' },
);

const definitionShape = {
  trigger: FlowTriggerSchema,
  steps: z
    .array(FlowStepSchema, { message: "steps must be a list" })
    .min(1, "A flow needs at least one step")
    .max(MAX_FLOW_STEPS, `A flow may have at most ${MAX_FLOW_STEPS} steps`),
  goal: FlowConditionSchema.optional(),
  reentry: FlowReentrySchema.default("never"),
};

/** Two steps with one id: which of them is meant cannot be told. */
function uniqueStepIds(flow: { steps: readonly FlowStep[] }, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  flow.steps.forEach((step, index) => {
    if (seen.has(step.id))
      ctx.addIssue({ code: "custom", path: ["steps", index, "id"], message: `Two steps have the id "${step.id}"` });
    seen.add(step.id);
  });
}

/** What a flow does: the part each version keeps (stored as JSON). */
export const FlowDefinitionSchema = z.strictObject(definitionShape).superRefine(uniqueStepIds);
export type FlowDefinition = z.infer<typeof FlowDefinitionSchema>;

/** A stored version's definition, read back through the schema it was written by. */
export function parseDefinition(text: string): FlowDefinition {
  return FlowDefinitionSchema.parse(JSON.parse(text));
}

/** POST /api/flows and PUT /api/flows/{id}: the whole flow. */
export const FlowInputSchema = z
  .strictObject({
    name: singleLine(z.string({ message: "name is required" }).trim(), "name")
      .min(1, "name is required")
      .max(100, "name must be at most 100 characters"),
    ...definitionShape,
    status: z.enum(FLOW_STATUSES, { message: 'status must be "draft", "live" or "paused"' }).default("draft"),
  })
  .superRefine(uniqueStepIds);
export type FlowInput = z.infer<typeof FlowInputSchema>;

/** A flow's definition out of the whole input. */
export function definitionOf(input: FlowInput): FlowDefinition {
  const { name: _name, status: _status, ...definition } = input;
  return definition;
}

/** POST /api/flows/{id}/status and the screen's buttons: go live, pause, resume, back to draft. */
export const FlowStatusInputSchema = z.strictObject({
  status: z.enum(FLOW_STATUSES, { message: 'status must be "draft", "live" or "paused"' }),
});

/** GET /api/flows/{id}/people: of one state when given, at most `limit` (1–500, 50 when absent). */
export const FlowPeopleQuerySchema = z.object({
  state: z
    .enum(["active", "done", "converted"], { message: 'state must be "active", "done" or "converted"' })
    .optional(),
  limit: listLimitSchema(500, 50),
});
