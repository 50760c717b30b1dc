// The segment builder's Audience Preview note, as the rule builder shows it while editing.
import { expect, signIn, test } from "./fixtures";

test("over 10 matches the preview notes 'Showing all N', the spec's words and nothing more", async ({ page }) => {
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
});
