// The events on PostgreSQL: a batch kept by one INSERT … SELECT FROM unnest() that does nothing on a
// sender's id already kept and answers the ids it kept.
import { postgres, query } from "~/db/postgres.server";
import { commonEvents } from "./common.server";
import type { EventsStore } from "./contract";

const INSERT_SQL = `INSERT INTO "CustomerEvent" ("id", "userId", "eventId", "name", "customerId", "properties", "occurredAt", "receivedAt")
  SELECT "id", $1, "eventId", "name", "customerId", "properties", to_timestamp("occurredAt" / 1000.0), to_timestamp("receivedAt" / 1000.0)
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::bigint[])
    AS "e"("id", "eventId", "name", "customerId", "properties", "occurredAt", "receivedAt")
  ON CONFLICT ("userId", "eventId") DO NOTHING
  RETURNING "eventId"`;

export const postgresEvents: EventsStore = {
  ...commonEvents,
  async recordEvents(userId, events) {
    if (events.length === 0) return new Set();
    const rows = await query<{ eventId: string }>(postgres(), INSERT_SQL, [
      userId,
      events.map((e) => e.id),
      events.map((e) => e.eventId),
      events.map((e) => e.name),
      events.map((e) => e.customerId),
      events.map((e) => e.properties),
      events.map((e) => e.occurredAt),
      events.map((e) => e.receivedAt),
    ]);
    return new Set(rows.map((r) => r.eventId));
  },
};
