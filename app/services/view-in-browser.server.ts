// "View in browser" (/v/TOKEN): one recipient's copy of a campaign's message as a web page, for a
// mail client that shows it badly. The token names the tenant, the campaign and the recipient's
// delivery row (app/services/view-token.server.ts); the page is the campaign's frozen design filled
// with the recipient's values, as the message was (their current values: a field changed since the
// send shows its new value), without tracking. A token this server did not seal, of a campaign or
// recipient that is gone, or of a plain-text campaign, is nothing (null: a 404).
import { campaigns } from "~/models/campaigns/store.server";
import { deliveryHistory } from "~/models/deliveries/history/store.server";
import { ApiError } from "~/lib/api.server";
import { customerMergeValues, shopOf } from "~/services/templates/merge-values.server";
import { MergeTagError } from "~/lib/merge-tags";
import { keptRecipientValues } from "~/services/templates/recipient-values.server";
import { compiledDesign } from "~/services/campaigns/compiled-design.server";
import { renderTemplate } from "~/services/templates/render.server";
import { unsubscribeUrl } from "~/services/unsubscribe-token.server";
import { readViewToken, viewInBrowserUrl } from "~/services/view-token.server";

export async function messageInBrowser(token: string): Promise<{ subject: string; html: string } | null> {
  const target = readViewToken(token);
  if (!target) return null;
  const campaign = await campaigns.findCampaignRow(target.userId, target.campaignId);
  if (!campaign || target.seq < campaign.firstSeq || target.seq > campaign.lastSeq) return null;
  const compiled = await compiledDesign(campaign);
  if (!compiled) return null;
  const [row] = await deliveryHistory.logRowsAfterSeq(target.seq - 1, target.seq, 1);
  if (!row || row.seq !== target.seq) return null;
  const values = await customerMergeValues(target.userId, row.customerId).catch(async (error: unknown) => {
    if (!(error instanceof ApiError)) throw error;
    // The customer was deleted since: the name and address the delivery row kept.
    return { ...keptRecipientValues(row), shop: await shopOf(target.userId) };
  });
  try {
    const message = renderTemplate(compiled, {
      ...values,
      unsubscribe_url: unsubscribeUrl({ userId: target.userId, campaignId: campaign.id, email: row.email }),
      view_in_browser_url: viewInBrowserUrl(target),
    });
    return { subject: message.subject, html: message.html };
  } catch (error) {
    if (error instanceof MergeTagError) return null;
    throw error;
  }
}
