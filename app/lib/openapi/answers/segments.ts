// The /api answers about segments: a segment, its audience and preview, the builder's rows and
// the AI's description.
import { z } from "zod";
import type { SegmentDescription } from "~/services/segment-ai.server";
import type { AudienceCustomer, SavedSegment, SegmentDto, SegmentWithCount } from "~/services/segments.server";
import { count, CustomerContactSchema, id, isoTime, type Out, same } from "./common";

const conditions = z.record(z.string(), z.unknown()).meta({
  description:
    "The Mongo-style condition mapping (docs/rules.md#segments): one condition alone, or several under $and / $or, " +
    "groups nested. Keys: totalSpend, visits, lastActiveDate; field:<name> (any built-in or custom field, with the " +
    "operators of its type: $eq $ne $contains $startsWith $in $gt $gte $lt $lte $exists $anniversaryWithinDays, dates " +
    "as YYYY-MM-DD, { $daysAgo: N } or { $daysAhead: N }); tags ($in $all $nin); orderCount (optional withinDays), " +
    "firstOrderDate, lastOrderDate, averageOrderValue, spendWithinDays (withinDays), boughtProduct ($eq $ne), " +
    "lastOpenDate, lastClickDate, messagesReceived (withinDays), consent, suppressed; inSegment ($eq / $ne a segment " +
    "id: in or not in another of your segments, without loops, at most 5 deep).",
});

export const SegmentAnswerSchema = z.strictObject({
  _id: id,
  id,
  name: z.string(),
  description: z.string(),
  logicType: z.enum(["AND", "OR"]),
  conditions,
  createdAt: isoTime,
  updatedAt: isoTime,
});

export const SegmentWithCountSchema = SegmentAnswerSchema.extend({ customerCount: count });

export const SavedSegmentSchema = SegmentWithCountSchema.extend({
  warnings: z.array(z.string()).meta({ description: "What the user should know, e.g. another segment has this name" }),
});

export const SegmentDeletedSchema = z.strictObject({
  success: z.literal(true),
  warnings: z.array(z.string()).meta({ description: "The draft campaigns the delete left without a segment" }),
});

export const AudienceCustomerSchema = CustomerContactSchema.extend({
  totalSpend: z.number(),
  visits: count,
  lastActive: isoTime.nullable(),
});

export const AudienceCountSchema = z.strictObject({ count });

export const AudiencePreviewSchema = z.strictObject({ count, customers: z.array(AudienceCustomerSchema) });

const ConditionRowSchema = z.strictObject({
  kind: z.literal("condition"),
  field: z
    .string()
    .meta({ description: "totalSpend, visits, lastActiveDate, field:<name>, tags, an activity key, or inSegment" }),
  op: z
    .string()
    .meta({ description: 'The operator as the builder holds it, e.g. "$gt", "$gte:daysAgo", "$gte:within:30"' }),
  value: z.string(),
});

/** One row of the segment form's builder: a condition, or a group of rows. */
export const BuilderRowSchema = z.union([
  ConditionRowSchema,
  z.strictObject({
    kind: z.literal("group"),
    logic: z.enum(["AND", "OR"]),
    get children(): z.ZodArray<typeof BuilderRowSchema> {
      return z.array(BuilderRowSchema);
    },
  }),
]);

export const SegmentDescriptionSchema = z.strictObject({
  conditions,
  builder: z
    .strictObject({ logic: z.enum(["AND", "OR"]), children: z.array(BuilderRowSchema) })
    .meta({ description: "The same conditions as the segment form's builder rows" }),
  summary: z.string().meta({ description: "The conditions in words" }),
  writer: z
    .enum(["llm", "local"])
    .meta({ description: "Who wrote them: the configured LLM or the local keyword rules" }),
});

// Compile-time guards: each line fails to type-check when the DTO and its schema differ (a field
// added, removed or retyped on either side).
export const SEGMENT_DTO_CHECKS = [
  same<Out<typeof SegmentAnswerSchema>, SegmentDto>(true),
  same<Out<typeof SegmentWithCountSchema>, SegmentWithCount>(true),
  same<Out<typeof SavedSegmentSchema>, SavedSegment>(true),
  same<Out<typeof AudienceCustomerSchema>, AudienceCustomer>(true),
  same<Out<typeof SegmentDescriptionSchema>, SegmentDescription>(true),
];
