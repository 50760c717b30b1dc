// A campaign made from a template, as a new user makes one, on the production server sending through
// the SMTP channel to a real SMTP server (the smtp-server package, in this test's process) with a
// DKIM key made by `crm dkim generate`: she sets her brand (uploads her logo, her colour, her postal
// address), takes the Offer starter as her own, adds an image she uploads from the editor, a button
// and two columns, saves, sends a test to herself, opens the wizard from "Send as a campaign", sees
// the preview on a phone, and launches to a segment. What arrives is multipart with the text part,
// verifies DKIM, shows her logo and image from the product's own addresses, and renders in Chromium
// at 320 and 600 px wide with no sideways scroll, with its images loaded and with images off.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Page } from "@playwright/test";
import { dkimVerify } from "mailauth";
import { simpleParser } from "mailparser";
import { dnsRecordsFor, readDkimKey } from "../../app/services/email/dkim-keys.server.ts";
import { freePort, productionServerEnv, repoRoot as root, serverCommand } from "../helpers/production-server.ts";
import { type SmtpCapture, startSmtpCapture } from "../helpers/smtp.ts";
import { E2E_PASSWORD, expect, LOCAL_SIGN_IN_BUTTON, test, widthShot } from "./fixtures";

const DOMAIN = "shop.example.in";
const CUSTOMERS = 12;
const EMAIL = "owner@shop.example.in";

const blocks = (page: Page) => page.getByRole("group", { name: "Template blocks" });
/** The top-level blocks' cards, in order (a column's blocks have keys like "4.0.0"). */
const topCards = (page: Page) => blocks(page).locator('div[role="group"][data-focus-key]:not([data-focus-key*="."])');

/** Adds a block of a type at the end; answers its card. */
async function addBlock(page: Page, type: string, label: string) {
  await expect(topCards(page).first()).toBeVisible();
  const before = await topCards(page).count();
  await blocks(page).getByLabel("Add block").selectOption(type);
  await blocks(page)
    .getByRole("button", { name: `Add ${label}`, exact: true })
    .click();
  await expect(topCards(page)).toHaveCount(before + 1);
  return topCards(page).last();
}

test.describe("a campaign made from a template", () => {
  test.setTimeout(240_000);
  let dataDir = "";
  let smtp: SmtpCapture | undefined;
  let server: ChildProcess | undefined;

  test.afterEach(async () => {
    try {
      if (server?.pid) process.kill(-server.pid, "SIGKILL");
    } catch {
      /* already gone */
    }
    await smtp?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test("from a starter to a launched campaign: test send, phone preview, DKIM, no sideways scroll at 320 and 600 px", async ({
    page,
    browser,
  }) => {
    dataDir = mkdtempSync(path.join(tmpdir(), "crm-template-campaign-"));
    smtp = await startSmtpCapture();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = productionServerEnv({
      port,
      publicUrl: base,
      dataDir,
      extra: {
        DELIVERY_CHANNEL: "smtp",
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        MAIL_FROM: `Shop News <news@${DOMAIN}>`,
      },
    });
    const cli = (...argv: string[]) =>
      execFileSync(process.execPath, [path.join(root, "bin/crm.mjs"), ...argv], { cwd: root, env }).toString();
    cli("dkim", "generate", "--domain", DOMAIN, "--selector", "e2e");
    server = spawn(serverCommand.file, serverCommand.args, { cwd: root, env, stdio: "ignore", detached: true });
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/healthz`)).ok) break;
      } catch {
        /* not yet */
      }
      if (i > 1200) throw new Error("the server did not start");
      await new Promise((r) => setTimeout(r, 100));
    }

    // She signs up (the first account), and her shop's customers are there.
    await page.goto(`${base}/login`);
    await page.getByLabel("Name", { exact: true }).fill("Shop Owner");
    await page.getByLabel("E-mail", { exact: true }).fill(EMAIL);
    await page.getByLabel("Password", { exact: true }).fill(E2E_PASSWORD);
    await page.getByRole("button", { name: LOCAL_SIGN_IN_BUTTON }).click();
    await expect(page.getByText("Welcome back!")).toBeVisible({ timeout: 45_000 });
    cli("seed", "--user", EMAIL, "--customers", String(CUSTOMERS), "--orders", "0", "--seed", "3");
    const token = cli("users", "token", EMAIL).trim().split("\n").pop() ?? "";
    const made = await fetch(`${base}/api/segments`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Everyone", conditions: { visits: { $gte: 0 } } }),
    });
    expect(made.status).toBe(201);

    // Two pictures of hers: a logo and a product photo wider than the message.
    const art = await browser.newPage();
    const picture = async (file: string, width: number, height: number, colour: string, words: string) => {
      await art.setViewportSize({ width, height });
      await art.setContent(
        `<div style="width:${width}px;height:${height}px;background:${colour};color:#fff;font:bold 48px sans-serif;display:flex;align-items:center;justify-content:center">${words}</div>`,
      );
      await art.screenshot({ path: path.join(dataDir, file) });
      return path.join(dataDir, file);
    };
    const logoFile = await picture("logo.png", 300, 100, "#0f766e", "Shop");
    const photoFile = await picture("kurta.png", 800, 500, "#9a3412", "Kurta");
    await art.close();

    // Her brand: the logo uploaded from the Brand and images screen, her button colour, her address.
    await page.goto(`${base}/templates`);
    await page.getByRole("link", { name: "Brand and images" }).click();
    await page.getByLabel("Upload a logo").setInputFiles(logoFile);
    await expect(page.getByText("Uploaded logo.png (300 × 100 px).")).toBeVisible();
    await expect(page.getByLabel("Logo address")).toHaveValue(/^http:\/\/127\.0\.0\.1:\d+\/images\/[\w-]+\.png$/);
    await page.getByLabel("Logo alt text").fill("Shop logo");
    await page.getByLabel("Buttons").fill("#0f766e");
    await page.getByLabel("Postal address").fill("12 MG Road, Bengaluru 560001");
    await page.getByRole("button", { name: "Save brand" }).click();
    await expect(page.getByText("Brand saved: every template wears it")).toBeVisible();
    await expect(page.getByTestId("image")).toHaveCount(1);
    await widthShot(page, "brand-and-images", 1366);
    await widthShot(page, "brand-and-images", 390);

    // The Offer starter, made her own: a product photo on top, a button, two columns of products.
    await page.goto(`${base}/templates`);
    await page
      .getByTestId("starter-template")
      .filter({ hasText: "Offer" })
      .getByRole("button", { name: "Use this template" })
      .click();
    await expect(page).toHaveURL(/\/templates\/[0-9a-f]{24}$/);
    const photoCard = await addBlock(page, "image", "Image");
    await photoCard.getByLabel("Upload an image").setInputFiles(photoFile);
    await expect(photoCard.getByText("Uploaded kurta.png (800 × 500 px).")).toBeVisible();
    await expect(photoCard.getByRole("textbox", { name: "Image address" })).toHaveValue(/\/images\/[\w-]+\.png$/);
    await photoCard.getByRole("textbox", { name: "Alt text" }).fill("A blue kurta");
    const moves = (await topCards(page).count()) - 1;
    for (let i = 0; i < moves; i++)
      await topCards(page)
        .nth(moves - i)
        .getByRole("button", { name: "Move up" })
        .first()
        .click();
    await expect(topCards(page).first().getByRole("textbox", { name: "Alt text" }).first()).toHaveValue("A blue kurta");
    const buttonCard = await addBlock(page, "button", "Button");
    await buttonCard.getByRole("textbox", { name: "Label" }).fill("See the sale");
    await buttonCard.getByRole("textbox", { name: "Link" }).fill(`https://${DOMAIN}/sale?from=mail`);
    await addBlock(page, "columns", "Columns");
    await page.getByLabel("Name", { exact: true }).fill("Festive sale");
    await page.getByRole("button", { name: "Save template" }).click();
    await expect(page.getByText("Template saved")).toBeVisible();

    // A test to herself: it arrives marked [Test].
    await expect(page.getByLabel("Send to")).toHaveValue(EMAIL);
    await page.getByRole("button", { name: "Send test" }).click();
    await expect(page.getByText(`Test sent to ${EMAIL}`)).toBeVisible();
    await expect.poll(() => smtp!.messages.filter((m) => m.to === EMAIL).length).toBe(1);
    const testMail = await simpleParser(smtp.messages.find((m) => m.to === EMAIL)!.raw);
    expect(testMail.subject).toMatch(/^\[Test\] /);

    // Send as a campaign: the wizard with the template chosen, its preview on a phone.
    await page.getByRole("link", { name: "Send as a campaign" }).click();
    await expect(page).toHaveURL(/\/campaigns\/new\?templateId=[0-9a-f]{24}$/);
    await page.getByLabel("Campaign Name").fill("Festive sale to everyone");
    await page.getByLabel("Target Segment").selectOption({ label: `Everyone (${CUSTOMERS} customers)` });
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByLabel("Start from")).toHaveValue(/[0-9a-f]{24}/);
    const wizardPreview = page.getByTestId("template-message-preview");
    await expect(wizardPreview.getByTestId("template-preview-subject")).toHaveText(/^Subject: /);
    await expect(wizardPreview.locator("iframe")).toHaveCSS("width", "375px");
    await expect(wizardPreview.frameLocator("iframe").getByText("See the sale")).toBeVisible();
    await widthShot(page, "wizard-template-step", 1366);
    await widthShot(page, "wizard-template-step", 390);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByTestId("review-message")).toHaveText('From the template "Festive sale"');
    await page.getByRole("button", { name: "Launch Campaign" }).click();
    await expect(page.getByText("Campaign launched successfully!")).toBeVisible({ timeout: 30_000 });
    // Its detail page shows the design it sends.
    await expect(page.getByTestId("campaign-design").locator("iframe")).toBeVisible();
    await widthShot(page, "campaign-detail-template", 1366);
    await widthShot(page, "campaign-detail-template", 390);

    await expect.poll(() => smtp!.messages.length, { timeout: 60_000 }).toBe(CUSTOMERS + 1);
    const sent = smtp.messages.find((m) => m.to !== EMAIL)!;
    const parsed = await simpleParser(sent.raw);
    expect(parsed.headers.get("content-type")).toMatchObject({ value: "multipart/alternative" });
    expect(parsed.text).toContain("See the sale");
    expect(parsed.text).toMatch(/Unsubscribe/);
    const records = dnsRecordsFor(readDkimKey(dataDir, DOMAIN)!);
    const verified = await dkimVerify(Buffer.from(sent.raw), {
      resolver: async (name: string) => {
        if (name !== records.dkim.name) throw Object.assign(new Error(`ENOTFOUND ${name}`), { code: "ENOTFOUND" });
        return [records.dkim.strings];
      },
    });
    expect(verified.results[0]?.status.result).toBe("pass");

    // The received HTML in Chromium: her logo and photo load from the product's own addresses; no
    // sideways scroll on a small phone or a desktop column, with images loaded and with images off.
    const html = String(parsed.html);
    expect(html).toContain("12 MG Road, Bengaluru 560001");
    expect(html).toContain("#0f766e");
    for (const imagesOn of [true, false]) {
      const reader = await browser.newPage();
      try {
        if (!imagesOn) await reader.route("**/images/**", (route) => route.abort());
        for (const width of [320, 600]) {
          await reader.setViewportSize({ width, height: 900 });
          await reader.setContent(html, { waitUntil: "load" });
          const overflow = await reader.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          expect(overflow, `sideways scroll at ${width} px, images ${imagesOn ? "on" : "off"}`).toBeLessThanOrEqual(0);
          await expect(reader.getByText("See the sale")).toBeVisible();
          for (const alt of ["Shop logo", "A blue kurta"]) {
            const loaded = await reader.getByAltText(alt).evaluate((img) => (img as HTMLImageElement).naturalWidth > 0);
            expect(loaded, `${alt}, images ${imagesOn ? "on" : "off"}`).toBe(imagesOn);
          }
          await reader.screenshot({
            path: test.info().outputPath(`received-${width}-images-${imagesOn ? "on" : "off"}.png`),
            fullPage: true,
          });
        }
      } finally {
        await reader.close();
      }
    }
  });
});
