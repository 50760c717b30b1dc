// The messages of a claimed batch (for the delivery engine, engine.server.ts): each campaign's
// sender and compiled template, made once while it sends, and each row's message personalised
// from them with its unsubscribe link and, when the campaign tracks, its tracking links.
import { deliveryKey, personalise } from "~/lib/campaigns";
import { compileEmailBody, type EmailBody, type EmailRecipient } from "~/lib/email-body";
import type { SendingCampaign } from "~/models/campaigns/store.server";
import type { ClaimedDelivery } from "~/models/deliveries/claims/store.server";
import type { AnyConnection } from "~/models/transaction/store.server";
import type { OutgoingMessage } from "~/services/sending/channel.server";
import { type Sender, senderOf } from "~/services/email/sender.server";
import { trackingUrls } from "~/services/tracking-token.server";
import { unsubscribeUrl } from "~/services/unsubscribe-token.server";

export type CampaignMail = { sender: Sender; render: (recipient: EmailRecipient) => EmailBody };

/**
 * Each campaign's sender and compiled template, made once (a campaign's subject and message do
 * not change while it sends; if they did, they are made again).
 */
export function campaignMails(connection: AnyConnection) {
  const mailOf = new Map<string, { subject: string; message: string; mail: Promise<CampaignMail> }>();
  return {
    of(campaign: SendingCampaign): Promise<CampaignMail> {
      const known = mailOf.get(campaign.id);
      if (known && known.subject === campaign.subject && known.message === campaign.message) return known.mail;
      const mail = senderOf(campaign.userId, connection).then((sender) => ({
        sender,
        render: compileEmailBody({
          message: campaign.message,
          subject: campaign.subject,
          senderName: sender.name,
          postalAddress: sender.postalAddress,
        }),
      }));
      // A failure is not kept: the next batch asks again.
      mail.catch(() => {
        if (mailOf.get(campaign.id)?.mail === mail) mailOf.delete(campaign.id);
      });
      mailOf.set(campaign.id, { subject: campaign.subject, message: campaign.message, mail });
      return mail;
    },
    /** Forgets the mail of campaigns no longer sending. */
    keepOnly(sending: SendingCampaign[]) {
      for (const id of mailOf.keys()) if (!sending.some((c) => c.id === id)) mailOf.delete(id);
    },
  };
}

/** Each row's message, personalised, in the rows' order. */
export function outgoingMessages(
  campaign: SendingCampaign,
  rows: ClaimedDelivery[],
  { sender, render }: CampaignMail,
): OutgoingMessage[] {
  return rows.map((r) => {
    const link = unsubscribeUrl({ userId: campaign.userId, campaignId: campaign.id, email: r.email });
    const tracking =
      campaign.trackingEnabled === 1
        ? trackingUrls({ userId: campaign.userId, campaignId: campaign.id, seq: r.seq, retries: r.retries })
        : undefined;
    const body = render({ name: r.name, unsubscribeUrl: link, tracking });
    return {
      key: deliveryKey(r.campaignId, r.seq, r.retries),
      to: { name: r.name, email: r.email, phone: r.phone },
      from: sender,
      subject: personalise(campaign.subject, r.name),
      text: body.text,
      html: body.html,
      unsubscribeUrl: link,
    };
  });
}
