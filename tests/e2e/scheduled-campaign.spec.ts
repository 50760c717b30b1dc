// Scheduled campaigns in Chromium against the production server: a marketer schedules a campaign
// from the wizard's Review step for tomorrow morning (her time zone), sees it as Scheduled on the
// list and its page, reschedules it from Edit draft, takes the schedule off; the same without
// JavaScript; and a campaign scheduled a few seconds ahead through /api is launched by the
// server's own clock and sent.
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, signIn, test, toast, uniqueEmail, widthShot } from "./fixtures";

async function threeCustomersAndASegment(request: APIRequestContext) {
  const rows = ["firstName,lastName,email,phone,totalSpend,visits"];
  for (const i of [1, 2, 3]) rows.push(`Later${i},Shah,${uniqueEmail(`later${i}`)},9876500${i}00,500,2`);
  const imported = await request.post("/api/customers/import", {
    headers: { "Content-Type": "text/csv" },
    data: rows.join("\n"),
  });
  expect(imported.ok(), await imported.text()).toBeTruthy();
  const segment = await request.post("/api/segments", {
    data: { name: "Three buyers", conditions: { totalSpend: { $gt: 0 } }, logicType: "AND" },
  });
  expect(segment.ok(), await segment.text()).toBeTruthy();
  return ((await segment.json()) as { id: string }).id;
}

/** Tomorrow at this hour, as the page's datetime-local field takes it (the browser runs in Asia/Kolkata). */
function tomorrowAt(hour: number): string {
  const now = new Date(Date.now() + 5.5 * 3_600_000 + 86_400_000);
  return `${now.toISOString().slice(0, 10)}T${String(hour).padStart(2, "0")}:00`;
}

/** Through the wizard's first two steps to Review. */
async function toReview(page: Page, name: string) {
  await page.getByLabel("Campaign Name").fill(name);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("Message Content").fill("Hi {NAME}, the monsoon sale starts now.");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByTestId("review-name")).toHaveText(name);
}

test.describe("scheduled campaigns", () => {
  test("scheduled from the wizard for tomorrow morning, shown as Scheduled, rescheduled, then taken off", async ({
    page,
  }) => {
    await signIn(page, { name: "Planner" });
    const segmentId = await threeCustomersAndASegment(page.request);
    await page.goto(`/campaigns/new?segmentId=${segmentId}`);
    await toReview(page, "Monsoon sale");
    const card = page.getByTestId("schedule-card");
    await expect(card).toContainText("Times are in India Standard Time.");
    await widthShot(page, "review-send-later", 390);

    // A time in the past is refused under its field; nothing is made.
    await card.getByLabel("Send at").fill("2020-01-01T09:00");
    await card.getByRole("button", { name: "Schedule" }).click();
    await expect(card.getByText("Choose a time in the future to schedule the campaign")).toBeVisible();

    await card.getByLabel("Send at").fill(tomorrowAt(9));
    await card.getByRole("button", { name: "Schedule" }).click();
    await expect(page).toHaveURL(/\/campaigns\/[0-9a-f]{24}$/);
    await expect(toast(page, /^Campaign scheduled for .*, 09:00 am \(India Standard Time\)$/)).toBeVisible();
    await expect(page.getByTestId("campaign-status")).toHaveText("Scheduled");
    await expect(page.getByTestId("campaign-scheduled-at")).toContainText("09:00 am");
    await widthShot(page, "scheduled-detail", 1366);
    await widthShot(page, "scheduled-detail", 390);

    await page.goto("/campaigns");
    const row = page.getByTestId("campaign-row").filter({ hasText: "Monsoon sale" });
    await expect(row.getByTestId("campaign-status")).toHaveText("Scheduled");
    await expect(row.getByTestId("campaign-scheduled-at")).toContainText("09:00 am");
    await widthShot(page, "scheduled-list", 390);

    // Edit draft: the Review step shows when, and Reschedule moves it.
    await row.getByRole("link", { name: "Edit Monsoon sale" }).click();
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByTestId("scheduled-for")).toContainText("09:00 am");
    await expect(card.getByLabel("Send at")).toHaveValue(tomorrowAt(9));
    await card.getByLabel("Send at").fill(tomorrowAt(18));
    await card.getByRole("button", { name: "Reschedule" }).click();
    await expect(page.getByTestId("campaign-scheduled-at")).toContainText("06:00 pm");

    await page.getByRole("button", { name: "Cancel schedule" }).click();
    await expect(toast(page, "Schedule cancelled: the campaign is a draft again")).toBeVisible();
    await expect(page.getByTestId("campaign-status")).toHaveText("Draft");
    await expect(page.getByRole("button", { name: "Cancel schedule" })).toHaveCount(0);
  });

  test("scheduled without JavaScript", async ({ page, browser }) => {
    await signIn(page, { name: "No Script Planner" });
    const segmentId = await threeCustomersAndASegment(page.request);
    const context = await browser.newContext({
      javaScriptEnabled: false,
      storageState: await page.context().storageState(),
      timezoneId: "Asia/Kolkata",
    });
    const nojs = await context.newPage();
    await nojs.goto(`/campaigns/new?segmentId=${segmentId}`);
    await toReview(nojs, "Plain schedule");
    await nojs.getByLabel("Send at").fill(tomorrowAt(10));
    await nojs.getByRole("button", { name: "Schedule" }).click();
    await expect(nojs).toHaveURL(/\/campaigns\/[0-9a-f]{24}$/);
    await expect(nojs.getByTestId("campaign-status")).toHaveText("Scheduled");
    await nojs.getByRole("button", { name: "Cancel schedule" }).click();
    await expect(nojs.getByRole("status")).toHaveText("Schedule cancelled: the campaign is a draft again");
    await context.close();
  });

  test("a campaign scheduled a few seconds ahead is launched by the server's clock and sent", async ({ page }) => {
    await signIn(page, { name: "Clock Watcher" });
    const segmentId = await threeCustomersAndASegment(page.request);
    const made = await page.request.post("/api/campaigns", {
      data: {
        name: "In a moment",
        segmentId,
        subject: "Soon, {NAME}",
        message: "Hi {NAME}, this went out by itself.",
        scheduledAt: new Date(Date.now() + 3_000).toISOString(),
      },
    });
    expect(made.status(), await made.text()).toBe(201);
    const { id } = (await made.json()) as { id: string };
    await page.goto(`/campaigns/${id}`);
    await expect(page.getByTestId("campaign-status")).toHaveText("Scheduled");
    // The clock looks every few seconds; the page follows the campaign as it sends.
    await expect
      .poll(
        async () => {
          const res = await page.request.get(`/api/campaigns/${id}`);
          const { campaign } = (await res.json()) as { campaign: { status: string; sentCount: number } };
          return `${campaign.status} ${campaign.sentCount}`;
        },
        { timeout: 45_000 },
      )
      .toMatch(/^(Active|Completed) 3$/);
    await page.reload();
    await expect(page.getByTestId("campaign-status")).not.toHaveText("Scheduled");
  });
});
