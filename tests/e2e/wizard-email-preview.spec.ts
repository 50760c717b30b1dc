// The campaign wizard's e-mail preview and reach in Chromium: step 2 shows the message as its text
// part and, under "HTML", as the HTML part in a sandboxed frame (the message's markup shown as
// text, links clickable, the sender's name, the unsubscribe link in the footer or where
// {UNSUBSCRIBE_URL} stands); step 3 says how many of the segment a launch leaves out once one of
// its customers is suppressed, with JavaScript and without.
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, signIn, test, uniqueEmail } from "./fixtures";

const MESSAGE = 'Hi {NAME},\n\n<b>Big</b> sale & "more": https://shop.example.in/sale?a=1&b=2.\nSee you!';
const SHOP_LINK = "https://shop.example.in/sale?a=1&b=2";

/** Five customers of the signed-in user, Preview1 Rao … Preview5 Rao; their e-mails. */
async function createCustomers(request: APIRequestContext): Promise<string[]> {
  const emails = [1, 2, 3, 4, 5].map((i) => uniqueEmail(`preview${i}`));
  const rows = ["firstName,lastName,email,phone,totalSpend,visits"];
  emails.forEach((email, i) => rows.push(`Preview${i + 1},Rao,${email},98765${String(i + 1).padStart(5, "0")},100,1`));
  const res = await request.post("/api/customers/import", {
    headers: { "Content-Type": "text/csv" },
    data: rows.join("\n"),
  });
  expect(res.ok(), await res.text()).toBeTruthy();
  return emails;
}

async function createSegment(request: APIRequestContext, name: string) {
  const res = await request.post("/api/segments", {
    data: { name, conditions: { totalSpend: { $gt: 0 } }, logicType: "AND" },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
  return ((await res.json()) as { id: string }).id;
}

async function suppress(request: APIRequestContext, email: string) {
  const res = await request.post("/api/suppressions", { data: { emails: [email] } });
  expect(res.ok(), await res.text()).toBeTruthy();
}

const htmlPreview = (page: Page) => page.frameLocator('[data-testid="html-preview"]');

test.describe("the wizard's e-mail preview and reach", () => {
  test("previews both parts, escaped, with the unsubscribe link; the Review step counts the suppressed", async ({
    page,
  }) => {
    await signIn(page, { name: "Preview Sender" });
    const emails = await createCustomers(page.request);
    const segmentId = await createSegment(page.request, "Five buyers");

    await page.goto(`/campaigns/new?segmentId=${segmentId}`);
    await expect(page.getByTestId("audience-count")).toHaveText("5");
    const sample =
      (await page.getByTestId("audience-sample").locator("li").first().locator("p").first().textContent()) ?? "";
    expect(sample).toMatch(/^Preview\d Rao$/);
    await page.getByLabel("Campaign Name").fill("Big sale");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(
      page.getByText("to place the unsubscribe link; without it, the link is added at the end"),
    ).toBeVisible();
    await page.getByLabel("Message Content").fill(MESSAGE);

    // The text part: the message as typed (first {NAME} filled), then the sender and the link.
    await expect(page.getByRole("tab", { name: "Text" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByTestId("message-preview")).toContainText(`Hi ${sample},`);
    await expect(page.getByTestId("message-preview")).toContainText('<b>Big</b> sale & "more"');
    await expect(page.getByTestId("text-footer-preview")).toContainText("Preview Sender");
    await expect(page.getByTestId("text-footer-preview")).toContainText(/Unsubscribe: http:\/\/\S+\/u\/example/);
    await expect(page.getByTestId("html-preview")).toBeHidden();

    // The HTML part: a sandboxed frame; the markup typed in the message is text, not markup.
    await page.getByRole("tab", { name: "HTML" }).click();
    await expect(page.getByTestId("html-preview")).toBeVisible();
    await expect(page.getByTestId("html-preview")).toHaveAttribute("sandbox", "");
    await expect(page.getByTestId("message-preview")).toBeHidden();
    const frame = htmlPreview(page);
    await expect(frame.getByText(`Hi ${sample},`)).toBeVisible();
    await expect(frame.getByText('<b>Big</b> sale & "more":')).toBeVisible();
    await expect(frame.locator("b")).toHaveCount(0);
    await expect(frame.getByRole("link", { name: SHOP_LINK, exact: true })).toHaveAttribute("href", SHOP_LINK);
    await expect(frame.getByText("Sent by Preview Sender.")).toBeVisible();
    await expect(frame.getByRole("link", { name: "Unsubscribe", exact: true })).toHaveAttribute(
      "href",
      /^http:\/\/\S+\/u\/example$/,
    );

    // {UNSUBSCRIBE_URL} places the link, and then the footer has no second one.
    await page.getByLabel("Message Content").fill("Hi {NAME}.\n\nNo more mail? {UNSUBSCRIBE_URL}");
    await expect(frame.getByText(/No more mail\?/)).toBeVisible();
    await expect(frame.getByRole("link", { name: /\/u\/example$/ })).toHaveAttribute("href", /\/u\/example$/);
    await expect(frame.getByRole("link", { name: "Unsubscribe", exact: true })).toHaveCount(0);
    await page.getByRole("tab", { name: "Text" }).click();
    await expect(page.getByTestId("message-preview")).toContainText(/No more mail\? http:\/\/\S+\/u\/example/);
    await expect(page.getByTestId("text-footer-preview")).not.toContainText("Unsubscribe");

    // One of the segment's customers unsubscribes while the wizard is open: the Review step says so.
    await suppress(page.request, emails[0]);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByTestId("review-audience")).toHaveText("5 customers");
    await expect(page.getByTestId("review-reach")).toHaveText("4 of 5 will receive it; 1 suppressed");
  });

  test("without JavaScript: both parts shown one under the other, and the reach on the Review step", async ({
    page,
    browser,
  }) => {
    await signIn(page, { name: "No Script Sender" });
    const emails = await createCustomers(page.request);
    const segmentId = await createSegment(page.request, "Five, no script");
    await suppress(page.request, emails[1]);
    const state = await page.context().storageState();
    const context = await browser.newContext({ javaScriptEnabled: false, storageState: state });
    const nojs = await context.newPage();

    await nojs.goto(`/campaigns/new?segmentId=${segmentId}`);
    await nojs.getByLabel("Campaign Name").fill("Plain and HTML");
    await nojs.getByRole("button", { name: "Continue" }).click();
    await nojs.getByLabel("Message Content").fill(MESSAGE);
    await nojs.getByRole("button", { name: "Continue" }).click();
    await expect(nojs.getByTestId("review-reach")).toHaveText("4 of 5 will receive it; 1 suppressed");

    await nojs.getByRole("button", { name: "Back" }).click();
    await expect(nojs.getByRole("tab")).toHaveCount(0);
    await expect(nojs.getByTestId("message-preview")).toContainText('<b>Big</b> sale & "more"');
    await expect(nojs.getByTestId("html-preview")).toBeVisible();
    const frame = htmlPreview(nojs);
    await expect(frame.getByText('<b>Big</b> sale & "more":')).toBeVisible();
    await expect(frame.locator("b")).toHaveCount(0);
    await expect(frame.getByRole("link", { name: "Unsubscribe", exact: true })).toHaveAttribute(
      "href",
      /\/u\/example$/,
    );
    await context.close();
  });
});
