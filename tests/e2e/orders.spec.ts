// Orders as a user clicks them: create with several rows and tax, check the running totals, view,
// change the status, search, delete with confirmation; and the same basics with JavaScript off.
import type { Page } from "@playwright/test";
import { expect, signIn, test, uniqueEmail, POSTGRES_TOO } from "./fixtures";

/** A customer of the signed-in user, created through the /api with the page's session cookie. */
async function createCustomer(page: Page, firstName: string, lastName: string) {
  const email = uniqueEmail(firstName.toLowerCase());
  const res = await page.request.post("/api/customers", {
    data: { firstName, lastName, email, phone: "+91 98765 43210" },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
  const body = (await res.json()) as { _id: string };
  return { id: body._id, email };
}

async function fillItem(
  page: Page,
  index: number,
  item: { name: string; description?: string; quantity: string; price: string },
) {
  await page.locator(`#item-${index}-name`).fill(item.name);
  if (item.description) await page.locator(`#item-${index}-description`).fill(item.description);
  await page.locator(`#item-${index}-quantity`).fill(item.quantity);
  await page.locator(`#item-${index}-price`).fill(item.price);
}

test.describe("orders", () => {
  test(
    "create an order with several rows and tax, view, edit its status, search and delete",
    POSTGRES_TOO,
    async ({ page }) => {
      await signIn(page, { name: "Order Manager" });
      const customer = await createCustomer(page, "Ananya", "Rao");

      await page.goto("/orders");
      await expect(page.getByText("No orders found")).toBeVisible();
      await page.getByRole("link", { name: "Create Order" }).click();
      await expect(page.getByRole("heading", { name: "Create Order" })).toBeVisible();

      // The form's messages (docs/rules.md#order-form) before anything is filled in.
      const picker = page.getByPlaceholder("Search customers by name or e-mail");
      await expect(picker).toBeVisible();
      await page.locator("#item-0-name").fill("");
      await page.locator("#item-0-name").blur();
      await page.getByRole("button", { name: "Create Order" }).click();
      await expect(picker).toHaveAccessibleDescription("Please select a customer");
      await expect(page.getByTestId("item-row").first()).toContainText("Please fill in all item names");

      // One row left: it cannot be removed.
      await expect(page.getByRole("button", { name: "Remove item 1" })).toBeDisabled();

      await picker.fill("Anan");
      await page.getByRole("option", { name: /Ananya Rao/ }).click();
      await expect(picker).toHaveValue(`Ananya Rao (${customer.email})`);

      await fillItem(page, 0, { name: "Cotton kurta", description: "Size M", quantity: "2", price: "499.50" });
      await page.getByRole("button", { name: "Add Item" }).click();
      await fillItem(page, 1, { name: "Leather sandals", quantity: "3", price: "100.25" });
      await page.getByRole("button", { name: "Add Item" }).click();
      await expect(page.getByTestId("item-row")).toHaveCount(3);
      await page.getByRole("button", { name: "Remove item 3" }).click();
      await expect(page.getByTestId("item-row")).toHaveCount(2);
      await page.getByLabel("Tax (₹)").fill("50");

      // 2 × 499.50 + 3 × 100.25 = 1,299.75; + 50 tax = 1,349.75
      await expect(page.getByTestId("form-subtotal")).toHaveText("₹1,299.75");
      await expect(page.getByTestId("form-total")).toHaveText("₹1,349.75");
      // A non-numeric quantity becomes 1 when the field is left.
      await page.locator("#item-1-quantity").fill("");
      await page.locator("#item-1-price").click();
      await expect(page.locator("#item-1-quantity")).toHaveValue("1");
      await expect(page.getByTestId("form-subtotal")).toHaveText("₹1,099.25");
      await page.locator("#item-1-quantity").fill("3");
      await expect(page.getByLabel("Status")).toHaveValue("Pending");

      await page.getByRole("button", { name: "Create Order" }).click();
      await expect(page).toHaveURL(/\/orders$/);
      await expect(page.getByText("Order created successfully")).toBeVisible();
      const row = page.getByTestId("order-row").filter({ hasText: "Ananya Rao" });
      await expect(row).toHaveCount(1);
      // The list shows the total the customer paid (what revenue and spend add up), the tax beside it.
      await expect(row.getByTestId("order-amount-total")).toHaveText("₹1,349.75");
      await expect(row.getByTestId("order-amount-tax")).toHaveText("incl. ₹50.00 tax");
      await expect(row.getByTestId("order-status")).toHaveText("Pending");
      await expect(page.getByTestId("order-range")).toHaveText("Showing 1–1 of 1 order");

      // The detail screen.
      await row.getByRole("link", { name: /^#[0-9a-f]{6}$/ }).click();
      await expect(page.getByRole("heading", { name: /^Order #[0-9a-f]{6}$/ })).toBeVisible();
      await expect(page.getByTestId("order-subtotal")).toHaveText("₹1,299.75");
      await expect(page.getByTestId("order-tax")).toHaveText("₹50.00");
      await expect(page.getByTestId("order-total")).toHaveText("₹1,349.75");
      await expect(page.getByTestId("order-item")).toHaveCount(2);
      await expect(page.getByTestId("order-item").first()).toContainText("Cotton kurta");
      await expect(page.getByTestId("order-item").first()).toContainText("₹999.00");
      await expect(page.getByRole("link", { name: "Ananya Rao" })).toHaveAttribute("href", `/customers/${customer.id}`);
      await expect(page.getByRole("link", { name: "Back to Orders" })).toBeVisible();

      // Edit: the customer is fixed; change the status and a quantity.
      await page.getByRole("link", { name: "Edit Order" }).click();
      await expect(page.getByRole("heading", { name: "Edit Order" })).toBeVisible();
      await expect(page.getByTestId("fixed-customer")).toContainText("Ananya Rao");
      await expect(page.locator("#item-1-name")).toHaveValue("Leather sandals");
      await page.getByLabel("Status").selectOption("Completed");
      await page.locator("#item-0-quantity").fill("1");
      await expect(page.getByTestId("form-total")).toHaveText("₹850.25");
      await page.getByRole("button", { name: "Update Order" }).click();
      await expect(page.getByText("Order updated successfully")).toBeVisible();
      await expect(row.getByTestId("order-status")).toHaveText("Completed");
      await expect(row.getByTestId("order-status")).toHaveAttribute("data-colour", "success");
      await expect(row.getByTestId("order-amount-total")).toHaveText("₹850.25");
      await expect(row.getByTestId("order-amount-tax")).toHaveText("incl. ₹50.00 tax");

      // The customer page shows it the same way.
      await page.goto(`/customers/${customer.id}`);
      await expect(page.getByTestId("recent-order-amount-total")).toHaveText("₹850.25");
      await expect(page.getByTestId("recent-order-amount-tax")).toHaveText("incl. ₹50.00 tax");
      await page.goto("/orders");

      // Search on the customer's name, then on nothing that matches.
      const search = page.getByPlaceholder("Search by customer name or order ID");
      await search.fill("ananya rao");
      await expect(page).toHaveURL(/q=ananya/);
      await expect(row).toHaveCount(1);
      await search.fill("nobody at all");
      await expect(page.getByText("No orders found")).toBeVisible();
      await search.fill("");
      await expect(row).toHaveCount(1);

      // Delete, after confirming. The row's plain link opens the dialog inside the app (no reload).
      await page.evaluate(() => Object.assign(window, { sameDocument: true }));
      await row.getByRole("link", { name: /Delete order/ }).click();
      const dialog = page.getByRole("dialog");
      await expect(dialog.getByRole("heading", { name: "Delete Order" })).toBeVisible();
      expect(await page.evaluate(() => (window as Window & { sameDocument?: boolean }).sameDocument)).toBe(true);
      await expect(dialog.getByText("Are you sure you want to delete order")).toBeVisible();
      await dialog.getByRole("link", { name: "Cancel" }).click();
      await expect(dialog).toHaveCount(0);
      await expect(row).toHaveCount(1);
      await row.getByRole("link", { name: /Delete order/ }).click();
      await dialog.getByRole("button", { name: "Delete" }).click();
      await expect(page.getByText("Order deleted successfully")).toBeVisible();
      await expect(page.getByText("No orders found")).toBeVisible();
    },
  );

  test("an unknown order says it could not be loaded", async ({ page }) => {
    await signIn(page);
    await page.goto("/orders/0123456789abcdef01234567");
    await expect(page.getByText("Failed to load order data. Please try again.")).toBeVisible();
    await page.getByRole("link", { name: "Back" }).click();
    await expect(page).toHaveURL(/\/orders$/);
  });
});

test.describe("orders without JavaScript", () => {
  test("create with an extra row, view, edit and delete", async ({ browser }) => {
    // Sign in (the callback page needs a click without JavaScript), then carry on with it off.
    const withJs = await browser.newContext();
    const first = await withJs.newPage();
    await signIn(first, { name: "No Script" });
    const customer = await createCustomer(first, "Vikram", "Nair");
    const state = await withJs.storageState();
    await withJs.close();
    const context = await browser.newContext({ javaScriptEnabled: false, storageState: state });
    const page = await context.newPage();

    await page.goto("/orders/new");
    await page.getByRole("button", { name: "Create Order" }).click();
    await expect(page.getByRole("alert")).toHaveText("Please select a customer");

    await page.getByLabel("Customer").fill(customer.email);
    await fillItem(page, 0, { name: "Steel tiffin", quantity: "2", price: "350" });
    await page.getByRole("button", { name: "Add Item" }).click();
    await expect(page.getByTestId("item-row")).toHaveCount(2);
    await expect(page.locator("#item-0-name")).toHaveValue("Steel tiffin");
    await expect(page.getByLabel("Customer")).toHaveValue(customer.email);
    // A third row, then the middle one removed: the rows after it move up, what was typed stays.
    await fillItem(page, 1, { name: "Spare lid", quantity: "1", price: "40" });
    await page.getByRole("button", { name: "Add Item" }).click();
    await expect(page.getByTestId("item-row")).toHaveCount(3);
    await expect(page.locator("#item-1-name")).toHaveValue("Spare lid");
    await page.locator("#item-2-name").fill("Placeholder");
    await page.getByRole("button", { name: "Remove item 2" }).click();
    await expect(page.getByTestId("item-row")).toHaveCount(2);
    await expect(page.locator("#item-0-name")).toHaveValue("Steel tiffin");
    await expect(page.locator("#item-0-quantity")).toHaveValue("2");
    await expect(page.locator("#item-1-name")).toHaveValue("Placeholder");
    await expect(page.getByLabel("Customer")).toHaveValue(customer.email);
    // A quantity left empty (not a number) becomes 1.
    await fillItem(page, 1, { name: "Water bottle", quantity: "", price: "199.99" });
    await page.getByLabel("Tax (₹)").fill("25.50");
    await page.getByLabel("Status").selectOption("Processing");
    await page.getByRole("button", { name: "Create Order" }).click();

    await expect(page).toHaveURL(/\/orders$/);
    await expect(page.getByRole("status")).toHaveText("Order created successfully");
    const row = page.getByTestId("order-row").filter({ hasText: "Vikram Nair" });
    // 2 × 350 + 1 × 199.99 (a non-numeric quantity became 1)
    await expect(row.getByTestId("order-amount-total")).toHaveText("₹925.49");
    await expect(row.getByTestId("order-amount-tax")).toHaveText("incl. ₹25.50 tax");
    await expect(row.getByTestId("order-status")).toHaveText("Processing");

    await row.getByRole("link", { name: /^#[0-9a-f]{6}$/ }).click();
    await expect(page.getByTestId("order-total")).toHaveText("₹925.49");
    await page.getByRole("link", { name: "Edit Order" }).click();
    await page.getByLabel("Status").selectOption("Cancelled");
    await page.getByRole("button", { name: "Remove item 2" }).click();
    await expect(page.getByTestId("item-row")).toHaveCount(1);
    await page.getByRole("button", { name: "Update Order" }).click();
    await expect(page.getByRole("status")).toHaveText("Order updated successfully");
    await expect(row.getByTestId("order-amount-total")).toHaveText("₹725.50");
    await expect(row.getByTestId("order-status")).toHaveText("Cancelled");

    await row.getByRole("link", { name: /Delete order/ }).click();
    const dialog = page.getByRole("dialog", { name: "Delete Order" });
    await expect(dialog.getByRole("heading", { name: "Delete Order" })).toBeVisible();
    await dialog.getByRole("button", { name: "Delete" }).click();
    await expect(page.getByRole("status")).toHaveText("Order deleted successfully");
    await expect(page.getByText("No orders found")).toBeVisible();
    await context.close();
  });
});
