// Customers as a user clicks them: add (with the form's messages), search, view, edit, delete with
// confirmation; import a CSV with some bad rows and download the error report; export. And the
// same basics with JavaScript off.
import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { E2E_PASSWORD, expect, signIn, test, uniqueEmail, LOCAL_SIGN_IN_BUTTON, POSTGRES_TOO } from "./fixtures";

async function addCustomer(
  page: Page,
  c: { firstName: string; lastName: string; email: string; phone?: string; company?: string },
) {
  await page.goto("/customers/new");
  await expect(page.getByRole("heading", { name: "Add New Customer" })).toBeVisible();
  await page.getByLabel("First Name").fill(c.firstName);
  await page.getByLabel("Last Name").fill(c.lastName);
  await page.getByLabel("Email").fill(c.email);
  if (c.phone) await page.getByLabel("Phone").fill(c.phone);
  if (c.company) await page.getByLabel("Company").fill(c.company);
  await page.getByRole("button", { name: "Save Customer" }).click();
  await expect(page).toHaveURL(/\/customers$/);
}

const rows = (page: Page) => page.getByTestId("customer-row");

test.describe("customers", () => {
  test("add, search, view, edit and delete a customer", POSTGRES_TOO, async ({ page }) => {
    await signIn(page, { name: "Customer Manager" });
    await page.goto("/customers");
    await expect(page.getByText("No customers found")).toBeVisible();
    await expect(page.getByTestId("page-summary")).toHaveText("0 of 0");

    // The form's messages (docs/rules.md#customer-form), live while typing and on submit.
    await page.getByRole("link", { name: "Add Customer" }).click();
    await expect(page.getByRole("heading", { name: "Add New Customer" })).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveAttribute("type", "email");
    await page.getByLabel("Email").fill("kavya@");
    await page.getByLabel("Email").blur();
    await expect(page.getByLabel("Email")).toHaveAccessibleDescription("Enter a valid email address");
    await page.getByRole("button", { name: "Save Customer" }).click();
    await expect(page.getByLabel("First Name")).toHaveAccessibleDescription("First name is required");
    await expect(page.getByLabel("Last Name")).toHaveAccessibleDescription("Last name is required");

    const kavya = uniqueEmail("kavya");
    await page.getByLabel("First Name").fill("Kavya");
    await page.getByLabel("Last Name").fill("Menon");
    await page.getByLabel("Email").fill(kavya);
    await page.getByLabel("Phone").fill("+91 98450 12345");
    await page.getByLabel("Company").fill("Menon Textiles");
    await page.getByRole("button", { name: "Save Customer" }).click();
    await expect(page).toHaveURL(/\/customers$/);
    await expect(page.getByText("Customer created successfully")).toBeVisible();
    await expect(rows(page)).toHaveCount(1);

    const rohan = uniqueEmail("rohan");
    await addCustomer(page, { firstName: "Rohan", lastName: "Kulkarni", email: rohan });
    await expect(rows(page)).toHaveCount(2);
    await expect(page.getByTestId("page-summary")).toHaveText("1–2 of 2");

    // A duplicate e-mail is refused with a clear message.
    await page.goto("/customers/new");
    await page.getByLabel("First Name").fill("Another");
    await page.getByLabel("Last Name").fill("Kavya");
    await page.getByLabel("Email").fill(kavya.toUpperCase());
    await page.getByRole("button", { name: "Save Customer" }).click();
    await expect(page.getByLabel("Email")).toHaveAccessibleDescription("A customer with this email already exists");
    await expect(
      page.getByRole("alert").filter({ hasText: "Failed to save customer. Please try again." }),
    ).toBeVisible();

    // Search on name or e-mail, case-insensitive.
    await page.goto("/customers");
    await page.getByLabel("Search customers").fill("KULKARNI");
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText("Rohan Kulkarni");
    await page.getByLabel("Search customers").fill(kavya.slice(0, 12));
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText("Kavya Menon");

    // View: the row's plain link navigates inside the app (the document is not reloaded).
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await page.getByRole("link", { name: "View Kavya Menon" }).click();
    await expect(page.getByRole("heading", { name: "Kavya Menon" })).toBeVisible();
    expect(await page.evaluate(() => (window as Window & { sameDocument?: boolean }).sameDocument)).toBe(true);
    await expect(page.getByText("Contact Information")).toBeVisible();
    await expect(page.getByText(kavya)).toBeVisible();
    await expect(page.getByText("+91 98450 12345")).toBeVisible();
    await expect(page.getByText("Additional Information")).toBeVisible();
    await expect(page.getByText("₹0.00")).toBeVisible();
    await expect(page.getByText("No orders yet")).toBeVisible();

    // Edit.
    await page.getByRole("link", { name: "Edit Customer" }).click();
    await expect(page.getByRole("heading", { name: "Edit Customer" })).toBeVisible();
    await expect(page.getByLabel("First Name")).toHaveValue("Kavya");
    await page.getByLabel("Last Name").fill("Menon-Pillai");
    await page.getByRole("button", { name: "Update Customer" }).click();
    await expect(page).toHaveURL(/\/customers$/);
    await expect(page.getByText("Customer updated successfully")).toBeVisible();
    await expect(page.getByText("Kavya Menon-Pillai")).toBeVisible();

    // Delete, with a confirmation that says the orders go too; Cancel first.
    await page.getByRole("link", { name: "Delete Rohan Kulkarni" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByText("Delete Customer")).toBeVisible();
    await expect(dialog).toContainText("Their orders are deleted too.");
    await dialog.getByRole("link", { name: "Cancel" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(rows(page)).toHaveCount(2);
    await page.getByRole("link", { name: "Delete Rohan Kulkarni" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await expect(page.getByText("Customer deleted successfully")).toBeVisible();
    await expect(rows(page)).toHaveCount(1);
    await expect(page.getByText("Rohan Kulkarni")).toHaveCount(0);
  });

  test("the Visits chip is highlighted above 5 and the list pages with position and total", async ({ page }) => {
    await signIn(page, { name: "Pager" });
    const tag = Date.now().toString(36);
    const body = ["firstName,lastName,email,visits,totalSpend"];
    for (let i = 0; i < 55; i++)
      body.push(`Guest${i},Shah,guest${i}.${tag}@example.com,${i === 54 ? 6 : 5},${i === 54 ? "123456.5" : "0"}`);
    const res = await page.request.post("/api/customers/import", {
      headers: { "Content-Type": "text/csv" },
      data: `${body.join("\n")}\n`,
    });
    expect(res.ok(), await res.text()).toBeTruthy();
    await page.goto("/customers");
    await expect(page.getByTestId("page-summary")).toHaveText("1–50 of 55");
    const newest = rows(page).first();
    await expect(newest).toContainText("Guest54 Shah");
    await expect(newest).toContainText("₹1,23,456.50");
    await expect(newest.locator("[data-highlighted]")).toHaveAttribute("data-highlighted", "true");
    await expect(rows(page).nth(1).locator("[data-highlighted]")).toHaveAttribute("data-highlighted", "false");
    await page.getByRole("link", { name: "Next" }).click();
    await expect(page.getByTestId("page-summary")).toHaveText("51–55 of 55");
    await expect(rows(page)).toHaveCount(5);
    await page.getByRole("link", { name: "Previous" }).click();
    await expect(page.getByTestId("page-summary")).toHaveText("1–50 of 55");
  });

  test("import a CSV with some bad rows, download the error report, export", POSTGRES_TOO, async ({ page }) => {
    await signIn(page, { name: "Importer" });
    const tag = Date.now().toString(36);
    const csv = [
      "First Name,Surname,E-mail,Mobile,City",
      `Aditi,Rao,aditi.${tag}@example.com,+91 90000 11111,Mysuru`,
      `,Nobody,nobody.${tag}@example.com,,`,
      `Vikram,Seth,not-an-email,,`,
      `Ishaan,Bose,ishaan.${tag}@example.com,,Kolkata`,
    ].join("\n");
    await page.goto("/customers");
    await page.getByRole("link", { name: "Import CSV" }).click();
    await expect(page.getByRole("heading", { name: "Import Customers" })).toBeVisible();
    await page
      .getByLabel("CSV file")
      .setInputFiles({ name: "customers.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });

    // Preview and the guessed mapping.
    const preview = page.getByRole("region", { name: "Preview" });
    await expect(preview).toContainText("Aditi");
    await expect(page.getByLabel("Last Name")).toHaveValue("1");
    await expect(page.getByLabel("Email")).toHaveValue("2");
    await expect(page.getByLabel("Phone")).toHaveValue("3");
    // "City" is the built-in city field's column now, not the address.

    await page.getByRole("button", { name: "Import" }).click();
    await expect(page.getByText("Import finished")).toBeVisible();
    await expect(page.getByTestId("result-new-customers")).toHaveText("2");
    await expect(page.getByTestId("result-rows-with-errors")).toHaveText("2");
    await expect(page.getByRole("row", { name: /3 .*First name is required/ })).toBeVisible();
    await expect(page.getByRole("row", { name: /4 not-an-email Enter a valid email address/ })).toBeVisible();

    const reportDownload = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download error report" }).click();
    const report = readFileSync((await (await reportDownload).path())!, "utf8");
    expect(report.split("\n")[0]).toBe("line,email,reason");
    expect(report).toContain(`3,nobody.${tag}@example.com,First name is required`);
    expect(report).toContain("4,not-an-email,Enter a valid email address");

    await page.getByRole("link", { name: "Go to Customers" }).click();
    await expect(rows(page)).toHaveCount(2);
    await expect(page.getByText("Aditi Rao")).toBeVisible();

    // Export all, then only the current search.
    const all = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export CSV" }).click();
    const allText = readFileSync((await (await all).path())!, "utf8");
    expect(allText.split("\n")[0]).toBe(
      "id,firstName,lastName,email,phone,address,company,notes,totalSpend,visits,lastActive,createdAt,city,state,country,birthday,time_zone,tags,consent,consentDate,consentSource,consentText",
    );
    expect(allText).toContain(`aditi.${tag}@example.com`);
    expect(allText.split("\n").find((line) => line.includes(`aditi.${tag}`))).toContain(",Mysuru,");
    expect(allText).toContain(`ishaan.${tag}@example.com`);

    await page.getByLabel("Search customers").fill("ishaan");
    await expect(rows(page)).toHaveCount(1);
    const some = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export CSV" }).click();
    const someText = readFileSync((await (await some).path())!, "utf8");
    expect(someText).toContain(`ishaan.${tag}@example.com`);
    expect(someText).not.toContain(`aditi.${tag}@example.com`);
    expect(someText.charCodeAt(0)).not.toBe(0xfeff);

    // For Excel on Windows: the same file after a UTF-8 byte order mark; the page says when to pick it.
    const exportForm = page.getByTestId("customers-export");
    await expect(exportForm).toContainText("Pick it when the file will be opened in Excel on Windows");
    await exportForm.getByLabel("For Excel on Windows (UTF-8 with BOM)").check();
    const forExcel = page.waitForEvent("download");
    await exportForm.getByRole("button", { name: "Export CSV" }).click();
    const bytes = readFileSync((await (await forExcel).path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString("utf8")).toBe(someText);
  });

  test("a malformed file is refused with a clear message", async ({ page }) => {
    await signIn(page, { name: "Careful Importer" });
    await page.goto("/customers/import");
    await page.getByLabel("CSV file").setInputFiles({
      name: "broken.csv",
      mimeType: "text/csv",
      buffer: Buffer.from('firstName,lastName,email\nGood,Row,good@example.com\n"Broken,Row,broken@example.com\n'),
    });
    // The preview in the browser already sees the broken quote and keeps the Import button off.
    await expect(page.getByLabel("CSV file")).toHaveAccessibleDescription(/The file is not a valid CSV file/);
    await expect(page.getByRole("button", { name: "Import" })).toBeDisabled();
    await page.goto("/customers");
    await expect(page.getByText("No customers found")).toBeVisible();
  });

  test("a header-only file and a binary file named .csv are refused before import, with what is wrong", async ({
    page,
  }) => {
    await signIn(page, { name: "Edge Importer" });
    await page.goto("/customers/import");
    const file = page.getByLabel("CSV file");

    await file.setInputFiles({
      name: "header.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("firstName,lastName,email\n"),
    });
    await expect(file).toHaveAccessibleDescription(/The file has no customer rows/);
    await expect(page.getByRole("button", { name: "Import" })).toBeDisabled();

    // A PNG renamed .csv: no garbage preview, no column mapping.
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
      Buffer.from("IHDR\u0000\u0000\u0001"),
    ]);
    await file.setInputFiles({ name: "photo.csv", mimeType: "text/csv", buffer: png });
    await expect(file).toHaveAccessibleDescription(/The file is not a CSV text file\./);
    await expect(page.getByRole("region", { name: "Preview" })).toHaveCount(0);
    await expect(page.getByText("Match the columns")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Import" })).toBeDisabled();

    // The server says the same to a client that sends them anyway.
    const headerOnly = await page.request.post("/api/customers/import", {
      headers: { "Content-Type": "text/csv" },
      data: "firstName,lastName,email\n",
    });
    expect(headerOnly.status()).toBe(422);
    expect(await headerOnly.text()).toContain("The file has no customer rows");
    const binary = await page.request.post("/api/customers/import", {
      headers: { "Content-Type": "text/csv" },
      data: png,
    });
    expect(binary.status()).toBe(422);
    expect(await binary.text()).toContain("The file is not a CSV text file.");
  });

  test("after an import the form is reset and 'Import another file' starts afresh; a too-large spend says its limit", async ({
    page,
  }) => {
    await signIn(page, { name: "Second Importer" });
    const tag = Date.now().toString(36);
    await page.goto("/customers/import");
    await page.getByLabel("CSV file").setInputFiles({
      name: "first.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(
        `firstName,lastName,email,totalSpend\nAsha,Iyer,asha.${tag}@example.com,2500\nRich,Typo,rich.${tag}@example.com,99999999999999\n`,
      ),
    });
    await expect(page.getByRole("region", { name: "Preview" })).toContainText("Asha");
    await page.getByRole("button", { name: "Import" }).click();
    await expect(page.getByText("Import finished")).toBeVisible();
    await expect(page.getByTestId("result-new-customers")).toHaveText("1");
    await expect(
      page.getByRole("row", { name: /3 rich\..* Total spend is too large \(at most ₹10,00,00,00,000\)/ }),
    ).toBeVisible();
    // Nothing left to import a second time: no file, no preview, no Import button.
    await expect(page.getByLabel("CSV file")).toHaveCount(0);
    await expect(page.getByRole("region", { name: "Preview" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Import" })).toHaveCount(0);

    await page.getByRole("link", { name: "Import another file" }).click();
    await expect(page.getByText("Import finished")).toHaveCount(0);
    await expect(page.getByLabel("CSV file")).toHaveValue("");
    await expect(page.getByRole("region", { name: "Preview" })).toHaveCount(0);
    await page.getByLabel("CSV file").setInputFiles({
      name: "second.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(`firstName,lastName,email\nBina,Rao,bina.${tag}@example.com\n`),
    });
    await expect(page.getByRole("region", { name: "Preview" })).toContainText("Bina");
    await page.getByRole("button", { name: "Import" }).click();
    await expect(page.getByTestId("result-new-customers")).toHaveText("1");
    await page.getByRole("link", { name: "Go to Customers" }).click();
    await expect(rows(page)).toHaveCount(2);
  });

  test(
    "a customer that does not exist, or is another user's, could not be loaded (404)",
    POSTGRES_TOO,
    async ({ page, browser }) => {
      const other = await browser.newContext();
      const otherPage = await other.newPage();
      await signIn(otherPage, { name: "Other Tenant" });
      const created = await otherPage.request.post("/api/customers", {
        data: { firstName: "Their", lastName: "Customer", email: uniqueEmail("theirs") },
      });
      expect(created.ok(), await created.text()).toBeTruthy();
      const theirs = ((await created.json()) as { _id: string })._id;
      await other.close();

      await signIn(page);
      for (const id of ["0123456789abcdef01234567", theirs]) {
        const res = await page.goto(`/customers/${id}`);
        expect(res?.status()).toBe(404);
        await expect(page.getByText("Failed to load customer data. Please try again.")).toBeVisible();
        await expect(page.getByText("Their Customer")).toHaveCount(0);
        await page.getByRole("link", { name: "Back" }).click();
        await expect(page).toHaveURL(/\/customers$/);
      }
    },
  );
});

test.describe("customers without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("add with server validation, search, view, delete with confirm, import", async ({ page }) => {
    // Local sign-in without JavaScript goes through the callback page's link.
    await page.goto("/login");
    await page.getByLabel("Name", { exact: true }).fill("No Script");
    await page.getByLabel("E-mail", { exact: true }).fill(uniqueEmail("nojs"));
    await page.getByLabel("Password", { exact: true }).fill(E2E_PASSWORD);
    await page.getByRole("button", { name: LOCAL_SIGN_IN_BUTTON }).click();
    await page.getByRole("link", { name: "Continue to the dashboard" }).click();
    await expect(page.getByText("Welcome back!")).toBeVisible();

    await page.goto("/customers/new");
    await page.getByRole("button", { name: "Save Customer" }).click();
    await expect(page.getByLabel("First Name")).toHaveAccessibleDescription("First name is required");
    await expect(page.getByLabel("Email")).toHaveAccessibleDescription("Email is required");

    const email = uniqueEmail("meera");
    await page.getByLabel("First Name").fill("Meera");
    await page.getByLabel("Last Name").fill("Pillai");
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Save Customer" }).click();
    await expect(page).toHaveURL(/\/customers$/);
    await expect(page.getByRole("status")).toHaveText("Customer created successfully");
    await addCustomer(page, { firstName: "Sanjay", lastName: "Desai", email: uniqueEmail("sanjay") });

    await page.getByLabel("Search customers").fill("pillai");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(rows(page)).toHaveCount(1);
    await page.getByRole("link", { name: "View Meera Pillai" }).click();
    await expect(page.getByText(email)).toBeVisible();
    await page.getByRole("link", { name: "Back to Customers" }).click();

    await page.getByRole("link", { name: "Delete Sanjay Desai" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete Customer" });
    await expect(dialog).toContainText("Their orders are deleted too.");
    await dialog.getByRole("button", { name: "Delete" }).click();
    await expect(page.getByRole("status")).toHaveText("Customer deleted successfully");
    await expect(page.getByText("Sanjay Desai")).toHaveCount(0);

    // Import with the columns guessed on the server.
    await page.goto("/customers/import");
    await page.getByLabel("CSV file").setInputFiles({
      name: "few.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(`email,firstName,lastName\n${uniqueEmail("tara")},Tara,Singh\nbad,Bad,Row\n`),
    });
    await page.getByRole("button", { name: "Import" }).click();
    await expect(page.getByText("Import finished")).toBeVisible();
    await expect(page.getByTestId("result-new-customers")).toHaveText("1");
    await expect(page.getByTestId("result-rows-with-errors")).toHaveText("1");
    await page.getByRole("link", { name: "Import another file" }).click();
    await expect(page.getByText("Import finished")).toHaveCount(0);
    await expect(page.getByLabel("CSV file")).toHaveValue("");
  });
});

// Sorting and paging: 120 customers whose spends, visits and names each give a different order.
const SORTABLE = 120;
function sortableCustomers(tag: string) {
  return Array.from({ length: SORTABLE }, (_, i) => ({
    first: `Sorty${String((i * 53) % SORTABLE).padStart(3, "0")}`,
    last: tag,
    email: `sorty${i}.${tag}@example.com`,
    // 37 and 120 share no factor: every spend differs, in an order unlike the others.
    spend: ((i * 37) % SORTABLE) * 10 + 1,
    visits: i % 9,
  }));
}

async function importSortable(page: Page) {
  const tag = `t${Date.now().toString(36)}`;
  const people = sortableCustomers(tag);
  const csv = [
    "firstName,lastName,email,totalSpend,visits",
    ...people.map((p) => `${p.first},${p.last},${p.email},${p.spend},${p.visits}`),
  ];
  const res = await page.request.post("/api/customers/import", {
    headers: { "Content-Type": "text/csv" },
    data: `${csv.join("\n")}\n`,
  });
  expect(res.ok(), await res.text()).toBeTruthy();
  return people;
}

const nameOf = (p: { first: string; last: string }) => `${p.first} ${p.last}`;

test.describe("customers sorted and paged", () => {
  test(
    "a header sorts (aria-sort, kept in the address), the footer says the range, First and Last jump",
    POSTGRES_TOO,
    async ({ page }) => {
      await signIn(page, { name: "Sorter" });
      const people = await importSortable(page);
      const bySpend = [...people].sort((a, b) => b.spend - a.spend);
      const byName = [...people].sort((a, b) => (nameOf(a).toLowerCase() < nameOf(b).toLowerCase() ? -1 : 1));

      await page.goto("/customers");
      await expect(page.getByTestId("page-summary")).toHaveText(`1–50 of ${SORTABLE}`);
      await expect(page.getByRole("link", { name: "First page" })).toHaveCount(0);

      const spendHeader = page.getByRole("columnheader", { name: "Total Spend" });
      await expect(spendHeader).not.toHaveAttribute("aria-sort");
      await spendHeader.getByRole("link").click();
      await expect(page).toHaveURL(/[?&]sort=totalSpend&order=desc/);
      await expect(spendHeader).toHaveAttribute("aria-sort", "descending");
      await expect(rows(page).first()).toContainText(nameOf(bySpend[0]));
      await expect(rows(page).nth(1)).toContainText(nameOf(bySpend[1]));
      await expect(page.getByTestId("page-summary")).toHaveText(`1–50 of ${SORTABLE}`);

      // Clicking it again turns the order round.
      await spendHeader.getByRole("link").click();
      await expect(page).toHaveURL(/[?&]sort=totalSpend&order=asc/);
      await expect(spendHeader).toHaveAttribute("aria-sort", "ascending");
      await expect(rows(page).first()).toContainText(nameOf(bySpend[SORTABLE - 1]));

      // The last page: the final 50 in this order, shown in this order.
      await page.getByRole("link", { name: "Last page" }).click();
      await expect(page.getByTestId("page-summary")).toHaveText(`71–120 of ${SORTABLE}`);
      await expect(page).toHaveURL(/sort=totalSpend/);
      await expect(rows(page)).toHaveCount(50);
      await expect(rows(page).first()).toContainText(nameOf(bySpend[49]));
      await expect(rows(page).last()).toContainText(nameOf(bySpend[0]));
      await expect(page.getByRole("link", { name: "Next page" })).toHaveCount(0);
      await expect(page.getByRole("link", { name: "Last page" })).toHaveCount(0);

      await page.getByRole("link", { name: "Previous page" }).click();
      await expect(page.getByTestId("page-summary")).toHaveText(`21–70 of ${SORTABLE}`);
      await expect(rows(page).first()).toContainText(nameOf(bySpend[SORTABLE - 21]));

      await page.getByRole("link", { name: "First page" }).click();
      await expect(page.getByTestId("page-summary")).toHaveText(`1–50 of ${SORTABLE}`);
      await expect(rows(page).first()).toContainText(nameOf(bySpend[SORTABLE - 1]));
      await page.getByRole("link", { name: "Next page" }).click();
      await expect(page.getByTestId("page-summary")).toHaveText(`51–100 of ${SORTABLE}`);
      await expect(rows(page).first()).toContainText(nameOf(bySpend[SORTABLE - 51]));

      // The address keeps it: a reload shows the same page.
      await page.reload();
      await expect(page.getByTestId("page-summary")).toHaveText(`51–100 of ${SORTABLE}`);
      await expect(spendHeader).toHaveAttribute("aria-sort", "ascending");

      // Name sorts A to Z first; a search keeps the sort.
      await page.getByRole("columnheader", { name: "Customer" }).getByRole("link").click();
      await expect(page).toHaveURL(/sort=name&order=asc/);
      await expect(page.getByRole("columnheader", { name: "Customer" })).toHaveAttribute("aria-sort", "ascending");
      await expect(rows(page).first()).toContainText(nameOf(byName[0]));
      await expect(page.getByTestId("page-summary")).toHaveText(`1–50 of ${SORTABLE}`);
      await page.getByLabel("Search customers").fill("sorty00");
      await expect(page).toHaveURL(/q=sorty00/);
      await expect(page).toHaveURL(/sort=name/);
      const matching = byName.filter((p) => p.first.toLowerCase().includes("sorty00"));
      await expect(rows(page)).toHaveCount(matching.length);
      await expect(rows(page).first()).toContainText(nameOf(matching[0]));

      // The Sort by form offers the date added (not a column): newest added first.
      await page.getByLabel("Search customers").fill("");
      await expect(rows(page)).toHaveCount(50);
      await page.getByLabel("Sort by").selectOption("createdAt");
      await expect(page).toHaveURL(/sort=createdAt&order=desc/);
      await expect(rows(page).first()).toContainText(nameOf(people[SORTABLE - 1]));
      await page.getByLabel("Order", { exact: true }).selectOption("asc");
      await expect(page).toHaveURL(/sort=createdAt&order=asc/);
      await expect(rows(page).first()).toContainText(nameOf(people[0]));
      await page.setViewportSize({ width: 1366, height: 900 });
      await page.screenshot({ path: test.info().outputPath("customers-1366.png") });
    },
  );

  test("a 390 × 844 phone shows cards with view and delete at hand, a sort control, and no sideways scroll", async ({
    page,
  }) => {
    await signIn(page, { name: "Phone Sorter" });
    const people = await importSortable(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/customers?sort=visits&order=desc");
    await expect(page.getByTestId("page-summary")).toHaveText(`1–50 of ${SORTABLE}`);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    // Cards: each row is as wide as the list, no wider than the screen; the header row is for screen readers.
    const card = rows(page).first();
    const box = await card.boundingBox();
    expect(box?.width ?? 999).toBeLessThanOrEqual(390);
    expect(await page.locator("thead").evaluate((el) => el.getBoundingClientRect().height)).toBeLessThanOrEqual(1);
    await expect(card).toContainText("Total Spend:");
    await expect(card).toContainText("Visits:");
    await expect(card).toContainText("Last Active:");
    const top = [...people].sort((a, b) => b.visits - a.visits || b.spend - a.spend)[0];
    await expect(card).toContainText(nameOf(top));
    const view = card.getByRole("link", { name: `View ${nameOf(top)}` });
    const remove = card.getByRole("link", { name: `Delete ${nameOf(top)}` });
    await expect(view).toBeInViewport();
    await expect(remove).toBeInViewport();
    await expect(page.getByLabel("Sort by")).toBeVisible();
    await expect(page.getByLabel("Sort by")).toHaveValue("visits");
    await page.screenshot({ path: test.info().outputPath("customers-390.png") });
    await page.getByTestId("page-summary").scrollIntoViewIfNeeded();
    await expect(page.getByRole("link", { name: "Last page" })).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: test.info().outputPath("customers-390-pager.png") });

    await remove.click();
    // The dialog's own box is empty (its panel is fixed-positioned): its contents are what shows.
    const dialog = page.getByRole("dialog", { name: "Delete Customer" });
    await expect(dialog).toContainText(`Are you sure you want to delete ${nameOf(top)}?`);
    await expect(dialog.getByRole("button", { name: "Delete" })).toBeInViewport();
    await dialog.getByRole("link", { name: "Cancel" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await view.click();
    await expect(page).toHaveURL(/\/customers\/[0-9a-f]{24}$/);
    await page.getByRole("link", { name: "Edit Customer" }).click();
    await expect(page.getByRole("heading", { name: "Edit Customer" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});

test.describe("customers sorted without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the headers, the Sort by form and the pager are links and forms that work", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("Name", { exact: true }).fill("No Script Sorter");
    await page.getByLabel("E-mail", { exact: true }).fill(uniqueEmail("nojs-sort"));
    await page.getByLabel("Password", { exact: true }).fill(E2E_PASSWORD);
    await page.getByRole("button", { name: LOCAL_SIGN_IN_BUTTON }).click();
    await page.getByRole("link", { name: "Continue to the dashboard" }).click();
    await expect(page.getByText("Welcome back!")).toBeVisible();
    const people = await importSortable(page);
    const byVisits = [...people].sort((a, b) => a.visits - b.visits || a.spend - b.spend);

    await page.goto("/customers");
    await page.getByRole("columnheader", { name: "Visits" }).getByRole("link").click();
    await expect(page).toHaveURL(/sort=visits&order=desc/);
    await page.getByRole("columnheader", { name: "Visits" }).getByRole("link").click();
    await expect(page.getByRole("columnheader", { name: "Visits" })).toHaveAttribute("aria-sort", "ascending");
    await expect(rows(page).first()).toContainText(nameOf(byVisits[0]));
    await page.getByRole("link", { name: "Last page" }).click();
    await expect(page.getByTestId("page-summary")).toHaveText(`71–120 of ${SORTABLE}`);
    await expect(rows(page).last()).toContainText(nameOf(byVisits[SORTABLE - 1]));

    await page.getByLabel("Sort by").selectOption("name");
    await page.getByLabel("Order", { exact: true }).selectOption("desc");
    await page.getByRole("button", { name: "Sort", exact: true }).click();
    await expect(page).toHaveURL(/sort=name&order=desc/);
    await expect(page.getByTestId("page-summary")).toHaveText(`1–50 of ${SORTABLE}`);
  });
});
