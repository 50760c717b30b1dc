// Events about customers as stored (CustomerEvent; docs/decisions/0044-events-in.md).

/** An event to keep: ours and the sender's ids, its name, whose it is, its properties as JSON, times in ms. */
export type NewEvent = {
  id: string;
  eventId: string;
  name: string;
  customerId: string;
  properties: string;
  occurredAt: number;
  receivedAt: number;
};

/** An event as read back. */
export type StoredEvent = {
  id: string;
  eventId: string;
  name: string;
  customerId: string;
  properties: string;
  occurredAt: Date;
  receivedAt: Date;
};

/** A customer an event names, as the batch finds them (by id or by e-mail). */
export type KnownCustomer = { id: string; email: string };

/** The most events one read answers. */
export const MAX_EVENTS_READ = 500;
