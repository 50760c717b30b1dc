import { z } from "zod";
import { CampaignApiSchema, CampaignMessageSchema } from "~/schemas/campaign";
import { multiLine, singleLine } from "~/schemas/text";

// "Resend to non-openers": the detail page's form and POST /api/campaigns/{id}/resend-non-openers
// (docs/rules.md#resend-to-non-openers). The subject is required (a resend has its own); the name
// and the message, when absent or blank, are the source's ("<name> — non-openers", the message
// copied).
export const ResendNonOpenersSchema = z.object({
  subject: CampaignMessageSchema.shape.subject,
  name: singleLine(z.string().trim(), "Campaign name")
    .max(200, "Campaign name must be at most 200 characters")
    .optional(),
  message: multiLine(z.string().trim(), "Message content")
    .max(10_000, "Message content must be at most 10000 characters")
    .optional(),
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
