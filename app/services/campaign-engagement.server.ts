// A campaign's opens and clicks as the detail page and GET /api/campaigns/{id}/links show them
// (docs/rules.md#opens-and-clicks): people (each recipient once, and every open or click)
// with their rates, machines apart, and the clicks of each link of the message. The links are the
// message's own, numbered as the messages were rendered (messageLinks: the plain text's, or the
// links of the design made from a template).
import { messageLinks } from "~/services/campaigns/message-links.server";
import { rateOf } from "~/lib/numbers";
import { deliveryHistory } from "~/models/deliveries/history/store.server";
import { type CampaignDto, findCampaign, getCampaign } from "~/services/campaigns/views.server";

/** One link of the message: its address and its clicks (people; machines apart). */
export type CampaignLinkDto = {
  index: number;
  url: string;
  clicks: number;
  uniqueClicks: number;
  machineClicks: number;
};

export type CampaignEngagementDto = {
  trackingEnabled: boolean;
  /** Recipients (people, each once) who opened it and who clicked, and their share of those it was sent to. */
  uniqueOpens: number;
  uniqueClicks: number;
  openRate: number | null;
  clickRate: number | null;
  /** Every open and click by people, repeats included. */
  totalOpens: number;
  totalClicks: number;
  /** Told apart as machines: privacy proxies, link scanners, bots. */
  machineOpens: number;
  machineClicks: number;
  links: CampaignLinkDto[];
};

/** Each link of the campaign's message with its clicks, in the order the message has them. */
export async function campaignLinks(userId: string, campaignId: string): Promise<CampaignLinkDto[]> {
  return linksOf(userId, await getCampaign(userId, campaignId));
}

async function linksOf(userId: string, campaign: CampaignDto): Promise<CampaignLinkDto[]> {
  const [clicks, row] = await Promise.all([
    deliveryHistory.clicksByLink(userId, campaign.id),
    findCampaign(userId, campaign.id),
  ]);
  const counted = new Map(clicks.map((r) => [r.link, r]));
  return (await messageLinks(row)).map((url, index) => {
    const row = counted.get(index);
    return {
      index,
      url,
      clicks: row?.clicks ?? 0,
      uniqueClicks: row?.uniqueClicks ?? 0,
      machineClicks: row?.machineClicks ?? 0,
    };
  });
}

/** The detail page's engagement card of a campaign the caller has already read. */
export async function campaignEngagement(userId: string, campaign: CampaignDto): Promise<CampaignEngagementDto> {
  const sent = campaign.sentCount;
  return {
    trackingEnabled: campaign.trackingEnabled,
    uniqueOpens: campaign.openedCount,
    uniqueClicks: campaign.clickedCount,
    openRate: rateOf(campaign.openedCount, sent),
    clickRate: rateOf(campaign.clickedCount, sent),
    totalOpens: campaign.opensTotal,
    totalClicks: campaign.clicksTotal,
    machineOpens: campaign.machineOpenCount,
    machineClicks: campaign.machineClickCount,
    links: campaign.trackingEnabled ? await linksOf(userId, campaign) : [],
  };
}
