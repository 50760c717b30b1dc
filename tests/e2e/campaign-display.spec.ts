// How campaign figures and notices look, on a 1366 px laptop and a 390 px phone: no rate (a neutral
// chip, never a red "0.0% Poor") while nothing was delivered, failed or bounced; counts in Indian
// digit grouping (campaigns, and a customer's visits and an order's quantity); status, rate and
// segment chips never cut off; and toasts that cover neither the top bar nor the campaign's own
// buttons. Screenshots are kept in the test's output folder.
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import Database from "better-sqlite3";
import { e2eDatabaseFile, expect, signIn, test, uniqueEmail } from "./fixtures";

const WIDE = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };
const LONG_SEGMENT = "Everyone who bought something during the festive season in the southern cities";

/** `n` customers in one CSV import. */
async function createCustomers(request: APIRequestContext, n: number) {
  const rows = ["firstName,lastName,email,totalSpend"];
  for (let i = 1; i <= n; i++) rows.push(`Buyer${i},Iyer,${uniqueEmail(`display${i}`)},${100 + i}`);
  const res = await request.post("/api/customers/import", {
    headers: { "Content-Type": "text/csv" },
    data: rows.join("\n"),
  });
  expect(res.ok(), await res.text()).toBeTruthy();
}

async function createSegment(request: APIRequestContext, name: string) {
  const res = await request.post("/api/segments", {
    data: { name, conditions: { totalSpend: { $gt: 0 } }, logicType: "AND" },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
  return ((await res.json()) as { id: string }).id;
}

async function createDraft(request: APIRequestContext, segmentId: string, name: string) {
  const res = await request.post("/api/campaigns", {
    data: { name, subject: `${name} subject`, segmentId, message: "Hi {NAME}", status: "Draft" },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: string; audienceSize: number };
}

/**
 * Turns a draft into a campaign that has just started sending: Active, launched now, `sent`
 * messages handed to the channel and awaiting their receipts, the rest still queued, and nothing
 * delivered, failed or bounced. With pending rows counted it stays Active (the delivery job finds
 * no rows of it to send), so the screens can be looked at in that state.
 */
function startSending(campaignId: string, sent: number) {
  setCampaign(
    campaignId,
    `"status" = 'Active', "launchedAt" = ?, "sentCount" = ?, "pendingCount" = "audienceSize" - ?,
     "deliveredCount" = 0, "failedCount" = 0, "bouncedCount" = 0`,
    Date.now(),
    sent,
    sent,
  );
}

/** Sets a campaign's columns directly (`assignments` is the SET list, its values after it). */
function setCampaign(campaignId: string, assignments: string, ...values: (string | number)[]) {
  const sqlite = new Database(e2eDatabaseFile());
  try {
    sqlite.pragma("busy_timeout = 10000");
    sqlite.prepare(`UPDATE "Campaign" SET ${assignments} WHERE "id" = ?`).run(...values, campaignId);
  } finally {
    sqlite.close();
  }
}

const overlaps = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Every chip's text is whole: nothing clipped or cut with an ellipsis, nothing past the screen. */
async function expectChipsWhole(page: Page, chips: Locator, where: string) {
  const count = await chips.count();
  expect(count, `chips on ${where}`).toBeGreaterThan(0);
  const cut = await chips.evaluateAll((els) =>
    els
      .filter((el) => {
        const style = getComputedStyle(el);
        const box = el.getBoundingClientRect();
        return (
          el.scrollWidth > el.clientWidth + 1 ||
          style.textOverflow === "ellipsis" ||
          box.left < 0 ||
          box.right > document.documentElement.clientWidth
        );
      })
      .map((el) => el.textContent),
  );
  expect(cut, `cut chips on ${where}`).toEqual([]);
}

/** Waits until the toast has come to rest (not a frame of its slide-in) and returns its box. */
async function toastAtRest(toast: Locator) {
  await expect(toast).toBeVisible();
  await toast.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
  return (await toast.boundingBox())!;
}

/** The toast covers neither the top bar nor any of the campaign's buttons. */
async function expectToastClear(page: Page, toast: Locator) {
  const box = await toastAtRest(toast);
  const bar = (await page.getByRole("banner").boundingBox())!;
  expect(box.y, "the toast starts below the top bar").toBeGreaterThanOrEqual(bar.y + bar.height);
  const controls = page.getByTestId("campaign-controls").locator("a, button");
  expect(await controls.count()).toBeGreaterThan(0);
  for (const control of await controls.all()) {
    const b = (await control.boundingBox())!;
    expect(overlaps(box, b), `the toast covers "${await control.textContent()}"`).toBe(false);
  }
  return box;
}

test.describe("campaign figures and notices", () => {
  test.setTimeout(120_000);

  test("a cancelled campaign shows what a cancel ended: Cancelled beside Sent, Failed and Pending", async ({
    page,
  }) => {
    await page.setViewportSize(WIDE);
    await signIn(page, { name: "Cancelled Figures" });
    await createCustomers(page.request, 12);
    const segmentId = await createSegment(page.request, "Twelve to cancel");
    const draft = await createDraft(page.request, segmentId, "Stopped halfway");
    // As the delivery job leaves it: 5 accepted (3 delivered), 1 refused, 6 ended by the cancel.
    setCampaign(
      draft.id,
      `"status" = 'Cancelled', "launchedAt" = ?, "audienceSize" = 12, "pendingCount" = 0, "sentCount" = 2,
       "deliveredCount" = 3, "failedCount" = 1, "bouncedCount" = 0, "cancelledCount" = 6`,
      Date.now() - 10 * 60_000,
    );
    await page.goto(`/campaigns/${draft.id}`);
    await expect(page.getByTestId("campaign-status")).toHaveText("Cancelled");
    await expect(page.getByTestId("figure-sent")).toHaveText("5");
    await expect(page.getByTestId("figure-failed")).toHaveText("1");
    await expect(page.getByTestId("figure-cancelled")).toHaveText("6");
    await expect(page.getByTestId("figure-pending")).toHaveText("0");
    // Progress counts what the channel answered for (5 + 1 of 12), not the cancelled rows.
    await expect(page.getByTestId("campaign-progress")).toHaveText("50% processed");
  });

  test("nothing attempted yet: '—' and a neutral chip, not a red 0.0% Poor, on the detail, the list and the dashboard", async ({
    page,
  }) => {
    await page.setViewportSize(WIDE);
    await signIn(page, { name: "Not Yet" });
    await createCustomers(page.request, 12);
    const segmentId = await createSegment(page.request, "Twelve buyers");
    const draft = await createDraft(page.request, segmentId, "Quiet draft");
    const sending = await createDraft(page.request, segmentId, "First batch out");
    startSending(sending.id, 5);

    // A draft: nothing sent.
    await page.goto(`/campaigns/${draft.id}`);
    const rate = page.getByTestId("figure-success-rate");
    await expect(rate).toContainText("—");
    await expect(rate).not.toContainText("%");
    await expect(page.getByTestId("success-band")).toHaveText("Not started");
    await expect(page.getByTestId("success-band")).toHaveAttribute("data-colour", "default");

    // Sending its first batch: five messages out, no receipt back yet.
    await page.goto(`/campaigns/${sending.id}`);
    await expect(page.getByTestId("campaign-status")).toHaveText("Active");
    await expect(page.getByTestId("figure-sent")).toHaveText("5");
    await expect(rate).toContainText("—");
    await expect(page.getByTestId("success-band")).toHaveText("No results yet");
    await expect(page.getByTestId("success-band")).toHaveAttribute("data-colour", "default");
    await expect(page.getByText("Poor")).toHaveCount(0);

    // The dashboard's Recent Campaigns: both without a rate, neither red.
    await page.goto("/dashboard");
    const recent = page.getByTestId("recent-campaign");
    await expect(recent).toHaveCount(2);
    for (const item of await recent.all()) {
      const chip = item.getByTestId("recent-campaign-success");
      await expect(chip).toHaveText("No results yet");
      await expect(chip).toHaveAttribute("data-colour", "default");
    }
    // Campaign Performance: no rate has anything to divide by yet.
    for (const label of ["Average Delivery Rate", "Average Open Rate", "Average Click Rate"]) {
      const figure = page.getByTestId(`rate-${label}`);
      await expect(figure.getByTestId("rate-value")).toHaveText("—");
      await expect(figure).toHaveAttribute("data-colour", "default");
    }
    await page.screenshot({ path: test.info().outputPath("no-rate-dashboard.png"), fullPage: true });
  });

  test("counts in Indian digit grouping and whole chips, at 1366 and at 390 px", async ({ page }) => {
    await page.setViewportSize(WIDE);
    await signIn(page, { name: "Big Numbers" });
    await createCustomers(page.request, 1200);
    const segmentId = await createSegment(page.request, LONG_SEGMENT);
    const draft = await createDraft(page.request, segmentId, "Twelve hundred");
    expect(draft.audienceSize).toBe(1200);
    const sending = await createDraft(page.request, segmentId, "Going out now");
    startSending(sending.id, 1100);

    // The dashboard: the count in Recent Activity's line, the stat card.
    await page.goto("/dashboard");
    const activity = page.getByTestId("activity-item").filter({ hasText: "Going out now" });
    await expect(activity).toContainText("Active campaign to 1,200 customers");
    await expect(page.getByRole("region", { name: "Total Customers" }).getByTestId("stat-count")).toHaveText("1,200");

    // The detail and the list.
    await page.goto(`/campaigns/${sending.id}`);
    await expect(page.getByTestId("figure-sent")).toHaveText("1,100");
    await expect(page.getByTestId("figure-pending")).toHaveText("100");
    await expect(page.getByText("1,200 customers")).toBeVisible();
    await page.goto("/campaigns");
    await expect(page.getByTestId("stat-Total Audience")).toHaveText("2,400");
    await expect(page.getByTestId("campaign-audience").first()).toHaveText("1,200");

    for (const viewport of [WIDE, PHONE]) {
      await page.setViewportSize(viewport);
      const at = `${viewport.width} px`;
      await page.goto("/campaigns");
      await expectChipsWhole(page, page.locator("[data-testid=campaign-row] [data-colour]"), `/campaigns at ${at}`);
      // The segment's chip wraps its long name rather than cutting it.
      await expectChipsWhole(page, page.getByTestId("campaign-segment"), `/campaigns at ${at}`);
      await page.screenshot({ path: test.info().outputPath(`campaigns-${viewport.width}.png`), fullPage: true });
      await page.goto(`/campaigns/${sending.id}`);
      await expectChipsWhole(
        page,
        page.locator("main [data-colour], [data-testid=campaign-segment]"),
        `the detail at ${at}`,
      );
      await page.goto("/dashboard");
      await expectChipsWhole(
        page,
        page.locator("[data-testid=recent-campaign] [data-colour]"),
        `the dashboard at ${at}`,
      );
    }
  });

  test("counts outside the campaigns read the same way: a customer's visits, an order's quantity", async ({ page }) => {
    await page.setViewportSize(WIDE);
    await signIn(page, { name: "Loyal Counts" });
    const customer = await page.request.post("/api/customers", {
      data: { firstName: "Frequent", lastName: "Visitor", email: uniqueEmail("visits"), visits: 12_345 },
    });
    expect(customer.ok(), await customer.text()).toBeTruthy();
    const customerId = ((await customer.json()) as { _id: string })._id;
    const order = await page.request.post("/api/orders", {
      data: { customerId, status: "completed", items: [{ name: "Paper cups", quantity: 12_000, price: 1 }] },
    });
    expect(order.ok(), await order.text()).toBeTruthy();
    const orderId = ((await order.json()) as { _id: string })._id;

    // The order counts as a visit: 12,346.
    await page.goto("/customers");
    await expect(page.getByTestId("customer-row").filter({ hasText: "Frequent" })).toContainText("12,346");
    await page.goto(`/customers/${customerId}`);
    await expect(page.getByText("12,346", { exact: true })).toBeVisible();
    await page.goto(`/orders/${orderId}`);
    await expect(page.getByTestId("order-item")).toContainText("12,000");
  });

  test("a toast on the campaign's page covers neither the top bar nor its buttons, on a laptop and a phone", async ({
    page,
  }) => {
    await page.setViewportSize(PHONE);
    await signIn(page, { name: "Toast Watcher" });
    await createCustomers(page.request, 5);
    const segmentId = await createSegment(page.request, "Five");
    const campaign = await createDraft(page.request, segmentId, "Held in the queue");
    startSending(campaign.id, 0);

    const toast = (text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });
    await page.goto(`/campaigns/${campaign.id}`);
    await page.getByRole("button", { name: "Pause" }).click();
    // On a phone: across the screen less a margin each side.
    const box = await expectToastClear(page, toast("Campaign paused"));
    expect(box.x).toBeGreaterThanOrEqual(8);
    expect(box.x).toBeLessThanOrEqual(24);
    expect(box.width).toBeGreaterThanOrEqual(PHONE.width - 48);
    await page.screenshot({ path: test.info().outputPath("toast-phone.png") });

    await page.setViewportSize(WIDE);
    await page.getByRole("button", { name: "Resume" }).click();
    await expectToastClear(page, toast("Campaign resumed"));
    await page.screenshot({ path: test.info().outputPath("toast-wide.png") });
  });
});
