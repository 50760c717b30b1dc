// The links of a campaign's message, numbered as its messages were sent (a click's `link` indexes
// this list): for plain text, each distinct http(s) address in order of first appearance
// (emailLinks in app/lib/email-body.ts); for a design made from a template, the links of its HTML
// as the compile with tracking numbers them, as written (a link a merge tag writes shows its tag).
import { emailLinks } from "~/lib/email-body";
import { compiledDesign } from "~/services/campaigns/compiled-design.server";

export async function messageLinks(campaign: {
  id: string;
  subject: string;
  message: string;
  design: string;
}): Promise<string[]> {
  if (campaign.design === "") return emailLinks(campaign.message);
  return (await compiledDesign(campaign, { tracking: true }))?.links?.sources ?? [];
}
