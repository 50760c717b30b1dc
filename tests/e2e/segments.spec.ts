// Segments as a user clicks them: build a two-condition segment and watch the live preview
// change, switch AND/OR, use AI, save, view, edit with a nested group, delete; and saving a
// segment with JavaScript off (the builder's add and remove buttons round-trip through the server).
import type { Page } from "@playwright/test";
import { expect, signIn, test, uniqueEmail } from "./fixtures";

/** Twelve customers of the signed-in user: customer i spent ₹1,000 × i and visited i times. */
async function createCustomers(page: Page) {
  for (let i = 1; i <= 12; i++) {
    const res = await page.request.post("/api/customers", {
      data: {
        firstName: `Shopper${i}`,
        lastName: "Iyer",
        email: uniqueEmail(`shopper${i}`),
        totalSpend: 1000 * i,
        visits: i,
      },
    });
    expect(res.ok(), await res.text()).toBeTruthy();
  }
}

const previewCount = (page: Page) => page.getByTestId("preview-count");

test.describe("segments", () => {
  test("build with a live preview, use AI, save, view, edit and delete", async ({ page }) => {
    // The whole life of a segment in one journey: about 35 s on an idle machine, over 60 s on a busy one.
    test.setTimeout(120_000);
    await signIn(page, { name: "Segment Builder" });
    await createCustomers(page);

    await page.goto("/segments");
    await expect(page.getByRole("heading", { name: "Customer Segments" })).toBeVisible();
    await expect(page.getByText("No segments yet")).toBeVisible();
    await expect(page.getByTestId("stat-Campaigns Created")).toHaveText("0");
    await page.getByRole("link", { name: "Create Segment" }).first().click();
    await expect(page.getByRole("heading", { name: "Create Segment" })).toBeVisible();

    // A new segment starts with totalSpend, greater than, an empty value.
    await expect(page.getByLabel("Field of condition 1")).toHaveValue("totalSpend");
    await expect(page.getByLabel("Operator of condition 1")).toHaveValue("$gt");
    await expect(page.getByLabel("Value of condition 1")).toHaveValue("");
    await expect(page.getByTestId("preview-empty")).toBeVisible();

    // The spec's messages.
    await page.getByRole("button", { name: "Create Segment" }).click();
    await expect(page.getByText("Segment name is required")).toBeVisible();
    await expect(page.getByTestId("conditions-error")).toHaveText("All condition values are required");
    await page.getByLabel("Value of condition 1").fill("12abc");
    await expect(page.getByTestId("conditions-error")).toHaveText("Invalid numeric value");

    // One condition: spend over ₹3,000 → customers 4..12.
    await page.getByLabel("Segment Name").fill("High spenders");
    await page.getByLabel("Value of condition 1").fill("3000");
    await expect(previewCount(page)).toHaveText("9");
    await expect(page.getByText("Audience preview loaded with real data")).toBeVisible();
    await expect(page.getByTestId("preview-list").getByRole("listitem")).toHaveCount(9);

    // A second condition on visits; changing the field resets the operator.
    await page.getByRole("button", { name: "Add condition", exact: true }).click();
    await page.getByLabel("Operator of condition 2").selectOption("$lte");
    await page.getByLabel("Field of condition 2").selectOption("visits");
    await expect(page.getByLabel("Operator of condition 2")).toHaveValue("$gt");
    await page.getByLabel("Value of condition 2").fill("10");
    await expect(previewCount(page)).toHaveText("2");
    // OR between them: spend over 3,000 or more than 10 visits.
    const combine = page.getByRole("group", { name: "Combine conditions with" });
    await combine.getByText("OR").click();
    await expect(combine.getByRole("radio", { name: "OR" })).toBeChecked();
    await expect(previewCount(page)).toHaveText("9");
    await page.getByLabel("Value of condition 1").fill("0");
    await expect(previewCount(page)).toHaveText("12");
    await expect(page.getByTestId("preview-note")).toContainText("Showing all 12");

    // Use AI: the description becomes conditions, with their count shown before applying.
    await page.getByRole("button", { name: "Use AI" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Generate" }).click();
    await expect(dialog.getByText("Please enter a description")).toBeVisible();
    await dialog.getByLabel("Description").fill("customers who spent more than 10000");
    await dialog.getByRole("button", { name: "Generate" }).click();
    await expect(dialog.getByTestId("ai-result")).toContainText("Total spend greater than ₹10,000");
    await expect(dialog.getByTestId("ai-result")).toContainText("2 customers match");
    await dialog.getByRole("button", { name: "Apply conditions" }).click();
    await expect(page.getByText("Query created from description")).toBeVisible();
    await expect(page.getByLabel("Value of condition 1")).toHaveValue("10000");
    await expect(page.getByLabel("Value of condition 2")).toHaveCount(0);
    // The applied conditions bring their own logic: the toggle follows them.
    await expect(combine.getByRole("radio", { name: "AND" })).toBeChecked();
    await expect(previewCount(page)).toHaveText("2");

    await page.getByLabel("Description").fill("Spent more than ₹10,000");
    await page.getByRole("button", { name: "Create Segment" }).click();
    await expect(page).toHaveURL(/\/segments$/);
    await expect(page.getByText("Segment created successfully")).toBeVisible();
    const row = page.getByTestId("segment-row").filter({ hasText: "High spenders" });
    await expect(row).toContainText("2 customers");
    await expect(page.getByTestId("stat-Total Segments")).toHaveText("1");
    await expect(page.getByTestId("stat-Total Audience")).toHaveText("2");

    // View.
    await row.getByRole("link", { name: "View High spenders" }).click();
    await expect(page.getByRole("heading", { name: "High spenders" })).toBeVisible();
    await expect(page.getByTestId("audience-size")).toHaveText("2");
    await expect(page.getByTestId("conditions-json")).toContainText('"$gt": 10000');
    await expect(page.getByTestId("audience-note")).toHaveText("Showing 2 of 2");
    await expect(page.getByTestId("audience-row")).toHaveCount(2);
    await expect(page.getByRole("link", { name: "View Shopper12 Iyer" })).toHaveAttribute(
      "href",
      /\/customers\/[0-9a-f]{24}$/,
    );
    await expect(page.getByRole("link", { name: "Create Campaign" })).toHaveAttribute(
      "href",
      /\/campaigns\/new\?segmentId=[0-9a-f]{24}$/,
    );

    // Edit: a lower threshold and a nested group with its own logic.
    await page.getByRole("link", { name: "Edit Segment" }).click();
    await expect(page.getByRole("heading", { name: "Edit Segment" })).toBeVisible();
    await expect(previewCount(page)).toHaveText("2");
    await page.getByLabel("Value of condition 1").fill("5000");
    await expect(previewCount(page)).toHaveText("7");
    await page.getByRole("button", { name: "Add group" }).click();
    await expect(page.getByTestId("rule-group")).toBeVisible();
    await page.getByLabel("Field of condition 2.1").selectOption("visits");
    await page.getByLabel("Operator of condition 2.1").selectOption("$lt");
    await page.getByLabel("Value of condition 2.1").fill("8");
    await page.getByRole("button", { name: "Add condition to group" }).click();
    await page.getByLabel("Field of condition 2.2").selectOption("visits");
    await page.getByLabel("Operator of condition 2.2").selectOption("$gte");
    await page.getByLabel("Value of condition 2.2").fill("12");
    // spend > 5,000 AND (visits < 8 OR visits ≥ 12) → customers 6, 7 and 12.
    await expect(previewCount(page)).toHaveText("3");
    await page.getByRole("button", { name: "Update Segment" }).click();
    await expect(page.getByText("Segment updated successfully")).toBeVisible();
    await expect(page.getByTestId("segment-row").filter({ hasText: "High spenders" })).toContainText("3 customers");

    // The NEW_SEGMENT notification.
    await page.goto("/notifications");
    await expect(page.getByText("New segment created")).toBeVisible();

    // Delete, with confirmation.
    await page.goto("/segments");
    await page.getByRole("link", { name: "Delete High spenders" }).click();
    const confirm = page.getByRole("dialog");
    await expect(confirm.getByText("Delete Segment")).toBeVisible();
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expect(page.getByText("Segment deleted successfully")).toBeVisible();
    await expect(page.getByText("No segments yet")).toBeVisible();
  });

  test("search and sort the list", async ({ page }) => {
    await signIn(page, { name: "Segment Sorter" });
    await createCustomers(page);
    for (const [name, min] of [
      ["Alpha", 11000],
      ["Bravo", 0],
      ["Charlie", 6000],
    ] as const) {
      const res = await page.request.post("/api/segments", {
        data: { name, conditions: { totalSpend: { $gt: min } } },
      });
      expect(res.status()).toBe(201);
    }
    await page.goto("/segments");
    const names = page.getByTestId("segment-row").locator("td:first-child a");
    await expect(names).toHaveText(["Charlie", "Bravo", "Alpha"]);
    await page.getByLabel("Sort by").selectOption("size");
    await expect(names).toHaveText(["Bravo", "Charlie", "Alpha"]);
    await page.getByLabel("Sort by").selectOption("name");
    await expect(names).toHaveText(["Alpha", "Bravo", "Charlie"]);
    await page.getByRole("searchbox", { name: "Search segments by name" }).fill("rav");
    await expect(names).toHaveText(["Bravo"]);
    await expect(page.getByTestId("stat-Total Segments")).toHaveText("3");
  });
});

test.describe("segments without JavaScript", () => {
  test("save a two-condition segment", async ({ browser }) => {
    const withJs = await browser.newContext();
    const first = await withJs.newPage();
    await signIn(first, { name: "No Script Segments" });
    await createCustomers(first);
    const state = await withJs.storageState();
    await withJs.close();
    const context = await browser.newContext({ javaScriptEnabled: false, storageState: state });
    const page = await context.newPage();

    await page.goto("/segments/new");
    await page.getByRole("button", { name: "Create Segment" }).click();
    await expect(page.getByText("Segment name is required")).toBeVisible();
    await expect(page.getByTestId("conditions-error")).toHaveText("All condition values are required");

    await page.getByLabel("Segment Name").fill("Loyal big spenders");
    await page.getByLabel("Value of condition 1").fill("4000");
    await page.getByRole("button", { name: "Add condition", exact: true }).click();
    await expect(page.getByTestId("rule-condition")).toHaveCount(2);
    await expect(page.getByLabel("Segment Name")).toHaveValue("Loyal big spenders");
    // Adding and removing rows round-trips through the server and keeps what was typed.
    await page.getByRole("button", { name: "Add condition", exact: true }).click();
    await expect(page.getByTestId("rule-condition")).toHaveCount(3);
    await page.getByLabel("Value of condition 3").fill("77");
    await page.getByRole("button", { name: "Remove condition 2" }).click();
    await expect(page.getByTestId("rule-condition")).toHaveCount(2);
    await expect(page.getByLabel("Value of condition 1")).toHaveValue("4000");
    await expect(page.getByLabel("Value of condition 2")).toHaveValue("77");
    // The server rendered the preview of the complete first condition? The second is still empty.
    await page.getByLabel("Field of condition 2").selectOption("visits");
    await page.getByLabel("Value of condition 2").fill("9");
    await page.getByRole("button", { name: "Create Segment" }).click();

    await expect(page).toHaveURL(/\/segments$/);
    await expect(page.getByRole("status")).toHaveText("Segment created successfully");
    // spend > 4,000 AND visits > 9 → customers 10, 11 and 12.
    await expect(page.getByTestId("segment-row").filter({ hasText: "Loyal big spenders" })).toContainText(
      "3 customers",
    );
    await context.close();
  });
});
