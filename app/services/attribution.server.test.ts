// @engines sqlite postgres
// Revenue per campaign (docs/rules.md#revenue-per-campaign) on a real database (SQLite; PostgreSQL in the postgres project): campaigns
// launched to a seeded tenant, clicks and opens applied as a vendor reports them (applyReceipts),
// orders written through the order service. What counts: an order after the first click and within
// ATTRIBUTION_WINDOW_DAYS, once, for the campaign clicked last; cancelled and deleted orders do
// not; the opens rule apart; another tenant's orders and campaigns never. The detail card, the list
// sorted by revenue, the dashboard's figure and GET /api/campaigns/{id} answer the same figures.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { segmentTree, useTestConnection, useTestDatabase } from "../../tests/helpers/db";
import { seededTenant } from "../../tests/helpers/seeded-tenants";
import { args, bearerFor, callRoute, cookieFor } from "../../tests/helpers/requests";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { CampaignAttribution } from "~/components/campaign-attribution";
import { db } from "~/db/prisma.server";
import { resetEnvCache } from "~/env.server";
import { deliveryKey } from "~/lib/campaigns";
import type { Receipt } from "~/models/deliveries/receipts/rows";
import { deliveryReceipts } from "~/models/deliveries/receipts/store.server";
import { OrderSchema } from "~/schemas/order";
import {
  attributionOfCampaign,
  campaignRevenueThisMonth,
  clearCampaignRevenueCache,
  DASHBOARD_REVENUE_TTL_MS,
} from "~/services/attribution.server";
import { launch } from "~/services/campaigns/launch.server";
import { getCampaignDetail, listCampaigns } from "~/services/campaigns/views.server";
import { createOrder, deleteOrder, updateOrder } from "~/services/orders.server";
import { createSegment } from "~/services/segments.server";
import { loader as apiCampaignLoader } from "~/routes/api/campaigns-id";
import { loader as apiCampaignsLoader } from "~/routes/api/campaigns";
import { loader as detailLoader } from "~/routes/campaigns-detail";
import { loader as listLoader } from "~/routes/campaigns";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Row = { seq: number; customerId: string; retries: number };
const rowsOf = (campaignId: string): Promise<Row[]> =>
  db().delivery.findMany({
    where: { campaignId },
    orderBy: { seq: "asc" },
    select: { seq: true, customerId: true, retries: true },
  });

/** A first click or open as a vendor reports it (once, at the time it happened). */
const touch = (campaignId: string, r: Row, event: "clicked" | "opened", at: number): Receipt => ({
  id: deliveryKey(campaignId, r.seq, r.retries),
  event,
  at,
  source: "vendor",
});

/** An order of one item (price in rupees) and its tax, through the order service. */
const order = (userId: string, customerId: string, price: number, tax = 0, status = "Pending") =>
  createOrder(userId, OrderSchema.parse({ customerId, status, tax, items: [{ name: "Kurta", quantity: 1, price }] }));

async function launchTo(userId: string, name: string) {
  const segment = await createSegment(userId, {
    name: `${name} audience`,
    description: "",
    tree: segmentTree({ totalSpend: { $gte: 0 } }),
  });
  return launch(userId, { name, subject: name, description: "", message: "Hi {NAME}", segmentId: segment.id });
}

describe("revenue per campaign", () => {
  let tenant: { id: string };
  let other: { id: string };
  let diwali: string;
  let weekend: string;
  let cancelledOrder: string;

  it("counts an order after a click and within the window, once, for the campaign clicked last", async () => {
    tenant = await seededTenant("Attributing seller", 10, 2501);
    other = await seededTenant("Other seller", 3, 2502);
    diwali = (await launchTo(tenant.id, "Diwali sale")).id;
    weekend = (await launchTo(tenant.id, "Weekend offer")).id;
    const a = await rowsOf(diwali);
    const b = await rowsOf(weekend);
    expect(a).toHaveLength(10);
    const c = a.map((r) => r.customerId);
    const inWeekend = (customerId: string) => b.find((r) => r.customerId === customerId)!;
    const now = Date.now();
    await deliveryReceipts.applyReceipts(connection(), [
      touch(diwali, a[0], "clicked", now - 8 * DAY), // its order comes after the 7-day window
      touch(diwali, a[1], "clicked", now - HOUR), // counted
      touch(diwali, a[2], "clicked", now + HOUR), // its order was placed before the click
      touch(diwali, a[3], "clicked", now - 2 * HOUR), // two orders, each counted once
      touch(diwali, a[3], "clicked", now - HOUR), // a later click of the same recipient changes nothing
      touch(diwali, a[4], "opened", now - HOUR), // opened, never clicked: the opens rule only
      touch(diwali, a[5], "clicked", now - 3 * HOUR), // then clicked the weekend offer: the order is its
      touch(weekend, inWeekend(c[5]), "clicked", now - HOUR),
      touch(diwali, a[6], "clicked", now - HOUR), // a cancelled order
      touch(diwali, a[7], "clicked", now - HOUR), // an order deleted afterwards
    ]);

    await order(tenant.id, c[0], 100);
    await order(tenant.id, c[1], 500, 45); // total ₹545: subtotal and tax
    await order(tenant.id, c[2], 1000);
    await order(tenant.id, c[3], 100);
    await order(tenant.id, c[3], 200);
    await order(tenant.id, c[4], 50);
    await order(tenant.id, c[5], 700);
    cancelledOrder = (await order(tenant.id, c[6], 999, 0, "Cancelled"))._id;
    const deleted = await order(tenant.id, c[7], 5000);
    await deleteOrder(tenant.id, deleted._id);

    // The other tenant: its own campaign, click and a large order never reach this tenant's figures.
    const theirs = (await launchTo(other.id, "Their sale")).id;
    const their = await rowsOf(theirs);
    await deliveryReceipts.applyReceipts(connection(), [touch(theirs, their[0], "clicked", now - HOUR)]);
    await order(other.id, their[0].customerId, 10_000);

    const detail = await getCampaignDetail(tenant.id, diwali);
    // Clicks: c1 ₹545 and c3's two orders ₹300. Opens (a click is an open too): c1, c3, and c4 ₹50;
    // c5's opens rule also goes to the weekend offer, opened last.
    expect(detail.attribution).toEqual({
      orders: 3,
      revenue: 845,
      // Sent to the 8 recipients the receipts reached: ₹845 / 8 = ₹105.625, to the paisa.
      perRecipient: 105.63,
      byOpens: { orders: 4, revenue: 895 },
      windowDays: 7,
    });
    expect(detail.sentCount).toBe(8);
    expect((await getCampaignDetail(tenant.id, weekend)).attribution).toMatchObject({ orders: 1, revenue: 700 });
    expect((await getCampaignDetail(other.id, theirs)).attribution).toMatchObject({ orders: 1, revenue: 10_000 });
    // Another tenant asking about this campaign's figures gets nothing of them.
    expect(await attributionOfCampaign(other.id, { id: diwali, sent: 8 })).toMatchObject({
      orders: 0,
      revenue: 0,
      byOpens: { orders: 0, revenue: 0 },
    });
    await expect(getCampaignDetail(other.id, diwali)).rejects.toMatchObject({ status: 404 });
  });

  it("follows the orders: an order un-cancelled counts at once; the window is a setting", async () => {
    const before = (await getCampaignDetail(tenant.id, diwali)).attribution;
    const c6 = (await rowsOf(diwali))[6].customerId;
    await updateOrder(
      tenant.id,
      cancelledOrder,
      OrderSchema.parse({
        customerId: c6,
        status: "Completed",
        tax: 1,
        items: [{ name: "Kurta", quantity: 1, price: 999 }],
      }),
    );
    expect((await getCampaignDetail(tenant.id, diwali)).attribution).toMatchObject({
      orders: before.orders + 1,
      revenue: before.revenue + 1000,
    });

    process.env.ATTRIBUTION_WINDOW_DAYS = "10";
    resetEnvCache();
    try {
      // c0 clicked 8 days before its ₹100 order: inside a 10-day window.
      expect((await getCampaignDetail(tenant.id, diwali)).attribution).toMatchObject({
        orders: before.orders + 2,
        revenue: before.revenue + 1100,
        windowDays: 10,
      });
    } finally {
      delete process.env.ATTRIBUTION_WINDOW_DAYS;
      resetEnvCache();
    }
  });

  it("the dashboard counts this month's campaign orders once; the list sorts by revenue", async () => {
    // Diwali ₹1,845 (4 orders), the weekend offer ₹700: every order once.
    expect(await campaignRevenueThisMonth(tenant.id)).toMatchObject({ orders: 5, revenue: 2545, windowDays: 7 });
    expect(await campaignRevenueThisMonth(other.id)).toMatchObject({ orders: 1, revenue: 10_000 });
    // Kept for 30 s per tenant: a new order shows on the dashboard after that.
    const c1 = (await rowsOf(diwali))[1].customerId;
    const extra = await order(tenant.id, c1, 55);
    expect(await campaignRevenueThisMonth(tenant.id)).toMatchObject({ orders: 5, revenue: 2545 });
    const later = new Date(Date.now() + DASHBOARD_REVENUE_TTL_MS + 1000);
    expect(await campaignRevenueThisMonth(tenant.id, later)).toMatchObject({ orders: 6, revenue: 2600 });
    await deleteOrder(tenant.id, extra._id);
    clearCampaignRevenueCache();
    expect(await campaignRevenueThisMonth(tenant.id)).toMatchObject({ orders: 5, revenue: 2545 });

    const newest = await listCampaigns(tenant.id, { limit: 10 });
    expect(newest.campaigns.map((x) => x.id)).toEqual([weekend, diwali]);
    const byRevenue = await listCampaigns(tenant.id, { limit: 1, sort: "revenue" });
    expect(byRevenue.campaigns.map((x) => x.id)).toEqual([diwali]);
    expect(byRevenue.attribution).toEqual({ [diwali]: { orders: 4, revenue: 1845 } });
    const next = await listCampaigns(tenant.id, { limit: 1, sort: "revenue", cursor: byRevenue.nextCursor });
    expect(next.campaigns.map((x) => x.id)).toEqual([weekend]);
    expect(next.nextCursor).toBeNull();
  });

  it("the screens: the detail's Revenue card and the campaign list sorted by revenue", async () => {
    const cookie = await cookieFor(tenant.id);
    const detail = (await detailLoader(
      args(new Request(`http://localhost/campaigns/${diwali}`, { headers: { Cookie: cookie } }), { id: diwali }),
    )) as { attribution: Parameters<typeof CampaignAttribution>[0]["attribution"] | null };
    expect(detail.attribution).not.toBeNull();
    const html = renderToStaticMarkup(CampaignAttribution({ attribution: detail.attribution! }));
    expect(html).toContain("Orders placed within 7 days after a recipient clicked a link in this campaign.");
    expect(html).toContain("₹1,845.00");
    expect(html).toContain("After opening (a weaker signal, not added above)");
    expect(html).toMatch(/5 orders<\/span> · <span[^>]*>₹1,895\.00/);

    const list = (await listLoader(
      args(new Request(`http://localhost/campaigns?sort=revenue`, { headers: { Cookie: cookie } })),
    )) as { page: { campaigns: { id: string }[] }; revenue: Record<string, { revenue: number }>; sort: string };
    expect(list.sort).toBe("revenue");
    expect(list.page.campaigns.map((x) => x.id)).toEqual([diwali, weekend]);
    expect(list.revenue[weekend]).toEqual({ orders: 1, revenue: 700 });
    const plain = (await listLoader(
      args(new Request(`http://localhost/campaigns`, { headers: { Cookie: cookie } })),
    )) as typeof list;
    expect(plain.page.campaigns.map((x) => x.id)).toEqual([weekend, diwali]);
    expect(plain.revenue[diwali]).toEqual({ orders: 4, revenue: 1845 });
  });

  it("GET /api/campaigns/{id} answers attribution; /api/campaigns?sort=revenue sorts; others get 404", async () => {
    const bearer = await bearerFor(tenant.id);
    const auth = { headers: { Authorization: `Bearer ${bearer}` } };
    const one = await callRoute(apiCampaignLoader, `/api/campaigns/${diwali}`, { ...auth, params: { id: diwali } });
    expect(one.status).toBe(200);
    expect((one.body.campaign as { attribution: unknown }).attribution).toEqual({
      orders: 4,
      revenue: 1845,
      perRecipient: 230.63,
      byOpens: { orders: 5, revenue: 1895 },
      windowDays: 7,
    });
    const sorted = await callRoute(apiCampaignsLoader, `/api/campaigns?sort=revenue&limit=1`, auth);
    expect(sorted.status).toBe(200);
    expect(sorted.body.map((x) => x.id)).toEqual([diwali]);
    const cursor = sorted.headers.get("X-Next-Cursor");
    expect(cursor).toMatch(/^184500\.[0-9a-f]{24}$/);
    const second = await callRoute(apiCampaignsLoader, `/api/campaigns?sort=revenue&limit=1&cursor=${cursor}`, auth);
    expect(second.body.map((x) => x.id)).toEqual([weekend]);
    const bad = await callRoute(apiCampaignsLoader, `/api/campaigns?sort=spend`, auth);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("sort must be date or revenue");
    // A cursor of the other sort, or none at all, is a 400 (as /api/customers'), not the first page again.
    for (const query of [`sort=revenue&cursor=${diwali}`, `cursor=${cursor}`, "sort=revenue&cursor=nope"]) {
      const wrong = await callRoute(apiCampaignsLoader, `/api/campaigns?${query}`, auth);
      expect(wrong.status, query).toBe(400);
      expect(JSON.stringify(wrong.body)).toContain("pass the X-Next-Cursor of the previous page");
    }

    const theirs = await bearerFor(other.id);
    const refused = await callRoute(apiCampaignLoader, `/api/campaigns/${diwali}`, {
      headers: { Authorization: `Bearer ${theirs}` },
      params: { id: diwali },
    });
    expect(refused.status).toBe(404);
  });
});
