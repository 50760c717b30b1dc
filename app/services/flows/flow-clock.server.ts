// The flow clock (docs/decisions/0046-flows.md): once a second, in each server beside the background
// jobs, it reads the events each live flow has not read yet (entering the people whose event fires
// its trigger, and ending as converted those who placed an order when the goal is an order), then
// claims the people whose step is due and moves them on. Nothing waits in memory: a wait is the
// entry's due time, a claim a lease on the row, so a restart loses no one and several instances
// share the work (a claimed row is another clock's only once its lease runs out, and the passage's
// unique key keeps a step from running twice even then).
import { stepDelayMs, triggerFires } from "~/lib/flows";
import type { Logger } from "~/lib/logger.server";
import { rupeesToPaise } from "~/lib/money";
import { events } from "~/models/events/store.server";
import { cursorAt, type FlowRow, flows } from "~/models/flows/store.server";
import type { FlowDefinition } from "~/schemas/flow";
import { OWN_EVENTS } from "~/services/own-events.server";
import { wakeDelivery } from "~/services/sending/wake.server";
import { tickEvery } from "~/services/ticking.server";
import { runEntry } from "./flow-steps.server";
import { parseDefinition } from "./flows.server";

/** How often the clock ticks: a step is due at most this late (plus EVENT_SETTLE_MS for an event). */
export const FLOW_POLL_MS = 1_000;
/**
 * An event is read once its second is this far past: ids order events only to the second, and an
 * event of the same second kept by another instance may commit a moment later.
 */
export const EVENT_SETTLE_MS = 2_000;
const EVENTS_PER_READ = 1_000;
/** People claimed at once, and claims a tick makes at most while each comes back full. */
const ENTRIES_PER_CLAIM = 200;
const CLAIMS_PER_TICK = 25;
/**
 * How long a claimed person is the claimer's: a clock that dies mid-step leaves them to another
 * after this. A claim's 200 people take well under it; one that overruns only wastes work (the
 * claim's token stops the late writer).
 */
export const FLOW_LEASE_MS = 15_000;

/** Definitions by flow and version, read once per tick. */
function definitions(): (flowId: string, version: number) => Promise<FlowDefinition | null> {
  const known = new Map<string, Promise<FlowDefinition | null>>();
  return (flowId, version) => {
    const key = `${flowId}:${version}`;
    let found = known.get(key);
    if (!found) {
      found = flows.readDefinition(flowId, version).then((text) => (text === null ? null : parseDefinition(text)));
      known.set(key, found);
    }
    return found;
  };
}

/** The order's revenue an order_placed event carries, in paise (the product's own say amountPaise; the shop's, amount in rupees). */
function revenueOf(properties: Record<string, unknown>): number {
  if (typeof properties.amountPaise === "number" && Number.isFinite(properties.amountPaise))
    return Math.max(0, Math.round(properties.amountPaise));
  if (typeof properties.amount === "number" && Number.isFinite(properties.amount))
    return Math.max(0, rupeesToPaise(properties.amount));
  return 0;
}

function propertiesOf(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Reads one live flow's new events: people in, conversions out. Answers how many entered. */
async function readFlowEvents(flow: FlowRow, definition: FlowDefinition, now: number): Promise<number> {
  const batch = await events.eventsAfter(
    flow.userId,
    flow.eventCursor,
    cursorAt(now - EVENT_SETTLE_MS),
    EVENTS_PER_READ,
  );
  const last = batch.at(-1);
  if (!last) return 0;
  const read = batch.map((e) => ({ ...e, props: propertiesOf(e.properties), at: e.occurredAt.getTime() }));
  const entries = read
    .filter((e) => triggerFires(definition.trigger, e.name, e.props))
    .map((e) => ({ customerId: e.customerId, entryKey: e.eventId, at: Math.min(e.at, now) }));
  const conversions =
    definition.goal && "ordered" in definition.goal
      ? read
          .filter((e) => e.name === OWN_EVENTS.orderPlaced)
          .map((e) => ({ customerId: e.customerId, at: e.at, revenuePaise: revenueOf(e.props) }))
      : [];
  const firstStep = definition.steps[0]?.id ?? "";
  const first = { stepId: firstStep, delayMs: stepDelayMs(definition, firstStep) };
  const done = await flows.enter(
    flow,
    first,
    entries,
    definition.reentry,
    conversions,
    {
      from: flow.eventCursor,
      to: last.id,
    },
    now,
  );
  return done?.entered ?? 0;
}

/** One tick: every live flow's new events, then the people whose step is due. Answers what it did. */
export async function runFlowClock(
  now = Date.now(),
  log: Logger,
): Promise<{ entered: number; moved: number; queued: number }> {
  const definitionOf = definitions();
  let entered = 0;
  for (const flow of await flows.liveFlows()) {
    const definition = await definitionOf(flow.id, flow.version);
    if (!definition) continue;
    try {
      entered += await readFlowEvents(flow, definition, now);
    } catch (error) {
      log.error({ err: error, flowId: flow.id }, "A flow's events could not be read; trying again");
    }
  }
  // Claims of a few hundred, each run well inside its lease, as long as full ones come back.
  const started = Date.now();
  let moved = 0;
  let queued = 0;
  for (let round = 0; round < CLAIMS_PER_TICK; round += 1) {
    const claimed = await flows.claimDue(now + (Date.now() - started), ENTRIES_PER_CLAIM, FLOW_LEASE_MS);
    moved += claimed.length;
    for (const entry of claimed) {
      if (await runEntry(entry, definitionOf, log)) queued += 1;
    }
    // The delivery job starts on the first messages while the clock goes on.
    if (queued > 0) wakeDelivery();
    if (claimed.length < ENTRIES_PER_CLAIM) break;
  }
  return { entered, moved, queued };
}

/** Starts the clock: runFlowClock every FLOW_POLL_MS (never two ticks at once). Returns its stop. */
export function startFlowClock(log: Logger): { stop(): Promise<void> } {
  return tickEvery(
    FLOW_POLL_MS,
    () => runFlowClock(Date.now(), log),
    (err) => log.error({ err }, "The flow clock's tick failed"),
  );
}
