// The events' reads, the same on both engines: Prisma's calls.
import { db } from "~/db/prisma.server";
import type { EventsStore } from "./contract";
import { MAX_EVENTS_READ } from "./rows";

export const commonEvents: Omit<EventsStore, "recordEvents"> = {
  async knownCustomers(userId, ids, emails) {
    if (ids.length === 0 && emails.length === 0) return [];
    return db().customer.findMany({
      where: { userId, OR: [{ id: { in: [...ids] } }, { email: { in: emails.map((e) => e.toLowerCase()) } }] },
      select: { id: true, email: true },
    });
  },

  async listEvents(userId, { name, customerId, limit }) {
    return db().customerEvent.findMany({
      where: { userId, ...(name ? { name } : {}), ...(customerId ? { customerId } : {}) },
      orderBy: [{ occurredAt: "desc" }, { id: "desc" }],
      take: Math.min(Math.max(1, limit), MAX_EVENTS_READ),
      select: {
        id: true,
        eventId: true,
        name: true,
        customerId: true,
        properties: true,
        occurredAt: true,
        receivedAt: true,
      },
    });
  },
};
