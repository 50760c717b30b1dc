// Flows as a marketer keeps them (docs/decisions/0046-flows.md): made, edited, set live, paused and
// deleted, each read back with its figures per step. A flow that cannot run (a loop, a step named
// that is not there, a template deleted) is kept as a draft with its problems listed, and refused
// (422, saying why) when it is set live. Editing a flow someone has entered makes a new version:
// the people inside finish on the version they entered.
import { ApiError, notFound } from "~/lib/api.server";
import { flowStarter } from "~/lib/flow-starters";
import { flowProblems } from "~/lib/flows";
import { isId, newId } from "~/lib/id";
import { paiseToRupees } from "~/lib/money";
import { campaigns } from "~/models/campaigns/store.server";
import { type FlowRow, flows, stepKey } from "~/models/flows/store.server";
import {
  definitionOf,
  type FlowDefinition,
  type FlowInput,
  type FlowStatus,
  type FlowStep,
  parseDefinition,
} from "~/schemas/flow";
import { templateForCampaign } from "~/services/campaigns/campaign-template.server";
import { listTemplates } from "~/services/templates.server";

/** A step as /api/flows answers it: as defined, with its figures (all versions added). */
export type FlowStepDto = FlowStep & {
  entered: number;
  waiting: number;
  sent: number;
  opened: number;
  clicked: number;
  converted: number;
  revenue: number;
  exited: number;
  /** The campaign its messages go out under (its delivery log), once it has sent. */
  campaignId: string | null;
};

/** A flow as /api/flows answers it. */
export type FlowDto = Omit<FlowDefinition, "steps"> & {
  id: string;
  name: string;
  status: FlowStatus;
  version: number;
  steps: FlowStepDto[];
  /** Why it cannot go live (empty when it can). */
  problems: string[];
  people: { active: number; done: number; converted: number };
  /** The goal's orders, in rupees. */
  revenue: number;
  createdAt: string;
  updatedAt: string;
};

/** A person in a flow, as /api/flows/{id}/people lists them. */
export type FlowPersonDto = {
  customerId: string;
  name: string;
  email: string;
  version: number;
  /** The step they are at ("" once out). */
  stepId: string;
  state: "active" | "done" | "converted";
  enteredAt: string;
  /** When their step runs (active people). */
  dueAt: string | null;
  endedAt: string | null;
  revenue: number;
};

export const FLOW_MESSAGES = {
  notLive: (problems: readonly string[]) => `This flow cannot go live: ${problems.join("; ")}`,
} as const;

const isStatus = (s: string): s is FlowStatus => s === "draft" || s === "live" || s === "paused";
const isState = (s: string): s is FlowPersonDto["state"] => s === "active" || s === "done" || s === "converted";

/** The tenant's flow with its current definition, or a 404. */
export async function flowWithDefinition(
  userId: string,
  id: string,
): Promise<{ flow: FlowRow; definition: FlowDefinition }> {
  const flow = isId(id) ? await flows.findFlow(userId, id) : null;
  if (!flow) throw notFound("Flow");
  const text = await flows.readDefinition(flow.id, flow.version);
  if (text === null) throw notFound("Flow");
  return { flow, definition: parseDefinition(text) };
}

/** Why the tenant's flow could not run, as it is written. */
async function problemsOf(userId: string, definition: FlowDefinition): Promise<string[]> {
  const templateIds = new Set((await listTemplates(userId)).map((t) => t.id));
  return flowProblems(definition, templateIds);
}

/**
 * The campaign each send step of the version sends under, made now when missing, from the step's
 * template frozen as a campaign takes it. Returns the problem of a step whose template cannot be
 * sent (a merge tag that names nothing), or null.
 */
export async function prepareSendSteps(
  flow: { id: string; userId: string; name: string },
  version: number,
  definition: FlowDefinition,
): Promise<string | null> {
  for (const step of definition.steps) {
    if (step.type !== "send") continue;
    const key = stepKey(version, step.id);
    if (await flows.findStepCampaign(flow.id, key)) continue;
    try {
      const template = await templateForCampaign(flow.userId, step.templateId);
      await flows.createStepCampaign({
        flowId: flow.id,
        stepKey: key,
        userId: flow.userId,
        name: `${flow.name} · ${step.id}`,
        subject: template.subject,
        message: template.message,
        design: template.design,
        templateId: template.templateId,
      });
    } catch (error) {
      if (error instanceof ApiError) return `Step "${step.id}": ${error.message}`;
      throw error;
    }
  }
  return null;
}

/** Refuses a live status for a flow that cannot run, and readies its send steps when it can. */
async function readyToRun(
  flow: { id: string; userId: string; name: string },
  version: number,
  definition: FlowDefinition,
): Promise<void> {
  const problems = await problemsOf(flow.userId, definition);
  if (problems.length > 0) throw new ApiError("unprocessable", FLOW_MESSAGES.notLive(problems));
  const problem = await prepareSendSteps(flow, version, definition);
  if (problem) throw new ApiError("unprocessable", FLOW_MESSAGES.notLive([problem]));
}

/** Makes a draft from a starter flow (app/lib/flow-starters.ts), to be changed and set live; a 404 for no such starter. */
export async function createFlowFromStarter(userId: string, key: string): Promise<FlowDto> {
  const starter = flowStarter(key);
  if (!starter) throw notFound("Starter flow");
  return createFlow(userId, { name: starter.name, status: "draft", ...starter.definition });
}

/** Makes a flow. Live at once only when it can run (a 422 saying why, and nothing kept, otherwise). */
export async function createFlow(userId: string, input: FlowInput): Promise<FlowDto> {
  const id = newId();
  const definition = definitionOf(input);
  if (input.status === "live") {
    const problems = await problemsOf(userId, definition);
    if (problems.length > 0) throw new ApiError("unprocessable", FLOW_MESSAGES.notLive(problems));
  }
  await flows.createFlow({
    id,
    userId,
    name: input.name,
    status: input.status === "live" ? "draft" : input.status,
    definition: JSON.stringify(definition),
  });
  if (input.status === "live") {
    try {
      await readyToRun({ id, userId, name: input.name }, 1, definition);
    } catch (error) {
      await deleteFlow(userId, id);
      throw error;
    }
    await flows.setFlowStatus(userId, id, "live");
  }
  return getFlow(userId, id);
}

/**
 * Replaces a flow's name, definition and status. A changed definition of a version someone entered
 * becomes a new version; otherwise the current one is written over. Going live is checked as on
 * create, and a refusal changes nothing.
 */
export async function updateFlow(userId: string, id: string, input: FlowInput): Promise<FlowDto> {
  const { flow, definition: before } = await flowWithDefinition(userId, id);
  const definition = definitionOf(input);
  const changed = JSON.stringify(before) !== JSON.stringify(definition);
  const newVersion = changed && (await flows.hasEntries(flow.id, flow.version));
  const version = newVersion ? flow.version + 1 : flow.version;
  if (input.status === "live") await readyToRun({ id, userId, name: input.name }, version, definition);
  const written = await flows.updateFlow(
    { id, userId, name: input.name, status: input.status, definition: JSON.stringify(definition) },
    newVersion,
  );
  if (written === null) throw notFound("Flow");
  return getFlow(userId, id);
}

/** Sets a flow live, paused or back to draft (live only when it can run). */
export async function setFlowStatus(userId: string, id: string, status: FlowStatus): Promise<FlowDto> {
  const { flow, definition } = await flowWithDefinition(userId, id);
  if (status === "live") await readyToRun(flow, flow.version, definition);
  if (!(await flows.setFlowStatus(userId, id, status))) throw notFound("Flow");
  return getFlow(userId, id);
}

/** Deletes a flow, its people's places in it, and its send steps' campaigns with their logs. */
export async function deleteFlow(userId: string, id: string): Promise<void> {
  const flow = isId(id) ? await flows.findFlow(userId, id) : null;
  if (!flow) throw notFound("Flow");
  // The flow first, so its clock stops moving people, then its campaigns' logs in slices.
  const campaignIds = await flows.stepCampaignIds(flow.id);
  if (!(await flows.deleteFlow(userId, id))) throw notFound("Flow");
  for (const campaignId of campaignIds) await campaigns.deleteCampaignAndLog(userId, campaignId);
}

/** The tenant's flow with its figures, or a 404. */
export async function getFlow(userId: string, id: string): Promise<FlowDto> {
  const { flow, definition } = await flowWithDefinition(userId, id);
  const [[counts], steps, deliveries, problems] = await Promise.all([
    flows.flowCounts([flow.id]),
    flows.stepCounts(flow.id),
    flows.stepDeliveryCounts(flow.id),
    problemsOf(userId, definition),
  ]);
  return {
    ...toSummary(flow, counts),
    trigger: definition.trigger,
    goal: definition.goal,
    reentry: definition.reentry,
    problems,
    steps: definition.steps.map((step) => {
      const s = steps.find((c) => c.stepId === step.id);
      const d = deliveries.find((c) => c.stepId === step.id);
      return {
        ...step,
        entered: s?.entered ?? 0,
        waiting: s?.waiting ?? 0,
        exited: s?.exited ?? 0,
        converted: s?.converted ?? 0,
        revenue: paiseToRupees(s?.revenuePaise ?? 0),
        sent: d?.sent ?? 0,
        opened: d?.opened ?? 0,
        clicked: d?.clicked ?? 0,
        campaignId: d?.campaignId ?? null,
      };
    }),
  };
}

/** A flow's line in the list: no steps. */
export type FlowSummaryDto = Omit<FlowDto, "steps" | "problems" | "trigger" | "goal" | "reentry">;

function toSummary(
  flow: FlowRow,
  counts: { active: number; done: number; converted: number; revenuePaise: number } | undefined,
): FlowSummaryDto {
  return {
    id: flow.id,
    name: flow.name,
    status: isStatus(flow.status) ? flow.status : "draft",
    version: flow.version,
    people: { active: counts?.active ?? 0, done: counts?.done ?? 0, converted: counts?.converted ?? 0 },
    revenue: paiseToRupees(counts?.revenuePaise ?? 0),
    createdAt: flow.createdAt.toISOString(),
    updatedAt: flow.updatedAt.toISOString(),
  };
}

/** Whether one of the tenant's live flows starts on this event (a CSV import writes customer_created only then). */
export async function hasLiveFlowOn(userId: string, event: string): Promise<boolean> {
  for (const flow of await flows.listFlows(userId)) {
    if (flow.status !== "live") continue;
    const text = await flows.readDefinition(flow.id, flow.version);
    if (text !== null && parseDefinition(text).trigger.event === event) return true;
  }
  return false;
}

/** The tenant's flows, newest first, each with its people and revenue. */
export async function listFlows(userId: string): Promise<FlowSummaryDto[]> {
  const rows = await flows.listFlows(userId);
  const counts = await flows.flowCounts(rows.map((f) => f.id));
  return rows.map((f) =>
    toSummary(
      f,
      counts.find((c) => c.flowId === f.id),
    ),
  );
}

/** The flow's people, the latest entered first (of one state when asked). */
export async function flowPeople(
  userId: string,
  id: string,
  options: { limit: number; state?: FlowPersonDto["state"] },
): Promise<FlowPersonDto[]> {
  const flow = isId(id) ? await flows.findFlow(userId, id) : null;
  if (!flow) throw notFound("Flow");
  const rows = await flows.listPeople(userId, flow.id, options.limit, options.state);
  return rows.map((r) => ({
    customerId: r.customerId,
    name: `${r.firstName} ${r.lastName}`.trim(),
    email: r.email,
    version: r.version,
    stepId: r.stepId,
    state: isState(r.state) ? r.state : "active",
    enteredAt: new Date(r.enteredAt).toISOString(),
    dueAt: r.state === "active" ? new Date(r.dueAt).toISOString() : null,
    endedAt: r.endedAt === null ? null : new Date(r.endedAt).toISOString(),
    revenue: paiseToRupees(r.revenuePaise),
  }));
}

/** The steps of the tenant's flows a customer passed, newest first (the customer page). */
export async function customerPassages(
  userId: string,
  customerId: string,
  limit: number,
): Promise<{ flowId: string; flowName: string; stepId: string; outcome: string; details: string; at: string }[]> {
  const rows = await flows.passagesOf(userId, customerId, limit);
  return rows.map((r) => ({ ...r, at: new Date(r.at).toISOString() }));
}
