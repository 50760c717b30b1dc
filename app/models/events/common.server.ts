// The events' reads, the same on both engines: Prisma's calls.
import { db } from "~/db/prisma.server";
import type { EventsStore } from "./contract";
import { MAX_EVENTS_READ } from "./rows";

/** What a StoredEvent reads of an event. */
const EVENT_ROW = {
  id: true,
  eventId: true,
  name: true,
  customerId: true,
  properties: true,
  occurredAt: true,
  receivedAt: true,
} as const;

export const commonEvents: Omit<EventsStore, "recordEvents"> = {
  async knownCustomers(userId, ids, emails) {
    // Two lookups, each on its own index (the id, the tenant's e-mail): one statement with OR would
    // read the tenant's customers one by one on SQLite.
    const select = { id: true, email: true } as const;
    const [byId, byEmail] = await Promise.all([
      ids.length ? db().customer.findMany({ where: { userId, id: { in: [...ids] } }, select }) : [],
      emails.length
        ? db().customer.findMany({ where: { userId, email: { in: emails.map((e) => e.toLowerCase()) } }, select })
        : [],
    ]);
    return [...byId, ...byEmail];
  },

  async recordOwnEvent(userId, e, tx) {
    const kept = await tx.customerEvent.findUnique({
      where: { userId_eventId: { userId, eventId: e.eventId } },
      select: { id: true },
    });
    if (kept) return;
    await tx.customerEvent.create({
      data: {
        id: e.id,
        userId,
        eventId: e.eventId,
        name: e.name,
        customerId: e.customerId,
        properties: e.properties,
        occurredAt: new Date(e.occurredAt),
        receivedAt: new Date(e.receivedAt),
      },
    });
  },

  async eventsAfter(userId, after, before, limit) {
    return db().customerEvent.findMany({
      where: { userId, id: { gt: after, lt: before } },
      orderBy: { id: "asc" },
      take: limit,
      select: EVENT_ROW,
    });
  },

  async listEvents(userId, { name, customerId, limit }) {
    return db().customerEvent.findMany({
      where: { userId, ...(name ? { name } : {}), ...(customerId ? { customerId } : {}) },
      orderBy: [{ occurredAt: "desc" }, { id: "desc" }],
      take: Math.min(Math.max(1, limit), MAX_EVENTS_READ),
      select: EVENT_ROW,
    });
  },
};
