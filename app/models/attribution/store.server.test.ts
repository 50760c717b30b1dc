// Revenue per campaign's queries (decision 0027) on a real database, SQLite and PostgreSQL (the
// postgres project): the rows are written directly (campaigns, their delivery rows with first
// clicks and opens, orders), so the rules are checked at their edges whatever engine answers: the
// window's ends, last touch (a later click elsewhere, and equal times going to the later row), a
// cancelled order, the opens rule apart, a page of campaigns, the list by revenue with its cursor,
// a period's revenue, and another tenant's rows. The service's test (app/services/attribution.server.test.ts)
// drives the same through a launch and vendor receipts.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase } from "../../../tests/helpers/db";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();

import { db } from "~/db/prisma.server";
import { newId } from "~/lib/id";
import type { AttributionTouch } from "~/models/attribution/rows";
import { attribution } from "~/models/attribution/store.server";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WINDOW = 7 * DAY;
const now = Date.UTC(2026, 10, 20, 12, 0, 0, 123);

/** The orders and revenue attributed to a campaign (by its last click in the week unless said). */
const attributed = (userId: string, campaignId: string, touch: AttributionTouch = "clicked", window = WINDOW) =>
  attribution.campaignAttribution(userId, campaignId, touch, window);

let seq = 0;
let tenant: string;
let other: string;
let diwali: string;
let weekend: string;
let theirs: string;

async function customer(userId: string, name: string) {
  const id = newId();
  await db().customer.create({ data: { id, userId, firstName: name, lastName: "K", email: `${id}@example.in` } });
  return id;
}

async function campaign(userId: string, name: string, createdAt: number) {
  const id = newId(new Date(createdAt));
  await db().campaign.create({
    data: {
      id,
      userId,
      name,
      message: "Hi {NAME}",
      status: "Completed",
      launchedAt: new Date(createdAt),
      createdAt: new Date(createdAt),
      updatedAt: new Date(createdAt),
    },
  });
  return id;
}

/** A delivered row; a click is an open too, as the receipts record them. */
async function delivered(
  userId: string,
  campaignId: string,
  customerId: string,
  touch: { clicked?: number; opened?: number },
) {
  seq += 1;
  await db().delivery.create({
    data: {
      seq,
      campaignId,
      userId,
      customerId,
      status: "delivered",
      clickedAt: touch.clicked ?? null,
      openedAt: touch.opened ?? touch.clicked ?? null,
    },
  });
}

async function order(
  userId: string,
  customerId: string,
  at: number,
  amountPaise: number,
  taxPaise = 0,
  status = "Pending",
) {
  await db().order.create({
    data: { id: newId(new Date(at)), userId, customerId, status, amountPaise, taxPaise, createdAt: new Date(at) },
  });
}

beforeAll(async () => {
  tenant = (await createTestUser("Attribution seller")).id;
  other = (await createTestUser("Another seller")).id;
  const c = [];
  for (let i = 0; i < 9; i++) c.push(await customer(tenant, `C${i}`));
  const o0 = await customer(other, "O0");
  diwali = await campaign(tenant, "Diwali sale", now - 10 * DAY);
  weekend = await campaign(tenant, "Weekend offer", now - 9 * DAY);
  theirs = await campaign(other, "Their sale", now - 9 * DAY);

  await delivered(tenant, diwali, c[0], { clicked: now - 8 * DAY }); // its order is after the window
  await delivered(tenant, diwali, c[1], { clicked: now - HOUR }); // counted: subtotal and tax
  await delivered(tenant, diwali, c[2], { clicked: now + HOUR }); // its order came before the click
  await delivered(tenant, diwali, c[3], { clicked: now - 2 * HOUR }); // two orders, each counted
  await delivered(tenant, diwali, c[4], { opened: now - HOUR }); // opened only: the opens rule only
  await delivered(tenant, diwali, c[5], { clicked: now - 3 * HOUR }); // then clicked the weekend offer
  await delivered(tenant, diwali, c[6], { clicked: now - HOUR }); // a cancelled order
  await delivered(tenant, diwali, c[7], { clicked: now - WINDOW }); // its order at the window's very end
  await delivered(tenant, diwali, c[8], { clicked: now - HOUR }); // the same time as the weekend's, an earlier row
  await delivered(tenant, weekend, c[5], { clicked: now - HOUR });
  await delivered(tenant, weekend, c[8], { clicked: now - HOUR }); // equal times: the later row takes it
  await delivered(other, theirs, o0, { clicked: now - HOUR });

  await order(tenant, c[0], now, 10_000);
  await order(tenant, c[1], now, 50_000, 4_500);
  await order(tenant, c[2], now, 100_000);
  await order(tenant, c[3], now, 10_000);
  await order(tenant, c[3], now + 60_000, 20_000);
  await order(tenant, c[4], now, 5_000);
  await order(tenant, c[5], now, 70_000);
  await order(tenant, c[6], now, 99_900, 0, "Cancelled");
  await order(tenant, c[7], now, 7_000);
  await order(tenant, c[8], now, 8_000);
  await order(tenant, c[1], now - HOUR, 1_000); // at the very time of the click: not after it
  await order(other, o0, now, 1_000_000);
});

describe("revenue per campaign", () => {
  it("counts orders after the first click and within the window, each once, for the campaign clicked last", async () => {
    // c1 ₹545, c3 ₹100 + ₹200, c7 ₹70 at the window's end.
    expect(await attributed(tenant, diwali)).toEqual({ orders: 4, revenuePaise: 91_500 });
    // c5 (clicked later) and c8 (the same time, a later row).
    expect(await attributed(tenant, weekend)).toEqual({ orders: 2, revenuePaise: 78_000 });
    // The opens rule adds c4's order; c5's and c8's still go to the weekend offer, opened last.
    expect(await attributed(tenant, diwali, "opened")).toEqual({ orders: 5, revenuePaise: 96_500 });
    // A window a second shorter loses c7's order.
    expect(await attributed(tenant, diwali, "clicked", WINDOW - 1000)).toEqual({ orders: 3, revenuePaise: 84_500 });
  });

  it("gives another tenant nothing of these campaigns, and this tenant nothing of theirs", async () => {
    expect(await attributed(other, diwali)).toEqual({ orders: 0, revenuePaise: 0 });
    expect(await attributed(tenant, theirs)).toEqual({ orders: 0, revenuePaise: 0 });
    expect(await attributed(other, theirs)).toEqual({ orders: 1, revenuePaise: 1_000_000 });
  });

  it("gives a page of campaigns their figures, the same as one by one", async () => {
    const byId = <Row extends { campaignId: string }>(rows: Row[]) =>
      [...rows].sort((a, b) => a.campaignId.localeCompare(b.campaignId));
    expect(byId(await attribution.campaignsAttribution(tenant, [diwali, weekend], WINDOW))).toEqual(
      byId([
        { campaignId: diwali, orders: 4, revenuePaise: 91_500 },
        { campaignId: weekend, orders: 2, revenuePaise: 78_000 },
      ]),
    );
    // A page of one checks last touch against the campaigns off the page too.
    expect(await attribution.campaignsAttribution(tenant, [diwali], WINDOW)).toEqual([
      { campaignId: diwali, orders: 4, revenuePaise: 91_500 },
    ]);
    expect(await attribution.campaignsAttribution(tenant, [], WINDOW)).toEqual([]);
  });

  it("lists the tenant's campaigns by revenue, after a cursor", async () => {
    const first = await attribution.campaignRowsByRevenue(tenant, 1, null, WINDOW);
    expect(first.map((c) => [c.id, c.attributedOrders, c.attributedRevenuePaise])).toEqual([[diwali, 4, 91_500]]);
    expect(first[0]).toMatchObject({
      name: "Diwali sale",
      userId: tenant,
      trackingEnabled: 1,
      launchedAt: now - 10 * DAY,
    });
    const next = await attribution.campaignRowsByRevenue(tenant, 5, { revenuePaise: 91_500, id: diwali }, WINDOW);
    expect(next.map((c) => [c.id, c.attributedOrders, c.attributedRevenuePaise])).toEqual([[weekend, 2, 78_000]]);
  });

  it("counts a period's orders that a click brought, each once", async () => {
    expect(await attribution.revenueInPeriod(tenant, { from: now - DAY, to: now + DAY }, WINDOW)).toEqual({
      orders: 6,
      revenuePaise: 169_500,
    });
    // Up to a second after now: c3's second order is left out.
    expect(await attribution.revenueInPeriod(tenant, { from: now - DAY, to: now + 1000 }, WINDOW)).toEqual({
      orders: 5,
      revenuePaise: 149_500,
    });
    expect(await attribution.revenueInPeriod(other, { from: now - DAY, to: now + DAY }, WINDOW)).toEqual({
      orders: 1,
      revenuePaise: 1_000_000,
    });
  });
});
