// What each step of a flow does to one person (docs/decisions/0046-flows.md), each in one
// transaction with the record of their passage: the passage's unique key and the claim's token make
// the step happen once per entry, whatever retries, crashes or other instances do. A send step's
// message is one delivery row under the step's campaign, which the delivery engine sends as it sends
// campaigns (suppression, tracking, receipts, the same Message-ID on a retry).
import { nextStepId, stepDelayMs, waitInWords } from "~/lib/flows";
import type { Logger } from "~/lib/logger.server";
import { tagKey } from "~/lib/tags";
import {
  type ClaimedEntry,
  flows,
  type Passage,
  StaleClaim,
  type StepExit,
  stepKey,
} from "~/models/flows/store.server";
import { tags } from "~/models/tags/store.server";
import { transaction, type Tx } from "~/models/transaction/store.server";
import type { FlowCondition, FlowDefinition, FlowStep } from "~/schemas/flow";
import { prepareSendSteps } from "./flows.server";

/** Steps one person may take in a row in one claim (the rest wait for the next tick). */
const STEPS_PER_CLAIM = 25;

/** Where the person goes after `step` (`branch` for a condition) at `now`: the next step, due when its wait is over. */
function exitAfter(definition: FlowDefinition, step: FlowStep, now: number, branch?: boolean): StepExit {
  const next = nextStepId(definition, step, branch);
  if (next === null) return { end: "done" };
  return { stepId: next, dueAt: now + stepDelayMs(definition, next) };
}

/** Whether the person meets a condition now. */
async function meets(entry: ClaimedEntry, condition: FlowCondition): Promise<boolean> {
  if ("ordered" in condition) return flows.orderedSince(entry.userId, entry.customerId, entry.enteredAt);
  if ("opened" in condition) return flows.engagedWithStep(entry.flowId, condition.opened, entry.customerId, "opened");
  if ("clicked" in condition)
    return flows.engagedWithStep(entry.flowId, condition.clicked, entry.customerId, "clicked");
  const names = await tags.readCustomerTags(entry.userId, entry.customerId);
  return names.some((name) => tagKey(name) === tagKey(condition.tagged));
}

/** A step's own writes, in its transaction, answering the passage to record. */
type StepWork = (tx: Tx) => Promise<Passage>;

/** Runs `work` and records the passage (moving the person on) in one transaction. */
async function pass(entry: ClaimedEntry, exit: StepExit, now: number, work: StepWork): Promise<void> {
  await transaction(async (tx) => {
    const passage = await work(tx);
    await flows.passStep(entry, passage, exit, now, tx);
  });
}

const record =
  (outcome: string, details = ""): StepWork =>
  async () => ({ outcome, details });

/** The campaign a send step's messages go out under (made now if missing), or why there is none. */
async function stepCampaign(entry: ClaimedEntry, definition: FlowDefinition): Promise<string | { problem: string }> {
  const key = stepKey(entry.version, entry.stepId);
  const found = await flows.findStepCampaign(entry.flowId, key);
  if (found) return found;
  const flow = await flows.findFlowById(entry.flowId);
  const only = definition.steps.filter((s) => s.id === entry.stepId);
  const problem = flow
    ? await prepareSendSteps(flow, entry.version, { ...definition, steps: only })
    : "The flow is gone";
  if (problem) return { problem };
  return (await flows.findStepCampaign(entry.flowId, key)) ?? { problem: "The step's campaign could not be made" };
}

/** What running a step did: whether it queued a message, and where it left the person. */
type StepRun = { queued: boolean; exit: StepExit };

/** Runs the person's current step, recording their passage. */
async function runStep(entry: ClaimedEntry, definition: FlowDefinition, step: FlowStep, now: number): Promise<StepRun> {
  const passed = async (exit: StepExit, work: StepWork, queued = false): Promise<StepRun> => {
    await pass(entry, exit, now, work);
    return { queued, exit };
  };
  switch (step.type) {
    case "send": {
      const campaign = await stepCampaign(entry, definition);
      const exit = exitAfter(definition, step, now);
      if (typeof campaign !== "string") return passed(exit, record("skipped", campaign.problem));
      let queued = false;
      await pass(entry, exit, now, async (tx) => {
        const seq = await flows.appendStepDelivery(campaign, entry.userId, entry.customerId, now, tx);
        queued = seq !== null;
        return queued
          ? { outcome: "sent", details: "" }
          : { outcome: "skipped", details: "Already sent this step's message on an earlier entry" };
      });
      return { queued, exit };
    }
    case "wait":
      // Due now means its time is over: the person waited here since they reached it.
      return passed(exitAfter(definition, step, now), record("waited", waitInWords(step.seconds)));
    case "condition": {
      const yes = await meets(entry, step.if);
      return passed(exitAfter(definition, step, now, yes), record(yes ? "yes" : "no"));
    }
    case "tag":
      return passed(exitAfter(definition, step, now), async (tx) => {
        const done: string[] = [];
        if (step.add) {
          const [tag] = await tags.ensureTags(entry.userId, [step.add], tx);
          if (tag && (await tags.tagCustomers(entry.userId, tag.id, [entry.customerId], tx)))
            done.push(`added ${tag.name}`);
        }
        if (step.remove) {
          const [tag] = await tags.findTagsByKey(entry.userId, [tagKey(step.remove)]);
          if (tag && (await tags.untagCustomers(entry.userId, tag.id, [entry.customerId], tx)))
            done.push(`removed ${tag.name}`);
        }
        return { outcome: "tagged", details: done.join(", ") || "no change" };
      });
    case "exit":
      return passed({ end: "done" }, record("exited"));
  }
}

/**
 * Moves one claimed person through their due steps: as many as are due now (a wait's step ends the
 * run), at most STEPS_PER_CLAIM. Stops quietly when the claim is lost (another clock took the entry
 * after its lease ran out). Answers whether a message was queued.
 */
export async function runEntry(
  claimed: ClaimedEntry,
  definitionOf: (flowId: string, version: number) => Promise<FlowDefinition | null>,
  log: Logger,
  clock: () => number = Date.now,
): Promise<boolean> {
  let entry = claimed;
  let queued = false;
  for (let n = 0; n < STEPS_PER_CLAIM; n += 1) {
    const definition = await definitionOf(entry.flowId, entry.version);
    const step = definition?.steps.find((s) => s.id === entry.stepId);
    const now = clock();
    try {
      if (!definition || !step) {
        await pass(entry, { end: "done" }, now, record("skipped", "The step is no longer in the flow"));
        return queued;
      }
      const run = await runStep(entry, definition, step, now);
      queued = run.queued || queued;
      // On to the next step now when it is due now (not a wait).
      if (!("stepId" in run.exit) || run.exit.dueAt > now) return queued;
      entry = { ...entry, stepId: run.exit.stepId };
    } catch (error) {
      if (error instanceof StaleClaim) return queued;
      log.error(
        { err: error, entryId: entry.id, stepId: entry.stepId },
        "A flow step failed; it runs again when its claim runs out",
      );
      return queued;
    }
  }
  return queued;
}
