// The flow clock (docs/decisions/0046-flows.md): once a second, in each server beside the background
// jobs, it reads the events each live flow has not read yet (entering the people whose event fires
// its trigger, and ending as converted those who placed an order when the goal is an order), then
// claims the people whose step is due and moves them on. Nothing waits in memory: a wait is the
// entry's due time, a claim a lease on the row, so a restart loses no one and several instances
// share the work (a claimed row is another clock's only once its lease runs out, and the passage's
// unique key keeps a step from running twice even then).
import type { Logger } from "~/lib/logger.server";
import { events } from "~/models/events/store.server";
import { cursorAt, type FlowRow, flows } from "~/models/flows/store.server";
import type { FlowDefinition } from "~/schemas/flow";
import { wakeDelivery } from "~/services/sending/wake.server";
import { tickEvery } from "~/services/ticking.server";
import { admit, definitions, propertiesOf } from "./flow-entry.server";
import { runEntry } from "./flow-steps.server";

/** How often the clock ticks: a step is due at most this late (plus EVENT_SETTLE_MS for an event). */
export const FLOW_POLL_MS = 1_000;
/**
 * The clock reads an event once its second is this far past: events enter flows at once when they
 * are kept (enterOnEvents), and this read is the net under that, for an event whose fast path was
 * cut off (a crash) or that a CSV import kept. Our ids order events only to the second, and a
 * transaction may commit a while after its ids were made: the read waits this long for it.
 */
export const EVENT_SETTLE_MS = 30_000;
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

/** Reads one live flow's events the fast path may have missed (kept EVENT_SETTLE_MS ago and more). */
async function readFlowEvents(flow: FlowRow, definition: FlowDefinition, now: number): Promise<number> {
  const batch = await events.eventsAfter(
    flow.userId,
    flow.eventCursor,
    cursorAt(now - EVENT_SETTLE_MS),
    EVENTS_PER_READ,
  );
  const last = batch.at(-1);
  if (!last) return 0;
  const read = batch.map((e) => ({
    eventId: e.eventId,
    name: e.name,
    customerId: e.customerId,
    properties: propertiesOf(e.properties),
    at: e.occurredAt.getTime(),
  }));
  return admit(flow, definition, read, { from: flow.eventCursor, to: last.id }, now);
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
