// The layout shell: side navigation, top bar, avatar menu, theme, and the mobile drawer.
import type { Page } from "@playwright/test";
import { expect, signIn, test, uniqueEmail } from "./fixtures";

/** Saves a customer through the form, which lands on /customers with a success toast. */
async function showSuccessToast(page: Page) {
  await page.goto("/customers/new");
  await page.getByLabel("First Name").fill("Toast");
  await page.getByLabel("Last Name").fill("Placement");
  await page.getByLabel("Email").fill(uniqueEmail("toast"));
  await page.getByRole("button", { name: "Save Customer" }).click();
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Customer created successfully" });
  await expect(toast).toBeVisible();
  return toast;
}

/** The toast sits below the top bar, and the bell and the avatar are still what a click there reaches. */
async function expectToastClearOfTopBar(page: Page) {
  const toast = await showSuccessToast(page);
  // Measure where the toast comes to rest, not a frame of its slide-in.
  await toast.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
  const toastBox = (await toast.boundingBox())!;
  const barBox = (await page.getByRole("banner").boundingBox())!;
  expect(toastBox.y).toBeGreaterThanOrEqual(barBox.y + barBox.height);
  for (const name of [/^Notifications/, /^Account menu$/]) {
    const button = page.getByRole("button", { name });
    const box = (await button.boundingBox())!;
    const onTop = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x, y)?.closest("button")?.getAttribute("aria-label") ?? null,
      [box.x + box.width / 2, box.y + box.height / 2],
    );
    expect(onTop).toMatch(name);
  }
}

test.describe("on a wide screen", () => {
  test("permanent side navigation with the greeting and ten entries, the current one highlighted", async ({ page }) => {
    await signIn(page, { name: "Zara Khan" });
    const side = page.getByTestId("side-nav");
    await expect(side).toBeVisible();
    expect((await side.boundingBox())?.width).toBe(240);
    await expect(side.getByTestId("welcome")).toHaveText("Welcome, Zara Khan!");
    await expect(side.getByText("Managing your customers made easy")).toBeVisible();

    const nav = side.getByRole("navigation", { name: "Main" });
    const links = nav.getByRole("link");
    await expect(links).toHaveText([
      "Dashboard",
      "Customers",
      "Fields",
      "Tags",
      "Orders",
      "Segments",
      "Templates",
      "Campaigns",
      "Flows",
      "Suppressions",
    ]);
    for (const [name, href] of [
      ["Dashboard", "/"],
      ["Customers", "/customers"],
      ["Fields", "/fields"],
      ["Tags", "/tags"],
      ["Orders", "/orders"],
      ["Segments", "/segments"],
      ["Templates", "/templates"],
      ["Campaigns", "/campaigns"],
      ["Flows", "/flows"],
      ["Suppressions", "/suppressions"],
    ]) {
      await expect(nav.getByRole("link", { name })).toHaveAttribute("href", href);
    }
    // /dashboard (where sign-in lands) highlights Dashboard, in the theme's primary blue.
    const dashboard = nav.getByRole("link", { name: "Dashboard" });
    await expect(dashboard).toHaveAttribute("aria-current", "page");
    await expect(dashboard).toHaveCSS("background-color", "rgb(37, 99, 235)");
    await expect(nav.getByRole("link", { name: "Customers" })).not.toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("button", { name: "Open menu" })).toBeHidden();
  });

  test("top bar: title rule, Help, Settings, bell and avatar with its fallback letter", async ({ page }) => {
    await signIn(page, { name: "zara khan" });
    const title = page.getByTestId("top-bar-title");
    await expect(title).toHaveText("Dashboard");
    await page.goto("/");
    await expect(title).toHaveText("Dashboard");
    await page.goto("/notifications");
    await expect(title).toHaveText("Notifications");
    await page.goto("/profile");
    await expect(title).toHaveText("Profile");
    await expect(page.getByTestId("side-nav").getByRole("link", { name: "Dashboard" })).not.toHaveAttribute(
      "aria-current",
      "page",
    );

    await expect(page.getByRole("button", { name: "Help" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Settings" })).toBeVisible();
    await expect(page.getByRole("button", { name: /^Notifications/ })).toBeVisible();
    const avatar = page.getByRole("button", { name: "Account menu" });
    await expect(avatar.getByTestId("avatar-letter")).toHaveText("Z");
    // The theme's secondary orange behind the letter.
    await expect(avatar.getByTestId("avatar-letter")).toHaveCSS("background-color", "rgb(249, 115, 22)");
  });

  test("the avatar menu: name and e-mail, My Profile, Account Settings only closes", async ({ page }) => {
    const { name, email } = await signIn(page, { name: "Menu Person" });
    await page.getByRole("button", { name: "Account menu" }).click();
    const menu = page.getByRole("menu");
    await expect(menu.getByText(name, { exact: true })).toBeVisible();
    await expect(menu.getByText(email, { exact: true })).toBeVisible();
    await expect(menu.getByRole("menuitem")).toHaveText(["My Profile", "Account Settings", "Logout"]);

    await menu.getByRole("menuitem", { name: "Account Settings" }).click();
    await expect(page.getByRole("menu")).toHaveCount(0);
    await expect(page).toHaveURL(/\/dashboard$/);

    await page.getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("menuitem", { name: "My Profile" }).click();
    await expect(page).toHaveURL(/\/profile$/);
  });

  test("a toast shows below the top bar and leaves the bell and the avatar uncovered", async ({ page }) => {
    await signIn(page);
    await expectToastClearOfTopBar(page);
  });

  test("an edit path without an id goes to / like any unknown path", async ({ page }) => {
    await signIn(page);
    for (const path of ["/customers/edit", "/orders/edit", "/segments/edit", "/customers/edit/"]) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(200);
      await expect(page, path).toHaveURL(/\/$/);
      await expect(page.getByRole("heading", { name: "Welcome back!" })).toBeVisible();
    }
  });

  test("the dashboard greets and offers the three Quick Actions", async ({ page }) => {
    await signIn(page);
    await expect(page.getByRole("heading", { name: "Welcome back!" })).toBeVisible();
    await expect(page.getByText("Here's what's happening with your customers and campaigns today.")).toBeVisible();
    const quick = page.getByRole("region", { name: "Quick Actions" });
    for (const [name, href] of [
      ["Create New Segment", "/segments/new"],
      ["Launch New Campaign", "/campaigns/new"],
      ["Add New Customer", "/customers/new"],
    ]) {
      await expect(quick.getByRole("link", { name })).toHaveAttribute("href", href);
    }
  });
});

test.describe("on a phone (390×844)", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the menu button opens a drawer that closes after navigating", async ({ page }) => {
    await signIn(page, { name: "Phone User" });
    await expect(page.getByTestId("side-nav")).toBeHidden();
    await page.goto("/profile");
    await expect(page.getByTestId("top-bar-title")).toHaveText("Profile");

    await page.getByRole("button", { name: "Open menu" }).click();
    const drawer = page.getByTestId("nav-drawer");
    await expect(drawer).toBeVisible();
    await expect(drawer.getByTestId("welcome")).toHaveText("Welcome, Phone User!");
    await expect(drawer.getByRole("link")).toHaveText([
      "Dashboard",
      "Customers",
      "Fields",
      "Tags",
      "Orders",
      "Segments",
      "Templates",
      "Campaigns",
      "Flows",
      "Suppressions",
    ]);

    await drawer.getByRole("link", { name: "Dashboard" }).click();
    await expect(page.getByTestId("nav-drawer")).toHaveCount(0);
    await expect(page.getByTestId("top-bar-title")).toHaveText("Dashboard");
    await expect(page.getByText("Welcome back!")).toBeVisible();

    // It also closes with its close button.
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(page.getByTestId("nav-drawer")).toBeVisible();
    await page.getByRole("button", { name: "Close menu" }).click();
    await expect(page.getByTestId("nav-drawer")).toHaveCount(0);
  });

  test("a toast shows below the top bar and leaves the bell and the avatar uncovered", async ({ page }) => {
    await signIn(page);
    await expectToastClearOfTopBar(page);
  });

  test("the bell menu fits the screen", async ({ page }) => {
    await signIn(page);
    await page.getByRole("button", { name: /^Notifications/ }).click();
    const menu = page.getByTestId("notification-menu");
    await expect(menu).toBeVisible();
    const box = await menu.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(320);
    expect(box!.height).toBeLessThanOrEqual(400);
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  });
});
