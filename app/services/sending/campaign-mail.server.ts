// The messages of a claimed batch (for the delivery engine, engine.server.ts): each campaign's
// sender and compiled message, made once while it sends, and each row's message personalised
// from them with its unsubscribe link and, when the campaign tracks, its tracking links.
//
// A campaign's message is plain text (app/lib/email-body.ts: {NAME} and {UNSUBSCRIBE_URL}) or a
// design made from a template (app/lib/campaign-design.ts), compiled once through MJML and
// LiquidJS (app/services/templates/render.server.ts) and filled per recipient with their values,
// read for the whole batch at once: the same compile and fill the template's preview uses.
import { type CampaignDesign, readDesign } from "~/lib/campaign-design";
import { deliveryKey, personalise } from "~/lib/campaigns";
import { compileEmailBody } from "~/lib/email-body";
import { CUSTOMER_COLUMN_TAGS, MergeTagError } from "~/lib/merge-tags";
import type { SendingCampaign } from "~/models/campaigns/store.server";
import type { ClaimedDelivery } from "~/models/deliveries/claims/store.server";
import type { AnyConnection } from "~/models/transaction/store.server";
import type { ChannelResult, OutgoingMessage } from "~/services/sending/channel.server";
import { headerSafe, type Sender, senderOf } from "~/services/email/sender.server";
import {
  batchRecipientValues,
  keptRecipientValues,
  type ValuesNeeded,
} from "~/services/templates/recipient-values.server";
import { type CompiledTemplate, compileTemplate, renderTemplate } from "~/services/templates/render.server";
import { trackingUrls } from "~/services/tracking-token.server";
import { unsubscribeUrl } from "~/services/unsubscribe-token.server";
import { viewInBrowserUrl } from "~/services/view-token.server";

/** A batch's messages, and the rows whose message could not be made (they fail, saying why). */
export type BatchMail = { messages: OutgoingMessage[]; refused: ChannelResult[] };

export type CampaignMail = { sender: Sender; write(rows: ClaimedDelivery[]): Promise<BatchMail> };

/**
 * Each campaign's sender and compiled message, made once (a campaign's subject, message and
 * design do not change while it sends; if they did, they are made again).
 */
export function campaignMails(connection: AnyConnection) {
  const mailOf = new Map<string, { made: string; mail: Promise<CampaignMail> }>();
  return {
    of(campaign: SendingCampaign): Promise<CampaignMail> {
      const made = `${campaign.subject}\u0000${campaign.message}\u0000${campaign.design}\u0000${campaign.trackingEnabled}`;
      const known = mailOf.get(campaign.id);
      if (known && known.made === made) return known.mail;
      const mail = senderOf(campaign.userId, connection).then((sender) =>
        campaign.design ? designMail(connection, campaign, sender) : textMail(campaign, sender),
      );
      // A failure is not kept: the next batch asks again.
      mail.catch(() => {
        if (mailOf.get(campaign.id)?.mail === mail) mailOf.delete(campaign.id);
      });
      mailOf.set(campaign.id, { made, mail });
      return mail;
    },
    /** Forgets the mail of campaigns no longer sending. */
    keepOnly(sending: SendingCampaign[]) {
      for (const id of mailOf.keys()) if (!sending.some((c) => c.id === id)) mailOf.delete(id);
    },
  };
}

/** A row's links: its unsubscribe address and, when the campaign tracks, its open pixel and clicks. */
function linksOf(campaign: SendingCampaign, r: ClaimedDelivery) {
  return {
    unsubscribe: unsubscribeUrl({ userId: campaign.userId, campaignId: campaign.id, email: r.email }),
    tracking:
      campaign.trackingEnabled === 1
        ? trackingUrls({ userId: campaign.userId, campaignId: campaign.id, seq: r.seq, retries: r.retries })
        : undefined,
  };
}

/** A plain-text campaign: {NAME} and {UNSUBSCRIBE_URL} in a fixed layout (app/lib/email-body.ts). */
function textMail(campaign: SendingCampaign, sender: Sender): CampaignMail {
  const render = compileEmailBody({
    message: campaign.message,
    subject: campaign.subject,
    senderName: sender.name,
    postalAddress: sender.postalAddress,
  });
  return {
    sender,
    async write(rows) {
      const messages = rows.map((r) => {
        const { unsubscribe, tracking } = linksOf(campaign, r);
        const body = render({ name: r.name, unsubscribeUrl: unsubscribe, tracking });
        return {
          key: deliveryKey(r.campaignId, r.seq, r.retries),
          to: { name: r.name, email: r.email, phone: r.phone },
          from: sender,
          subject: personalise(campaign.subject, r.name),
          text: body.text,
          html: body.html,
          unsubscribeUrl: unsubscribe,
        };
      });
      return { messages, refused: [] };
    },
  };
}

/** What a compiled template (and its subject) reads beyond the customer's own columns. */
function valuesNeeded(compiled: CompiledTemplate, subject: string): ValuesNeeded {
  const all = [subject, compiled.htmlSource, compiled.textSource, ...(compiled.links?.sources ?? [])].join("\n");
  const members = [...all.matchAll(/\bcustomer\s*\.\s*([A-Za-z_][\w]*)/g)].map((m) => m[1]);
  return {
    fields: /\bcustomer\s*\[/.test(all) || members.some((m) => !CUSTOMER_COLUMN_TAGS.has(m)),
    lastOrder: /\blast_order\b/.test(all),
  };
}

/** A campaign made from a template: its frozen design compiled once, filled per recipient. */
async function designMail(connection: AnyConnection, campaign: SendingCampaign, sender: Sender): Promise<CampaignMail> {
  let design: CampaignDesign | null;
  let compiled: CompiledTemplate;
  try {
    design = readDesign(campaign.design);
    if (!design) throw new Error("it has no design");
    compiled = await compileTemplate({ ...design, subject: campaign.subject }, design.brand, {
      tracking: campaign.trackingEnabled === 1,
    });
  } catch (error) {
    // Checked at launch, so never expected; if it happens, its rows fail saying why rather than
    // being claimed again for ever.
    const reason = `The campaign's message could not be made: ${error instanceof Error ? error.message : String(error)}`;
    return {
      sender,
      async write(rows) {
        return {
          messages: [],
          refused: rows.map((r) => ({
            key: deliveryKey(r.campaignId, r.seq, r.retries),
            status: "failed" as const,
            details: reason,
          })),
        };
      },
    };
  }
  const needed = valuesNeeded(compiled, campaign.subject);
  // A token sealed per recipient costs ~15 µs: the view-in-browser link is made only when written.
  const viewWritten = /view_in_browser_url/.test(compiled.htmlSource + compiled.textSource);
  const shop = { name: sender.name, address: sender.postalAddress ?? "" };
  // The campaign's own From name and Reply-To, when it has them (the address stays MAIL_FROM's).
  const from: Sender = {
    ...sender,
    name: headerSafe(design.fromName) || sender.name,
    replyTo: design.replyTo || sender.replyTo,
  };
  return {
    sender: from,
    async write(rows) {
      const values = await batchRecipientValues(
        connection,
        campaign.userId,
        rows.map((r) => r.customerId),
        needed,
      );
      const messages: OutgoingMessage[] = [];
      const refused: ChannelResult[] = [];
      for (const r of rows) {
        const key = deliveryKey(r.campaignId, r.seq, r.retries);
        const { unsubscribe, tracking } = linksOf(campaign, r);
        try {
          const message = renderTemplate(
            compiled,
            {
              ...(values.get(r.customerId) ?? keptRecipientValues(r)),
              shop,
              unsubscribe_url: unsubscribe,
              view_in_browser_url: viewWritten
                ? viewInBrowserUrl({ userId: campaign.userId, campaignId: campaign.id, seq: r.seq })
                : "",
            },
            tracking,
          );
          messages.push({
            key,
            to: { name: r.name, email: r.email, phone: r.phone },
            from,
            subject: message.subject,
            text: message.text,
            html: message.html,
            unsubscribeUrl: unsubscribe,
          });
        } catch (error) {
          if (!(error instanceof MergeTagError)) throw error;
          refused.push({
            key,
            status: "failed",
            details: `The message could not be made for this recipient: ${error.reason}`,
          });
        }
      }
      return { messages, refused };
    },
  };
}
