// The events the product raises itself (docs/decisions/0046-flows.md), kept in the same table as the
// shop's own (POST /api/events) and in the transaction of what they tell of, so a flow's trigger
// sees an order exactly when the order is kept: order_placed (its id and amount) and
// customer_created. Their sender's ids start with "crm:" and name the record, so each is kept once.
import { newId } from "~/lib/id";
import { events } from "~/models/events/store.server";
import type { Tx } from "~/models/transaction/store.server";

/** The names of the product's own events, as flows' triggers name them. */
export const OWN_EVENTS = { orderPlaced: "order_placed", customerCreated: "customer_created" } as const;

/** One of the product's own events, as flows take it once its transaction has committed. */
export type OwnEvent = {
  eventId: string;
  name: string;
  customerId: string;
  properties: Record<string, unknown>;
  at: number;
};

/**
 * Keeps one of the product's own events about a customer, in the caller's transaction; answers it
 * for the caller to hand to flows (enterOnEvents) after the commit.
 */
export async function recordOwnEvent(
  tx: Tx,
  userId: string,
  event: { name: string; key: string; customerId: string; properties: Record<string, unknown> },
  now = Date.now(),
): Promise<OwnEvent> {
  await events.recordOwnEvent(
    userId,
    {
      id: newId(new Date(now)),
      eventId: `crm:${event.key}`,
      name: event.name,
      customerId: event.customerId,
      properties: JSON.stringify(event.properties),
      occurredAt: now,
      receivedAt: now,
    },
    tx,
  );
  return {
    eventId: `crm:${event.key}`,
    name: event.name,
    customerId: event.customerId,
    properties: event.properties,
    at: now,
  };
}
