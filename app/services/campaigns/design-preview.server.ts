// The message a campaign made from a template sends, as its detail page shows it: its frozen
// design (app/lib/campaign-design.ts) filled for a customer with empty fields, by the code that
// fills every message sent, with the preview's example links. Null for a plain-text campaign.
import { MergeTagError } from "~/lib/merge-tags";
import { compiledDesign } from "~/services/campaigns/compiled-design.server";
import { findCampaign } from "~/services/campaigns/views.server";
import { sampleMergeValues } from "~/services/templates/merge-values.server";
import { renderTemplate } from "~/services/templates/render.server";

export async function campaignDesignPreview(
  userId: string,
  campaignId: string,
): Promise<{ subject: string; html: string } | null> {
  const compiled = await compiledDesign(await findCampaign(userId, campaignId));
  if (!compiled) return null;
  try {
    const message = renderTemplate(compiled, await sampleMergeValues(userId, { customer: {}, last_order: null }));
    return { subject: message.subject, html: message.html };
  } catch (error) {
    if (error instanceof MergeTagError) return null;
    throw error;
  }
}
