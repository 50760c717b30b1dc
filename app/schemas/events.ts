// POST /api/events as the shop's systems send it (docs/decisions/0044-events-in.md): up to 1,000
// events, each with the sender's own id (a repeat is harmless), a name, the customer by id or by
// e-mail, properties (a JSON object of at most 16 KB), and when it happened (now when absent; not
// more than a day ahead). `createCustomers: true` makes an unknown e-mail a new customer, named by
// the event's `customer`.
import { z } from "zod";
import { singleLine } from "~/schemas/text";

export const MAX_EVENTS_BATCH = 1_000;
export const MAX_EVENT_PROPERTIES_BYTES = 16_384;
/** How far ahead a sender's clock may be. */
const MAX_AHEAD_MS = 24 * 60 * 60 * 1000;

const name = (label: string) =>
  singleLine(z.string({ message: `${label} is required` }).trim(), label)
    .min(1, `${label} is required`)
    .max(100, `${label} must be at most 100 characters`);

export const EventInputSchema = z
  .strictObject({
    id: singleLine(z.string({ message: "id is required: the event's own id in your system" }).trim(), "id")
      .min(1, "id is required: the event's own id in your system")
      .max(200, "id must be at most 200 characters"),
    name: z
      .string({ message: "name is required, like cart_abandoned" })
      .regex(
        /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/,
        "name must start with a letter and hold letters, digits, _ . : or - (at most 64), like cart_abandoned",
      ),
    customerId: z.string().trim().min(1).max(100).optional(),
    email: z.string().trim().toLowerCase().email("email must be an e-mail address").max(254).optional(),
    properties: z
      .record(z.string(), z.unknown(), { message: "properties must be a JSON object" })
      .default({})
      .refine(
        (value) => Buffer.byteLength(JSON.stringify(value)) <= MAX_EVENT_PROPERTIES_BYTES,
        `properties must be at most ${MAX_EVENT_PROPERTIES_BYTES.toLocaleString("en-IN")} bytes of JSON`,
      ),
    occurredAt: z.iso
      .datetime({ offset: true, message: "occurredAt must be an ISO date and time, like 2026-11-29T10:15:00Z" })
      .optional()
      .refine(
        (value) => value === undefined || Date.parse(value) <= Date.now() + MAX_AHEAD_MS,
        "occurredAt is more than a day ahead: check the sender's clock",
      ),
    /** Who the customer is, for createCustomers: their name. */
    customer: z.strictObject({ firstName: name("customer.firstName"), lastName: name("customer.lastName") }).optional(),
  })
  .refine((e) => e.customerId !== undefined || e.email !== undefined, {
    message: "Give customerId or email: whose event it is",
    path: ["customerId"],
  });
export type EventInput = z.infer<typeof EventInputSchema>;

export const EventsInputSchema = z.strictObject({
  events: z
    .array(EventInputSchema, { message: "events must be a list" })
    .min(1, "Send at least one event")
    .max(MAX_EVENTS_BATCH, `Send at most ${MAX_EVENTS_BATCH.toLocaleString("en-IN")} events a batch`),
  /** Make a customer of an e-mail the tenant does not have (named by the event's `customer`). */
  createCustomers: z.boolean({ message: "createCustomers must be true or false" }).default(false),
});
export type EventsInput = z.infer<typeof EventsInputSchema>;

/** GET /api/events: newest first, of one name or one customer, at most `limit` (1–500, 50 when absent). */
export const EventsQuerySchema = z.object({
  name: z.string().trim().max(64).optional(),
  customerId: z.string().trim().max(100).optional(),
  limit: z.coerce
    .number({ message: "limit must be a number from 1 to 500" })
    .int("limit must be a number from 1 to 500")
    .min(1, "limit must be a number from 1 to 500")
    .max(500, "limit must be a number from 1 to 500")
    .default(50),
});
