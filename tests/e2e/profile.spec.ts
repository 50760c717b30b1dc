// /profile: what it shows, saving (with and without JavaScript), and its error messages.
import { expect, signIn, test, uniqueEmail } from "./fixtures";

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
