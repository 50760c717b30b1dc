// The shapes of /api answers that services build as TypeScript types (DTOs), written once more in
// zod for the OpenAPI document: there is no zod schema for them elsewhere. Two guards keep them
// honest: the checks at the end of this file fail to compile when a DTO and its schema stop
// describing the same fields, and tests/routes/openapi.test.ts validates real answers against the
// document (objects here are strict, so a field a DTO gains fails there too).
import { z } from "zod";
import type { ApiErrorCode } from "~/lib/api.server";
import { CAMPAIGN_STATUSES, DELIVERY_LOG_STATUSES, type DeliveryStats } from "~/lib/campaigns";
import type { ImportField } from "~/lib/customer-csv";
import { IMPORT_FIELDS } from "~/lib/customer-csv";
import type { HistoricalStats } from "~/lib/dashboard";
import type { NotificationDto, PublicUser } from "~/lib/dto";
import type { Insights } from "~/lib/insights";
import { STORY_KINDS, type StoryEntry } from "~/lib/customer-story";
import type { SuggestionsResult } from "~/services/ai.server";
import type { SegmentDescription } from "~/services/segment-ai.server";
import type { CampaignLinkDto } from "~/services/campaign-engagement.server";
import type { ControlResult } from "~/services/campaigns/controls.server";
import type { DeliveryLogDto } from "~/services/campaigns/delivery-log.server";
import type { CampaignDetailDto, CampaignDto } from "~/services/campaigns/views.server";
import type { ImportResult } from "~/services/customer-import.server";
import type { CustomerDetailDto, CustomerDto, CustomerRecordDto } from "~/services/customers.server";
import { FIELD_TYPES } from "~/lib/custom-fields";
import { CONSENT_STATUSES } from "~/lib/consent";
import type { FieldDto } from "~/services/custom-fields.server";
import type { TagDto } from "~/services/tags.server";
import type { OrderDto } from "~/services/orders.server";
import type { AudienceCustomer, SavedSegment, SegmentDto, SegmentWithCount } from "~/services/segments.server";
import type { SuppressionImportResult } from "~/services/suppressions-csv.server";
import { SUPPRESSION_REASONS, type SuppressionDto } from "~/services/suppressions.server";

const isoTime = z.string().meta({ description: "An ISO 8601 time (UTC)", format: "date-time" });
const id = z.string().meta({ description: "A 24-character lowercase hexadecimal id" });
const count = z.number().int().min(0);

/** Every code of an /api error (ApiErrorCode in app/lib/api.server.ts). */
export const API_ERROR_CODES = [
  "bad_request",
  "unauthorized",
  "forbidden",
  "not_found",
  "method_not_allowed",
  "conflict",
  "payload_too_large",
  "unprocessable",
  "rate_limited",
  "internal",
  "unavailable",
] as const satisfies readonly ApiErrorCode[];

/** The body of every /api failure (errorResponse() in app/lib/api.server.ts). */
export const ApiErrorSchema = z
  .strictObject({
    error: z.strictObject({
      code: z.enum(API_ERROR_CODES),
      message: z.string(),
      fields: z
        .record(z.string(), z.string())
        .optional()
        .meta({ description: "For a refused input: the first message of each field, keyed by its dotted path" }),
    }),
  })
  .meta({ description: "An /api failure: a code that matches the status, and a message for people" });

export const SuccessSchema = z.strictObject({ success: z.literal(true) });
export const SuccessMessageSchema = z.strictObject({ success: z.literal(true), message: z.string() });

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

/** A customer as every answer that names one says it (CustomerContactDto). */
const CustomerContactSchema = z.strictObject({
  _id: id,
  id,
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
});

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

const DeliveryStatsSchema = z.strictObject({
  sent: count,
  delivered: count,
  failed: count,
  bounced: count,
  complained: count.meta({ description: "Delivered, then reported as spam by the recipient" }),
  cancelled: count,
  suppressed: count.meta({ description: "Rows the send left out: the address was suppressed after the launch" }),
  opened: count,
  clicked: count,
  pending: count,
  attempted: count,
  successRate: z
    .string()
    .meta({ description: '(delivered + complained) / attempted, e.g. "92.5%" ("—" before any outcome)' }),
  successRateValue: z.number().nullable(),
});

export const CampaignAnswerSchema = z.strictObject({
  _id: id,
  id,
  name: z.string(),
  subject: z.string(),
  description: z.string(),
  message: z.string(),
  segmentId: id.nullable(),
  segment: z.strictObject({ _id: id, id, name: z.string() }).nullable(),
  audienceSize: count,
  status: z.enum(CAMPAIGN_STATUSES),
  statusDetail: z.string(),
  sentCount: count,
  deliveredCount: count,
  failedCount: count,
  bouncedCount: count,
  cancelledCount: count,
  suppressedCount: count.meta({ description: 'Rows ended "suppressed": the address was suppressed after the launch' }),
  suppressedAtLaunch: count.meta({
    description:
      "Customers of the segment the launch left out because their address was suppressed (not in audienceSize)",
  }),
  complainedCount: count.meta({ description: 'Rows ended "complained": the recipient reported the message as spam' }),
  openedCount: count.meta({ description: "Recipients who opened it (people, each once; machine opens not counted)" }),
  clickedCount: count.meta({ description: "Recipients who clicked a link in it (people, each once)" }),
  opensTotal: count.meta({ description: "Every open by people, repeats included" }),
  clicksTotal: count.meta({ description: "Every click by people, repeats included" }),
  machineOpenCount: count.meta({
    description: "Opens told apart as machines (privacy proxies, security scanners, bots), not counted as people",
  }),
  machineClickCount: count.meta({ description: "Clicks told apart as machines (link scanners, bots)" }),
  softBounceCount: count.meta({ description: "Soft bounces reported after the send (temporary failures)" }),
  trackingEnabled: z.boolean().meta({ description: "Whether messages carry the open pixel and tracked links" }),
  resendOfId: id
    .nullable()
    .meta({ description: 'The campaign whose non-openers a "Resend to non-openers" is sent to' }),
  pendingCount: count,
  deliveryStats: DeliveryStatsSchema,
  progress: z.number(),
  launchedAt: isoTime.nullable(),
  completedAt: isoTime.nullable(),
  createdAt: isoTime,
  updatedAt: isoTime,
});

export const DeliveryLogSchema = z.strictObject({
  _id: z.string(),
  id: z.string(),
  campaignId: id,
  customer: z.strictObject({ _id: id, id, name: z.string(), email: z.string(), phone: z.string() }),
  contact: z.string(),
  status: z.enum(DELIVERY_LOG_STATUSES).meta({
    description:
      'The row\'s status; "suppressed": the address was suppressed after the launch, so the send left it out; "deferred": a pending row waiting for a retry after a temporary answer',
  }),
  timestamp: isoTime.nullable(),
  details: z.string(),
  openedAt: isoTime.nullable(),
  clickedAt: isoTime.nullable(),
});

/** One link of a campaign's message and its clicks (docs/rules.md#opens-and-clicks): CampaignLinkDto. */
export const CampaignLinkSchema = z.strictObject({
  index: count.meta({ description: "The link's number in the message (first appearance order, each address once)" }),
  url: z.string().meta({ description: "The link's original address" }),
  clicks: count.meta({ description: "Clicks by people, repeats included" }),
  uniqueClicks: count.meta({ description: "Recipients (people) who clicked it, each once" }),
  machineClicks: count.meta({ description: "Clicks told apart as machines (link scanners, bots, HEAD requests)" }),
});

const money = z.number().meta({ description: "Rupees (order totals: subtotal + tax)" });

/** A campaign's revenue (docs/rules.md#revenue-per-campaign): CampaignAttribution. */
export const CampaignAttributionSchema = z
  .strictObject({
    orders: count.meta({
      description: "Orders placed within the window after the recipient's first click (last touch)",
    }),
    revenue: money,
    perRecipient: z
      .number()
      .nullable()
      .meta({ description: "Revenue divided by the recipients it was sent to (null before any was sent)" }),
    byOpens: z
      .strictObject({ orders: count, revenue: money })
      .meta({ description: "The weaker rule, apart: orders within the window after the first open" }),
    windowDays: count.meta({ description: "The attribution window in days (ATTRIBUTION_WINDOW_DAYS)" }),
  })
  .meta({ description: "Orders the campaign brought and their revenue, computed when asked" });

/** A campaign as the detail answers it: CampaignDetailDto. */
export const CampaignWithAttributionSchema = CampaignAnswerSchema.extend({
  unsubscribedCount: count.meta({
    description:
      "Recipients who unsubscribed through the campaign's link, each once (also those who resubscribed since); complaints are complainedCount",
  }),
  attribution: CampaignAttributionSchema,
});

export const CampaignDetailSchema = z.strictObject({
  campaign: CampaignWithAttributionSchema.extend({
    logs: z.array(DeliveryLogSchema).meta({ description: "The first page of the delivery log" }),
    logsNextCursor: z.string().nullable().meta({ description: "The cursor of the log's next page" }),
  }),
});

export const CampaignWrappedSchema = z.strictObject({ campaign: CampaignAnswerSchema });

export const ControlResultSchema = z.strictObject({ campaign: CampaignAnswerSchema, message: z.string() });

export const SuggestionsSchema = z.strictObject({
  suggestions: z.array(z.strictObject({ message: z.string(), tone: z.string(), expectedResponse: z.string() })),
  source: z.enum(["llm", "local"]),
});

const InsightSchema = z.strictObject({
  text: z.string(),
  figures: z.array(
    z.strictObject({ label: z.string(), value: z.number(), unit: z.enum(["count", "percent", "rupees"]) }),
  ),
  href: z.string().optional(),
});

export const InsightsSchema = z.strictObject({
  customerTrends: z.array(InsightSchema),
  segmentRecommendations: z.array(InsightSchema),
  campaignSuggestions: z.array(InsightSchema),
  growthPredictions: z.array(InsightSchema),
  blocks: z.strictObject({ campaignPerformance: z.string(), segmentInsight: z.string(), recentActivity: z.string() }),
  writer: z.enum(["ai", "local"]),
  model: z.string().optional(),
  generatedAt: isoTime,
  enoughData: z.boolean(),
  counts: z.strictObject({ customers: count, campaigns: count, segments: count }),
});

export const HistoricalStatsSchema = z.strictObject({
  previousCustomers: count,
  previousSegments: count,
  previousCampaigns: count,
  weekly: z.array(
    z.strictObject({
      weekStart: z.string().meta({ description: "The week's Monday, YYYY-MM-DD (India Standard Time)" }),
      customersAdded: count,
      campaignsSent: count,
    }),
  ),
});

export const ReceiptsAcceptedSchema = z.strictObject({ accepted: count });

/** What the bounce and complaint feeds answer (POST /api/webhooks/ses and /api/webhooks/sendgrid). */
export const FeedbackReceivedSchema = z.strictObject({
  received: count.meta({ description: "Events in the post (an SES notification's recipients, SendGrid's events)" }),
  matched: count.meta({ description: "Bounces and complaints of our own messages, queued as receipts" }),
  ignored: count.meta({ description: "The rest: other event types, other systems' messages" }),
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
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Out<T extends z.ZodType> = z.output<T>;
const same = <A, B>(ok: Same<A, B>) => ok;
export const DTO_CHECKS = [
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
  same<Out<typeof SegmentAnswerSchema>, SegmentDto>(true),
  same<Out<typeof SegmentWithCountSchema>, SegmentWithCount>(true),
  same<Out<typeof SavedSegmentSchema>, SavedSegment>(true),
  same<Out<typeof AudienceCustomerSchema>, AudienceCustomer>(true),
  same<Out<typeof SegmentDescriptionSchema>, SegmentDescription>(true),
  same<Out<typeof DeliveryStatsSchema>, DeliveryStats>(true),
  same<Out<typeof CampaignAnswerSchema>, CampaignDto>(true),
  same<Out<typeof CampaignWithAttributionSchema>, CampaignDetailDto>(true),
  same<Out<typeof DeliveryLogSchema>, DeliveryLogDto>(true),
  same<Out<typeof CampaignLinkSchema>, CampaignLinkDto>(true),
  same<Out<typeof ControlResultSchema>, ControlResult>(true),
  same<Out<typeof SuggestionsSchema>, SuggestionsResult>(true),
  same<Out<typeof InsightsSchema>, Insights>(true),
  same<Out<typeof HistoricalStatsSchema>, HistoricalStats>(true),
  same<(typeof API_ERROR_CODES)[number], ApiErrorCode>(true),
];
