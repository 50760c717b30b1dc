// The segment builder's Audience Preview note, as the rule builder shows it while editing.
import { expect, signIn, test, POSTGRES_TOO } from "./fixtures";

test(
  "over 10 matches the preview notes 'Showing all N', the specified words and nothing more",
  POSTGRES_TOO,
  async ({ page }) => {
    await signIn(page, { name: "Preview Reader" });
    const tag = Date.now().toString(36);
    const rows = Array.from({ length: 14 }, (_, i) => `Reader${i},Das,reader${i}.${tag}@example.com,${100 * (i + 1)}`);
    const res = await page.request.post("/api/customers/import", {
      headers: { "Content-Type": "text/csv" },
      data: `firstName,lastName,email,totalSpend\n${rows.join("\n")}\n`,
    });
    expect(res.ok(), await res.text()).toBeTruthy();

    await page.goto("/segments/new");
    await page.getByLabel("Value of condition 1").fill("0");
    await expect(page.getByTestId("preview-count")).toHaveText("14");
    await expect(page.getByTestId("preview-note")).toHaveText("Showing all 14");
    // The panel samples the first 10 (the same sample size as the segment and wizard tables).
    await expect(page.getByTestId("preview-list").getByRole("listitem")).toHaveCount(10);

    // Ten or fewer need no note.
    await page.getByLabel("Value of condition 1").fill("1000");
    await expect(page.getByTestId("preview-count")).toHaveText("4");
    await expect(page.getByTestId("preview-note")).toHaveCount(0);
  },
);

test("a failed Use AI toast goes away when the next description gives a result", async ({ page }) => {
  await signIn(page, { name: "AI Retry" });
  await page.goto("/segments/new");
  await page.getByRole("button", { name: "Use AI" }).click();
  const dialog = page.getByRole("dialog");
  const failure = "Failed to process your request. Please try different wording.";
  const failureToast = page.locator("[data-sonner-toast]").filter({ hasText: failure });

  await dialog.getByLabel("Description").fill("12345 !!!");
  await dialog.getByRole("button", { name: "Generate" }).click();
  await expect(dialog.getByRole("alert")).toHaveText(failure);
  await expect(failureToast).toBeVisible();

  await dialog.getByLabel("Description").fill("customers who spent more than 10000");
  await dialog.getByRole("button", { name: "Generate" }).click();
  await expect(dialog.getByTestId("ai-result")).toContainText("Total spend greater than ₹10,000");
  // No LLM is set up for the end-to-end servers: the dialog says the local rules wrote it.
  await expect(dialog.getByTestId("ai-writer")).toHaveText("Written by the local rules");
  // Well within the toast's 5 s: gone because the result came, not because it timed out.
  await expect(failureToast).toHaveCount(0, { timeout: 2_000 });

  await dialog.getByRole("button", { name: "Apply conditions" }).click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Query created from description" })).toBeVisible();
  await expect(failureToast).toHaveCount(0);
});
