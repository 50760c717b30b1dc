// Campaigns as a marketer uses them: the wizard end to end (validation, Back, AI suggestions,
// the subject following the name, the preview for a sample customer, launch, the toast, the list),
// a segment with no customers refused where it is chosen, one campaign however Launch is clicked,
// names with replacement patterns shown exactly, a campaign sending live to Completed, the delivery
// log with a status filter and pages, pause and resume, retry failed, delete with a confirmation,
// a segment delete naming its drafts, the detail's bad and unknown ids, the wizard with JavaScript
// off, and every screen at 390 px.
import type { APIRequestContext, Page } from "@playwright/test";
import { sqlRows, sqlRun } from "../helpers/sql";
import { expect, signIn, test, uniqueEmail, withE2eDatabase, POSTGRES_TOO, toast } from "./fixtures";

type CampaignJson = {
  id: string;
  name: string;
  status: string;
  audienceSize: number;
  deliveryStats: { sent: number; delivered: number; failed: number; pending: number };
};

/** `n` customers of the signed-in user in one CSV import: customer i spent ₹100 × i. */
async function createCustomers(request: APIRequestContext, n: number, prefix = "Buyer") {
  const rows = ["firstName,lastName,email,phone,totalSpend,visits"];
  for (let i = 1; i <= n; i++)
    rows.push(
      `${prefix}${i},Rao,${uniqueEmail(`${prefix.toLowerCase()}${i}`)},98765${String(i).padStart(5, "0")},${100 * i},${i % 7}`,
    );
  const res = await request.post("/api/customers/import", {
    headers: { "Content-Type": "text/csv" },
    data: rows.join("\n"),
  });
  expect(res.ok(), await res.text()).toBeTruthy();
}

async function createSegment(
  request: APIRequestContext,
  name: string,
  conditions: Record<string, unknown> = { totalSpend: { $gt: 0 } },
) {
  const res = await request.post("/api/segments", { data: { name, conditions, logicType: "AND" } });
  expect(res.ok(), await res.text()).toBeTruthy();
  return ((await res.json()) as { id: string }).id;
}

async function launchCampaign(request: APIRequestContext, segmentId: string, name: string) {
  const res = await request.post("/api/campaigns", {
    data: { name, subject: `${name} subject`, segmentId, message: "Hi {NAME}, here is something for you." },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as CampaignJson;
}

async function campaignOf(request: APIRequestContext, id: string) {
  const res = await request.get(`/api/campaigns/${id}`);
  expect(res.ok()).toBeTruthy();
  return ((await res.json()) as { campaign: CampaignJson }).campaign;
}

/** Waits until the delivery job has finished the campaign (the built-in vendor's receipts included). */
async function waitForCompleted(request: APIRequestContext, id: string) {
  await expect
    .poll(async () => (await campaignOf(request, id)).status, { timeout: 45_000, intervals: [500] })
    .toBe("Completed");
  return campaignOf(request, id);
}

/**
 * Turns `n` delivered rows of a finished campaign into failures of recipients without an e-mail
 * address (their phone stays), as if their address had been removed. The built-in vendor refuses a
 * message without an address, so a retry of these really goes out and really fails again.
 */
async function failSomeDeliveries(campaignId: string, n: number) {
  await withE2eDatabase(async (db) => {
    const rows = await sqlRows<{ seq: number }>(
      db,
      `SELECT "seq" FROM "Delivery" WHERE "campaignId" = ? AND "status" = 'delivered' AND "openedAt" IS NULL AND "clickedAt" IS NULL LIMIT ?`,
      [campaignId, n],
    );
    expect(rows.length).toBe(n);
    for (const r of rows)
      await sqlRun(
        db,
        `UPDATE "Delivery" SET "status" = 'failed', "email" = '', "details" = 'No e-mail address' WHERE "seq" = ?`,
        [r.seq],
      );
    // Failures the vendor reported itself would be re-sent under a key it has already accepted.
    await sqlRun(
      db,
      `UPDATE "Delivery" SET "email" = '', "details" = 'No e-mail address' WHERE "campaignId" = ? AND "status" = 'failed'`,
      [campaignId],
    );
    await sqlRun(
      db,
      `UPDATE "Campaign" SET "deliveredCount" = "deliveredCount" - ?, "failedCount" = "failedCount" + ? WHERE "id" = ?`,
      [n, n, campaignId],
    );
  });
}

async function expectNoSidewaysScroll(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
}

test.describe("campaigns", () => {
  test("the wizard end to end: validation, Back, AI suggestions, launch, the list", async ({ page }) => {
    await signIn(page, { name: "Campaign Maker" });
    await createCustomers(page.request, 24);
    const segmentId = await createSegment(page.request, "Everyone who bought");

    await page.goto("/campaigns");
    await expect(page.getByRole("heading", { name: "Campaign Management" })).toBeVisible();
    await expect(page.getByTestId("stat-Total Campaigns")).toHaveText("0");
    await page.getByRole("link", { name: "Create First Campaign" }).click();
    await expect(page.getByRole("heading", { name: "Create Campaign" })).toBeVisible();
    await expect(page.getByTestId("audience-empty")).toHaveText("Select a segment to preview audience");
    await expect(page.getByLabel("Campaign Name")).toHaveAttribute("placeholder", "June Discount Campaign");

    // Step 1's messages, then the audience preview of the chosen segment.
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByText("Campaign name is required")).toBeVisible();
    await expect(page.getByText("Please select a target segment")).toBeVisible();
    await page.getByLabel("Campaign Name").fill("Spring welcome back");
    await expect(
      page.getByLabel("Target Segment").locator("option", { hasText: "Everyone who bought (24 customers)" }),
    ).toHaveCount(1);
    await page.getByLabel("Target Segment").selectOption(segmentId);
    await expect(page.getByTestId("audience-count")).toHaveText("24");
    await expect(page.getByText("Customers will receive this campaign")).toBeVisible();
    await expect(page.getByTestId("audience-sample").getByRole("listitem")).toHaveCount(10);
    await page.getByRole("button", { name: "Continue" }).click();

    // Step 2: the subject starts as the campaign's name; its messages, the {NAME} warning that does
    // not block, Back keeps step 1.
    await expect(page.getByLabel("Message Content")).toBeVisible();
    await expect(page.getByLabel("Message Content")).toHaveAttribute("rows", "5");
    await expect(page.getByLabel("Subject line")).toHaveValue("Spring welcome back");
    await page.getByLabel("Subject line").fill("");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByText("Subject line is required")).toBeVisible();
    await expect(page.getByText("Message content is required")).toBeVisible();
    await page.getByLabel("Message Content").fill("A treat for you this week.");
    await expect(page.getByTestId("personalise-warning")).toHaveText("Consider adding {NAME} for personalization");
    await page.getByRole("button", { name: "Back" }).click();
    await expect(page.getByLabel("Campaign Name")).toHaveValue("Spring welcome back");
    await expect(page.getByTestId("audience-count")).toHaveText("24");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByLabel("Message Content")).toHaveValue("A treat for you this week.");

    // AI suggestions: cards with their tone and the segment's real audience; Use copies the message
    // in, and so does a click anywhere on a card.
    await page.getByRole("button", { name: "Get AI Suggestions" }).click();
    const cards = page.getByTestId("suggestion");
    await expect(cards).toHaveCount(3);
    await expect(cards.first()).toContainText("Tone:");
    await expect(cards.first()).toContainText('24 customers of "Everyone who bought"');
    const suggested = (await cards.first().locator("p").nth(1).textContent()) ?? "";
    expect(suggested.length).toBeGreaterThan(10);
    await cards.first().getByRole("button", { name: "Use" }).click();
    await expect(toast(page, "Message template applied")).toBeVisible();
    await expect(page.getByLabel("Message Content")).toHaveValue(suggested);
    const second = (await cards.nth(1).locator("p").nth(1).textContent()) ?? "";
    expect(second).not.toBe(suggested);
    await cards.nth(1).locator("p").nth(1).click();
    await expect(page.getByLabel("Message Content")).toHaveValue(second);
    await page.getByLabel("Message Content").fill("Hi {NAME}, {NAME} gets 10% off this week.");
    await expect(page.getByTestId("personalise-warning")).toHaveCount(0);
    // The preview reads as the segment's first customer will: subject and message, first {NAME} filled.
    const sample =
      (await page.getByTestId("audience-sample").locator("li").first().locator("p").first().textContent()) ?? "";
    expect(sample).toMatch(/^Buyer\d+ Rao$/);
    await expect(page.getByText(`Preview for ${sample}`)).toBeVisible();
    await expect(page.getByTestId("message-preview")).toHaveText(`Hi ${sample}, {NAME} gets 10% off this week.`);
    await page.getByLabel("Subject line").fill("10% off, just for you, {NAME}");
    await expect(page.getByTestId("subject-preview")).toHaveText(`10% off, just for you, ${sample}`);
    // A subject the user typed no longer follows the name.
    await page.getByRole("button", { name: "Back" }).click();
    await page.getByLabel("Campaign Name").fill("Spring welcome back!");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByLabel("Subject line")).toHaveValue("10% off, just for you, {NAME}");
    await page.getByLabel("Subject line").fill("10% off, just for you");
    await page.getByRole("button", { name: "Continue" }).click();

    // Review, then launch.
    await expect(page.getByTestId("review-name")).toHaveText("Spring welcome back!");
    await expect(page.getByTestId("review-segment")).toHaveText("Everyone who bought");
    await expect(page.getByTestId("review-audience")).toHaveText("24 customers");
    await expect(page.getByTestId("review-subject")).toHaveText("10% off, just for you");
    await expect(page.getByText("~90% (based on historical data)")).toBeVisible();
    await expect(page.getByText("Delivery begins immediately")).toBeVisible();
    await page.getByRole("button", { name: "Launch Campaign" }).click();

    // A launch lands on the campaign's detail page.
    await expect(page).toHaveURL(/\/campaigns\/[0-9a-f]{24}$/);
    await expect(toast(page, "Campaign launched successfully!")).toBeVisible();
    await expect(page.getByText("Spring welcome back!").first()).toBeVisible();
    await page.goto("/campaigns");
    const row = page.getByTestId("campaign-row").filter({ hasText: "Spring welcome back!" });
    await expect(row).toContainText("10% off, just for you");
    await expect(row.getByTestId("campaign-segment")).toHaveText("Everyone who bought");
    await expect(row.getByTestId("campaign-audience")).toHaveText("24");
    await expect(page.getByTestId("stat-Total Campaigns")).toHaveText("1");
    await expect(page.getByTestId("stat-Total Audience")).toHaveText("24");
    await expect(page.getByTestId("stat-Unique Segments")).toHaveText("1");
    // The list follows the campaign to Completed on its own (no reload).
    await expect(row.getByTestId("campaign-status")).toHaveText("Completed", { timeout: 45_000 });

    // /segments counts the campaign and its 'create campaign' lands in the wizard with the segment.
    await page.goto("/segments");
    await expect(page.getByTestId("stat-Campaigns Created")).toHaveText("1");
    await page.getByRole("link", { name: "Create campaign for Everyone who bought" }).click();
    await expect(page).toHaveURL(new RegExp(`/campaigns/new\\?segmentId=${segmentId}$`));
    await expect(page.getByLabel("Target Segment")).toHaveValue(segmentId);
    await expect(page.getByTestId("audience-count")).toHaveText("24");
  });

  test(
    "a segment with no customers is refused where it is chosen; drafts are saved and launched later",
    POSTGRES_TOO,
    async ({ page }) => {
      await signIn(page, { name: "Draft Keeper" });
      await createCustomers(page.request, 5);
      const empty = await createSegment(page.request, "Nobody yet", { totalSpend: { $gt: 1_000_000 } });
      const real = await createSegment(page.request, "Small crowd");

      await page.goto("/campaigns/new");
      await page.getByLabel("Campaign Name").fill("Into the void");
      const picker = page.getByLabel("Target Segment");
      await expect(picker.locator("option", { hasText: "Nobody yet (0 customers)" })).toHaveCount(1);
      await expect(picker.locator("option", { hasText: "Small crowd (5 customers)" })).toHaveCount(1);
      // Said under the picker as soon as it is chosen, and Continue stays on step 1.
      await picker.selectOption(empty);
      await expect(picker).toHaveAccessibleDescription("This segment has no customers: choose another segment");
      await expect(page.getByTestId("audience-count")).toHaveText("0");
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page.getByTestId("step-1")).toBeVisible();
      await expect(page.getByLabel("Message Content")).toBeHidden();
      await expect(toast(page, "Failed to launch campaign")).toHaveCount(0);
      // Another segment clears it.
      await picker.selectOption(real);
      await expect(picker).not.toHaveAccessibleDescription(/no customers/);
      await picker.selectOption(empty);
      await expect(picker).toHaveAccessibleDescription("This segment has no customers: choose another segment");

      // A draft may still be saved for it; then open it, change the segment and launch it under its id.
      await page.getByRole("button", { name: "Save as draft" }).click();
      await expect(page).toHaveURL(/\/campaigns$/);
      await expect(toast(page, "Campaign saved as draft")).toBeVisible();
      const row = page.getByTestId("campaign-row").filter({ hasText: "Into the void" });
      await expect(row.getByTestId("campaign-status")).toHaveText("Draft");
      await row.getByRole("link", { name: "Edit Into the void" }).click();
      await expect(page).toHaveURL(/\/campaigns\/edit\/[0-9a-f]{24}$/);
      const draftId = page.url().split("/").pop();
      await expect(page.getByLabel("Campaign Name")).toHaveValue("Into the void");
      await expect(page.getByTestId("relaunch-note")).toHaveCount(0);
      await page.getByLabel("Target Segment").selectOption(real);
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page.getByLabel("Subject line")).toHaveValue("Into the void");
      await page.getByLabel("Message Content").fill("Hi {NAME}");
      await page.getByRole("button", { name: "Continue" }).click();
      await page.getByRole("button", { name: "Launch Campaign" }).click();
      await expect(toast(page, "Campaign launched successfully!")).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`/campaigns/${draftId}$`));
      await page.goto("/campaigns");
      await expect(page.getByTestId("campaign-row")).toHaveCount(1);
      const launched = await campaignOf(page.request, draftId ?? "");
      expect(launched.status).not.toBe("Draft");
      expect(launched.audienceSize).toBe(5);

      // Editing a campaign that has started says that launching makes a new one.
      await page.goto(`/campaigns/edit/${draftId}`);
      await expect(page.getByTestId("relaunch-note")).toContainText("Launching creates a new campaign");
      await expect(page.getByLabel("Campaign Name")).toHaveValue("Into the void");
    },
  );

  test(
    "a campaign sends live to Completed; the delivery log filters by status and pages",
    POSTGRES_TOO,
    async ({ page }) => {
      await signIn(page, { name: "Live Watcher" });
      await createCustomers(page.request, 60);
      const segmentId = await createSegment(page.request, "Sixty");
      const campaign = await launchCampaign(page.request, segmentId, "Live one");

      await page.goto(`/campaigns/${campaign.id}`);
      await expect(page.getByRole("heading", { name: "Campaign Details" })).toBeVisible();
      await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
      await expect(page.getByTestId("campaign-message")).toHaveText("Hi {NAME}, here is something for you.");
      // The figures follow the delivery without a reload, to the end.
      await expect(page.getByTestId("campaign-status")).toHaveText("Completed", { timeout: 45_000 });
      expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
      const done = await campaignOf(page.request, campaign.id);
      await expect(page.getByTestId("figure-pending")).toHaveText("0");
      await expect(page.getByTestId("figure-delivered")).toHaveText(String(done.deliveryStats.delivered));
      await expect(page.getByTestId("figure-success-rate")).toContainText(/\d+\.\d%/);
      await expect(page.getByTestId("success-band")).toHaveText(/Excellent|Good|Fair|Poor/);
      await expect(page.getByRole("progressbar", { name: "Delivery progress" })).toHaveAttribute(
        "aria-valuenow",
        "100",
      );

      // The log: 60 rows in pages of 50.
      await page.getByRole("tab", { name: "Delivery Logs" }).click();
      await expect(page).toHaveURL(/tab=logs/);
      await expect(page.getByTestId("log-row")).toHaveCount(50);
      await expect(page.getByTestId("log-summary")).toHaveText("1–50 of 60");
      const first = page.getByTestId("log-row").first();
      await expect(first.getByTestId("log-customer")).toHaveText(/^Buyer\d+ Rao$/);
      await expect(first.getByTestId("log-customer-id")).toHaveText(/^[0-9a-f]{8}$/);
      await expect(first.getByTestId("log-contact")).toContainText("@example.com");
      // A delivered row has no details: 'No details', with its tooltip.
      const delivered = page
        .getByTestId("log-row")
        .filter({ has: page.getByTestId("delivery-status").getByText("Delivered") })
        .first();
      await expect(delivered.getByTestId("log-details")).toHaveText("No details");
      await expect(delivered.getByTestId("log-details").locator("span")).toHaveAttribute(
        "title",
        "No details available",
      );
      await page.getByRole("link", { name: "Next" }).click();
      await expect(page.getByTestId("log-row")).toHaveCount(10);
      await expect(page.getByTestId("log-summary")).toHaveText("51–60 of 60");
      await page.getByRole("link", { name: "Previous" }).click();
      await expect(page.getByTestId("log-row")).toHaveCount(50);

      // The status filter lives in the address.
      await page.getByLabel("Filter by status").selectOption("delivered");
      await expect(page).toHaveURL(/status=delivered/);
      await expect(page.getByTestId("log-row")).toHaveCount(Math.min(50, done.deliveryStats.delivered));
      await expect(
        page.getByTestId("log-row").getByTestId("delivery-status").filter({ hasNotText: "Delivered" }),
      ).toHaveCount(0);
      await expect(page.getByTestId("log-row").first().getByTestId("delivery-status")).toHaveAttribute(
        "data-colour",
        "success",
      );
      await page.getByLabel("Filter by status").selectOption("pending");
      await expect(page.getByText("No delivery logs available for this campaign")).toBeVisible();
      await expect(page.getByText("isolated delivery records")).toBeVisible();
    },
  );

  test("pause and resume, with the refusal of a stale button", POSTGRES_TOO, async ({ page }) => {
    await signIn(page, { name: "Pause Pusher" });
    await createCustomers(page.request, 2000);
    const segmentId = await createSegment(page.request, "Two thousand");
    const campaign = await launchCampaign(page.request, segmentId, "Big send");

    await page.goto(`/campaigns/${campaign.id}`);
    await page.getByRole("button", { name: "Pause" }).click();
    await expect(toast(page, "Campaign paused")).toBeVisible();
    await expect(page.getByTestId("campaign-status")).toHaveText("Paused");
    await page.getByRole("button", { name: "Resume" }).click();
    await expect(toast(page, "Campaign resumed")).toBeVisible();

    // Paused elsewhere while this page still offers Pause: the refusal says why. The page reloads
    // its figures every few seconds while the tab is visible (and would then offer Resume): as in
    // a tab left in the background, it keeps what it shows.
    await page.evaluate(() =>
      Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" }),
    );
    const pausedElsewhere = await page.request.post(`/api/campaigns/${campaign.id}/pause`);
    if (pausedElsewhere.ok()) {
      await page.getByRole("button", { name: "Pause" }).click();
      await expect(toast(page, "Only a sending campaign can be paused; this one is paused.")).toBeVisible();
      const resumed = await page.request.post(`/api/campaigns/${campaign.id}/resume`);
      expect(resumed.ok()).toBeTruthy();
      await page.reload();
    }
    await expect(page.getByTestId("campaign-status")).toHaveText("Completed", { timeout: 45_000 });
    await expect(page.getByTestId("figure-pending")).toHaveText("0");
  });

  test("retry failed sends again to the failed recipients", POSTGRES_TOO, async ({ page }) => {
    await signIn(page, { name: "Retry Runner" });
    await createCustomers(page.request, 20);
    const segmentId = await createSegment(page.request, "Twenty");
    const campaign = await launchCampaign(page.request, segmentId, "Second chance");
    await waitForCompleted(page.request, campaign.id);
    await failSomeDeliveries(campaign.id, 3);
    const before = await campaignOf(page.request, campaign.id);

    await page.goto(`/campaigns/${campaign.id}`);
    await expect(page.getByTestId("figure-failed")).toHaveText(String(before.deliveryStats.failed));
    await page.getByRole("button", { name: "Retry failed" }).click();
    await expect(toast(page, `Retrying ${before.deliveryStats.failed} failed deliver`)).toBeVisible();
    await expect(page.getByTestId("campaign-status")).toHaveText("Completed", { timeout: 45_000 });
    const after = await campaignOf(page.request, campaign.id);
    expect(after.deliveryStats.pending).toBe(0);
    expect(after.deliveryStats.failed).toBe(before.deliveryStats.failed);
    // The log shows the new attempt's outcome, and the phone where there is no e-mail.
    await page.goto(`/campaigns/${campaign.id}?tab=logs&status=failed`);
    await expect(page.getByLabel("Filter by status")).toHaveValue("failed");
    const failedRows = page.getByTestId("log-row").filter({ hasText: "No valid e-mail address" });
    await expect(failedRows).toHaveCount(before.deliveryStats.failed);
    await expect(failedRows.first().getByTestId("log-contact")).toHaveText(/^98765\d{5}$/);
    await expect(failedRows.first().getByTestId("delivery-status")).toHaveText("Failed");
    await expect(failedRows.first().getByTestId("delivery-status")).toHaveAttribute("data-colour", "error");
  });

  test("cancel and delete with their confirmations", POSTGRES_TOO, async ({ page }) => {
    await signIn(page, { name: "Cancel Deleter" });
    await createCustomers(page.request, 20);
    const segmentId = await createSegment(page.request, "Twenty");
    const campaign = await launchCampaign(page.request, segmentId, "Second chance");
    await waitForCompleted(page.request, campaign.id);

    // Cancel asks first; a finished campaign cannot be cancelled, so launch one to cancel.
    const other = await launchCampaign(page.request, segmentId, "To be cancelled");
    const paused = await page.request.post(`/api/campaigns/${other.id}/pause`);
    expect(paused.ok(), await paused.text()).toBeTruthy();
    await page.goto(`/campaigns/${other.id}`);
    await page.getByRole("link", { name: "Cancel" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("heading", { name: "Cancel Campaign" })).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel campaign" }).click();
    await expect(toast(page, "Campaign cancelled: nothing more will be sent")).toBeVisible();
    await expect(page.getByTestId("campaign-status")).toHaveText("Cancelled");

    // Delete from the detail asks first, then lands on the list with 'Campaign "{name}" deleted successfully.'
    await page.getByRole("link", { name: "Delete" }).click();
    await expect(page.getByRole("dialog").getByRole("heading", { name: "Delete Campaign" })).toBeVisible();
    await page.getByRole("dialog").getByRole("link", { name: "Cancel" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await page.getByRole("link", { name: "Delete" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await expect(page).toHaveURL(/\/campaigns$/);
    await expect(toast(page, 'Campaign "To be cancelled" deleted successfully.')).toBeVisible();

    // And from the list.
    await page.getByRole("link", { name: "Delete Second chance" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await expect(toast(page, 'Campaign "Second chance" deleted successfully.')).toBeVisible();
    await expect(page.getByRole("link", { name: "Create First Campaign" })).toBeVisible();
    expect((await page.request.get(`/api/campaigns/${campaign.id}`)).status()).toBe(404);
  });

  test("a malformed id, an unknown id and another user's campaign", async ({ page, browser }) => {
    await signIn(page, { name: "Id Checker" });
    // A path that is not a campaign id is the 404 page, not a toast about ids.
    for (const path of ["/campaigns/create", "/campaigns/not-an-id"]) {
      const notFound = await page.goto(path);
      expect(notFound?.status()).toBe(404);
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
      await expect(page.getByText("There is nothing at this address.")).toBeVisible();
      await expect(toast(page, "Invalid campaign ID format")).toHaveCount(0);
    }
    await page.getByRole("link", { name: "Go to the dashboard" }).click();
    await expect(page.getByText("Welcome back!")).toBeVisible();

    await page.goto("/campaigns/0123456789abcdef01234567");
    await expect(page.getByText("Campaign not found")).toBeVisible();
    await page.getByRole("link", { name: "Back to Campaigns" }).last().click();
    await expect(page).toHaveURL(/\/campaigns$/);

    // 'new' is the wizard, not an id.
    await page.goto("/campaigns/new");
    await expect(page.getByRole("heading", { name: "Create Campaign" })).toBeVisible();

    // Another user's campaign is not found, on the detail and in the wizard.
    const otherContext = await browser.newContext();
    const other = await otherContext.newPage();
    await signIn(other, { name: "Someone Else" });
    await createCustomers(other.request, 2, "Other");
    const theirs = await launchCampaign(other.request, await createSegment(other.request, "Theirs"), "Not yours");
    await otherContext.close();
    const response = await page.goto(`/campaigns/${theirs.id}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByText("Campaign not found")).toBeVisible();
    await page.goto(`/campaigns/edit/${theirs.id}`);
    await expect(page.getByText("Campaign not found")).toBeVisible();
  });

  test("the wizard without JavaScript: each step is a submission and keeps what was typed", async ({
    page,
    browser,
  }) => {
    await signIn(page, { name: "No Script" });
    await createCustomers(page.request, 12);
    const segmentId = await createSegment(page.request, "Twelve");
    const state = await page.context().storageState();
    const context = await browser.newContext({ javaScriptEnabled: false, storageState: state });
    const nojs = await context.newPage();

    await nojs.goto("/campaigns/new");
    await nojs.getByRole("button", { name: "Continue" }).click();
    await expect(nojs.getByText("Campaign name is required")).toBeVisible();
    await expect(nojs.getByText("Please select a target segment")).toBeVisible();
    await nojs.getByLabel("Campaign Name").fill("Plain HTML");
    await nojs.getByRole("button", { name: "Continue" }).click();
    await expect(nojs.getByLabel("Campaign Name")).toHaveValue("Plain HTML");
    await expect(nojs.getByText("Please select a target segment")).toBeVisible();
    await nojs.getByLabel("Target Segment").selectOption(segmentId);
    await nojs.getByRole("button", { name: "Preview audience" }).click();
    await expect(nojs.getByTestId("audience-count")).toHaveText("12");
    await nojs.getByRole("button", { name: "Continue" }).click();

    await expect(nojs.getByLabel("Message Content")).toBeVisible();
    await expect(nojs.getByLabel("Subject line")).toHaveValue("Plain HTML");
    await nojs.getByLabel("Subject line").fill("No script needed");
    await nojs.getByRole("button", { name: "Continue" }).click();
    await expect(nojs.getByText("Message content is required")).toBeVisible();
    await expect(nojs.getByLabel("Subject line")).toHaveValue("No script needed");
    await nojs.getByLabel("Message Content").fill("Plain text for everyone");
    await nojs.getByRole("button", { name: "Continue" }).click();

    await expect(nojs.getByTestId("review-name")).toHaveText("Plain HTML");
    await expect(nojs.getByTestId("step-3").getByText("Consider adding {NAME} for personalization")).toBeVisible();
    await nojs.getByRole("button", { name: "Back" }).click();
    await expect(nojs.getByLabel("Message Content")).toHaveValue("Plain text for everyone");
    await nojs.getByRole("button", { name: "Continue" }).click();
    // Clicked twice: the browser sends the form twice, with one launch key.
    await nojs.getByRole("button", { name: "Launch Campaign" }).dblclick();

    await expect(nojs).toHaveURL(/\/campaigns\/[0-9a-f]{24}$/);
    await expect(nojs.getByRole("status")).toHaveText("Campaign launched successfully!");
    await nojs.goto("/campaigns");
    await expect(nojs.getByTestId("campaign-row").filter({ hasText: "Plain HTML" })).toHaveCount(1);

    // Delete without JavaScript goes through the same confirmation.
    await nojs.getByRole("link", { name: "Delete Plain HTML" }).click();
    await nojs.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await expect(nojs.getByRole("status")).toHaveText('Campaign "Plain HTML" deleted successfully.');
    await context.close();
  });

  test(
    "a double-click on Launch makes one campaign; the button stays disabled until the page moves",
    POSTGRES_TOO,
    async ({ page }) => {
      await signIn(page, { name: "Double Clicker" });
      await createCustomers(page.request, 6);
      const segmentId = await createSegment(page.request, "Six");
      await page.goto(`/campaigns/new?segmentId=${segmentId}`);
      await page.getByLabel("Campaign Name").fill("Clicked twice");
      await page.getByRole("button", { name: "Continue" }).click();
      await page.getByLabel("Message Content").fill("Hi {NAME}, once only.");
      await page.getByRole("button", { name: "Continue" }).click();
      const launch = page.getByRole("button", { name: "Launch Campaign" });
      // Count the launches the page sends.
      let posts = 0;
      page.on("request", (r) => {
        if (r.method() === "POST" && new URL(r.url()).pathname.startsWith("/campaigns/new")) posts += 1;
      });
      await launch.dblclick();
      await expect(page).toHaveURL(/\/campaigns\/[0-9a-f]{24}$/);
      await expect(toast(page, "Campaign launched successfully!")).toBeVisible();
      await page.goto("/campaigns");
      await expect(page.getByTestId("campaign-row").filter({ hasText: "Clicked twice" })).toHaveCount(1);
      expect(posts).toBe(1);
      const all = (await (await page.request.get("/api/campaigns")).json()) as CampaignJson[];
      expect(all.filter((c) => c.name === "Clicked twice")).toHaveLength(1);

      // The launch is done but the next page is still loading: the button stays disabled, so a click
      // then sends nothing (it used to come back to life and launch a second campaign).
      await page.goto(`/campaigns/new?segmentId=${segmentId}`);
      await page.getByLabel("Campaign Name").fill("Slow launch");
      await page.getByRole("button", { name: "Continue" }).click();
      await page.getByLabel("Message Content").fill("Hi {NAME}");
      await page.getByRole("button", { name: "Continue" }).click();
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      let loading: () => void = () => {};
      const nextPage = new Promise<void>((resolve) => (loading = resolve));
      // The launch lands on the new campaign's page: hold its data.
      await page.route(/\/campaigns\/[0-9a-f]{24}\.data/, async (route) => {
        loading();
        await held;
        await route.continue();
      });
      posts = 0;
      await launch.click();
      await nextPage;
      await expect(launch).toBeDisabled();
      await launch.click({ force: true });
      release();
      await expect(page).toHaveURL(/\/campaigns\/[0-9a-f]{24}$/);
      await page.goto("/campaigns");
      await expect(page.getByTestId("campaign-row").filter({ hasText: "Slow launch" })).toHaveCount(1);
      expect(posts).toBe(1);
    },
  );

  test("names with replacement patterns read exactly as stored in the preview and with a suggestion", async ({
    page,
  }) => {
    await signIn(page, { name: "Pattern Tester" });
    const res = await page.request.post("/api/customers", {
      data: { firstName: "Ma$&ya", lastName: "Rao$'s $1", email: uniqueEmail("patterns"), totalSpend: 500 },
    });
    expect(res.ok(), await res.text()).toBeTruthy();
    const segmentId = await createSegment(page.request, "Patterns");
    await page.goto(`/campaigns/new?segmentId=${segmentId}`);
    await expect(page.getByTestId("audience-sample").getByRole("listitem")).toHaveCount(1);
    await page.getByLabel("Campaign Name").fill("Dollar $$ sale");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByLabel("Subject line")).toHaveValue("Dollar $$ sale");
    await page.getByLabel("Subject line").fill("For {NAME}: $` and $' off");
    await page.getByLabel("Message Content").fill("Hi {NAME}, your code: $&-$1");
    await expect(page.getByText("Preview for Ma$&ya Rao$'s $1")).toBeVisible();
    await expect(page.getByTestId("subject-preview")).toHaveText("For Ma$&ya Rao$'s $1: $` and $' off");
    await expect(page.getByTestId("message-preview")).toHaveText("Hi Ma$&ya Rao$'s $1, your code: $&-$1");

    // A suggestion applied by clicking its card previews with the same exact name.
    await page.getByRole("button", { name: "Get AI Suggestions" }).click();
    const card = page.getByTestId("suggestion").first();
    const template = (await card.locator("p").nth(1).textContent()) ?? "";
    expect(template).toContain("{NAME}");
    await card.click();
    await expect(page.getByLabel("Message Content")).toHaveValue(template);
    await expect(page.getByTestId("message-preview")).toHaveText(template.replace("{NAME}", () => "Ma$&ya Rao$'s $1"));
  });

  test("deleting a segment that drafts use names them in the confirmation", async ({ page }) => {
    await signIn(page, { name: "Segment Tidier" });
    await createCustomers(page.request, 3);
    const segmentId = await createSegment(page.request, "Soon gone");
    for (const name of ["Holi teaser", "Holi reminder"]) {
      const draft = await page.request.post("/api/campaigns", {
        data: { name, subject: "s", segmentId, message: "Hi {NAME}", status: "Draft" },
      });
      expect(draft.status(), await draft.text()).toBe(201);
    }
    await page.goto("/segments");
    await page.getByRole("link", { name: "Delete Soon gone" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("heading", { name: "Delete Segment" })).toBeVisible();
    await expect(dialog.getByTestId("delete-warning")).toHaveText(
      'Deleting this segment leaves the draft campaigns "Holi teaser" and "Holi reminder" without a segment: choose another segment before launching them.',
    );
    await dialog.getByRole("button", { name: "Delete" }).click();
    await expect(toast(page, "Segment deleted successfully")).toBeVisible();
    // The drafts are kept; the wizard asks for a segment again.
    await page.goto("/campaigns");
    await page.getByRole("link", { name: "Edit Holi teaser" }).click();
    await expect(page.getByLabel("Campaign Name")).toHaveValue("Holi teaser");
    await expect(page.getByLabel("Target Segment")).toHaveValue("");
  });

  test("every campaign screen fits a 390 px phone", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, { name: "Phone User" });
    await createCustomers(page.request, 8);
    const segmentId = await createSegment(page.request, "A segment with a rather long name for a phone");
    const campaign = await launchCampaign(
      page.request,
      segmentId,
      "A campaign whose name is long enough to wrap on a phone",
    );
    await waitForCompleted(page.request, campaign.id);

    const screens = [
      "/campaigns",
      `/campaigns/new?segmentId=${segmentId}`,
      `/campaigns/${campaign.id}`,
      `/campaigns/${campaign.id}?tab=logs`,
      `/campaigns/edit/${campaign.id}`,
    ];
    for (const url of screens) {
      await page.goto(url);
      await expect(page.getByRole("heading", { level: 2 })).toBeVisible();
      await expectNoSidewaysScroll(page);
    }
    // The wizard's later steps too.
    await page.goto(`/campaigns/new?segmentId=${segmentId}`);
    await page.getByLabel("Campaign Name").fill("Phone campaign");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("button", { name: "Get AI Suggestions" }).click();
    await expect(page.getByTestId("suggestion")).toHaveCount(3);
    await expectNoSidewaysScroll(page);
    await page.getByLabel("Subject line").fill("Hi");
    await page.getByLabel("Message Content").fill("Hi {NAME}, a very long message ".repeat(10));
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByTestId("review-name")).toHaveText("Phone campaign");
    await expectNoSidewaysScroll(page);

    // Screenshots to look at, on a phone and on a laptop.
    for (const [w, h] of [
      [390, 844],
      [1366, 900],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      for (const [i, url] of screens.entries()) {
        await page.goto(url);
        await expect(page.getByRole("heading", { level: 2 })).toBeVisible();
        await page.screenshot({ path: test.info().outputPath(`campaigns-${w}-${i}.png`), fullPage: true });
      }
    }
  });
});
