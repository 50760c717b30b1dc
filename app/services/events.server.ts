// Events from the shop's own systems (docs/decisions/0044-events-in.md): POST /api/events keeps each
// event once per the sender's id, for the tenant's own customers only, found by id or by e-mail; an
// unknown e-mail is refused, or made a customer when the batch asks for it (createCustomers, named
// by the event's `customer`). A repeat of an id already kept answers as a duplicate and keeps
// nothing; the first of two events with the same id in one batch is the one kept.
import { ApiError } from "~/lib/api.server";
import { newId, isId } from "~/lib/id";
import type { KnownCustomer, NewEvent, StoredEvent } from "~/models/events/rows";
import { events as eventsStore } from "~/models/events/store.server";
import { CustomerApiSchema } from "~/schemas/customer";
import type { EventInput, EventsInput } from "~/schemas/events";
import { createCustomer } from "~/services/customers.server";
import { enterOnEvents } from "~/services/flows/flow-entry.server";

/** What a batch did: events kept now, repeats of ids kept before, customers made, and each refusal. */
export type EventsAnswer = {
  accepted: number;
  duplicates: number;
  customersCreated: number;
  refused: { index: number; id: string; message: string }[];
};

/** An event as /api/events lists it. */
export type EventDto = {
  id: string;
  name: string;
  customerId: string;
  properties: Record<string, unknown>;
  occurredAt: string;
  receivedAt: string;
};

const noCustomer = (email: string) =>
  `No customer has the e-mail ${email}: send createCustomers: true with customer: { firstName, lastName } to make one`;

/** The customers of the batch: those the tenant has, and (asked for) those made now for unknown e-mails. */
async function customersOf(
  userId: string,
  batch: readonly EventInput[],
  createCustomers: boolean,
): Promise<{ byId: Set<string>; byEmail: Map<string, string>; created: number; failures: Map<string, string> }> {
  const ids = [...new Set(batch.flatMap((e) => (e.customerId && isId(e.customerId) ? [e.customerId] : [])))];
  const emails = [...new Set(batch.flatMap((e) => (e.customerId === undefined && e.email ? [e.email] : [])))];
  const known: KnownCustomer[] = await eventsStore.knownCustomers(userId, ids, emails);
  const byId = new Set(known.map((c) => c.id));
  const byEmail = new Map(known.map((c) => [c.email.toLowerCase(), c.id]));
  const failures = new Map<string, string>();
  let created = 0;
  if (!createCustomers) return { byId, byEmail, created, failures };
  for (const event of batch) {
    const email = event.customerId === undefined ? event.email : undefined;
    if (!email || byEmail.has(email) || failures.has(email)) continue;
    if (!event.customer) {
      failures.set(
        email,
        `No customer has the e-mail ${email}: give the event customer: { firstName, lastName } to make one`,
      );
      continue;
    }
    const input = CustomerApiSchema.safeParse({ ...event.customer, email });
    if (!input.success) {
      failures.set(email, input.error.issues[0]?.message ?? "The customer cannot be made");
      continue;
    }
    try {
      byEmail.set(email, (await createCustomer(userId, input.data)).id);
      created += 1;
    } catch (error) {
      // Made by another request meanwhile: that one is the customer.
      const [again] = await eventsStore.knownCustomers(userId, [], [email]);
      if (again) byEmail.set(email, again.id);
      else if (error instanceof ApiError) failures.set(email, error.message);
      else throw error;
    }
  }
  return { byId, byEmail, created, failures };
}

/** Keeps a batch of events; see the top of this file. All refused is a 422 naming the first. */
export async function recordEvents(userId: string, input: EventsInput, now = Date.now()): Promise<EventsAnswer> {
  const { byId, byEmail, created, failures } = await customersOf(userId, input.events, input.createCustomers);
  const refused: EventsAnswer["refused"] = [];
  const rows: NewEvent[] = [];
  const seen = new Set<string>();
  let repeatsInBatch = 0;
  input.events.forEach((event, index) => {
    let customerId: string | undefined;
    if (event.customerId !== undefined) {
      if (byId.has(event.customerId)) customerId = event.customerId;
      else refused.push({ index, id: event.id, message: `Customer ${event.customerId} not found` });
    } else if (event.email !== undefined) {
      customerId = byEmail.get(event.email);
      if (!customerId)
        refused.push({ index, id: event.id, message: failures.get(event.email) ?? noCustomer(event.email) });
    }
    if (!customerId) return;
    if (seen.has(event.id)) {
      repeatsInBatch += 1;
      return;
    }
    seen.add(event.id);
    rows.push({
      // Made now, after the batch's customers: the id's second is close to the insert's commit.
      id: newId(),
      eventId: event.id,
      name: event.name,
      customerId,
      properties: JSON.stringify(event.properties),
      occurredAt: event.occurredAt === undefined ? now : Date.parse(event.occurredAt),
      receivedAt: now,
    });
  });
  if (rows.length === 0 && refused.length > 0) {
    const [first] = refused;
    throw new ApiError("unprocessable", `No event was kept: event ${first.index + 1} (${first.id}): ${first.message}`, {
      [`events.${first.index}`]: first.message,
    });
  }
  const kept = await eventsStore.recordEvents(userId, rows);
  await enterOnEvents(
    userId,
    rows
      .filter((r) => kept.has(r.eventId))
      .map((r) => ({
        eventId: r.eventId,
        name: r.name,
        customerId: r.customerId,
        properties: JSON.parse(r.properties) as Record<string, unknown>,
        at: r.occurredAt,
      })),
  );
  return {
    accepted: kept.size,
    duplicates: rows.length - kept.size + repeatsInBatch,
    customersCreated: created,
    refused,
  };
}

function toDto(row: StoredEvent): EventDto {
  let properties: Record<string, unknown> = {};
  try {
    const value: unknown = JSON.parse(row.properties);
    if (value && typeof value === "object" && !Array.isArray(value)) properties = value as Record<string, unknown>;
  } catch {
    properties = {};
  }
  return {
    id: row.eventId,
    name: row.name,
    customerId: row.customerId,
    properties,
    occurredAt: row.occurredAt.toISOString(),
    receivedAt: row.receivedAt.toISOString(),
  };
}

/** The tenant's events, newest first, of one name or one customer when asked. */
export async function listEvents(
  userId: string,
  filter: { name?: string; customerId?: string; limit: number },
): Promise<EventDto[]> {
  return (await eventsStore.listEvents(userId, filter)).map(toDto);
}
