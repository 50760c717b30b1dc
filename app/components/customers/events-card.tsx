// The customer page's Events card: the newest events the shop's own systems sent about this
// customer (POST /api/events; docs/decisions/0044-events-in.md), each with when it happened and
// its properties in short. Shown only when there are some.
import { Activity } from "lucide-react";
import { DateTime } from "~/components/date-time";
import { TitledCard } from "~/components/titled-card";

export type ShownEvent = { id: string; name: string; occurredAt: string; properties: Record<string, unknown> };

/** The events the card shows. */
export const EVENTS_SHOWN = 10;

/** Properties in one short line: `items: 2 items · url: https://…`, at most 160 characters. */
export function propertiesLine(properties: Record<string, unknown>): string {
  const parts = Object.entries(properties).map(([key, value]) => {
    const text = Array.isArray(value)
      ? `${value.length} ${value.length === 1 ? "item" : "items"}`
      : value !== null && typeof value === "object"
        ? "{…}"
        : String(value);
    return `${key}: ${text}`;
  });
  const line = parts.join(" · ");
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

export function EventsCard({ events }: { events: ShownEvent[] }) {
  if (events.length === 0) return null;
  return (
    <TitledCard
      headingId="events-heading"
      title={
        <span className="flex items-center gap-2">
          <Activity className="h-4 w-4" aria-hidden /> Events from your shop
        </span>
      }
    >
      <ul className="divide-y divide-slate-100">
        {events.map((event) => (
          <li key={event.id} className="flex flex-col gap-1 py-2 sm:flex-row sm:items-baseline sm:justify-between">
            <div className="min-w-0">
              <p className="font-mono text-sm font-medium text-slate-900">{event.name}</p>
              <p className="break-words text-sm text-slate-600">{propertiesLine(event.properties)}</p>
            </div>
            <DateTime value={event.occurredAt} format="dateTime" className="shrink-0 text-xs text-slate-500" />
          </li>
        ))}
      </ul>
    </TitledCard>
  );
}
