// The /api answers about events (docs/decisions/0044-events-in.md): what a batch did, and the list.
import { z } from "zod";
import type { EventDto, EventsAnswer } from "~/services/events.server";
import { isoTime, type Out, same } from "./common";

export const EventsRecordedSchema = z.strictObject({
  accepted: z.number().int().meta({ description: "Events kept now" }),
  duplicates: z.number().int().meta({ description: "Events whose id was kept before (or earlier in the batch)" }),
  customersCreated: z.number().int().meta({ description: "Customers made for unknown e-mails (createCustomers)" }),
  refused: z.array(
    z.strictObject({
      index: z.number().int().meta({ description: "The event's place in the batch, from 0" }),
      id: z.string(),
      message: z.string().meta({ description: "Why it was not kept" }),
    }),
  ),
});

export const EventAnswerSchema = z.strictObject({
  id: z.string().meta({ description: "The sender's id" }),
  name: z.string(),
  customerId: z.string(),
  properties: z.record(z.string(), z.unknown()),
  occurredAt: isoTime,
  receivedAt: isoTime,
});

export const EventListSchema = z.strictObject({ events: z.array(EventAnswerSchema) });

export const EVENT_DTO_CHECKS = [
  same<Out<typeof EventsRecordedSchema>, EventsAnswer>(true),
  same<Out<typeof EventAnswerSchema>, EventDto>(true),
];
