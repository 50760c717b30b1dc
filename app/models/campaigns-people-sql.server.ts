// The SQL both engines share for reading who a campaign reached (./campaigns-people.server.ts and
// its PostgreSQL twin): which rows each export takes, and the row it reads.
import type { DeliveryStatus } from "~/lib/campaigns";
import type { CampaignPeople } from "~/lib/campaign-people";

/** One recipient of a campaign as an export writes them. */
export type CampaignPersonRow = {
  seq: number;
  customerId: string;
  name: string;
  email: string;
  phone: string;
  status: DeliveryStatus;
  details: string;
  openedAt: number | null;
  clickedAt: number | null;
  /** When the recipient unsubscribed through this campaign's link (ms; unsubscribers only, else null). */
  unsubscribedAt: number | null;
};

/**
 * The rows each export takes, the same rows the campaign's figures count: recipients are those it
 * was sent to (accepted by the channel: sent, delivered, bounced or complained; deliveryStats'
 * sent), openers and clickers the people who opened it or clicked in it (openedAt and clickedAt are
 * set by people only), bouncers the bounced rows, unsubscribers those who unsubscribed through its
 * link (the suppression list's event names the campaign). `$U` is the tenant.
 */
export const PEOPLE_WHERE: Record<CampaignPeople, string> = {
  recipients: `d."status" IN ('sent', 'delivered', 'bounced', 'complained')`,
  openers: `d."openedAt" IS NOT NULL`,
  clickers: `d."clickedAt" IS NOT NULL`,
  bouncers: `d."status" = 'bounced'`,
  unsubscribers: `"unsubscribedAt" IS NOT NULL`,
};

/** A recipient's first unsubscribe through the campaign's link (the event's address is lower case). */
export const UNSUBSCRIBED_AT = (tenant: string) => `(SELECT min(e."createdAt") FROM "SuppressionEvent" e
  WHERE e."userId" = ${tenant} AND e."email" = lower(d."email") AND e."campaignId" = d."campaignId"
    AND e."action" = 'suppressed' AND e."reason" = 'unsubscribed')`;

export const PERSON_COLUMNS = `d."seq", d."customerId", d."name", d."email", d."phone", d."status", d."details", d."openedAt", d."clickedAt"`;
