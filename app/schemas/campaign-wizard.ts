// The campaign wizard's form (app/routes/campaigns-wizard.tsx), checked the same in the browser and on
// the server: which fields each button checks, the intent and step a submit carries, and the step
// that shows a refused field, and the launch key it carries.
import { z } from "zod";
import {
  CAMPAIGN_MESSAGES,
  CampaignAudienceSchema,
  CampaignContentSchema,
  CampaignMessageSchema,
  CampaignSenderSchema,
  IdempotencyKeySchema,
  TemplateRefSchema,
  TrackingCheckboxSchema,
} from "~/schemas/campaign";

export const LAST_STEP = 3;

// What each button checks: Continue the fields of its step (and those before), Launch everything
// (Schedule everything and its time), Save as draft only what identifies the campaign, Back and the
// audience preview nothing. Continue, Launch and Schedule also refuse a segment with no customers,
// at step 1 where it is chosen: `isEmpty` knows the counts (the loader's in the browser, a fresh
// count on the server).
// A resend draft's audience is fixed (the non-openers of its source): `null` instead of `isEmpty`,
// and no segment is asked for (docs/rules.md#resend-to-non-openers).
export type IsEmpty = (segmentId: string) => boolean;
const NO_SEGMENT = { segmentId: z.string().trim().optional().default("") };
const audienceStep = (isEmpty: IsEmpty | null) =>
  isEmpty === null
    ? CampaignAudienceSchema.extend(NO_SEGMENT)
    : CampaignAudienceSchema.extend({
        segmentId: CampaignAudienceSchema.shape.segmentId.refine((id) => !isEmpty(id), CAMPAIGN_MESSAGES.emptySegment),
      });
// The tracking checkbox is absent when unticked (the API's field is absent when on).
const TRACKING = { trackingEnabled: TrackingCheckboxSchema };
// "Start from": a template's id, or "" for a message written here as plain text.
const TEMPLATE = { templateId: z.preprocess((v) => (v === "" ? undefined : v), TemplateRefSchema.optional()) };
// With a template, the subject and the message may be left empty: the template gives them.
const TEMPLATE_MESSAGE = {
  subject: z.string().trim().max(300, "Subject line must be at most 300 characters").default(""),
  message: z.string().trim().max(10_000, "Message content must be at most 10000 characters").default(""),
};
/** Whether the form starts the message from a template. */
export const fromTemplate = (formData: FormData) => String(formData.get("templateId") ?? "").trim() !== "";
const messageStep = (templated: boolean) =>
  templated ? CampaignMessageSchema.extend(TEMPLATE_MESSAGE) : CampaignMessageSchema;
export const launchSchema = (isEmpty: IsEmpty | null, templated = false) =>
  CampaignContentSchema.extend(audienceStep(isEmpty).shape)
    .extend(messageStep(templated).shape)
    .extend(TRACKING)
    .extend(TEMPLATE);
/** What the Schedule button asks of its date-and-time field (a datetime-local input's value). */
export const SEND_AT_MESSAGE = "Choose the date and time to send it";
/** Schedule checks everything Launch does, and the time (in the viewer's zone, turned into an instant on the server). */
export const scheduleSchema = (isEmpty: IsEmpty | null, templated = false) =>
  launchSchema(isEmpty, templated).extend({
    scheduledAt: z
      .string({ message: SEND_AT_MESSAGE })
      .trim()
      .regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d$/, SEND_AT_MESSAGE),
  });
const DraftSchema = CampaignAudienceSchema.extend({
  ...TRACKING,
  ...TEMPLATE,
  ...CampaignSenderSchema.shape,
  subject: z.string().trim().max(300, "Subject line must be at most 300 characters").optional(),
  message: z.string().trim().max(10_000, "Message content must be at most 10000 characters").optional(),
  description: z.string().trim().max(2000, "Description must be at most 2000 characters").optional(),
});
const NothingSchema = z.object({});
export const draftSchema = (isEmpty: IsEmpty | null) =>
  isEmpty === null ? DraftSchema.extend(NO_SEGMENT) : DraftSchema;

export type WizardValues = {
  name: string;
  segmentId: string;
  subject: string;
  message: string;
  /** The template the message starts from ("" for plain text written here). */
  templateId: string;
  /** A message from a template: its own From name, Reply-To and preheader ("": the defaults). */
  fromName: string;
  replyTo: string;
  preheader: string;
  description: string;
  trackingEnabled: boolean;
  /** When a scheduled draft sends, as its wall-clock time in the viewer's zone ("" when not scheduled). */
  scheduledAt: string;
};
export type Intent = "continue" | "back" | "launch" | "schedule" | "draft" | "preview";
const INTENTS: readonly Intent[] = ["back", "launch", "schedule", "draft", "preview"];

export function readIntent(formData: FormData): Intent {
  const value = formData.get("intent");
  return INTENTS.find((intent) => intent === value) ?? "continue";
}

/**
 * The launch key the page was rendered with: repeated submits of one launch make one campaign
 * (docs/rules.md#one-launch-one-send). Absent or malformed, the launch simply has none.
 */
export function launchKeyOf(formData: FormData): string | null {
  const parsed = IdempotencyKeySchema.safeParse(formData.get("launchKey"));
  return parsed.success ? parsed.data : null;
}

export function readStep(formData: FormData): number {
  const n = Number(formData.get("step"));
  return Number.isInteger(n) ? Math.min(LAST_STEP, Math.max(1, n)) : 1;
}

export function schemaFor(formData: FormData, isEmpty: IsEmpty | null): z.ZodType<Partial<WizardValues>> {
  const intent = readIntent(formData);
  if (intent === "back" || intent === "preview") return NothingSchema;
  if (intent === "draft") return draftSchema(isEmpty);
  const templated = fromTemplate(formData);
  if (intent === "launch") return launchSchema(isEmpty, templated);
  if (intent === "schedule") return scheduleSchema(isEmpty, templated);
  const step = readStep(formData);
  if (step === 1) return audienceStep(isEmpty);
  return step === 2
    ? audienceStep(isEmpty).extend(messageStep(templated).shape).extend(TEMPLATE)
    : launchSchema(isEmpty, templated);
}

/** The step that shows the first field with a message (a refused step, or a refused launch). */
export function stepOfErrors(error: Record<string, unknown> | null | undefined, fallback: number): number {
  const names = Object.keys(error ?? {}).filter((k) => k !== "");
  if (names.some((n) => n === "name" || n === "segmentId")) return 1;
  if (names.some((n) => ["subject", "message", "templateId", "fromName", "replyTo", "preheader"].includes(n))) return 2;
  return fallback;
}
