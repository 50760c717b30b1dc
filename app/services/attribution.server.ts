// Revenue per campaign (docs/rules.md#revenue-per-campaign, decision 0027): the orders a campaign
// brought, under the clicks rule (orders within ATTRIBUTION_WINDOW_DAYS after the recipient's first
// click, last touch) and, apart and weaker, the opens rule (the same after the first open). Tenant
// first; the queries are app/models/attribution/. Figures are computed when asked, never
// stored, so an order created, edited, cancelled or deleted after the campaign shows at once.
import { getEnv } from "~/env.server";
import { dayOf, dayStartMs, monthStart } from "~/lib/dashboard";
import { isId } from "~/lib/id";
import { paiseToRupees } from "~/lib/money";
import type { AttributionRow, CampaignRevenueRow } from "~/models/attribution/rows";
import { attribution } from "~/models/attribution/store.server";

const DAY_MS = 86_400_000;

/** Orders attributed and their revenue in rupees (order totals: subtotal + tax). */
export type AttributionFigures = { orders: number; revenue: number };

/** A campaign's attribution as the detail and `GET /api/campaigns/{id}` show it. */
export type CampaignAttribution = AttributionFigures & {
  /** Revenue divided by the recipients it was sent to (rupees, 2 decimals); null before any was sent. */
  perRecipient: number | null;
  /** The weaker rule: orders within the window after the first open. */
  byOpens: AttributionFigures;
  /** The window, in days (ATTRIBUTION_WINDOW_DAYS). */
  windowDays: number;
};

/** The attribution window in days and milliseconds. */
export function attributionWindow(): { days: number; ms: number } {
  const days = getEnv().ATTRIBUTION_WINDOW_DAYS;
  return { days, ms: days * DAY_MS };
}

const figures = (row: AttributionRow): AttributionFigures => ({
  orders: row.orders,
  revenue: paiseToRupees(row.revenuePaise),
});

/** Revenue per recipient: revenue (paise) over the recipients it was sent to, in rupees. */
export function revenuePerRecipient(revenuePaise: number, sent: number): number | null {
  return sent > 0 ? paiseToRupees(Math.round(revenuePaise / sent)) : null;
}

/**
 * The attribution of the tenant's campaign (`sent`: the recipients it was sent to, deliveryStats'
 * sent, for the revenue per recipient). Another tenant's campaign has none: zeros.
 */
export async function attributionOfCampaign(
  userId: string,
  campaign: { id: string; sent: number },
): Promise<CampaignAttribution> {
  const window = attributionWindow();
  const [clicks, opens] = await Promise.all([
    attribution.campaignAttribution(userId, campaign.id, "clicked", window.ms),
    attribution.campaignAttribution(userId, campaign.id, "opened", window.ms),
  ]);
  return {
    ...figures(clicks),
    perRecipient: revenuePerRecipient(clicks.revenuePaise, campaign.sent),
    byOpens: figures(opens),
    windowDays: window.days,
  };
}

/** The clicks rule's figures of a page of campaigns, by campaign id (zeros for one with none). */
export async function attributionOfCampaigns(
  userId: string,
  campaignIds: string[],
): Promise<Map<string, AttributionFigures>> {
  const rows = await attribution.campaignsAttribution(userId, campaignIds, attributionWindow().ms);
  const byId = new Map(rows.map((r) => [r.campaignId, figures(r)]));
  return new Map(campaignIds.map((id) => [id, byId.get(id) ?? { orders: 0, revenue: 0 }]));
}

/** A place in the list sorted by revenue: `{revenue in paise}.{campaign id}`. */
export function revenueCursor(row: { attributedRevenuePaise: number; id: string }): string {
  return `${row.attributedRevenuePaise}.${row.id}`;
}

/** The place a revenue cursor names, or null for anything else (another sort's cursor, a typo). */
export function parseRevenueCursor(cursor: string | null | undefined): { revenuePaise: number; id: string } | null {
  const m = cursor ? /^(\d{1,15})\.([0-9a-f]{24})$/.exec(cursor) : null;
  if (!m || !isId(m[2])) return null;
  return { revenuePaise: Number(m[1]), id: m[2] };
}

/**
 * A page of the tenant's campaigns, most revenue first (the clicks rule), from a revenue cursor;
 * `nextCursor` null on the last page. The rows and their figures; the caller makes its DTOs.
 */
export async function campaignsByRevenue(
  userId: string,
  options: { limit: number; cursor?: string | null },
): Promise<{ rows: (CampaignRevenueRow & { attribution: AttributionFigures })[]; nextCursor: string | null }> {
  const limit = Math.max(1, Math.min(1000, Math.trunc(options.limit)));
  const rows = await attribution.campaignRowsByRevenue(
    userId,
    limit + 1,
    parseRevenueCursor(options.cursor),
    attributionWindow().ms,
  );
  const page = rows.slice(0, limit).map((r) => ({
    ...r,
    attribution: figures({ orders: r.attributedOrders, revenuePaise: r.attributedRevenuePaise }),
  }));
  return { rows: page, nextCursor: rows.length > limit ? revenueCursor(page[page.length - 1]) : null };
}

export type CampaignRevenueThisMonth = AttributionFigures & { from: string; windowDays: number };

/**
 * The dashboard's figure is kept this long per tenant: it reads every click of the tenant's
 * campaigns this month (about 85 ms for 55,000 clicks on the bench), and the dashboard is loaded
 * and refreshed often; a summary a few seconds old is still this month's.
 */
export const DASHBOARD_REVENUE_TTL_MS = 30_000;
const MAX_CACHED_TENANTS = 1000;
const dashboardCache = new Map<string, { key: string; at: number; value: CampaignRevenueThisMonth }>();

/** Forgets the dashboard figures kept (tests). */
export function clearCampaignRevenueCache(): void {
  dashboardCache.clear();
}

/** The dashboard's "Revenue from campaigns": orders placed this month (India Standard Time) that a
 * campaign's click brought, each once, and their revenue; computed at most every 30 s per tenant. */
export async function campaignRevenueThisMonth(
  userId: string,
  now: Date = new Date(),
): Promise<CampaignRevenueThisMonth> {
  const window = attributionWindow();
  const from = dayStartMs(monthStart(dayOf(now)));
  const key = `${from}:${window.days}`;
  const cached = dashboardCache.get(userId);
  const age = now.getTime() - (cached?.at ?? 0);
  if (cached && cached.key === key && age >= 0 && age < DASHBOARD_REVENUE_TTL_MS) return cached.value;
  const row = await attribution.revenueInPeriod(userId, { from, to: now.getTime() + 1 }, window.ms);
  const value = { ...figures(row), from: new Date(from).toISOString(), windowDays: window.days };
  dashboardCache.delete(userId);
  if (dashboardCache.size >= MAX_CACHED_TENANTS) dashboardCache.delete(dashboardCache.keys().next().value as string);
  dashboardCache.set(userId, { key, at: now.getTime(), value });
  return value;
}
