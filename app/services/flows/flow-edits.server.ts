// A flow changed a piece at a time, as its page's forms do (docs/decisions/0046-flows.md): its
// settings, one step, a step added or removed. Each makes the whole flow again and saves it as PUT
// /api/flows/{id} does (checked whole; a live flow that would no longer run is refused, saying why).
import { ApiError } from "~/lib/api.server";
import { type FlowDefinition, type FlowInput, FlowInputSchema, type FlowStep } from "~/schemas/flow";
import { newStep } from "~/schemas/flow-form";
import { type FlowDto, flowWithDefinition, updateFlow } from "./flows.server";

export type FlowEdit =
  | {
      kind: "settings";
      name: string;
      event: string;
      goal: "none" | "ordered";
      reentry: "never" | { afterDays: number };
    }
  | { kind: "step"; step: Record<string, unknown> }
  | { kind: "add"; type: FlowStep["type"]; after: string }
  | { kind: "remove"; stepId: string };

/** The definition after the edit (not yet checked). */
function edited(definition: FlowDefinition, edit: FlowEdit): Record<string, unknown> {
  const steps: unknown[] = [...definition.steps];
  switch (edit.kind) {
    case "settings":
      return {
        ...definition,
        trigger: { ...definition.trigger, event: edit.event },
        goal: edit.goal === "ordered" ? { ordered: true } : undefined,
        reentry: edit.reentry,
      };
    case "step": {
      const at = definition.steps.findIndex((s) => s.id === edit.step.id);
      if (at < 0) throw new ApiError("bad_request", "That step is no longer in the flow: reload the page");
      steps[at] = edit.step;
      return { ...definition, steps };
    }
    case "add": {
      const at = edit.after === "" ? 0 : definition.steps.findIndex((s) => s.id === edit.after) + 1;
      const taken = new Set(definition.steps.map((s) => s.id));
      steps.splice(at, 0, newStep(edit.type, taken, definition.steps[at]?.id ?? null));
      return { ...definition, steps };
    }
    case "remove":
      return { ...definition, steps: definition.steps.filter((s) => s.id !== edit.stepId) };
  }
}

/** Applies one edit to the tenant's flow and saves it; a 400 naming what is wrong, a 422 when a live flow could not run. */
export async function editFlow(userId: string, id: string, edit: FlowEdit): Promise<FlowDto> {
  const { flow, definition } = await flowWithDefinition(userId, id);
  const name = edit.kind === "settings" ? edit.name : flow.name;
  const parsed = FlowInputSchema.safeParse({ name, status: flow.status, ...edited(definition, edit) });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ApiError("bad_request", issue?.message ?? "The flow cannot be saved so");
  }
  const input: FlowInput = parsed.data;
  return updateFlow(userId, id, input);
}
