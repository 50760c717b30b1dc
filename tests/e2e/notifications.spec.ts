// The bell menu and /notifications: badge, texts, read, mark all, filters, the per-item menu,
// delete with its confirm dialog, relative times, empty states, and live updates over SSE.
import type { Page } from "@playwright/test";
import { expect, seedNotifications, signIn, test } from "./fixtures";

const MINUTE = 60_000;

const bell = (page: Page) => page.getByRole("button", { name: /^Notifications/ });
const menu = (page: Page) => page.getByTestId("notification-menu");
const rows = (page: Page) => page.getByTestId("notification-row");

test("the bell: badge, unread text, newest first, type icons, click marks read", async ({ page }) => {
  const { email } = await signIn(page);
  seedNotifications(email, [
    {
      type: "NEW_CAMPAIGN",
      title: "Campaign launched",
      details: "Diwali Sale went to 120 customers",
      ageMs: 5 * MINUTE,
    },
    { type: "NEW_SEGMENT", title: "Segment created", details: "High spenders", ageMs: 3 * MINUTE },
  ]);
  await page.reload();

  await expect(page.getByTestId("notification-badge")).toHaveText("3");
  await bell(page).click();
  await expect(menu(page).getByRole("heading", { name: "Notifications" })).toBeVisible();
  await expect(menu(page).getByText("You have 3 unread messages")).toBeVisible();
  await expect(menu(page).getByRole("button", { name: "Mark all as read" })).toBeVisible();

  const items = menu(page).getByTestId("notification-item");
  await expect(items).toHaveCount(3);
  // Newest first: the welcome (just now), then the segment, then the campaign.
  await expect(items.nth(0)).toContainText("Welcome to the CRM");
  await expect(items.nth(1)).toContainText("Segment created");
  await expect(items.nth(2)).toContainText("Campaign launched");
  await expect(items.nth(2)).toContainText("Diwali Sale went to 120 customers");
  // One icon per type.
  await expect(items.nth(0).locator('[data-icon="system"]')).toHaveCount(1);
  await expect(items.nth(1).locator('[data-icon="segment"]')).toHaveCount(1);
  await expect(items.nth(2).locator('[data-icon="campaign"]')).toHaveCount(1);
  await expect(items.nth(1).getByLabel("Unread")).toBeVisible();

  await items.nth(1).click();
  await expect(items.nth(1)).toHaveAttribute("data-read", "true");
  await expect(items.nth(1).getByLabel("Unread")).toHaveCount(0);
  await expect(menu(page).getByText("You have 2 unread messages")).toBeVisible();
  await expect(page.getByTestId("notification-badge")).toHaveText("2");

  // Stored on the server: still read after a reload.
  await page.reload();
  await expect(page.getByTestId("notification-badge")).toHaveText("2");
});

test("the bell: at most 5 items, 'Mark all as read', then no badge and no button", async ({ page }) => {
  const { email } = await signIn(page);
  seedNotifications(
    email,
    Array.from({ length: 6 }, (_, i) => ({
      type: "SYSTEM" as const,
      title: `Notice ${i + 1}`,
      ageMs: (i + 1) * MINUTE,
    })),
  );
  await page.reload();
  await expect(page.getByTestId("notification-badge")).toHaveText("7");
  await bell(page).click();
  await expect(menu(page).getByTestId("notification-item")).toHaveCount(5);
  await menu(page).getByRole("button", { name: "Mark all as read" }).click();
  await expect(menu(page).getByText("No unread messages")).toBeVisible();
  await expect(menu(page).getByRole("button", { name: "Mark all as read" })).toHaveCount(0);
  await expect(page.getByTestId("notification-badge")).toHaveCount(0);
  await expect(bell(page)).toHaveAccessibleName("Notifications");
});

test("the bell: five long notifications keep the menu at most 400 px tall, the list scrolls", async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  const { email } = await signIn(page);
  seedNotifications(
    email,
    Array.from({ length: 5 }, (_, i) => ({
      type: "NEW_CAMPAIGN" as const,
      title: `Campaign ${i + 1} launched`,
      details: `Festive offer number ${i + 1} went to 1,200 customers in Mumbai, Pune and Bengaluru with a long message.`,
      ageMs: (i + 1) * MINUTE,
    })),
  );
  await page.reload();
  await bell(page).click();
  const items = menu(page).getByTestId("notification-item");
  await expect(items).toHaveCount(5);
  const box = await menu(page).boundingBox();
  expect(box).not.toBeNull();
  expect(box!.height).toBeLessThanOrEqual(400);
  expect(box!.width).toBe(320);
  // What does not fit scrolls inside the menu; the footer link stays in view.
  const list = menu(page).getByRole("list");
  const overflow = await list.evaluate((el) => el.scrollHeight - el.clientHeight);
  expect(overflow).toBeGreaterThan(0);
  await expect(menu(page).getByRole("link", { name: "View All Notifications" })).toBeInViewport();
  await items.nth(4).scrollIntoViewIfNeeded();
  await expect(items.nth(4)).toBeInViewport();
});

test("the bell: empty state and 'View All Notifications'", async ({ page }) => {
  await signIn(page);
  await page.goto("/notifications");
  // Delete the welcome notification to reach the empty state.
  await page.getByRole("button", { name: "Actions for Welcome to the CRM" }).click();
  await page.getByRole("menuitem", { name: "Delete notification" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("No notifications found")).toBeVisible();

  await page.goto("/");
  await bell(page).click();
  await expect(menu(page).getByText("No notifications yet")).toBeVisible();
  await expect(menu(page).getByText("No unread messages")).toBeVisible();
  await menu(page).getByRole("link", { name: "View All Notifications" }).click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.getByText("You don't have any notifications yet")).toBeVisible();
  await expect(menu(page)).toHaveCount(0);
});

test("/notifications: list, chips, relative times, filter menu and filtered empty state", async ({ page }) => {
  const { email } = await signIn(page);
  seedNotifications(email, [
    { type: "NEW_CAMPAIGN", title: "Campaign launched", ageMs: 5 * MINUTE },
    {
      type: "NEW_CUSTOMERS",
      title: "New customers added",
      details: "15 new customers have been added to your CRM.",
      ageMs: 3 * 3_600_000,
    },
    { type: "CAMPAIGN_PERFORMANCE", title: "Campaign performance", ageMs: 2 * 86_400_000, read: true },
  ]);
  await page.goto("/notifications");
  await expect(page.getByRole("heading", { name: "Notifications", level: 2 })).toBeVisible();
  await expect(page.getByText("Stay updated with the latest activity in your CRM")).toBeVisible();
  await expect(page.getByTestId("top-bar-title")).toHaveText("Notifications");

  await expect(rows(page)).toHaveCount(4);
  const row = (title: string) => rows(page).filter({ hasText: title });
  await expect(row("Welcome to the CRM")).toContainText("Just now");
  await expect(row("Welcome to the CRM")).toContainText("System");
  await expect(row("Campaign launched")).toContainText("5 minutes ago");
  await expect(row("Campaign launched")).toContainText("Campaign");
  await expect(row("New customers added")).toContainText("3 hours ago");
  await expect(row("New customers added")).toContainText("Customers");
  await expect(row("Campaign performance")).toContainText("2 days ago");
  await expect(row("Campaign performance")).toContainText("Performance");
  await expect(row("Campaign performance").getByLabel("Unread")).toHaveCount(0);
  await expect(row("Campaign launched").getByLabel("Unread")).toBeVisible();

  await page.getByRole("button", { name: "Filter" }).click();
  for (const label of ["All Notifications", "Campaigns", "Segments", "Customers", "Performance", "System"]) {
    await expect(page.getByRole("menuitem", { name: label, exact: true })).toBeVisible();
  }
  await page.getByRole("menuitem", { name: "Customers", exact: true }).click();
  await expect(page).toHaveURL(/\?type=customers$/);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText("New customers added");

  await page.getByRole("button", { name: /^Filter/ }).click();
  await page.getByRole("menuitem", { name: "Segments", exact: true }).click();
  await expect(page.getByText("No notifications found")).toBeVisible();
  await expect(page.getByText("You don't have any Segment notifications")).toBeVisible();

  await page.getByRole("button", { name: /^Filter/ }).click();
  await page.getByRole("menuitem", { name: "All Notifications" }).click();
  await expect(rows(page)).toHaveCount(4);
});

test("/notifications: per-item 'Mark as read' and 'Mark All as Read'", async ({ page }) => {
  const { email } = await signIn(page);
  seedNotifications(email, [{ type: "NEW_SEGMENT", title: "Segment created", ageMs: MINUTE }]);
  await page.goto("/notifications");
  const segment = rows(page).filter({ hasText: "Segment created" });
  await expect(segment).toHaveAttribute("data-read", "false");

  await page.getByRole("button", { name: "Actions for Segment created" }).click();
  await page.getByRole("menuitem", { name: "Mark as read" }).click();
  await expect(segment).toHaveAttribute("data-read", "true");
  await expect(page.getByTestId("notification-badge")).toHaveText("1");

  // Already read: the item's 'Mark as read' is disabled.
  await page.getByRole("button", { name: "Actions for Segment created" }).click();
  await expect(page.getByRole("menuitem", { name: "Mark as read" })).toBeDisabled();
  await page.keyboard.press("Escape");

  const markAll = page.getByRole("button", { name: "Mark All as Read" });
  await expect(markAll).toBeEnabled();
  await markAll.click();
  await expect(rows(page).filter({ hasText: "Welcome to the CRM" })).toHaveAttribute("data-read", "true");
  await expect(markAll).toBeDisabled();
  await expect(page.getByTestId("notification-badge")).toHaveCount(0);
});

test("/notifications: delete asks first; Cancel keeps it, Delete removes it", async ({ page }) => {
  const { email } = await signIn(page);
  seedNotifications(email, [{ type: "NEW_CAMPAIGN", title: "Campaign launched", ageMs: MINUTE }]);
  await page.goto("/notifications");
  await expect(rows(page)).toHaveCount(2);

  await page.getByRole("button", { name: "Actions for Campaign launched" }).click();
  await page.getByRole("menuitem", { name: "Delete notification" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Delete Notification" })).toBeVisible();
  await expect(
    dialog.getByText("Are you sure you want to delete this notification? This action cannot be undone."),
  ).toBeVisible();
  await dialog.getByRole("link", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(rows(page)).toHaveCount(2);

  await page.getByRole("button", { name: "Actions for Campaign launched" }).click();
  await page.getByRole("menuitem", { name: "Delete notification" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).filter({ hasText: "Campaign launched" })).toHaveCount(0);
  await expect(page).toHaveURL(/\/notifications\??$/);

  await page.reload();
  await expect(rows(page)).toHaveCount(1);
});

test("/notifications works without JavaScript: mark read and delete with the confirm page", async ({ browser }) => {
  // Sign in with JavaScript, then use the screen in a context that has none (same cookies).
  const withJs = await browser.newContext();
  const setup = await withJs.newPage();
  const { email } = await signIn(setup);
  seedNotifications(email, [{ type: "NEW_SEGMENT", title: "Segment created", ageMs: MINUTE }]);
  const state = await withJs.storageState();
  await withJs.close();

  const context = await browser.newContext({ javaScriptEnabled: false, storageState: state });
  const page = await context.newPage();
  await page.goto("/notifications");
  const segment = rows(page).filter({ hasText: "Segment created" });
  await segment.getByRole("button", { name: "Mark as read" }).click();
  await expect(rows(page).filter({ hasText: "Segment created" })).toHaveAttribute("data-read", "true");

  await rows(page).filter({ hasText: "Segment created" }).getByRole("link", { name: "Delete notification" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByText("Delete Notification")).toBeVisible();
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText("Welcome to the CRM");
  await context.close();
});

test("live: a change made in another tab reaches the open page without a reload (SSE)", async ({ page, context }) => {
  const { email } = await signIn(page);
  await expect(page.getByTestId("notification-badge")).toHaveText("1");

  // A notification stored behind the page's back shows up as soon as the server pushes an event.
  seedNotifications(email, [{ type: "NEW_SEGMENT", title: "Segment created", ageMs: 0 }]);
  const other = await context.newPage();
  await other.goto("/notifications");
  await other.getByRole("button", { name: "Actions for Welcome to the CRM" }).click();
  await other.getByRole("menuitem", { name: "Mark as read" }).click();
  await expect(other.getByTestId("notification-badge")).toHaveText("1");

  // The first page was not reloaded: its bell follows the server.
  await expect(page.getByTestId("notification-badge")).toHaveText("1");
  await bell(page).click();
  await expect(menu(page).getByText("Segment created")).toBeVisible();
  await expect(menu(page).getByText("You have 1 unread message")).toBeVisible();
});

test("live: new customers announce themselves in the open page's bell (SSE)", async ({ page, context }) => {
  await signIn(page);
  const probe = await page.request.get("/api/customers");
  test.skip(
    probe.status() === 404,
    "POST /api/customers does not exist yet: nothing emits a notification from a request",
  );
  await expect(page.getByTestId("notification-badge")).toHaveText("1");
  const origin = new URL(page.url()).origin;
  for (let i = 0; i < 15; i += 1) {
    const res = await context.request.post("/api/customers", {
      headers: { Origin: origin },
      data: { firstName: "Live", lastName: `Customer ${i}`, email: `live-${i}-${Date.now()}@example.com` },
    });
    expect(res.status(), await res.text()).toBeLessThan(300);
  }
  await expect(page.getByTestId("notification-badge")).toHaveText("2");
  await bell(page).click();
  await expect(menu(page).getByText("New customers added")).toBeVisible();
});
