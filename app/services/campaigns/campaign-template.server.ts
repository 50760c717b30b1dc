// The template a campaign is made from, as the campaign keeps it (docs/decisions/0043-templates-and-merge-tags.md):
// checked as the delivery engine will fill it, then frozen into the campaign's design.
import { ApiError } from "~/lib/api.server";
import { designJson } from "~/lib/campaign-design";
import { templateBrandOf } from "~/services/brand.server";
import { customFieldNames, getTemplate, tagProblemsOf } from "~/services/templates.server";
import { compileTemplate, TemplateCompileError } from "~/services/templates/render.server";

/** A template as a campaign takes it: its id, subject, text part (the campaign's message) and frozen design. */
export type CampaignTemplate = { templateId: string; subject: string; message: string; design: string };

/**
 * The template a campaign is made from, frozen for it (app/lib/campaign-design.ts), under the
 * subject the campaign gives (the template's when it gives none; so too its preheader, From name
 * and Reply-To), in the tenant's brand as it is now. Refused, naming the problem and
 * where it is, when the template (or that subject) has a tag that does not parse or names nothing
 * the product has: a message that cannot be filled is found now, never at send time. An unknown
 * template is a 404 on the field.
 */
export async function templateForCampaign(
  userId: string,
  templateId: string,
  own: { subject?: string; preheader?: string; fromName?: string; replyTo?: string } = {},
): Promise<CampaignTemplate> {
  const template = await getTemplate(userId, templateId).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) {
      throw new ApiError("not_found", "Template not found", { templateId: "Template not found" });
    }
    throw error;
  });
  const sent = {
    ...template,
    subject: own.subject || template.subject,
    preheader: own.preheader || template.preheader,
  };
  const [names, brand] = await Promise.all([customFieldNames(userId), templateBrandOf(userId)]);
  const [problem] = tagProblemsOf(sent, names);
  if (problem) {
    const reason = `The template "${template.name}" cannot be sent: ${problem.where}: ${problem.message}`;
    throw new ApiError("unprocessable", reason, { templateId: reason });
  }
  let compiled;
  try {
    // As the delivery engine compiles it (with the tracking slots): what would fail there fails here.
    compiled = await compileTemplate(sent, brand, { tracking: true });
  } catch (error) {
    if (error instanceof TemplateCompileError) {
      const reason = `${error.where}: ${error.message}`;
      throw new ApiError("unprocessable", reason, { templateId: reason });
    }
    throw error;
  }
  return {
    templateId: template.id,
    subject: sent.subject,
    message: compiled.textSource,
    design: designJson({
      format: sent.format,
      preheader: sent.preheader,
      content: sent.content,
      text: sent.text,
      fromName: own.fromName || template.fromName,
      replyTo: own.replyTo || template.replyTo,
      brand,
    }),
  };
}
