import { z } from "zod";
import { ID_PATTERN } from "~/lib/id";
import { MAX_TEMPLATE_PREHEADER } from "~/lib/templates";
import { multiLine, singleLine } from "~/schemas/text";

// A campaign as the wizard and POST /api/campaigns give it (docs/rules.md#campaign-wizard). The
// audience size and launch time a client sends are not trusted: the server counts and stamps them.
export const CAMPAIGN_MESSAGES = {
  name: "Campaign name is required",
  segment: "Please select a target segment",
  subject: "Subject line is required",
  message: "Message content is required",
  personalise: "Consider adding {NAME} for personalization",
  emptySegment: "This segment has no customers: choose another segment",
} as const;

/** Why a segment cannot be launched to (the API's 422 and its field message). */
export const EMPTY_SEGMENT = "This segment has no customers";

const text = (required: string, label: string, max: number, lines: typeof singleLine = singleLine) =>
  lines(z.string({ message: required }).trim(), label)
    .min(1, required)
    .max(max, `${label} must be at most ${max} characters`);

export const CampaignAudienceSchema = z.object({
  name: text(CAMPAIGN_MESSAGES.name, "Campaign name", 200),
  segmentId: z.string({ message: CAMPAIGN_MESSAGES.segment }).trim().regex(ID_PATTERN, CAMPAIGN_MESSAGES.segment),
});

export const CampaignMessageSchema = z.object({
  subject: text(CAMPAIGN_MESSAGES.subject, "Subject line", 300),
  message: text(CAMPAIGN_MESSAGES.message, "Message content", 10_000, multiLine),
});

/**
 * Whether the messages carry the open pixel and tracked links (docs/rules.md#opens-and-clicks):
 * POST /api/campaigns tracks unless it says false. The wizard's checkbox reads its own way
 * (absent: off), TrackingCheckboxSchema.
 */
export const TrackingEnabledSchema = z
  .boolean({ message: "trackingEnabled must be true or false" })
  .meta({ description: "Put the open pixel and tracked links in its messages (default true)" })
  .optional();
/** The wizard's "Track opens and clicks" checkbox: sent as "on" when ticked, absent when not. */
export const TrackingCheckboxSchema = z
  .string()
  .optional()
  .transform((v) => v === "on");

/** The template a campaign is made from: one of the tenant's or a starter (`starter-…`). */
export const TemplateRefSchema = z
  .string({ message: "Template not found" })
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "Template not found")
  .meta({
    description:
      "Make the message from this template (its design is copied into the campaign; its subject when subject is absent)",
  });

/**
 * A campaign made from a template may have its own From name, Reply-To address and preheader (the
 * sender's and the template's when empty); the From address is always MAIL_FROM's.
 */
/** A From name of a template's or a campaign's own ("" for the sender's). */
export const FromNameSchema = singleLine(z.string().trim(), "From name").max(
  100,
  "From name must be at most 100 characters",
);
/** A Reply-To address of a template's or a campaign's own ("" for MAIL_REPLY_TO). */
export const ReplyToSchema = z.union([
  z.literal(""),
  z.string().trim().toLowerCase().email("Reply-To must be an e-mail address"),
]);

export const CampaignSenderSchema = z.object({
  fromName: FromNameSchema.optional().meta({
    description: "With templateId: the From name of its messages (the template's, else the sender's, when empty)",
  }),
  replyTo: ReplyToSchema.optional().meta({
    description: "With templateId: where replies go (the template's, else MAIL_REPLY_TO, when empty)",
  }),
  preheader: singleLine(z.string().trim(), "Preheader")
    .max(MAX_TEMPLATE_PREHEADER, `Preheader must be at most ${MAX_TEMPLATE_PREHEADER} characters`)
    .optional()
    .meta({ description: "With templateId: the preview text inbox lists show (the template's when empty)" }),
});
export type CampaignSender = z.infer<typeof CampaignSenderSchema>;

export const CampaignContentSchema = CampaignAudienceSchema.extend(CampaignMessageSchema.shape)
  .extend({
    description: multiLine(z.string().trim(), "Description")
      .max(2000, "Description must be at most 2000 characters")
      .default(""),
    trackingEnabled: TrackingEnabledSchema,
    templateId: TemplateRefSchema.optional(),
  })
  .extend(CampaignSenderSchema.shape);
export type CampaignContent = z.infer<typeof CampaignContentSchema>;

const SCHEDULED_AT_FORMAT = "scheduledAt must be an ISO 8601 time with its offset, e.g. 2026-12-01T09:00:00+05:30";
/** What a body that asks for status Scheduled without a time is told. */
export const SCHEDULED_AT_REQUIRED = "scheduledAt is required to schedule a campaign";

/**
 * POST /api/campaigns: the content, and status 'Draft' to save without launching. The subject and
 * the message may be left out when a template gives them (withCampaignRules).
 */
export const CampaignApiSchema = CampaignContentSchema.extend({
  subject: singleLine(z.string().trim(), "Subject line")
    .max(300, "Subject line must be at most 300 characters")
    .optional(),
  message: multiLine(z.string().trim(), "Message content")
    .max(10_000, "Message content must be at most 10000 characters")
    .optional(),
  status: z
    .string()
    .trim()
    .optional()
    .transform((s) => {
      if (s === undefined) return undefined;
      const status = s.toLowerCase();
      return status === "draft"
        ? ("Draft" as const)
        : status === "scheduled"
          ? ("Scheduled" as const)
          : ("Active" as const);
    })
    .meta({
      description:
        "Draft to save without launching (with scheduledAt: a scheduled draft), Scheduled to launch at scheduledAt; left out, it launches now, or at scheduledAt when given; any other value launches now (scheduledAt ignored)",
    }),
  scheduledAt: z.iso.datetime({ offset: true, message: SCHEDULED_AT_FORMAT }).nullable().optional().meta({
    description:
      "When the campaign launches itself (ISO 8601 with its offset); it stays a draft until then. null: not scheduled",
  }),
  // Accepted for compatibility and ignored: the server counts the audience and stamps the launch.
  audienceSize: z.unknown().optional(),
  launchedAt: z.unknown().optional(),
});

/**
 * The rules of an API body across its fields: a campaign's subject and message are required unless
 * it is made from a template (which gives them), after which both are text ("" when the template
 * gives them). The status and `scheduledAt` together say what to do: a time (not null) with status
 * Scheduled, Draft or none schedules (a draft echoed back as read keeps its schedule); Scheduled
 * without one is refused; any other status launches now, as it did before schedules, the time
 * ignored. `scheduledAt` comes out as unix ms when it schedules.
 */
export function withCampaignRules<
  T extends {
    templateId?: string;
    subject?: string;
    message?: string;
    status?: "Draft" | "Scheduled" | "Active";
    scheduledAt?: string | null;
  },
>(schema: z.ZodType<T>) {
  return schema
    .superRefine((value, ctx) => {
      if (value.status === "Scheduled" && (value.scheduledAt ?? null) === null)
        ctx.addIssue({ code: "custom", path: ["scheduledAt"], message: SCHEDULED_AT_REQUIRED });
      if (value.templateId) return;
      if (!value.subject) ctx.addIssue({ code: "custom", path: ["subject"], message: CAMPAIGN_MESSAGES.subject });
      if (!value.message) ctx.addIssue({ code: "custom", path: ["message"], message: CAMPAIGN_MESSAGES.message });
    })
    .transform(({ scheduledAt, status, ...value }) => {
      const scheduling = (scheduledAt ?? null) !== null && status !== "Active";
      return {
        ...value,
        status: scheduling ? ("Scheduled" as const) : (status ?? ("Active" as const)),
        scheduledAt: scheduling ? Date.parse(scheduledAt ?? "") : undefined,
        subject: value.subject ?? "",
        message: value.message ?? "",
      };
    });
}

const KEY_MESSAGE = "1 to 255 visible characters (letters, digits, punctuation), no spaces";

/**
 * An idempotency key: POST /api/campaigns' Idempotency-Key header and the wizard's launch key
 * (docs/rules.md#one-launch-one-send).
 */
export const IdempotencyKeySchema = z
  .string()
  .min(1, KEY_MESSAGE)
  .max(255, KEY_MESSAGE)
  .regex(/^[\x21-\x7e]+$/, KEY_MESSAGE);

/** The headers of POST /api/campaigns that are read. */
export const CampaignApiHeadersSchema = z.object({ "Idempotency-Key": IdempotencyKeySchema.optional() });
