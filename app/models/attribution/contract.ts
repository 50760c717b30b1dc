// What the attribution domain offers (app/models/attribution/): revenue per campaign
// (docs/rules.md#revenue-per-campaign, decision 0027), the orders the campaign's recipients placed
// within the attribution window after their first click (or, the weaker rule, their first open),
// computed in the database on the read connection (on PostgreSQL, the process's pool).
//
// The rules, the same in every query and on both engines:
// - an order counts unless it is Cancelled (the customer-totals rule, orderContribution() in
//   app/lib/orders.ts), for its total: subtotal + tax (amountPaise + taxPaise);
// - last touch: an order belongs to the campaign clicked last before it (a later click of the same
//   customer in another campaign, before the order, takes it; equal times go to the later row).
//   So an order counts once, in one campaign, and the campaigns' figures add up to the tenant's;
// - one row a customer per campaign (Delivery's unique (campaignId, customerId)) with its FIRST
//   human click, so an order counts once per campaign however often the customer clicked;
// - the opens rule is the same on openedAt, and is its own figure (not added to the clicks').
// Every query is scoped to the tenant through the campaign's userId and the order's userId.
import type {
  AttributionRow,
  AttributionTouch,
  CampaignAttributionRow,
  CampaignRevenueRow,
  RevenueCursor,
} from "./rows";

export type AttributionStore = {
  /** One campaign's attributed orders and revenue under one rule; zeros for another tenant's campaign. */
  campaignAttribution(
    userId: string,
    campaignId: string,
    touch: AttributionTouch,
    windowMs: number,
  ): Promise<AttributionRow>;

  /**
   * The clicks rule's figures of some of the tenant's campaigns (a page of the list); campaigns with
   * none are left out.
   */
  campaignsAttribution(userId: string, campaignIds: string[], windowMs: number): Promise<CampaignAttributionRow[]>;

  /**
   * Up to `limit` of the tenant's campaigns, most revenue first (the clicks rule; ties newest id
   * first), after the place `after` when given. Reads every click of the tenant's campaigns: the
   * revenue is computed, not stored (decision 0027).
   */
  campaignRowsByRevenue(
    userId: string,
    limit: number,
    after: RevenueCursor | null,
    windowMs: number,
  ): Promise<CampaignRevenueRow[]>;

  /**
   * The tenant's orders placed in [from, to) that a campaign's click brought (the clicks rule), each
   * once, and their revenue. One seek per campaign of the tenant into the clicks made in the period
   * or the window before it.
   */
  revenueInPeriod(userId: string, period: { from: number; to: number }, windowMs: number): Promise<AttributionRow>;
};
