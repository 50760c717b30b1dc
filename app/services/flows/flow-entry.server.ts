// How events enter flows (docs/decisions/0046-flows.md): one flow's part in some events (those
// whose event fires its trigger enter once per event id; those whose order is its goal convert),
// used by the fast path when events are kept (enterOnEvents: POST /api/events, an order, a
// customer) and by the flow clock's read of the events the fast path may have missed.
import { stepDelayMs, triggerFires } from "~/lib/flows";
import { type Logger, logger } from "~/lib/logger.server";
import { rupeesToPaise } from "~/lib/money";
import { type FlowRow, flows } from "~/models/flows/store.server";
import { type FlowDefinition, parseDefinition } from "~/schemas/flow";
import { OWN_EVENTS } from "~/services/own-events.server";

/** Definitions by flow and version, read once per tick. */
export function definitions(): (flowId: string, version: number) => Promise<FlowDefinition | null> {
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

export function propertiesOf(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** An event as a flow takes it: the sender's id, its name, whose, its properties, when (ms). */
export type FlowEvent = {
  eventId: string;
  name: string;
  customerId: string;
  properties: Record<string, unknown>;
  at: number;
};

/**
 * One flow's part in some events: those whose event fires its trigger enter (once per event id),
 * those whose order is its goal convert, and, for the clock's read, its cursor moves to `cursor.to`
 * in the same transaction. Answers how many entered (0 when another clock moved the cursor first).
 */
export async function admit(
  flow: FlowRow,
  definition: FlowDefinition,
  batch: readonly FlowEvent[],
  cursor: { from: string; to: string } | null,
  now: number,
): Promise<number> {
  const entries = batch
    .filter((e) => triggerFires(definition.trigger, e.name, e.properties))
    .map((e) => ({ customerId: e.customerId, entryKey: e.eventId, at: Math.min(e.at, now) }));
  const conversions =
    definition.goal && "ordered" in definition.goal
      ? batch
          .filter((e) => e.name === OWN_EVENTS.orderPlaced)
          .map((e) => ({ customerId: e.customerId, at: e.at, revenuePaise: revenueOf(e.properties) }))
      : [];
  if (!cursor && entries.length === 0 && conversions.length === 0) return 0;
  const firstStep = definition.steps[0]?.id ?? "";
  const first = { stepId: firstStep, delayMs: stepDelayMs(definition, firstStep) };
  const done = await flows.enter(flow, first, entries, definition.reentry, conversions, cursor, now);
  return done?.entered ?? 0;
}

/**
 * The fast path: events just kept (POST /api/events, an order, a customer) enter the tenant's live
 * flows at once, after their own transaction. A failure here loses nothing: the clock's read of the
 * same events (EVENT_SETTLE_MS later) enters them, once, as the entry's key allows one. Never throws.
 */
export async function enterOnEvents(userId: string, kept: readonly FlowEvent[], log: Logger = logger()): Promise<void> {
  if (kept.length === 0) return;
  try {
    const definitionOf = definitions();
    for (const flow of await flows.listFlows(userId)) {
      if (flow.status !== "live") continue;
      const definition = await definitionOf(flow.id, flow.version);
      if (definition) await admit(flow, definition, kept, null, Date.now());
    }
  } catch (error) {
    log.warn({ err: error, userId }, "Events could not enter flows at once; the flow clock enters them shortly");
  }
}
