// Customer fields and tags as a user clicks them: a new user defines a choice field on the Fields
// screen (the name made from the label as it is typed, the choices one a line, a default picked
// from them), fills a customer's fields and tags on the form, sees them on the customer's page,
// adds and removes a tag there, and renames a tag on the Tags screen (onto another tag's name, the
// two become one); the screens at 1366 and at 390 wide. And adding a field with JavaScript off.
import type { Page } from "@playwright/test";
import {
  E2E_PASSWORD,
  expect,
  LOCAL_SIGN_IN_BUTTON,
  signIn,
  test,
  uniqueEmail,
  createCustomerThroughApi,
  widthShot,
} from "./fixtures";

const fieldRows = (page: Page) => page.getByTestId("field-row");

test.describe("fields and tags", () => {
  test("define a choice field, fill a customer's fields and tags, see them on their page, rename a tag", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await signIn(page, { name: "Field Maker" });
    const email = uniqueEmail("kavya");
    const id = await createCustomerThroughApi(page, { firstName: "Kavya", lastName: "Menon", email });

    // The Fields screen from the navigation: the built-in fields, marked and not editable.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Fields" }).click();
    await expect(page).toHaveURL(/\/fields$/);
    await expect(page.getByTestId("top-bar-title")).toHaveText("Fields");
    await expect(page.getByRole("heading", { level: 2, name: "Fields", exact: true })).toBeVisible();
    await expect(fieldRows(page)).toHaveCount(5);
    await expect(fieldRows(page).filter({ hasText: "Birthday" })).toContainText("Built-in");
    await expect(fieldRows(page).filter({ hasText: "Birthday" })).toContainText("Not editable");
    await expect(page.getByText("No fields of your own yet.")).toBeVisible();

    // A label alone is refused under the label; the name follows the label as it is typed.
    const form = page.getByRole("region", { name: "Add a field" });
    await form.getByRole("button", { name: "Add field" }).click();
    await expect(form.getByLabel("Label")).toHaveAccessibleDescription("Label is required");
    await form.getByLabel("Label").fill("Loyalty tier");
    await expect(form.getByLabel("Name")).toHaveValue("loyalty_tier");
    // The choices are asked for only for a field of the type One of a list.
    await expect(form.getByLabel("Choices")).toBeHidden();
    await form.getByLabel("Type").selectOption({ label: "One of a list" });
    await expect(form.getByLabel("Choices")).toBeVisible();
    await form.getByRole("button", { name: "Add field" }).click();
    await expect(form.getByLabel("Choices")).toHaveAccessibleDescription(/A choice field needs at least one choice/);
    await form.getByLabel("Choices").fill("Gold\nSilver\nBronze");
    await form.getByLabel("Default").selectOption("Silver");
    await form.getByRole("button", { name: "Add field" }).click();
    await expect(page.getByText('Field "Loyalty tier" added')).toBeVisible();
    const tier = fieldRows(page).filter({ hasText: "loyalty_tier" });
    await expect(tier).toContainText("Loyalty tier");
    await expect(tier).toContainText("One of a list");
    await expect(tier).toContainText("Gold, Silver, Bronze");
    await expect(tier).toContainText("Silver");
    await expect(form.getByLabel("Label")).toHaveValue("");
    await expect(form.getByLabel("Name")).toHaveValue("");
    // The same name again is refused under the name, in the service's words.
    await form.getByLabel("Label").fill("Loyalty tier");
    await form.getByRole("button", { name: "Add field" }).click();
    await expect(form.getByLabel("Name")).toHaveAccessibleDescription(/loyalty_tier/);
    await page.goto("/fields");
    await form.getByLabel("Type").selectOption({ label: "One of a list" });
    await widthShot(page, "fields", 1366);
    await widthShot(page, "fields", 390);

    // Delete asks first and counts the customers with a value (none yet); Cancel keeps the field.
    await tier.getByRole("link", { name: "Delete Loyalty tier" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText("Delete “Loyalty tier”? No customer has a value yet.");
    await dialog.getByRole("link", { name: "Cancel" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);

    // The customer's form: the Fields section with an input of each kind, and Tags.
    await page.goto(`/customers/edit/${id}`);
    await expect(page.getByRole("heading", { name: "Edit Customer" })).toBeVisible();
    const fields = page.getByRole("region", { name: "Fields" });
    await expect(fields.getByLabel("Birthday")).toHaveAttribute("type", "date");
    await expect(fields.getByLabel("Loyalty tier")).toHaveValue("");
    await fields.getByLabel("City").fill("Pune");
    await fields.getByLabel("Birthday").fill("1990-05-31");
    await fields.getByLabel("Time zone").fill("Mars/Base");
    await fields.getByLabel("Loyalty tier").selectOption("Gold");
    await fields.getByLabel("Tags").fill("VIP, Wholesale");
    await page.getByRole("button", { name: "Update Customer" }).click();
    await expect(fields.getByLabel("Time zone")).toHaveAccessibleDescription(
      "Time zone must be a time zone name like Asia/Kolkata",
    );
    await fields.getByLabel("Time zone").fill("Asia/Kolkata");
    await widthShot(page, "customer-form", 1366);
    await widthShot(page, "customer-form", 390);
    await page.getByRole("button", { name: "Update Customer" }).click();
    await expect(page).toHaveURL(/\/customers$/);
    await expect(page.getByText("Customer updated successfully")).toBeVisible();

    // The customer's page: the values with their labels, the tags as chips.
    await page.goto(`/customers/${id}`);
    const values = page.getByTestId("field-values");
    await expect(values).toContainText("City");
    await expect(values).toContainText("Pune");
    await expect(values).toContainText("31 May 1990");
    await expect(values).toContainText("Loyalty tier");
    await expect(values).toContainText("Gold");
    const chips = page.getByTestId("customer-tag");
    await expect(chips).toHaveText(["VIP", "Wholesale"]);
    const tags = page.getByRole("region", { name: "Tags" });
    await tags.getByLabel("Add tags").fill("Diwali 2026");
    await tags.getByRole("button", { name: "Add", exact: true }).click();
    await expect(page.getByText('Tag "Diwali 2026" added')).toBeVisible();
    await expect(chips).toHaveText(["Diwali 2026", "VIP", "Wholesale"]);
    await expect(tags.getByLabel("Add tags")).toHaveValue("");
    await tags.getByRole("button", { name: "Remove tag Wholesale" }).click();
    await expect(page.getByText('Tag "Wholesale" removed')).toBeVisible();
    await expect(chips).toHaveText(["Diwali 2026", "VIP"]);
    await page.reload();
    await widthShot(page, "customer-detail", 1366);
    await widthShot(page, "customer-detail", 390);

    // The Tags screen: counts, a rename, and a rename onto another tag's name that makes the two one.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Tags" }).click();
    await expect(page).toHaveURL(/\/tags$/);
    const tagRows = page.getByTestId("tag-row");
    await expect(tagRows).toHaveCount(3);
    await expect(tagRows.filter({ hasText: "Wholesale" })).toContainText("0");
    await expect(tagRows.filter({ hasText: "VIP" })).toContainText("1");
    await page.getByRole("link", { name: "Rename VIP" }).click();
    await page.getByLabel("New name for VIP").fill("Gold members");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText('Tag renamed to "Gold members"')).toBeVisible();
    await expect(tagRows.filter({ hasText: "Gold members" })).toContainText("1");
    await page.getByRole("link", { name: "Rename Diwali 2026" }).click();
    await page.getByLabel("New name for Diwali 2026").fill("gold MEMBERS");
    await expect(page.getByLabel("New name for Diwali 2026")).toHaveAccessibleDescription(
      "“Gold members” exists: the two tags become one, “Gold members”.",
    );
    await page.getByRole("button", { name: "Merge" }).click();
    await expect(page.getByText('"Diwali 2026" merged into "Gold members": 1 customer carries it now')).toBeVisible();
    await expect(tagRows).toHaveCount(2);
    await page.reload();
    await widthShot(page, "tags", 1366);
    await widthShot(page, "tags", 390);
    await page.goto(`/customers/${id}`);
    await expect(page.getByTestId("customer-tag")).toHaveText(["Gold members"]);

    // The customer list: a checkbox on each row for "Tag selected".
    await page.goto("/customers");
    await page.getByRole("checkbox", { name: "Select Kavya Menon" }).check();
    await page.getByLabel("Tag selected customers with").fill("Wholesale");
    await page.getByRole("button", { name: "Tag selected" }).click();
    await expect(page.getByText('1 customer got the tag "Wholesale"')).toBeVisible();
    await expect(page.getByRole("checkbox", { name: "Select Kavya Menon" })).not.toBeChecked();
    await page.reload();
    await widthShot(page, "customers", 1366);
    await widthShot(page, "customers", 390);
  });
});

test.describe("fields without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("add a field through the form, its problems named by the server", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("Name", { exact: true }).fill("No Script Fields");
    await page.getByLabel("E-mail", { exact: true }).fill(uniqueEmail("nojs-fields"));
    await page.getByLabel("Password", { exact: true }).fill(E2E_PASSWORD);
    await page.getByRole("button", { name: LOCAL_SIGN_IN_BUTTON }).click();
    await page.getByRole("link", { name: "Continue to the dashboard" }).click();
    await expect(page.getByText("Welcome back!")).toBeVisible();

    await page.goto("/fields");
    const form = page.getByRole("region", { name: "Add a field" });
    await form.getByLabel("Type").selectOption({ label: "One of a list" });
    await form.getByLabel("Label").fill("Store");
    await form.getByRole("button", { name: "Add field" }).click();
    await expect(page).toHaveURL(/\/fields$/);
    await expect(form.getByLabel("Choices")).toHaveAccessibleDescription(/A choice field needs at least one choice/);

    // The name left empty is made from the label; the default is typed.
    await form.getByLabel("Choices").fill("Koramangala\nIndiranagar");
    await form.getByLabel("Default").fill("indiranagar");
    await form.getByRole("button", { name: "Add field" }).click();
    await expect(page.getByRole("status")).toHaveText('Field "Store" added');
    const row = page.getByTestId("field-row").filter({ hasText: "Store" });
    await expect(row).toContainText("store");
    await expect(row).toContainText("Koramangala, Indiranagar");
    await expect(row).toContainText("Indiranagar");
  });
});
