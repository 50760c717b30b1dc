// The rules of a flow's shape that need no database (docs/decisions/0046-flows.md): which step comes
// after which, what keeps a well-formed flow from running (a loop, a step named that is not there),
// and whether an event fires a trigger. Used by the flows service, the flow clock and the screens.
import type { FlowCondition, FlowDefinition, FlowStep, FlowTrigger } from "~/schemas/flow";

/** The step after `step` on the way the person takes: a condition's branch, nothing after an exit or the last step. */
export function nextStepId(definition: FlowDefinition, step: FlowStep, branch?: boolean): string | null {
  if (step.type === "exit") return null;
  if (step.type === "condition") return branch ? step.then : step.else;
  const index = definition.steps.findIndex((s) => s.id === step.id);
  return definition.steps[index + 1]?.id ?? null;
}

/**
 * How long after reaching a step it runs: a wait's length (the person waits at the wait step, which
 * passes them on when it is due), 0 for every other step.
 */
export function stepDelayMs(definition: FlowDefinition, stepId: string): number {
  const step = definition.steps.find((s) => s.id === stepId);
  return step?.type === "wait" ? step.seconds * 1000 : 0;
}

/** The steps a step can lead to. */
function followers(definition: FlowDefinition, step: FlowStep): string[] {
  if (step.type === "condition") return [step.then, step.else];
  const next = nextStepId(definition, step);
  return next ? [next] : [];
}

/** The steps that name a send step (opened or clicked): the step they name, where. */
function sendReferences(condition: FlowCondition | undefined): string | null {
  if (!condition) return null;
  if ("opened" in condition) return condition.opened;
  if ("clicked" in condition) return condition.clicked;
  return null;
}

/** A loop among the steps, as the ids along it (first repeated last), or null. */
export function findLoop(definition: FlowDefinition): string[] | null {
  const byId = new Map(definition.steps.map((s) => [s.id, s]));
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (id: string): string[] | null => {
    const step = byId.get(id);
    if (!step || state.get(id) === "done") return null;
    if (state.get(id) === "open") return [...path.slice(path.indexOf(id)), id];
    state.set(id, "open");
    path.push(id);
    for (const next of followers(definition, step)) {
      const loop = visit(next);
      if (loop) return loop;
    }
    path.pop();
    state.set(id, "done");
    return null;
  };
  for (const step of definition.steps) {
    const loop = visit(step.id);
    if (loop) return loop;
  }
  return null;
}

/**
 * Why a well-formed flow cannot run, one sentence each (empty when it can): a branch or a condition
 * naming a step that is not there (or not a send step), a loop, a send step whose template the
 * tenant no longer has (`templateIds`: those it has).
 */
export function flowProblems(definition: FlowDefinition, templateIds: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const byId = new Map(definition.steps.map((s) => [s.id, s]));
  const namesSend = (where: string, id: string | null) => {
    if (id === null) return;
    const step = byId.get(id);
    if (!step) problems.push(`${where} names the step "${id}", which is not in the flow`);
    else if (step.type !== "send") problems.push(`${where} names the step "${id}", which sends no message`);
  };
  for (const step of definition.steps) {
    if (step.type === "condition") {
      for (const branch of ["then", "else"] as const) {
        if (!byId.has(step[branch]))
          problems.push(`Step "${step.id}": ${branch} names the step "${step[branch]}", which is not in the flow`);
      }
      namesSend(`Step "${step.id}"`, sendReferences(step.if));
    }
    if (step.type === "send" && !templateIds.has(step.templateId))
      problems.push(`Step "${step.id}" sends a template that does not exist (deleted?): choose another`);
  }
  namesSend("The goal", sendReferences(definition.goal));
  const loop = findLoop(definition);
  if (loop) problems.push(`The steps go round in a loop (${loop.join(" → ")}): a flow must always move forward`);
  return problems;
}

/** Whether an event of this name with these properties fires the trigger. */
export function triggerFires(trigger: FlowTrigger, name: string, properties: Record<string, unknown>): boolean {
  if (trigger.event !== name) return false;
  return Object.entries(trigger.where ?? {}).every(([key, value]) => properties[key] === value);
}

/** A wait's length in words ("2 days", "1 hour 30 minutes", "45 seconds"). */
export function waitInWords(seconds: number): string {
  const parts: string[] = [];
  const units: [number, string][] = [
    [86_400, "day"],
    [3_600, "hour"],
    [60, "minute"],
    [1, "second"],
  ];
  let left = seconds;
  for (const [size, unit] of units) {
    const n = Math.floor(left / size);
    if (n > 0) parts.push(`${n} ${unit}${n === 1 ? "" : "s"}`);
    left -= n * size;
  }
  return parts.slice(0, 2).join(" ") || "0 seconds";
}
