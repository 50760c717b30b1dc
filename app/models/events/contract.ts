// What the events domain offers (the door: ./store.server.ts): a batch of events kept once per the
// sender's id, the customers a batch names, and the events read back (a tenant's, or one
// customer's), newest first. What an event may hold is the service's: app/services/events.server.ts.
import type { Tx } from "~/models/transaction/store.server";
import type { KnownCustomer, NewEvent, StoredEvent } from "./rows";

export type EventsStore = {
  /**
   * Keeps the events whose sender's id the tenant has not sent before, in one transaction; answers
   * the sender's ids of those kept now (a repeat of an id already kept is left out).
   */
  recordEvents(userId: string, events: readonly NewEvent[]): Promise<Set<string>>;
  /**
   * Keeps an event the product itself raises (an order placed, a customer added) in the caller's
   * transaction, so it is kept exactly when what it tells of is; nothing when its id was kept before.
   */
  recordOwnEvent(userId: string, event: NewEvent, tx: Tx): Promise<void>;
  /** The tenant's customers among `ids` and `emails` (e-mails compared in lower case). */
  knownCustomers(userId: string, ids: readonly string[], emails: readonly string[]): Promise<KnownCustomer[]>;
  /** The tenant's events, newest first, of one name or one customer when given. */
  /**
   * The tenant's events kept after the event of our id `after` ("" for the first) and before our id
   * `before`, in the order of our ids (the order they were kept, to the second), at most `limit`.
   */
  eventsAfter(userId: string, after: string, before: string, limit: number): Promise<StoredEvent[]>;
  listEvents(userId: string, filter: { name?: string; customerId?: string; limit: number }): Promise<StoredEvent[]>;
};
