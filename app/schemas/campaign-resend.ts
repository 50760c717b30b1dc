import { z } from "zod";
import { CampaignApiSchema, CampaignAudienceSchema, CampaignMessageSchema } from "~/schemas/campaign";

// "Resend to non-openers": the detail page's form and POST /api/campaigns/{id}/resend-non-openers
// (docs/rules.md#resend-to-non-openers). The subject is required (a resend has its own); the name
// and the message default to the source's ("<name> — non-openers", the message copied).
export const ResendNonOpenersSchema = z.object({
  subject: CampaignMessageSchema.shape.subject,
  name: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    CampaignAudienceSchema.shape.name.optional(),
  ),
  message: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    CampaignMessageSchema.shape.message.optional(),
  ),
});
export type ResendNonOpeners = z.infer<typeof ResendNonOpenersSchema>;

/**
 * PUT /api/campaigns/{id} of a resend draft: the campaign's content without a segment (its audience
 * is the non-openers of its source; a segmentId sent is ignored).
 */
export const ResendDraftApiSchema = CampaignApiSchema.extend({
  segmentId: z
    .unknown()
    .optional()
    .transform(() => ""),
});
