// The forms of a flow's page (app/routes/flows-detail.tsx), each a plain post that works without
// JavaScript: the flow's settings, one step changed, a step added or removed, the status. What they
// make is checked again as a whole flow (FlowInputSchema) by the service.
import { z } from "zod";
import { FLOW_STATUSES, type FlowStep } from "~/schemas/flow";

export const WAIT_UNITS = { minutes: 60, hours: 3_600, days: 86_400 } as const;
export type WaitUnit = keyof typeof WAIT_UNITS;
export const STEP_TYPES = ["send", "wait", "condition", "tag", "exit"] as const;
export const CONDITION_KINDS = ["ordered", "opened", "clicked", "tagged"] as const;

const text = (max: number) => z.string().trim().max(max).default("");

export const FlowSettingsFormSchema = z.object({
  intent: z.literal("settings"),
  name: z.string({ message: "Enter a name" }).trim().min(1, "Enter a name").max(100),
  event: z.string({ message: "Enter the event that starts the flow" }).trim(),
  goal: z.enum(["none", "ordered"]).default("none"),
  reentry: z.enum(["never", "days"]).default("never"),
  reentryDays: z.coerce.number().int().min(1, "Enter at least 1 day").max(3650).optional(),
});

export const FlowStepFormSchema = z.object({
  intent: z.literal("step"),
  stepId: z.string(),
  type: z.enum(STEP_TYPES),
  templateId: text(100),
  amount: z.coerce.number().optional(),
  unit: z.enum(Object.keys(WAIT_UNITS) as [WaitUnit, ...WaitUnit[]]).default("days"),
  add: text(60),
  remove: text(60),
  ifKind: z.enum(CONDITION_KINDS).default("ordered"),
  ifValue: text(60),
  then: text(40),
  else: text(40),
});
export type FlowStepForm = z.infer<typeof FlowStepFormSchema>;

export const FlowAddStepFormSchema = z.object({
  intent: z.literal("add"),
  type: z.enum(STEP_TYPES, { message: "Choose what the step does" }),
  after: z.string().default(""),
});

export const FlowRemoveStepFormSchema = z.object({ intent: z.literal("remove"), stepId: z.string() });

export const FlowStatusFormSchema = z.object({ intent: z.literal("status"), status: z.enum(FLOW_STATUSES) });

/** A step as its form describes it (checked as a step by the service). */
export function stepFromForm(form: FlowStepForm): Record<string, unknown> {
  const base = { id: form.stepId, type: form.type };
  switch (form.type) {
    case "send":
      return { ...base, templateId: form.templateId };
    case "wait":
      return { ...base, seconds: Math.round((form.amount ?? Number.NaN) * WAIT_UNITS[form.unit]) };
    case "condition": {
      const value = form.ifKind === "ordered" ? true : form.ifValue;
      return { ...base, if: { [form.ifKind]: value }, then: form.then, else: form.else };
    }
    case "tag":
      return {
        ...base,
        ...(form.add ? { add: form.add } : {}),
        ...(form.remove ? { remove: form.remove } : {}),
      };
    case "exit":
      return base;
  }
}

/** A wait's length as its form shows it: the largest unit it is a whole number of. */
export function waitForm(seconds: number): { amount: number; unit: WaitUnit } {
  if (seconds % WAIT_UNITS.days === 0) return { amount: seconds / WAIT_UNITS.days, unit: "days" };
  if (seconds % WAIT_UNITS.hours === 0) return { amount: seconds / WAIT_UNITS.hours, unit: "hours" };
  return { amount: seconds / WAIT_UNITS.minutes, unit: "minutes" };
}

/** A new step of a type, with an id not in use, as the add form makes it (to be filled in). */
export function newStep(type: (typeof STEP_TYPES)[number], taken: ReadonlySet<string>, next: string | null): FlowStep {
  let n = 1;
  while (taken.has(`${type}-${n}`)) n += 1;
  const id = `${type}-${n}`;
  switch (type) {
    case "send":
      return { id, type, templateId: "starter-welcome" };
    case "wait":
      return { id, type, seconds: WAIT_UNITS.days };
    case "condition":
      return { id, type, if: { ordered: true }, then: next ?? id, else: next ?? id };
    case "tag":
      return { id, type, add: "flow" };
    case "exit":
      return { id, type };
  }
}
