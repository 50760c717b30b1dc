// /profile: what it shows, saving (with and without JavaScript), its error messages, and the time
// zone dates are shown in.
import type { Page } from "@playwright/test";
import Database from "better-sqlite3";
import { e2eDatabaseFile, expect, signIn, test, uniqueEmail } from "./fixtures";

test("shows the account and the two sections, reached from the avatar menu", async ({ page }) => {
  const { email } = await signIn(page, { name: "Ravi Kumar" });
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "My Profile" }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByTestId("top-bar-title")).toHaveText("Profile");

  await expect(page.getByRole("heading", { name: "My Profile" })).toBeVisible();
  const main = page.getByRole("main");
  await expect(main.getByText("Ravi Kumar", { exact: true })).toBeVisible();
  await expect(main.getByText(email, { exact: true })).toBeVisible();
  const today = new Intl.DateTimeFormat("en-IN", {
    timeZone: "Asia/Kolkata",
    day: "numeric",
    month: "long",
    year: "numeric",
  }).format(new Date());
  await expect(main.getByText(`Account created on ${today}`)).toBeVisible();
  await expect(main.getByTestId("avatar-letter")).toHaveText("R");

  await expect(page.getByRole("heading", { name: "Personal Information" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Company Information" })).toBeVisible();
  await expect(page.getByLabel("First Name")).toHaveValue("Ravi");
  await expect(page.getByLabel("Last Name")).toHaveValue("Kumar");
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await expect(page.getByLabel("Phone")).toHaveValue("");
  await expect(page.getByLabel("Company")).toHaveValue("");
  await expect(page.getByLabel("Position")).toHaveValue("");
  await expect(page.getByRole("button", { name: "Save Changes" })).toBeEnabled();
});

test("saving shows 'Profile updated successfully!' for 6 seconds and keeps the new values", async ({ page }) => {
  await signIn(page, { name: "Old Name" });
  await page.goto("/profile");
  const email = uniqueEmail("renamed");
  await page.getByLabel("First Name").fill("Sunita");
  await page.getByLabel("Last Name").fill("Williams");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone").fill("+91 98765 43210");
  await page.getByLabel("Company").fill("Orbit Retail");
  await page.getByLabel("Position").fill("Marketing Lead");
  await page.getByRole("button", { name: "Save Changes" }).click();

  const snackbar = page.getByTestId("snackbar");
  await expect(snackbar).toHaveText(/Profile updated successfully!/);
  // The shell follows the new name at once.
  await expect(page.getByTestId("welcome")).toHaveText("Welcome, Sunita Williams!");
  await expect(page.getByRole("main").getByText(email, { exact: true })).toBeVisible();
  // It hides itself after 6 s.
  await expect(snackbar).toBeHidden({ timeout: 9_000 });

  await page.reload();
  await expect(page.getByLabel("First Name")).toHaveValue("Sunita");
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await expect(page.getByLabel("Phone")).toHaveValue("+91 98765 43210");
  await expect(page.getByLabel("Company")).toHaveValue("Orbit Retail");
  await expect(page.getByLabel("Position")).toHaveValue("Marketing Lead");

  // The API reads the same profile.
  const token = await page.evaluate(() => localStorage.getItem("crm_auth_token"));
  const res = await page.request.get("/api/auth/profile", { headers: { Authorization: `Bearer ${token}` } });
  expect(await res.json()).toEqual({
    firstName: "Sunita",
    lastName: "Williams",
    email,
    phone: "+91 98765 43210",
    company: "Orbit Retail",
    position: "Marketing Lead",
  });
});

test("a bad e-mail shows the field message and the error snackbar, keeping what was typed", async ({ page }) => {
  await signIn(page);
  await page.goto("/profile");
  await page.getByLabel("Company").fill("Kept Company");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByTestId("snackbar")).toHaveText(/Failed to update profile. Please try again./);
  await expect(page.getByText("Enter a valid e-mail address")).toBeVisible();
  // Said once: the snackbar, with no second copy of it above the form.
  await expect(page.getByText("Failed to update profile. Please try again.")).toHaveCount(1);
  await expect(page.getByRole("alert")).toHaveCount(1);
  await expect(page.getByLabel("Email")).toHaveValue("not-an-email");
  await expect(page.getByLabel("Company")).toHaveValue("Kept Company");
});

test("another account's e-mail is refused with a message on the field", async ({ page, browser }) => {
  const other = await browser.newContext();
  const { email: taken } = await signIn(await other.newPage());
  await other.close();

  await signIn(page);
  await page.goto("/profile");
  await page.getByLabel("Email").fill(taken);
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Another account already uses this e-mail")).toBeVisible();
  await expect(page.getByTestId("snackbar")).toHaveText(/Failed to update profile. Please try again./);
  await expect(page.getByText("Failed to update profile. Please try again.")).toHaveCount(1);
});

test("saving works without JavaScript", async ({ browser }) => {
  const withJs = await browser.newContext();
  await signIn(await withJs.newPage(), { name: "No Script" });
  const state = await withJs.storageState();
  await withJs.close();

  const context = await browser.newContext({ javaScriptEnabled: false, storageState: state });
  const page = await context.newPage();
  await page.goto("/profile");
  await page.getByLabel("Company").fill("Plain HTML Ltd");
  await page.getByLabel("Position").fill("Tester");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole("status")).toHaveText("Profile updated successfully!");
  await expect(page.getByLabel("Company")).toHaveValue("Plain HTML Ltd");

  // Errors too come back as a page.
  await page.getByLabel("Email").fill("broken");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Enter a valid e-mail address")).toBeVisible();
  await expect(page.getByRole("alert")).toHaveText("Failed to update profile. Please try again.");
  await context.close();
});

// Time zones (docs/decisions/0016-time-zones.md): an order made at 18:28 UTC.
const ORDER_AT = Date.UTC(2026, 10, 23, 18, 28);

/** A customer and an order of the signed-in user, the order dated ORDER_AT. */
async function orderAtKnownTime(page: Page) {
  const customer = await page.request.post("/api/customers", {
    data: { firstName: "Zone", lastName: "Buyer", email: uniqueEmail("zone") },
  });
  expect(customer.ok(), await customer.text()).toBeTruthy();
  const customerId = ((await customer.json()) as { _id: string })._id;
  const order = await page.request.post("/api/orders", {
    data: { customerId, items: [{ name: "Lamp", quantity: 1, price: 100 }] },
  });
  expect(order.ok(), await order.text()).toBeTruthy();
  const id = ((await order.json()) as { _id: string })._id;
  const sqlite = new Database(e2eDatabaseFile());
  try {
    sqlite.pragma("busy_timeout = 10000");
    sqlite.prepare(`UPDATE "Order" SET createdAt = ? WHERE id = ?`).run(ORDER_AT, id);
  } finally {
    sqlite.close();
  }
  return id;
}

/** Console errors and uncaught page errors (React reports a hydration mismatch through these). */
function collectErrors(page: Page) {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

test("dates follow the time zone chosen on the profile, the same in the server's page and after hydration", async ({
  page,
}) => {
  const errors = collectErrors(page);
  await signIn(page, { name: "Zone Chooser" });
  const orderId = await orderAtKnownTime(page);
  const date = page.getByTestId("order-date");

  // Nothing chosen: the browser's zone (India in this run's browser).
  await page.goto(`/orders/${orderId}`);
  await expect(date).toHaveText("23 Nov 2026, 11:58 pm");
  await expect(date).toHaveAttribute("title", /India Standard Time \(Asia\/(Kolkata|Calcutta), UTC\+05:30\)$/);

  await page.goto("/profile");
  await expect(page.getByLabel("Time zone")).toHaveValue("");
  await page.getByLabel("Time zone").selectOption("America/New_York");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByTestId("snackbar")).toHaveText(/Profile updated successfully!/);
  await page.reload();
  await expect(page.getByLabel("Time zone")).toHaveValue("America/New_York");

  // The server's page already says New York's time ...
  const html = await (await page.request.get(`/orders/${orderId}`)).text();
  expect(html).toContain("23 Nov 2026, 01:28 pm");
  // ... and the hydrated page says the same, naming the zone in the tooltip.
  await page.goto(`/orders/${orderId}`);
  await page.waitForLoadState("networkidle");
  await expect(date).toHaveText("23 Nov 2026, 01:28 pm");
  await expect(date).toHaveAttribute("title", /Eastern Standard Time \(America\/New_York, UTC-05:00\)$/);
  await expect(date).toHaveAttribute("datetime", "2026-11-23T18:28:00.000Z");
  // The order list and the customer's recent orders too.
  await page.goto("/orders");
  await page.waitForLoadState("networkidle");
  await expect(page.getByTestId("order-row").locator("time")).toHaveAttribute("title", /America\/New_York/);
  expect(errors).toEqual([]);

  // Back to the browser's zone.
  await page.goto("/profile");
  await page.getByLabel("Time zone").selectOption("");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByTestId("snackbar")).toHaveText(/Profile updated successfully!/);
  await page.goto(`/orders/${orderId}`);
  await expect(date).toHaveText("23 Nov 2026, 11:58 pm");
});

test("without a choice, dates are in the zone of the browser, told on the first page", async ({ browser }) => {
  const context = await browser.newContext({ timezoneId: "America/Los_Angeles" });
  const page = await context.newPage();
  const errors = collectErrors(page);
  await signIn(page, { name: "West Coast" });
  const orderId = await orderAtKnownTime(page);
  await page.goto(`/orders/${orderId}`);
  await page.waitForLoadState("networkidle");
  await expect(page.getByTestId("order-date")).toHaveText("23 Nov 2026, 10:28 am");
  await expect(page.getByTestId("order-date")).toHaveAttribute("title", /\(America\/Los_Angeles, UTC-08:00\)$/);
  await page.goto("/profile");
  await expect(page.getByLabel("Time zone")).toHaveValue("");
  await expect(page.getByLabel("Time zone").locator("option").first()).toHaveText(
    "Your browser's time zone (America/Los_Angeles)",
  );
  expect(errors).toEqual([]);
  await context.close();
});

test("a time zone that does not exist is refused with a message on the field", async ({ page }) => {
  await signIn(page);
  await page.goto("/profile");
  // A hand-made value, as a tampered form would send.
  await page
    .getByLabel("Time zone")
    .evaluate((select: HTMLSelectElement) => select.add(new Option("Mars/Olympus_Mons", "Mars/Olympus_Mons"), 1));
  await page.getByLabel("Time zone").selectOption("Mars/Olympus_Mons");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Choose a time zone from the list (an IANA name such as Asia/Kolkata)")).toBeVisible();
  await expect(page.getByTestId("snackbar")).toHaveText(/Failed to update profile. Please try again./);
});
