// The links of a campaign's message, numbered as its messages were sent (a click's `link` indexes
// this list): for plain text, each distinct http(s) address in order of first appearance
// (emailLinks in app/lib/email-body.ts); for a design made from a template, the links of its HTML
// as the compile with tracking numbers them, as written (a link a merge tag writes shows its tag).
import { readDesign } from "~/lib/campaign-design";
import { emailLinks } from "~/lib/email-body";
import { DEFAULT_BRAND } from "~/lib/template-brand";
import { compileTemplate, TemplateCompileError } from "~/services/templates/render.server";

export async function messageLinks(campaign: { subject: string; message: string; design: string }): Promise<string[]> {
  let design;
  try {
    design = readDesign(campaign.design);
  } catch {
    return [];
  }
  if (!design) return emailLinks(campaign.message);
  try {
    const compiled = await compileTemplate({ ...design, subject: campaign.subject }, DEFAULT_BRAND, { tracking: true });
    return compiled.links?.sources ?? [];
  } catch (error) {
    if (error instanceof TemplateCompileError) return [];
    throw error;
  }
}
