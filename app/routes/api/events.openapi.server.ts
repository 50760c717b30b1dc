// The OpenAPI operations of /api/events (./events.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";
import { EventsQuerySchema } from "~/schemas/events";

export const operations: Operation[] = [
  {
    path: "/api/events",
    method: "get",
    operationId: "listEvents",
    summary: "The caller's events, newest first, of one name or one customer when asked",
    tag: "Events",
    query: EventsQuerySchema,
    answers: { 200: { description: "Events", json: "EventList" } },
  },
  {
    path: "/api/events",
    method: "post",
    operationId: "recordEvents",
    summary: "Keeps events from your own systems (up to 1,000 a batch), each once per its id",
    description:
      "Each event names its customer by customerId or email (the caller's own customers only). A repeat of an id already kept is counted in duplicates and keeps nothing. An unknown e-mail is refused, or made a customer (named by the event's customer) with createCustomers: true. Refused events are listed with their index and why; a batch of which nothing was kept is a 422.",
    tag: "Events",
    body: "EventsInput",
    answers: { 200: { description: "What the batch did", json: "EventsRecorded" } },
    errors: [400, 413, 422],
  },
];
