// Every signed-in screen on a 390 × 844 phone: with seeded customers, orders, a segment and a sent
// campaign, no page is wider than the screen (document.documentElement.scrollWidth <= 390), and
// the lists are stacks of cards whose actions can be reached. Screenshots of the lists are kept in
// the test's output folder to look at.
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { expect, signIn, test, uniqueEmail } from "./fixtures";

const PHONE = { width: 390, height: 844 };

async function createCustomer(request: APIRequestContext, firstName: string, lastName: string) {
  const res = await request.post("/api/customers", {
    data: {
      firstName,
      lastName,
      // A long address: the kind of value that used to widen a table.
      email: uniqueEmail(`${firstName.toLowerCase()}.with.a.rather.long.mailbox.name`),
      phone: "+91 98765 43210",
      address: "Flat 12B, Sunrise Apartments, 4th Cross Road, Indiranagar, Bengaluru 560038",
      company: "Orbit Retail Private Limited",
    },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
  return ((await res.json()) as { _id: string })._id;
}

async function createOrder(request: APIRequestContext, customerId: string, n: number) {
  const res = await request.post("/api/orders", {
    data: {
      customerId,
      status: n % 2 ? "processing" : "completed",
      notes: "Leave at the door",
      tax: 123.45,
      items: [
        {
          name: "Hand-woven cotton bedsheet, king size",
          description: "Indigo block print",
          quantity: 2,
          price: 4999.5,
        },
        { name: "Pillow covers", description: "", quantity: 12, price: 654321.09 },
      ],
    },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
  return ((await res.json()) as { _id: string })._id;
}

/** Three customers with an order each, a segment of them all and a campaign sent to it. */
async function seedLists(request: APIRequestContext) {
  const customers: string[] = [];
  for (const [first, last] of [
    ["Ananya", "Raghunathan-Subramaniam"],
    ["Vikram", "Nair"],
    ["Meenakshi", "Venkataraman"],
  ]) {
    customers.push(await createCustomer(request, first, last));
  }
  const orderIds: string[] = [];
  for (const [i, id] of customers.entries()) orderIds.push(await createOrder(request, id, i));

  const segment = await request.post("/api/segments", {
    data: {
      name: "Big spenders of the festive season in the southern cities",
      description: "Everyone whose total spend is above zero, which is a fairly long description",
      conditions: { totalSpend: { $gte: 0 } },
      logicType: "AND",
    },
  });
  expect(segment.ok(), await segment.text()).toBeTruthy();
  const segmentId = ((await segment.json()) as { id: string }).id;
  const campaign = await request.post("/api/campaigns", {
    data: {
      name: "Diwali weekend offer for our most loyal customers",
      subject: "A little something for you this Diwali",
      segmentId,
      message: "Hi {NAME}, here is something for you.",
    },
  });
  expect(campaign.status(), await campaign.text()).toBe(201);
  const campaignId = ((await campaign.json()) as { id: string }).id;
  return { customers, orderIds, segmentId, campaignId };
}

/** Scrolled to, the whole element is on the screen: nothing of it is cut off at the sides. */
async function expectWhollyInView(locator: Locator) {
  await locator.scrollIntoViewIfNeeded();
  await expect(locator).toBeInViewport({ ratio: 1 });
}

async function expectFitsThePhone(page: Page, url: string) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${url} is ${width} px wide`).toBeLessThanOrEqual(PHONE.width);
}

/** Across the phone less a margin of 8 to 24 px each side. */
function expectAcrossThePhone(box: { x: number; width: number }, what: string) {
  expect(box.x, `${what}'s left margin`).toBeGreaterThanOrEqual(8);
  expect(box.x, `${what}'s left margin`).toBeLessThanOrEqual(24);
  expect(PHONE.width - (box.x + box.width), `${what}'s right margin`).toBeGreaterThanOrEqual(8);
  expect(PHONE.width - (box.x + box.width), `${what}'s right margin`).toBeLessThanOrEqual(24);
}

test.describe("phone layout", () => {
  test.use({ viewport: PHONE });

  test("the snackbar spans the phone below the top bar; without JavaScript a flash stands above the bottom bar", async ({
    page,
    browser,
  }) => {
    // A new account's dashboard says it is empty in the snackbar.
    await signIn(page, { name: "Phone Notices" });
    const snackbar = page.getByTestId("snackbar");
    await expect(snackbar).toContainText("No customer, segment, or campaign data found.");
    const box = (await snackbar.boundingBox())!;
    const bar = (await page.getByRole("banner").boundingBox())!;
    expectAcrossThePhone(box, "the snackbar");
    expect(box.y).toBeGreaterThanOrEqual(bar.y + bar.height);
    // The menu, the bell and the avatar are what a tap on them reaches.
    for (const name of [/^Open menu$/, /^Notifications/, /^Account menu$/]) {
      const b = (await page.getByRole("button", { name }).boundingBox())!;
      const onTop = await page.evaluate(
        ([x, y]) => document.elementFromPoint(x, y)?.closest("button")?.getAttribute("aria-label") ?? null,
        [b.x + b.width / 2, b.y + b.height / 2],
      );
      expect(onTop).toMatch(name);
    }
    await page.screenshot({ path: test.info().outputPath("phone-snackbar.png") });

    // Without JavaScript: a saved customer's toast is a banner at the bottom, clear of the top bar
    // and of the bottom navigation, and it goes after the toast's 5 s.
    const context = await browser.newContext({
      viewport: PHONE,
      javaScriptEnabled: false,
      storageState: await page.context().storageState(),
    });
    try {
      const plain = await context.newPage();
      await plain.goto("/customers/new");
      await plain.getByLabel("First Name").fill("Banner");
      await plain.getByLabel("Last Name").fill("Reader");
      await plain.getByLabel("Email").fill(uniqueEmail("banner"));
      await plain.getByRole("button", { name: "Save Customer" }).click();
      const banner = plain.getByTestId("flash-banner");
      await expect(banner).toHaveText("Customer created successfully");
      await expect(banner).toBeVisible();
      const b = (await banner.boundingBox())!;
      const top = (await plain.getByRole("banner").boundingBox())!;
      expectAcrossThePhone(b, "the banner");
      expect(b.y).toBeGreaterThanOrEqual(top.y + top.height);
      const bottomNav = (await plain.locator("nav.fixed.bottom-0").boundingBox())!;
      expect(b.y + b.height).toBeLessThanOrEqual(bottomNav.y);
      await plain.screenshot({ path: test.info().outputPath("phone-flash-no-js.png") });
      await expect(banner).toBeHidden({ timeout: 8_000 });
    } finally {
      await context.close();
    }
  });
  // Seeding through the API and 20 page loads on a shared machine.
  test.setTimeout(150_000);

  test("every screen fits 390 px, and the lists are cards with their actions in reach", async ({ page }) => {
    await signIn(page, { name: "Phone Marketer" });
    const { customers, orderIds, segmentId, campaignId } = await seedLists(page.request);

    // Every screen, each with something on it.
    const screens: [string, string | RegExp][] = [
      ["/", "Welcome back!"],
      ["/customers", "Customers"],
      [`/customers/${customers[0]}`, /Ananya/],
      ["/customers/new", "Add New Customer"],
      [`/customers/edit/${customers[0]}`, "Edit Customer"],
      ["/customers/import", "Import Customers"],
      ["/orders", "Orders"],
      [`/orders/${orderIds[0]}`, /^Order #/],
      ["/orders/new", "Create Order"],
      [`/orders/edit/${orderIds[0]}`, "Edit Order"],
      ["/segments", "Customer Segments"],
      [`/segments/${segmentId}`, /Big spenders/],
      ["/segments/new", /Segment/],
      [`/segments/edit/${segmentId}`, /Segment/],
      ["/campaigns", "Campaign Management"],
      [`/campaigns/${campaignId}`, "Campaign Details"],
      [`/campaigns/${campaignId}?tab=logs`, "Campaign Details"],
      ["/campaigns/new", /Campaign/],
      ["/profile", "My Profile"],
      ["/notifications", "Notifications"],
    ];
    const tooWide: string[] = [];
    for (const [url, heading] of screens) {
      await page.goto(url);
      await expect(page.getByRole("heading", { level: 2, name: heading }).first()).toBeVisible();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > PHONE.width) tooWide.push(`${url}: ${width} px`);
    }
    expect(tooWide).toEqual([]);

    // The customers list: each customer a card with view and delete in view.
    await page.goto("/customers");
    const customer = page.getByTestId("customer-row").filter({ hasText: "Vikram" });
    for (const name of [/^View /, /^Delete /]) {
      await expectWhollyInView(customer.getByRole("link", { name }).first());
    }
    await page.screenshot({ path: test.info().outputPath("phone-customers.png"), fullPage: true });

    // The order list: each order is a card with its amount, date and three actions.
    await page.goto("/orders");
    const order = page.getByTestId("order-row").filter({ hasText: "Vikram Nair" });
    await expect(order).toContainText("Amount (total with tax):");
    await expect(order).toContainText("Date:");
    for (const name of [/View order/, /Edit order/, /Delete order/]) {
      await expectWhollyInView(order.getByRole("link", { name }));
    }
    await page.screenshot({ path: test.info().outputPath("phone-orders.png"), fullPage: true });
    await order.getByRole("link", { name: /Delete order/ }).click();
    await expect(page.getByRole("dialog")).toContainText("Are you sure you want to delete order");
    await expectFitsThePhone(page, "/orders?delete");
    await page.getByRole("dialog").getByRole("link", { name: "Cancel" }).click();

    // The order detail: every item's total is on the screen, not cut off.
    await page.goto(`/orders/${orderIds[0]}`);
    const item = page.getByTestId("order-item").filter({ hasText: "Pillow covers" });
    await expect(item).toContainText("Total: ₹78,51,853.08");
    const total = item.getByText("₹78,51,853.08");
    await expectWhollyInView(total);
    await page.screenshot({ path: test.info().outputPath("phone-order-detail.png"), fullPage: true });

    // The segment list: the audience and date fold into the card; four actions in reach.
    await page.goto("/segments");
    const row = page.getByTestId("segment-row").first();
    await expect(row).toContainText("Audience: 3 customers");
    for (const name of [/^View /, /^Edit /, /^Create campaign for /, /^Delete /]) {
      await expectWhollyInView(row.getByRole("link", { name }));
    }
    await page.screenshot({ path: test.info().outputPath("phone-segments.png"), fullPage: true });

    // The campaign list and the delivery log.
    await page.goto("/campaigns");
    const campaignRow = page.getByTestId("campaign-row").first();
    for (const name of [/^View /, /^Delete /]) {
      await expectWhollyInView(campaignRow.getByRole("link", { name }));
    }
    await page.screenshot({ path: test.info().outputPath("phone-campaigns.png"), fullPage: true });
    await page.goto(`/campaigns/${campaignId}?tab=logs`);
    await expect(page.getByTestId("log-row")).toHaveCount(3, { timeout: 30_000 });
    // The delivery log is a stack of cards: each says its contact, status and time, labelled, in full.
    const log = page.getByTestId("log-row").first();
    for (const label of ["Contact:", "Status:", "Timestamp:", "Details:"]) await expect(log).toContainText(label);
    await expectWhollyInView(log.getByTestId("log-contact"));
    await expectWhollyInView(log.getByTestId("delivery-status"));
    expectAcrossThePhone((await log.boundingBox())!, "a delivery log card");
    await expectFitsThePhone(page, "/campaigns/{id}?tab=logs");
    await page.screenshot({ path: test.info().outputPath("phone-delivery-log.png"), fullPage: true });

    // The segment's audience sample: a card per customer, its spend labelled, its view link in reach.
    await page.goto(`/segments/${segmentId}`);
    const member = page.getByTestId("audience-row").filter({ hasText: "Vikram" });
    await expect(member).toContainText("Total Spend:");
    await expectWhollyInView(member.getByRole("link", { name: "View Vikram Nair" }));
    await page.screenshot({ path: test.info().outputPath("phone-segment-audience.png"), fullPage: true });

    // The import's list of bad rows: each reason is readable in full.
    await page.goto("/customers/import");
    const reason = "Enter a valid email address";
    await page.getByLabel("CSV file").setInputFiles({
      name: "customers.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(
        [
          "firstName,lastName,email",
          `Good,Row,${uniqueEmail("good")}`,
          "Bad,Row,this-is-not-an-email-address-but-it-is-very-long@",
          ",Nobody,nobody@example.com",
        ].join("\n"),
      ),
    });
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await expect(page.getByText("Import finished")).toBeVisible();
    const reasonCell = page.locator("td", { hasText: reason });
    await expect(reasonCell).toHaveText(`Reason: ${reason}`);
    await expectWhollyInView(reasonCell);
    const box = await reasonCell.boundingBox();
    // The whole reason on a line or two across the card, not two characters a line.
    expect(box?.width ?? 0).toBeGreaterThan(200);
    expect(box?.height ?? 1000).toBeLessThan(50);
    await expectFitsThePhone(page, "/customers/import (result)");
    await page.screenshot({ path: test.info().outputPath("phone-import-errors.png"), fullPage: true });
  });
});

test.describe("wide layout", () => {
  test.use({ viewport: { width: 1440, height: 900 } });
  test.setTimeout(150_000);

  test("the lists are tables with a header row, their actions in the last column", async ({ page }) => {
    await signIn(page, { name: "Wide Marketer" });
    const { segmentId, campaignId } = await seedLists(page.request);
    const lists: [string, string, string][] = [
      ["/customers", "customer-row", "wide-customers.png"],
      ["/orders", "order-row", "wide-orders.png"],
      ["/segments", "segment-row", "wide-segments.png"],
      [`/segments/${segmentId}`, "audience-row", "wide-segment-audience.png"],
      ["/campaigns", "campaign-row", "wide-campaigns.png"],
      [`/campaigns/${campaignId}?tab=logs`, "log-row", "wide-delivery-log.png"],
    ];
    for (const [url, rowId, file] of lists) {
      await page.goto(url);
      const row = page.getByTestId(rowId).first();
      await expect(row, url).toBeVisible({ timeout: 30_000 });
      const table = page.locator("table.table-cards").filter({ has: row });
      // A table: its column headers show, and a row's cells sit side by side on one line.
      await expect(table.locator("thead th").first(), url).toBeVisible();
      expect(await row.evaluate((tr) => getComputedStyle(tr).display), url).toBe("table-row");
      await page.screenshot({ path: test.info().outputPath(file), fullPage: true });
    }
  });
});
