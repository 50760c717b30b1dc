// A sent campaign's people and figures as a marketer sees them: the detail page counts unsubscribes
// and complaints, every rate says what it is out of, and its Export form downloads the openers (or
// recipients, clickers, bouncers, unsubscribers) as CSV, with a byte order mark for Excel on Windows
// when ticked; the list shows the unsubscribes and complaints and a chip that says what it counts.
import { readFileSync } from "node:fs";
import type { APIRequestContext } from "@playwright/test";
import { expect, signIn, test, uniqueEmail, waitForVendorReceipts } from "./fixtures";

type CampaignJson = {
  id: string;
  status: string;
  openedCount: number;
  complainedCount: number;
  unsubscribedCount: number;
  deliveryStats: { sent: number; attempted: number; delivered: number; complained: number };
};

async function campaignOf(request: APIRequestContext, id: string) {
  const res = await request.get(`/api/campaigns/${id}`);
  expect(res.ok()).toBeTruthy();
  return ((await res.json()) as { campaign: CampaignJson }).campaign;
}

test("a sent campaign's unsubscribes, complaints, rates with their bases, and its people as CSV", async ({ page }) => {
  test.setTimeout(150_000);
  await signIn(page, { name: "Counting Marketer" });
  const rows = ["firstName,lastName,email,totalSpend"];
  for (let i = 1; i <= 40; i++) rows.push(`Reader${i},Menon,${uniqueEmail(`people${i}`)},${100 + i}`);
  const imported = await page.request.post("/api/customers/import", {
    headers: { "Content-Type": "text/csv" },
    data: rows.join("\n"),
  });
  expect(imported.ok(), await imported.text()).toBeTruthy();
  const segment = await page.request.post("/api/segments", {
    data: { name: "Readers", conditions: { totalSpend: { $gt: 0 } }, logicType: "AND" },
  });
  const segmentId = ((await segment.json()) as { id: string }).id;
  const launched = await page.request.post("/api/campaigns", {
    data: { name: "Onam offer", subject: "Onam: 15% off", segmentId, message: "Hi {NAME}, Onam offers inside." },
  });
  expect(launched.status(), await launched.text()).toBe(201);
  const { id } = (await launched.json()) as CampaignJson;
  await expect
    .poll(async () => (await campaignOf(page.request, id)).status, { timeout: 60_000, intervals: [500] })
    .toBe("Completed");
  // The vendor's opens and clicks come up to ~18 s after each message: wait for the last of them.
  await waitForVendorReceipts(page.request, id);
  const c = await campaignOf(page.request, id);
  expect(c.unsubscribedCount).toBe(0);

  await page.goto(`/campaigns/${id}`);
  await expect(page.getByTestId("figure-unsubscribed")).toHaveText("0");
  await expect(page.getByTestId("figure-complained")).toHaveText(String(c.complainedCount));
  await expect(page.getByTestId("figure-success-rate-base")).toHaveText(
    `of attempted: ${c.deliveryStats.delivered + c.deliveryStats.complained} of ${c.deliveryStats.attempted}`,
  );
  await expect(page.getByTestId("engagement-total-opens").locator("..")).toContainText(
    "a click with no image loaded counts as an open",
  );

  // Export the openers, then the same for Excel on Windows.
  const form = page.getByTestId("campaign-export");
  await expect(form).toContainText("Pick it when the file will be opened in Excel on Windows");
  await form.getByLabel("Who", { exact: true }).selectOption("openers");
  const plain = page.waitForEvent("download");
  await form.getByRole("button", { name: "Export CSV" }).click();
  const file = await plain;
  expect(file.suggestedFilename()).toMatch(new RegExp(`^campaign-${id.slice(-6)}-openers-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
  const text = readFileSync((await file.path())!, "utf8");
  const lines = text.trim().split(/\r?\n/);
  expect(lines[0]).toBe("email,name,phone,customer_id,status,opened_at,clicked_at,details");
  expect(lines).toHaveLength((await campaignOf(page.request, id)).openedCount + 1);

  await form.getByLabel("For Excel on Windows (UTF-8 with BOM)").check();
  await form.getByLabel("Who", { exact: true }).selectOption("recipients");
  const forExcel = page.waitForEvent("download");
  await form.getByRole("button", { name: "Export CSV" }).click();
  const bytes = readFileSync((await (await forExcel).path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  expect(bytes.subarray(3).toString("utf8").trim().split(/\r?\n/)).toHaveLength(c.deliveryStats.sent + 1);

  // The list: unsubscribes and complaints, and a chip that says it counts sent out of sent and failed.
  await page.goto("/campaigns");
  const row = page.getByTestId("campaign-row").filter({ hasText: "Onam offer" });
  await expect(row.getByTestId("campaign-opt-outs")).toHaveText(`0 unsubscribed · ${c.complainedCount} complained`);
  await expect(row.getByTestId("campaign-success")).toHaveText(/^\d{1,3}% sent$/);
  await expect(row.getByTestId("campaign-success-base")).toHaveText(/^of sent and failed: \d+ of \d+$/);
});
