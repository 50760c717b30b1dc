// The /api answers about campaigns: a campaign, its delivery log, links and revenue, the controls,
// the dashboard's suggestions, insights and history, and the receipts and feedback webhooks.
import { z } from "zod";
import { CAMPAIGN_STATUSES, DELIVERY_LOG_STATUSES, type DeliveryStats } from "~/lib/campaigns";
import type { HistoricalStats } from "~/lib/dashboard";
import type { Insights } from "~/lib/insights";
import { TEMPLATE_FORMATS } from "~/lib/templates";
import type { SuggestionsResult } from "~/services/ai.server";
import type { CampaignLinkDto } from "~/services/campaign-engagement.server";
import type { ControlResult } from "~/services/campaigns/controls.server";
import type { DeliveryLogDto } from "~/services/campaigns/delivery-log.server";
import type { CampaignDetailDto, CampaignDto } from "~/services/campaigns/views.server";
import { count, id, isoTime, type Out, same } from "./common";

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
  templateId: z
    .string()
    .nullable()
    .meta({ description: "The template its message was made from (the campaign keeps its own copy of the design)" }),
  format: z
    .enum(["text", ...TEMPLATE_FORMATS])
    .meta({ description: "Plain text, or the format of the design made from a template" }),
  pendingCount: count,
  deliveryStats: DeliveryStatsSchema,
  progress: z.number(),
  launchedAt: isoTime.nullable(),
  completedAt: isoTime.nullable(),
  scheduledAt: isoTime.nullable().meta({
    description:
      "When a scheduled draft launches itself (its status stays Draft until then); null for a draft that waits for a person. Kept after the launch.",
  }),
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

// Compile-time guards: each line fails to type-check when the DTO and its schema differ (a field
// added, removed or retyped on either side).
export const CAMPAIGN_DTO_CHECKS = [
  same<Out<typeof DeliveryStatsSchema>, DeliveryStats>(true),
  same<Out<typeof CampaignAnswerSchema>, CampaignDto>(true),
  same<Out<typeof CampaignWithAttributionSchema>, CampaignDetailDto>(true),
  same<Out<typeof DeliveryLogSchema>, DeliveryLogDto>(true),
  same<Out<typeof CampaignLinkSchema>, CampaignLinkDto>(true),
  same<Out<typeof ControlResultSchema>, ControlResult>(true),
  same<Out<typeof SuggestionsSchema>, SuggestionsResult>(true),
  same<Out<typeof InsightsSchema>, Insights>(true),
  same<Out<typeof HistoricalStatsSchema>, HistoricalStats>(true),
];
