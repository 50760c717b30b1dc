// What the flow tests across servers post (tests/e2e/flow-crash.spec.ts, flow-instances.spec.ts):
// a live flow of two messages three seconds apart, started by the event "joined", and the batches
// of "joined" events that enter people, each making its customer.

/** POST /api/flows: send, wait three seconds, send. */
export const TWO_MESSAGE_FLOW = {
  name: "Two messages",
  trigger: { type: "event", event: "joined" },
  steps: [
    { id: "first", type: "send", templateId: "starter-welcome" },
    { id: "pause", type: "wait", seconds: 3 },
    { id: "second", type: "send", templateId: "starter-offer" },
  ],
  status: "live",
};

/** POST /api/events: people `from` to `to` (not included) joining, each made a customer; `occurredAt` when given. */
export const joinedBatch = (from: number, to: number, occurredAt?: string) => ({
  createCustomers: true,
  events: Array.from({ length: to - from }, (_, i) => ({
    id: `join-${from + i}`,
    name: "joined",
    email: `person${from + i}@flows.example`,
    customer: { firstName: "Person", lastName: String(from + i) },
    ...(occurredAt ? { occurredAt } : {}),
  })),
});
