// The /api answers about people: the signed-in user and their notifications, customers, their
// orders, fields and tags, the CSV import, the suppression list and a customer's story.
import { z } from "zod";
import type { ImportField } from "~/lib/customer-csv";
import { IMPORT_FIELDS } from "~/lib/customer-csv";
import type { NotificationDto, PublicUser } from "~/lib/dto";
import { STORY_KINDS, type StoryEntry } from "~/lib/customer-story";
import type { ImportResult } from "~/services/customer-import.server";
import type { CustomerDetailDto, CustomerDto, CustomerRecordDto } from "~/services/customers.server";
import { FIELD_TYPES } from "~/lib/custom-fields";
import { CONSENT_STATUSES } from "~/lib/consent";
import type { FieldDto } from "~/services/custom-fields.server";
import type { TagDto } from "~/services/tags.server";
import type { OrderDto } from "~/services/orders.server";
import type { SuppressionImportResult } from "~/services/suppressions-csv.server";
import { SUPPRESSION_REASONS, type SuppressionDto } from "~/services/suppressions.server";
import { count, CustomerContactSchema, id, isoTime, type Out, same, SuccessMessageSchema } from "./common";

export const PublicUserSchema = z.strictObject({
  _id: id,
  id,
  displayName: z.string(),
  email: z.string(),
  profileImage: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string(),
  company: z.string(),
  position: z.string(),
  provider: z.string().meta({ description: "How the user signs in: local or google" }),
  createdAt: isoTime,
});

export const CurrentUserSchema = z.union([
  z.strictObject({ isAuthenticated: z.literal(false), user: z.null() }),
  z.strictObject({ isAuthenticated: z.literal(true), user: PublicUserSchema }),
]);

export const ProfileAnswerSchema = z.strictObject({
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
  company: z.string(),
  position: z.string(),
});

export const NotificationSchema = z.strictObject({
  id,
  type: z.string(),
  title: z.string(),
  details: z.string(),
  date: isoTime,
  read: z.boolean(),
});

export const NotificationListSchema = z.strictObject({
  notifications: z.array(NotificationSchema),
  unreadCount: count,
});

export const ReadAllSchema = z.strictObject({ success: z.literal(true), updated: count });

export const OrderAnswerSchema = z.strictObject({
  _id: id,
  id,
  customerId: id,
  customer: CustomerContactSchema.nullable(),
  status: z.string(),
  amount: z.number().meta({ description: "The subtotal in rupees" }),
  tax: z.number(),
  total: z.number(),
  notes: z.string(),
  items: z.array(
    z.strictObject({
      name: z.string(),
      description: z.string(),
      quantity: z.number().int(),
      price: z.number().meta({ description: "Unit price in rupees" }),
      total: z.number().meta({ description: "price × quantity in rupees" }),
    }),
  ),
  createdAt: isoTime,
  updatedAt: isoTime,
});

export const CustomerAnswerSchema = CustomerContactSchema.extend({
  address: z.string(),
  company: z.string(),
  notes: z.string(),
  totalSpend: z.number().meta({ description: "Rupees" }),
  visits: count,
  lastActive: isoTime.nullable(),
  createdAt: isoTime,
  updatedAt: isoTime,
});

const fieldValue = z.union([z.string(), z.number(), z.boolean()]);

export const CustomerRecordSchema = CustomerAnswerSchema.extend({
  fields: z.record(z.string(), fieldValue).meta({
    description:
      "The customer's values by field name, built-in (city, state, country, birthday, time_zone) and custom: numbers as numbers, yes/no as true/false, dates as YYYY-MM-DD",
  }),
  tags: z.array(z.string()).meta({ description: "The customer's tags, by name" }),
  consent: z.strictObject({
    status: z.enum(CONSENT_STATUSES).meta({
      description:
        "As it reads now: the recorded consent, unless a newer unsubscribe, complaint or suppression by hand says unsubscribed; never_asked is sendable",
    }),
    at: isoTime.nullable(),
    source: z.string().meta({ description: "Where it came from: a form, an import, the unsubscribe link" }),
    text: z.string().meta({ description: "The text the person agreed to" }),
  }),
});

export const CustomerDetailSchema = CustomerRecordSchema.extend({
  segments: z.array(z.strictObject({ _id: id, id, name: z.string() })),
  orders: z.array(
    z.strictObject({
      _id: id,
      id,
      date: isoTime,
      amount: z.number(),
      total: z.number(),
      status: z.string(),
    }),
  ),
});

export const FieldAnswerSchema = z.strictObject({
  name: z.string().meta({ description: "The key of the field's values: ^[a-z][a-z0-9_]{0,39}$" }),
  label: z.string(),
  type: z.enum(FIELD_TYPES),
  choices: z.array(z.string()).meta({ description: "A choice field's choices; empty for other types" }),
  defaultValue: fieldValue.nullable().meta({ description: "What a new customer gets when a create leaves it out" }),
  builtIn: z.boolean().meta({ description: "Every workspace has it; it cannot be changed or deleted" }),
  retired: z.boolean().meta({ description: "Kept with its values, left off forms and new segments" }),
});

export const FieldDeletedSchema = SuccessMessageSchema.extend({
  valuesDeleted: count.meta({ description: "How many customers held a value of it" }),
});

export const TagAnswerSchema = z.strictObject({
  name: z.string(),
  customers: count.meta({ description: "How many customers carry it" }),
});

export const CustomerTagsSchema = z.strictObject({ tags: z.array(z.string()) });

export const TaggedSchema = z.strictObject({ tag: z.string(), tagged: count });

export const UntaggedSchema = z.strictObject({ untagged: count });

export const TagDeletedSchema = SuccessMessageSchema.extend({
  untagged: count.meta({ description: "How many customers carried it" }),
});

export const CustomerDeletedSchema = SuccessMessageSchema.extend({ ordersDeleted: count });

export const ImportResultSchema = z.strictObject({
  rows: count.meta({ description: "Data rows read (the header excluded)" }),
  imported: count,
  created: count,
  updated: count,
  failed: count,
  errors: z.array(z.strictObject({ line: z.number().int(), email: z.string(), reason: z.string() })),
  errorsTruncated: z.boolean(),
  mapping: z
    .partialRecord(z.enum(IMPORT_FIELDS), z.number().int().min(0))
    .meta({ description: "The 0-based column of each field" }),
  fields: z
    .array(z.string())
    .meta({ description: "The custom and built-in fields the file's columns set, by name, in file order" }),
  tags: z.boolean().meta({ description: "Whether the file had a tags column (each customer's tags made the row's)" }),
  consent: z.boolean().meta({ description: "Whether the file had a consent column" }),
  consentRecorded: count.meta({
    description: "Customers whose consent the import recorded (those whose consent read so already are left alone)",
  }),
  unknownColumns: z
    .array(z.string())
    .meta({ description: "The headers of the columns nothing imported (createFields=true makes text fields of them)" }),
  createdFields: z.array(z.string()).meta({ description: "The text fields made from unknown columns, by name" }),
  durationMs: z.number(),
});

export const LoggedOutSchema = SuccessMessageSchema;

export const SuppressionAnswerSchema = z.strictObject({
  email: z.string().meta({ description: "The address, in lower case" }),
  reason: z.enum(SUPPRESSION_REASONS).meta({
    description:
      "unsubscribed (the recipient unsubscribed), hard-bounced (the mailbox does not exist), complained (marked as spam) or manual (added by hand, by /api or from a CSV)",
  }),
  campaignId: id.nullable().meta({ description: "The campaign the unsubscribe or bounce came from" }),
  campaignName: z.string().meta({ description: "That campaign's name (kept after it is deleted)" }),
  details: z.string(),
  createdAt: isoTime,
});

export const SuppressionsAddedSchema = z.strictObject({
  added: count.meta({ description: "Addresses put on the list" }),
  alreadySuppressed: count.meta({ description: "Addresses that were on it already (left as they were)" }),
});

export const SuppressionImportResultSchema = z.strictObject({
  rows: count.meta({ description: "Data rows read (the header and empty lines excluded)" }),
  added: count,
  alreadySuppressed: count,
  duplicates: count.meta({ description: "Rows repeating an address an earlier row gave" }),
  invalid: count,
  errors: z
    .array(z.strictObject({ line: z.number().int(), email: z.string(), reason: z.string() }))
    .meta({ description: "The bad rows (the first 1,000), with the line each starts on" }),
  errorsTruncated: z.boolean(),
  durationMs: z.number(),
});

export const CustomerStoryEntrySchema = z.strictObject({
  kind: z.enum(STORY_KINDS).meta({
    description:
      "received (the receiving server accepted it), waiting, deferred (waits for a retry), failed, not-sent (cancelled or suppressed), bounced, opened (the first open by a person), machine-opened (only machines loaded it: a mail privacy proxy, a link checker), clicked (a person's first click of a link), soft-bounced, complained, unsubscribed, resubscribed, suppressed",
  }),
  at: isoTime,
  campaignId: id.nullable().meta({ description: "The campaign; null when there is none or it was deleted" }),
  campaignName: z.string(),
  details: z.string().meta({ description: "A bounce's or complaint's reason, why a message was not sent" }),
  link: z
    .strictObject({ number: z.number().int().min(1), url: z.string() })
    .nullable()
    .meta({ description: "A click's link: its position among the message's links (1 first) and its address" }),
  reason: z.string().meta({ description: "For suppressed: hard-bounced, soft-bounced, complained or manual" }),
  text: z.string().meta({ description: "The entry as the customer page says it" }),
});

// Compile-time guards: each line fails to type-check when the DTO and its schema differ (a field
// added, removed or retyped on either side).
export const PEOPLE_DTO_CHECKS = [
  same<Out<typeof PublicUserSchema>, PublicUser>(true),
  same<Out<typeof NotificationSchema>, NotificationDto>(true),
  same<Out<typeof OrderAnswerSchema>, OrderDto>(true),
  same<Out<typeof CustomerAnswerSchema>, CustomerDto>(true),
  same<Out<typeof CustomerRecordSchema>, CustomerRecordDto>(true),
  same<Out<typeof CustomerDetailSchema>, CustomerDetailDto>(true),
  same<Out<typeof FieldAnswerSchema>, FieldDto>(true),
  same<Out<typeof TagAnswerSchema>, TagDto>(true),
  same<Out<typeof ImportResultSchema>, ImportResult>(true),
  same<Out<typeof SuppressionAnswerSchema>, SuppressionDto>(true),
  same<Out<typeof SuppressionImportResultSchema>, SuppressionImportResult>(true),
  same<Out<typeof CustomerStoryEntrySchema>, StoryEntry>(true),
  same<Out<typeof ImportResultSchema>["mapping"], Partial<Record<ImportField, number>>>(true),
];
