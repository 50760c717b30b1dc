// "Resend to non-openers" as a marketer does it: a campaign sends to Completed through the built-in
// vendor (whose receipts deliver, fail, bounce, open and click), one non-opener is put on the
// suppression list, then Campaign Details → Resend to non-openers → a new subject → the draft in
// the wizard (its audience fixed) → Launch. The new campaign's audience and delivery log are
// exactly the recipients who got the first and did not open it, less the suppressed one
// (docs/rules.md#resend-to-non-openers). Screens at 1440×900 and 390×844 are kept in test-results.
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, signIn, test, uniqueEmail, waitForVendorReceipts, toast } from "./fixtures";

type CampaignJson = { id: string; name: string; status: string; audienceSize: number; suppressedAtLaunch: number };
type LogJson = { customer: { email: string }; status: string; openedAt: string | null; clickedAt: string | null };

async function campaignOf(request: APIRequestContext, id: string) {
  const res = await request.get(`/api/campaigns/${id}`);
  expect(res.ok()).toBeTruthy();
  return ((await res.json()) as { campaign: CampaignJson }).campaign;
}

async function logsOf(request: APIRequestContext, id: string) {
  const res = await request.get(`/api/campaigns/${id}/logs?limit=1000`);
  expect(res.ok()).toBeTruthy();
  return (await res.json()) as LogJson[];
}

async function shot(page: Page, name: string) {
  for (const [w, h] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: test.info().outputPath(`${name}-${w}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test("a completed campaign is resent to exactly its non-openers, less the suppressed", async ({ page, browser }) => {
  test.setTimeout(180_000);
  await signIn(page, { name: "Resending Marketer" });
  const rows = ["firstName,lastName,email,phone,totalSpend,visits"];
  for (let i = 1; i <= 30; i++) rows.push(`Guest${i},Shah,${uniqueEmail(`guest${i}`)},,${100 * i},1`);
  const imported = await page.request.post("/api/customers/import", {
    headers: { "Content-Type": "text/csv" },
    data: rows.join("\n"),
  });
  expect(imported.ok(), await imported.text()).toBeTruthy();
  const segment = await page.request.post("/api/segments", {
    data: { name: "All guests", conditions: { totalSpend: { $gt: 0 } }, logicType: "AND" },
  });
  const segmentId = ((await segment.json()) as { id: string }).id;
  const launched = await page.request.post("/api/campaigns", {
    data: { name: "Diwali sale", subject: "Diwali: 20% off", segmentId, message: "Hi {NAME}, our Diwali sale is on." },
  });
  expect(launched.status(), await launched.text()).toBe(201);
  const source = (await launched.json()) as CampaignJson;

  await expect
    .poll(async () => (await campaignOf(page.request, source.id)).status, { timeout: 60_000, intervals: [500] })
    .toBe("Completed");
  // The vendor's opens and clicks come up to ~18 s after each message: wait for the last of them.
  await waitForVendorReceipts(page.request, source.id);

  const log = await logsOf(page.request, source.id);
  expect(log).toHaveLength(30);
  const nonOpeners = log
    .filter((l) => (l.status === "sent" || l.status === "delivered") && !l.openedAt && !l.clickedAt)
    .map((l) => l.customer.email);
  expect(nonOpeners.length).toBeGreaterThan(1);
  // Someone who never opened it unsubscribes meanwhile: the resend leaves them out.
  const unsubscribed = nonOpeners[0];
  const suppressed = await page.request.post("/api/suppressions", { data: { emails: [unsubscribed] } });
  expect(suppressed.ok(), await suppressed.text()).toBeTruthy();
  const receivers = nonOpeners.filter((e) => e !== unsubscribed).sort();
  const n = nonOpeners.length;
  const reach = `${receivers.length} of ${n} will receive it; 1 suppressed`;

  await page.goto(`/campaigns/${source.id}`);
  const card = page.getByTestId("resend-non-openers");
  await expect(card.getByTestId("resend-audience")).toContainText(`${n} non-openers of 'Diwali sale' got it`);
  await expect(card.getByTestId("resend-reach")).toHaveText(`${reach}.`);
  await expect(card.getByLabel("Subject line for the resend")).toHaveValue("Diwali: 20% off");
  await card.getByLabel("Subject line for the resend").scrollIntoViewIfNeeded();
  await shot(page, "detail-card");

  // A subject is required.
  await card.getByLabel("Subject line for the resend").fill("");
  await card.getByRole("button", { name: "Create resend draft" }).click();
  await expect(card.getByText("Subject line is required")).toBeVisible();
  await card.getByLabel("Subject line for the resend").fill("Last day: Diwali 20% off");
  await card.getByRole("button", { name: "Create resend draft" }).click();

  // The draft opens in the wizard with its audience fixed.
  await expect(page).toHaveURL(/\/campaigns\/edit\/[0-9a-f]{24}$/);
  const draftId = page.url().split("/").pop() ?? "";
  await expect(toast(page, "Draft created: check the message, then launch it")).toBeVisible();
  await expect(page.getByLabel("Campaign Name")).toHaveValue("Diwali sale — non-openers");
  await expect(page.getByTestId("resend-audience")).toContainText(`${n} non-openers of 'Diwali sale'`);
  await expect(page.getByLabel("Target Segment")).toHaveCount(0);
  await shot(page, "wizard-audience");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByLabel("Subject line")).toHaveValue("Last day: Diwali 20% off");
  await expect(page.getByLabel("Message Content")).toHaveValue("Hi {NAME}, our Diwali sale is on.");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByTestId("review-segment")).toHaveText(`${n} non-openers of 'Diwali sale'`);
  await expect(page.getByTestId("review-audience")).toHaveText(`${n} customers`);
  await expect(page.getByTestId("review-reach")).toHaveText(reach);
  await shot(page, "wizard-review");
  await page.getByRole("button", { name: "Launch Campaign" }).click();

  await expect(page).toHaveURL(new RegExp(`/campaigns/${draftId}$`));
  await expect(toast(page, `Campaign launched: ${reach}`)).toBeVisible();
  const resent = await campaignOf(page.request, draftId);
  expect(resent).toMatchObject({ audienceSize: receivers.length, suppressedAtLaunch: 1 });
  expect(resent.status).not.toBe("Draft");

  // Its detail and delivery log: exactly the non-openers, less the suppressed one.
  await page.goto(`/campaigns/${draftId}`);
  await expect(page.getByTestId("campaign-segment")).toHaveText(`Non-openers of "Diwali sale"`);
  await expect(page.getByTestId("suppressed-at-launch")).toHaveText("Left out at launch: 1 suppressed");
  await page.goto(`/campaigns/${draftId}?tab=logs`);
  await expect(page.getByTestId("log-row")).toHaveCount(receivers.length);
  const shown = (await page.getByTestId("log-contact").allTextContents()).map((t) => t.trim()).sort();
  expect(shown).toEqual(receivers);
  await shot(page, "resend-log");

  // Without JavaScript: the card is a plain form, and the wizard's steps are answered by the server.
  const origin = new URL(page.url()).origin;
  const context = await browser.newContext({
    javaScriptEnabled: false,
    baseURL: origin,
    storageState: await page.context().storageState(),
  });
  const plain = await context.newPage();
  await plain.goto(`/campaigns/${source.id}`);
  await plain.getByLabel("Subject line for the resend").fill("One more time: Diwali 20% off");
  await plain.getByRole("button", { name: "Create resend draft" }).click();
  await expect(plain).toHaveURL(/\/campaigns\/edit\/[0-9a-f]{24}$/);
  const secondId = plain.url().split("/").pop() ?? "";
  await expect(plain.getByTestId("resend-audience")).toContainText(`${n} non-openers of 'Diwali sale'`);
  await plain.getByRole("button", { name: "Continue" }).click();
  await expect(plain.getByLabel("Subject line")).toHaveValue("One more time: Diwali 20% off");
  await plain.getByRole("button", { name: "Continue" }).click();
  // The first resend's bounces may have put more of them on the suppression list since.
  await expect(plain.getByTestId("review-reach")).toHaveText(
    new RegExp(`^\\d+ of ${n} will receive it; \\d+ suppressed$`),
  );
  await plain.getByRole("button", { name: "Launch Campaign" }).click();
  await expect(plain).toHaveURL(new RegExp(`/campaigns/${secondId}$`));
  const second = await campaignOf(page.request, secondId);
  expect(second.audienceSize + second.suppressedAtLaunch).toBe(n);
  expect(second.suppressedAtLaunch).toBeGreaterThanOrEqual(1);
  const secondLog = (await logsOf(page.request, secondId)).map((l) => l.customer.email);
  expect(secondLog).toHaveLength(second.audienceSize);
  for (const email of secondLog) expect(receivers).toContain(email);
  await context.close();
});

test("the resend card that appears when the open page's campaign completes has its subject filled", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, { name: "Watching Marketer" });
  const rows = ["firstName,lastName,email,totalSpend"];
  for (let i = 1; i <= 2000; i++) rows.push(`Watcher${i},Rao,${uniqueEmail(`watch${i}`)},${100 + i}`);
  const imported = await page.request.post("/api/customers/import", {
    headers: { "Content-Type": "text/csv" },
    data: rows.join("\n"),
  });
  expect(imported.ok(), await imported.text()).toBeTruthy();
  const segment = await page.request.post("/api/segments", {
    data: { name: "Watchers", conditions: { totalSpend: { $gt: 0 } }, logicType: "AND" },
  });
  const segmentId = ((await segment.json()) as { id: string }).id;
  const launched = await page.request.post("/api/campaigns", {
    data: {
      name: "Monsoon offer",
      subject: "Monsoon: free delivery",
      segmentId,
      message: "Hi {NAME}, it rains offers.",
    },
  });
  expect(launched.status(), await launched.text()).toBe(201);
  const campaign = (await launched.json()) as CampaignJson;
  // Held while the page is opened, so the page sees it before it completes (the card is hidden then).
  const paused = await page.request.post(`/api/campaigns/${campaign.id}/pause`);
  expect(paused.ok(), await paused.text()).toBeTruthy();

  await page.goto(`/campaigns/${campaign.id}`);
  await expect(page.getByTestId("campaign-status")).toHaveText("Paused");
  await expect(page.getByTestId("resend-non-openers")).toHaveCount(0);
  const resumed = await page.request.post(`/api/campaigns/${campaign.id}/resume`);
  expect(resumed.ok(), await resumed.text()).toBeTruthy();

  // The page refreshes itself to Completed; the card comes up with the original's subject in it.
  await expect(page.getByTestId("campaign-status")).toHaveText("Completed", { timeout: 90_000 });
  const card = page.getByTestId("resend-non-openers");
  await expect(card.getByLabel("Subject line for the resend")).toHaveValue("Monsoon: free delivery", {
    timeout: 30_000,
  });
});
