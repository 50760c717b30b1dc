// Templates as a marketer uses them: from the navigation she takes the Offer starter as her own,
// changes its heading with a merge tag, adds an image with alt text and moves it up, undoes a
// block she added by mistake, saves, and sees the preview filled for a customer with empty fields
// at a phone's and a desktop's width; the blocks are there after a reload. Without JavaScript the
// editor says the block editor needs it and makes an HTML copy she edits and saves. The screens at
// 1366 and 390 wide.
import type { Page } from "@playwright/test";
import { expect, signIn, test, widthShot } from "./fixtures";

const blocks = (page: Page) => page.getByRole("group", { name: "Template blocks" });
/** A top-level block's card, by its title ("1. Heading"). */
const blockCard = (page: Page, title: string) => blocks(page).getByRole("group", { name: title, exact: true });
const preview = (page: Page) => page.frameLocator('[data-testid="preview-frame"]');

test.describe("templates", () => {
  test("a starter made her own: edit blocks, undo, save, preview on a phone and a desktop, reload", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await signIn(page, { name: "Template Maker" });
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Templates" }).click();
    await expect(page).toHaveURL(/\/templates$/);
    await expect(page.getByText("No templates yet")).toBeVisible();
    await expect(page.getByTestId("starter-template")).toHaveCount(4);
    await widthShot(page, "templates-list", 1366);
    await widthShot(page, "templates-list", 390);

    await page
      .getByTestId("starter-template")
      .filter({ hasText: "Offer" })
      .getByRole("button", { name: "Use this template" })
      .click();
    await expect(page).toHaveURL(/\/templates\/[0-9a-f]{24}$/);
    await expect(page.getByText('"Offer" is yours to edit')).toBeVisible();
    await expect(blocks(page)).toBeVisible();

    // The heading, with a merge tag and its fallback.
    const heading = blockCard(page, "1. Heading");
    await heading
      .getByRole("textbox", { name: "Text", exact: true })
      .fill('Big sale, {{ customer.first_name | default: "friend" }}');

    // An image at the end, moved up one place.
    await blocks(page).getByLabel("Add block").selectOption("image");
    await blocks(page).getByRole("button", { name: "Add Image", exact: true }).click();
    const count = await blocks(page).locator("h3").count();
    const image = blockCard(page, `${count}. Image`);
    await image.getByRole("textbox", { name: "Image address" }).fill("https://shop.example.com/images/diya.jpg");
    await image.getByRole("textbox", { name: "Alt text" }).fill("Brass diya on a marigold mat");
    await image.getByRole("button", { name: "Move up" }).click();
    await expect(blockCard(page, `${count - 1}. Image`)).toBeVisible();

    // A divider added by mistake, undone.
    await blocks(page).getByLabel("Add block").selectOption("divider");
    await blocks(page).getByRole("button", { name: "Add Divider", exact: true }).click();
    await expect(blocks(page).locator("h3")).toHaveCount(count + 1);
    await blocks(page).getByRole("button", { name: "Undo" }).click();
    await expect(blocks(page).locator("h3")).toHaveCount(count);

    await page.getByLabel("Name", { exact: true }).fill("Diwali offer");
    // Kept as a draft as she types: a reload before saving loses nothing.
    await expect(page.getByTestId("autosave-status")).toHaveText(/Changes kept as a draft/);
    await page.reload();
    await expect(page.getByTestId("draft-notice")).toBeVisible();
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Diwali offer");
    await expect(blocks(page).locator("h3")).toHaveCount(count);
    await expect(blockCard(page, `${count - 1}. Image`)).toBeVisible();
    await page.getByRole("button", { name: "Save template" }).click();
    await expect(page.getByText("Template saved")).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: "Diwali offer" })).toBeVisible();
    await expect(page.getByTestId("draft-notice")).toHaveCount(0);

    // The preview: filled for a customer with empty fields, on a phone, then a desktop.
    await expect(page.getByTestId("preview-subject")).toHaveText("Subject: A gift, 20% off everything until Sunday");
    await expect(preview(page).getByText("Big sale, friend")).toBeVisible();
    await expect(preview(page).getByAltText("Brass diya on a marigold mat")).toHaveCount(1);
    await expect(page.getByTestId("preview-frame")).toHaveCSS("width", "375px");
    await page.getByRole("link", { name: "Desktop" }).click();
    await expect(page.getByTestId("preview-frame")).toHaveCSS("width", "600px");
    await page.getByRole("region", { name: "Preview" }).getByText("Text part").click();
    await expect(page.getByTestId("preview-text")).toContainText("Big sale, friend");
    await expect(page.getByTestId("preview-text")).toContainText("Unsubscribe: http");

    // After a reload the blocks are as saved.
    await page.reload();
    await expect(blockCard(page, "1. Heading").getByRole("textbox", { name: "Text", exact: true })).toHaveValue(
      'Big sale, {{ customer.first_name | default: "friend" }}',
    );
    await expect(blocks(page).locator("h3")).toHaveCount(count);
    await widthShot(page, "template-editor", 1366);
    await widthShot(page, "template-editor", 390);
  });

  test("without JavaScript: the block editor says it needs it, and an HTML copy is edited and saved", async ({
    page,
    browser,
  }) => {
    await signIn(page, { name: "Plain Writer" });
    const made = await page.request.post("/api/templates/starter-welcome/duplicate");
    expect(made.status()).toBe(201);
    const { id } = (await made.json()) as { id: string };
    const state = await page.context().storageState();
    const context = await browser.newContext({ javaScriptEnabled: false, storageState: state });
    const plain = await context.newPage();
    await plain.goto(`/templates/${id}`);
    await expect(plain.getByText("The block editor needs JavaScript.")).toBeVisible();
    await plain.getByRole("button", { name: "Copy as HTML" }).click();
    await expect(plain.getByRole("heading", { level: 2, name: "Welcome (HTML)" })).toBeVisible();
    const html = plain.getByLabel("HTML");
    await expect(html).toHaveValue(/<meta name="viewport"/);
    const source = await html.inputValue();
    await html.fill(
      source.replace("Thank you for joining us.", "Thank you for joining us, {{ customer.first_name }}."),
    );
    // The save is a plain form post (a redirect back to the copy's page); the page is read again once
    // it is answered.
    const copyPath = new URL(plain.url()).pathname;
    await Promise.all([
      plain.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === copyPath),
      plain.getByRole("button", { name: "Save template" }).click(),
    ]);
    await plain.waitForLoadState("load");
    await plain.goto(copyPath);
    await expect(plain.getByLabel("HTML")).toHaveValue(/Thank you for joining us, \{\{ customer\.first_name \}\}\./);
    await context.close();
  });

  test("two tabs: the later save from an older copy is refused and says so, the typing kept", async ({ page }) => {
    await signIn(page, { name: "Two Tabs" });
    const made = await page.request.post("/api/templates", {
      data: { name: "Weekly", subject: "Hi", format: "markdown", content: "# Weekly" },
    });
    const { id } = (await made.json()) as { id: string };
    await page.goto(`/templates/${id}`);
    const other = await page.context().newPage();
    await other.goto(`/templates/${id}`);

    await other.getByLabel("Subject").fill("From the second tab");
    await other.getByRole("button", { name: "Save template" }).click();
    await expect(other.getByText("Template saved")).toBeVisible();

    await page.getByLabel("Subject").fill("From the first tab");
    await page.getByRole("button", { name: "Save template" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "saved elsewhere since you opened it" })).toBeVisible();
    await expect(page.getByLabel("Subject")).toHaveValue("From the first tab");
    await other.reload();
    await expect(other.getByLabel("Subject")).toHaveValue("From the second tab");
  });
});
