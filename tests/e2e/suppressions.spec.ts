// The suppression list as a user clicks it: add addresses through the form (a bad one named),
// search, remove one with the confirmation, see a customer's badge and history and resubscribe
// them from their page; import a CSV file and export the list; the same add and remove with
// JavaScript off; and the page on a phone.
import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { E2E_PASSWORD, expect, signIn, test, uniqueEmail, LOCAL_SIGN_IN_BUTTON, POSTGRES_TOO } from "./fixtures";

const rows = (page: Page) => page.getByTestId("suppression-row");

async function createCustomer(page: Page, c: { firstName: string; lastName: string; email: string }) {
  const res = await page.request.post("/api/customers", { data: c });
  expect(res.ok(), await res.text()).toBeTruthy();
  return ((await res.json()) as { _id: string })._id;
}

test.describe("suppressions", () => {
  test(
    "add through the form, search, remove with the confirmation, resubscribe from the customer page",
    POSTGRES_TOO,
    async ({ page }) => {
      await signIn(page, { name: "List Keeper" });
      const kavya = uniqueEmail("kavya");
      const rohan = uniqueEmail("rohan");
      const customerId = await createCustomer(page, { firstName: "Kavya", lastName: "Menon", email: kavya });

      // The navigation's entry after Campaigns, the top bar's title, the empty list.
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Suppressions" }).click();
      await expect(page).toHaveURL(/\/suppressions$/);
      await expect(page.getByTestId("top-bar-title")).toHaveText("Suppressions");
      // The page's own title under the top bar's (an h1 with the same words, as on Customers).
      await expect(page.getByRole("heading", { level: 2, name: "Suppressions", exact: true })).toBeVisible();
      await expect(
        page.getByText("Addresses here get no campaign e-mail, whatever segment they are in."),
      ).toBeVisible();
      await expect(page.getByText("No suppressed addresses")).toBeVisible();
      await expect(page.getByText(/Addresses come here when a customer unsubscribes/)).toBeVisible();
      await expect(page.getByTestId("page-summary")).toHaveText("0 of 0");

      // A bad address is named under the field, as it is typed and on submit.
      const field = page.getByLabel("Email addresses");
      await field.fill(`${kavya}\nkavya@`);
      await field.blur();
      await expect(field).toHaveAccessibleDescription(
        /"kavya@" is not a valid email address\. Correct it or leave it out and try again\./,
      );
      await page.getByRole("button", { name: "Add to the list" }).click();
      await expect(field).toHaveAccessibleDescription(/"kavya@" is not a valid email address/);
      await expect(rows(page)).toHaveCount(0);

      // Two addresses, one a line and comma separated.
      await field.fill(`${kavya.toUpperCase()},\n${rohan}`);
      await page.getByRole("button", { name: "Add to the list" }).click();
      await expect(page.getByText("2 addresses added to the suppression list")).toBeVisible();
      await expect(rows(page)).toHaveCount(2);
      await expect(field).toHaveValue("");
      await expect(page.getByTestId("page-summary")).toHaveText("1–2 of 2");
      const kavyaRow = rows(page).filter({ hasText: kavya });
      await expect(kavyaRow.getByTestId("suppression-reason")).toHaveText("Added by hand");
      await expect(kavyaRow).toContainText("—");

      // Search on the address.
      await page.getByLabel("Search suppressed addresses").fill(rohan.slice(0, 12));
      await expect(rows(page)).toHaveCount(1);
      await expect(rows(page).first()).toContainText(rohan);
      await page.getByLabel("Search suppressed addresses").fill("");
      await expect(rows(page)).toHaveCount(2);

      // Remove, with a confirmation that says the address gets campaign e-mail again; Cancel first.
      await page.getByRole("link", { name: `Remove ${rohan}` }).click();
      const dialog = page.getByRole("dialog");
      await expect(dialog).toContainText("Remove from the suppression list");
      await expect(dialog).toContainText("The address will get campaign e-mail again.");
      await dialog.getByRole("link", { name: "Cancel" }).click();
      await expect(page.getByRole("dialog")).toHaveCount(0);
      await expect(rows(page)).toHaveCount(2);
      await page.getByRole("link", { name: `Remove ${rohan}` }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Remove" }).click();
      await expect(page.getByText(`${rohan} removed from the suppression list`)).toBeVisible();
      await expect(rows(page)).toHaveCount(1);
      await expect(page.getByText(rohan)).toHaveCount(0);

      // The customer's page: the badge beside the e-mail, the history, Resubscribe.
      await page.goto(`/customers/${customerId}`);
      await expect(page.getByRole("heading", { name: "Kavya Menon" })).toBeVisible();
      await expect(page.getByTestId("suppression-badge")).toHaveText("Suppressed by hand");
      const history = page.getByRole("region", { name: "E-mail history" });
      await expect(history.getByRole("listitem")).toHaveText([/^Suppressed by hand/]);
      await page.getByRole("link", { name: "Resubscribe" }).click();
      const confirm = page.getByRole("dialog");
      await expect(confirm).toContainText(`Take ${kavya} off the suppression list?`);
      await confirm.getByRole("button", { name: "Resubscribe" }).click();
      await expect(page.getByText(`Resubscribed: ${kavya} gets campaign e-mail again`)).toBeVisible();
      await expect(page.getByTestId("suppression-badge")).toHaveCount(0);
      await expect(page.getByRole("link", { name: "Resubscribe" })).toHaveCount(0);
      await expect(history.getByRole("listitem")).toHaveText([/^Resubscribed/, /^Suppressed by hand/]);

      await page.goto("/suppressions");
      await expect(page.getByText("No suppressed addresses")).toBeVisible();
    },
  );

  test("a customer never suppressed has no badge and no e-mail events", async ({ page }) => {
    await signIn(page, { name: "Fresh Start" });
    const id = await createCustomer(page, { firstName: "Asha", lastName: "Iyer", email: uniqueEmail("asha") });
    await page.goto(`/customers/${id}`);
    await expect(page.getByRole("heading", { name: "Asha Iyer" })).toBeVisible();
    await expect(page.getByText("No e-mail events yet")).toBeVisible();
    await expect(page.getByTestId("suppression-badge")).toHaveCount(0);
  });

  test("import a CSV file with a bad row, then export the list", POSTGRES_TOO, async ({ page }) => {
    await signIn(page, { name: "List Mover" });
    const tag = Date.now().toString(36);
    const csv = [
      "Email Address,Reason,Campaign",
      `aditi.${tag}@example.com,unsubscribed,Diwali Dhamaka`,
      "not-an-email,,",
      `ishaan.${tag}@example.com,bounce,`,
    ].join("\n");
    await page.goto("/suppressions");
    await page.getByRole("link", { name: "Import CSV" }).click();
    await expect(page.getByRole("heading", { name: "Import Suppressions" })).toBeVisible();
    await expect(page.getByTestId("top-bar-title")).toHaveText("Suppressions");
    await page
      .getByLabel("CSV file")
      .setInputFiles({ name: "from-listmonk.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: "Import" }).click();
    await expect(page.getByText("Import finished")).toBeVisible();
    await expect(page.getByText("2 addresses added to the suppression list")).toBeVisible();
    await expect(page.getByTestId("result-rows")).toHaveText("3");
    await expect(page.getByTestId("result-added")).toHaveText("2");
    await expect(page.getByTestId("result-errors")).toHaveText("1");
    await expect(page.getByRole("row", { name: /3 not-an-email/ })).toBeVisible();
    const reportDownload = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download error report" }).click();
    const report = readFileSync((await (await reportDownload).path())!, "utf8");
    expect(report.split(/\r?\n/)[0]).toBe("line,email,reason");
    expect(report).toContain("3,not-an-email,");

    // A file without an address column is refused with what to do.
    await page.getByRole("link", { name: "Import another file" }).click();
    await page
      .getByLabel("CSV file")
      .setInputFiles({ name: "names.csv", mimeType: "text/csv", buffer: Buffer.from("name\nAsha\n") });
    await page.getByRole("button", { name: "Import" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "The file has no email column" })).toBeVisible();

    await page.getByRole("link", { name: "Back to Suppressions" }).click();
    await expect(rows(page)).toHaveCount(2);
    const aditi = rows(page).filter({ hasText: `aditi.${tag}@example.com` });
    await expect(aditi.getByTestId("suppression-reason")).toHaveText("Unsubscribed");
    await expect(aditi).toContainText("Diwali Dhamaka");
    await expect(
      rows(page)
        .filter({ hasText: `ishaan.${tag}` })
        .getByTestId("suppression-reason"),
    ).toHaveText("Hard bounce");

    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export CSV" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^suppressions-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync((await file.path())!, "utf8");
    expect(text.split(/\r?\n/)[0]).toBe("email,reason,campaign,created_at");
    expect(text).toContain(`aditi.${tag}@example.com,unsubscribed,Diwali Dhamaka,`);
    expect(text).toContain(`ishaan.${tag}@example.com,hard-bounced,`);
  });
});

test.describe("suppressions without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("add through the form and remove with the confirmation", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("Name", { exact: true }).fill("No Script Lists");
    await page.getByLabel("E-mail", { exact: true }).fill(uniqueEmail("nojs-lists"));
    await page.getByLabel("Password", { exact: true }).fill(E2E_PASSWORD);
    await page.getByRole("button", { name: LOCAL_SIGN_IN_BUTTON }).click();
    await page.getByRole("link", { name: "Continue to the dashboard" }).click();
    await expect(page.getByText("Welcome back!")).toBeVisible();

    await page.goto("/suppressions");
    // The server names the bad address.
    await page.getByLabel("Email addresses").fill("meera@");
    await page.getByRole("button", { name: "Add to the list" }).click();
    await expect(page.getByLabel("Email addresses")).toHaveAccessibleDescription(
      /"meera@" is not a valid email address/,
    );

    const meera = uniqueEmail("meera");
    const sanjay = uniqueEmail("sanjay");
    await page.getByLabel("Email addresses").fill(`${meera}, ${sanjay}`);
    await page.getByRole("button", { name: "Add to the list" }).click();
    await expect(page).toHaveURL(/\/suppressions$/);
    await expect(page.getByRole("status")).toHaveText("2 addresses added to the suppression list");
    await expect(rows(page)).toHaveCount(2);

    await page.getByLabel("Search suppressed addresses").fill(sanjay.slice(0, 12));
    await page.getByRole("button", { name: "Search" }).click();
    await expect(rows(page)).toHaveCount(1);

    await page.getByRole("link", { name: `Remove ${sanjay}` }).click();
    const dialog = page.getByRole("dialog", { name: "Remove from the suppression list" });
    await expect(dialog).toContainText("The address will get campaign e-mail again.");
    await dialog.getByRole("button", { name: "Remove" }).click();
    await expect(page.getByRole("status")).toHaveText(`${sanjay} removed from the suppression list`);
    await expect(page.getByText("No suppressed addresses")).toBeVisible();
    await page.goto("/suppressions");
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText(meera);
  });
});

test.describe("suppressions on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the list is cards that fit 390 px, and so is the customer page with its badge", async ({ page }) => {
    await signIn(page, { name: "Phone Lists" });
    const long = uniqueEmail("a-rather-long-address-of-a-customer-who-unsubscribed");
    const id = await createCustomer(page, { firstName: "Ananya", lastName: "Rao", email: long });
    const added = await page.request.post("/api/suppressions", { data: { emails: [long, uniqueEmail("other")] } });
    expect(added.ok(), await added.text()).toBeTruthy();

    await page.goto("/suppressions");
    await expect(rows(page)).toHaveCount(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The header row is for screen readers only; each card says what its cells are.
    await expect(rows(page).first()).toContainText("Reason:");
    const remove = page.getByRole("link", { name: `Remove ${long}` });
    await remove.scrollIntoViewIfNeeded();
    await expect(remove).toBeInViewport({ ratio: 1 });
    await page.screenshot({ path: test.info().outputPath("phone-suppressions.png"), fullPage: true });

    await page.goto(`/customers/${id}`);
    await expect(page.getByTestId("suppression-badge")).toHaveText("Suppressed by hand");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: test.info().outputPath("phone-customer-suppressed.png"), fullPage: true });
  });
});
