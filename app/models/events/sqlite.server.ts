// The events on SQLite: a batch kept in one immediate transaction on this thread's writer, one
// prepared INSERT a row that does nothing on a sender's id already kept.
import { withWriter } from "~/db/writer.server";
import { commonEvents } from "./common.server";
import type { EventsStore } from "./contract";

const INSERT_SQL = `INSERT INTO "CustomerEvent" ("id", "userId", "eventId", "name", "customerId", "properties", "occurredAt", "receivedAt")
  VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT ("userId", "eventId") DO NOTHING`;

export const sqliteEvents: EventsStore = {
  ...commonEvents,
  async recordEvents(userId, events) {
    if (events.length === 0) return new Set();
    return withWriter((connection) => {
      const insert = connection.prepare(INSERT_SQL);
      const kept = new Set<string>();
      for (const e of events) {
        const { changes } = insert.run(
          e.id,
          userId,
          e.eventId,
          e.name,
          e.customerId,
          e.properties,
          e.occurredAt,
          e.receivedAt,
        );
        if (changes) kept.add(e.eventId);
      }
      return kept;
    });
  },
};
