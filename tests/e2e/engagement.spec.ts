// Opens, clicks and revenue of real mail, end to end in Chromium against the production build: a campaign goes
// through the SMTP channel to a real SMTP server (smtp-server, in this test's process); a script
// acting as the recipients reads each message as it arrived and fetches the open pixel and the links
// it finds in the received HTML: people who open, people who open and click, a link scanner that
// clicks within seconds of the delivery, a HEAD request, Apple's privacy proxy (its bare
// "Mozilla/5.0"); SendGrid's signed Event Webhook (a local fake that signs as SendGrid does) reports
// a bounce and a spam complaint. Then the campaign's page shows the people who opened and clicked, each once, the
// machines apart and the clicks by link; the campaign list and the dashboard agree; an order placed
// by a customer who clicked is the campaign's revenue; the customer page's story says what they
// received, opened and clicked, and pages with and without JavaScript.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Browser, type Page, expect, test } from "@playwright/test";
import Database from "better-sqlite3";
import { simpleParser } from "mailparser";
import { freePort, productionServerEnv, repoRoot as root, serverCommand } from "../helpers/production-server.ts";
import { type SmtpCapture, startSmtpCapture } from "../helpers/smtp.ts";
import { fakeSendgrid } from "../fakes/sendgrid.ts";
import { LOCAL_SIGN_IN_BUTTON } from "./fixtures.ts";

const DOMAIN = "shop.example.in";
const SALE = "https://shop.example.in/sale?from=mail";
const NEW = "https://shop.example.in/new-arrivals";
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148";
/**
 * The server's link-scanner window (TRACKING_SCANNER_WINDOW_SECONDS): a click this soon after its
 * message was handed over is a scanner's. Short, so that the people who read later need not wait
 * long; long enough that the scanner's click, a moment after the campaign completes, is inside it.
 */
const SCANNER_WINDOW_SECONDS = 5;
/** Screenshots to look at (kept after the run, outside the repository). */
const SHOTS = process.env.E2E_SHOTS_DIR ?? path.join(tmpdir(), "crm-engagement-shots");

type Recipient = { first: string; last: string; email: string };
const people: Record<string, Recipient> = {};
for (const [first, last] of [
  ["Asha", "Iyer"], // opens, clicks the sale a few seconds later, then orders
  ["Ravi", "Kumar"], // opens only
  ["Meera", "Nair"], // opens twice, clicks the new arrivals twice
  ["Kiran", "Rao"], // Apple Mail: only the privacy proxy loads the pixel
  ["Dev", "Shah"], // a link scanner clicks the sale within seconds of the delivery
  ["Lina", "Das"], // a link checker: HEAD on the pixel and on a link
  ["Zoya", "Khan"], // nothing
  ["Bina", "Paul"], // SendGrid reports a bounce
  ["Tara", "Bose"], // SendGrid reports a spam complaint
]) {
  const key = first.toLowerCase();
  people[key] = { first, last, email: `${key}.${Date.now().toString(36)}@customers.example` };
}

test.describe("opens, clicks and revenue through real e-mail", () => {
  test.setTimeout(300_000);
  let dataDir = "";
  let smtp: SmtpCapture | undefined;
  let server: ChildProcess | undefined;

  test.afterAll(async () => {
    try {
      if (server?.pid) process.kill(-server.pid, "SIGKILL");
    } catch {
      /* already gone */
    }
    await smtp?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test("the issue's Done when: figures, machines apart, links, revenue, the customer's story", async ({ browser }) => {
    mkdirSync(SHOTS, { recursive: true });
    dataDir = mkdtempSync(path.join(tmpdir(), "crm-engagement-"));
    smtp = await startSmtpCapture();
    const sendgrid = fakeSendgrid();
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
        TRACKING_SCANNER_WINDOW_SECONDS: String(SCANNER_WINDOW_SECONDS),
        SENDGRID_WEBHOOK_PUBLIC_KEY: sendgrid.publicKey,
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

    // The marketer signs up in the browser; their /api token comes from the CLI.
    const context = await browser.newContext({ baseURL: base, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const marketer = `marketer.${Date.now().toString(36)}@shop.example.in`;
    await page.goto("/login");
    await page.getByLabel("Name", { exact: true }).fill("Priya Marketer");
    await page.getByLabel("E-mail", { exact: true }).fill(marketer);
    await page.getByLabel("Password", { exact: true }).fill("engagement correct horse battery");
    await page.getByRole("button", { name: LOCAL_SIGN_IN_BUTTON }).click();
    await expect(page.getByText("Welcome back!")).toBeVisible({ timeout: 45_000 });
    const token = cli("users", "token", marketer).trim().split("\n").pop() ?? "";
    const api = async (pathname: string, init: { method?: string; body?: unknown } = {}) => {
      const r = await fetch(`${base}${pathname}`, {
        method: init.method ?? "GET",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await r.text();
      if (!r.ok) throw new Error(`${init.method ?? "GET"} ${pathname}: ${r.status} ${text}`);
      return JSON.parse(text) as Record<string, unknown>;
    };

    const ids: Record<string, string> = {};
    for (const [key, p] of Object.entries(people)) {
      const created = await api("/api/customers", {
        method: "POST",
        body: { firstName: p.first, lastName: p.last, email: p.email },
      });
      ids[key] = created.id as string;
    }
    const segment = await api("/api/segments", {
      method: "POST",
      body: { name: "Everyone", conditions: { visits: { $gte: 0 } } },
    });
    const launched = await api("/api/campaigns", {
      method: "POST",
      body: {
        name: "Diwali Dhamaka",
        subject: "Diwali offers for {NAME}",
        segmentId: segment._id,
        message: `Hello {NAME},\n\nOur Diwali sale starts today: ${SALE}\n\nAnd see what is new: ${NEW}`,
      },
    });
    const campaignId = launched.id as string;
    expect(launched.audienceSize).toBe(9);

    const db = new Database(path.join(dataDir, "crm.db"), { readonly: true });
    const figures = () =>
      db
        .prepare(
          `SELECT "status", "sentCount", "deliveredCount", "bouncedCount", "complainedCount", "openedCount", "clickedCount", "opensTotal", "clicksTotal",
             "machineOpenCount", "machineClickCount" FROM "Campaign" WHERE "id" = ?`,
        )
        .get(campaignId) as Record<string, number | string>;
    const until = async (what: () => boolean, ms = 120_000) => {
      const end = Date.now() + ms;
      while (!what()) {
        if (Date.now() > end) throw new Error(`timed out waiting; figures: ${JSON.stringify(figures())}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    await until(() => figures().status === "Completed");
    // Every message was handed over by now: the scanner's window of each closes by this time.
    const windowsClosed = Date.now() + SCANNER_WINDOW_SECONDS * 1000 + 1000;
    expect(smtp.messages).toHaveLength(9);

    // Each recipient's message as it arrived: the pixel and the links are found in the HTML.
    const inbox = new Map<string, { pixel: string; sale: string; news: string }>();
    for (const m of smtp.messages) {
      const html = String((await simpleParser(m.raw)).html || "");
      const pixel = /background-image:url\(([^)]+)\)/.exec(html)?.[1] ?? "";
      const link = (label: string) =>
        new RegExp(`<a href="([^"]+)"[^>]*>${label.replace(/[.?]/g, "\\$&")}</a>`)
          .exec(html)?.[1]
          ?.replace(/&amp;/g, "&") ?? "";
      inbox.set(m.to, { pixel, sale: link(SALE.replace(/&/g, "&amp;")), news: link(NEW) });
    }
    const mail = (key: string) => {
      const found = inbox.get(people[key]!.email);
      if (!found) throw new Error(`no message reached ${key}`);
      return found;
    };
    for (const m of inbox.values()) {
      expect(m.pixel).toMatch(new RegExp(`^${base}/o/[A-Za-z0-9_-]+$`));
      expect(m.sale).toMatch(new RegExp(`^${base}/c/[A-Za-z0-9_-]+$`));
      expect(m.news).toMatch(new RegExp(`^${base}/c/[A-Za-z0-9_-]+$`));
    }
    const hit = (url: string, userAgent: string, method = "GET") =>
      fetch(url, { method, redirect: "manual", headers: { "User-Agent": userAgent } });

    // The scanner clicks within seconds of the delivery: counted apart, and still sent on.
    const scanned = await hit(mail("dev").sale, CHROME);
    expect(scanned.status).toBe(302);
    expect(scanned.headers.get("Location")).toBe(SALE);
    // A link checker asks with HEAD; Apple's proxy fetches the pixel as the message arrives.
    expect((await hit(mail("lina").pixel, CHROME, "HEAD")).status).toBe(200);
    expect((await hit(mail("lina").sale, CHROME, "HEAD")).status).toBe(302);
    expect((await hit(mail("kiran").pixel, "Mozilla/5.0")).status).toBe(200);
    // People read later than the scanner's window.
    await new Promise((r) => setTimeout(r, Math.max(0, windowsClosed - Date.now())));
    const gif = await hit(mail("asha").pixel, IPHONE);
    expect(gif.headers.get("Content-Type")).toBe("image/gif");
    await new Promise((r) => setTimeout(r, 1_000));
    const clicked = await hit(mail("asha").sale, IPHONE);
    expect(clicked.status).toBe(302);
    expect(clicked.headers.get("Location")).toBe(SALE);
    await hit(mail("ravi").pixel, CHROME);
    await hit(mail("meera").pixel, CHROME);
    await hit(mail("meera").pixel, CHROME);
    expect((await hit(mail("meera").news, CHROME)).headers.get("Location")).toBe(NEW);
    await hit(mail("meera").news, CHROME);
    // An altered token records nothing and sends nobody anywhere.
    const altered = mail("zoya").sale.replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    expect((await hit(altered, CHROME)).status).toBe(404);

    // SendGrid, relaying for us, reports Bina's bounce and Tara's spam complaint.
    const messageIdOf = (key: string) => smtp!.messages.find((m) => m.to === people[key]!.email)!.messageId;
    const feed = await fetch(
      sendgrid.request(`${base}/api/webhooks/sendgrid`, [
        sendgrid.event("bounce", messageIdOf("bina"), people.bina!.email, {
          type: "bounce",
          status: "5.1.1",
          reason: "550 5.1.1 The email account that you tried to reach does not exist",
        }),
        sendgrid.event("spamreport", messageIdOf("tara"), people.tara!.email),
      ]),
    );
    expect(feed.status).toBe(200);
    expect(await feed.json()).toMatchObject({ received: 2, matched: 2 });
    await until(() => Number(figures().bouncedCount) === 1 && Number(figures().complainedCount) === 1, 30_000);

    // People each once: Asha, Ravi and Meera opened; Asha and Meera clicked. Machines apart:
    // Kiran's proxy and Lina's HEAD opened; Dev's scanner and Lina's HEAD clicked.
    await until(() => Number(figures().clicksTotal) + Number(figures().machineClickCount) >= 5, 30_000);
    expect(figures()).toMatchObject({
      openedCount: 3,
      clickedCount: 2,
      opensTotal: 4,
      clicksTotal: 3,
      machineOpenCount: 2,
      machineClickCount: 2,
    });

    // Asha orders after her click: ₹2,360.00 (2 × ₹1,000 and ₹360 tax), the campaign's revenue.
    await api("/api/orders", {
      method: "POST",
      body: {
        customerId: ids.asha,
        status: "Completed",
        tax: 360,
        items: [{ name: "Diwali lamp set", quantity: 2, price: 1000 }],
      },
    });

    // The campaign's page.
    await page.goto(`/campaigns/${campaignId}`);
    const engagement = page.getByTestId("campaign-engagement");
    await expect(engagement.getByTestId("engagement-unique-opens")).toHaveText("3");
    await expect(engagement.getByTestId("engagement-unique-clicks")).toHaveText("2");
    await expect(engagement.getByTestId("engagement-total-opens")).toHaveText("4");
    await expect(engagement.getByTestId("engagement-total-clicks")).toHaveText("3");
    await expect(engagement.getByTestId("engagement-machine-opens")).toHaveText("2");
    await expect(engagement.getByTestId("engagement-machine-clicks")).toHaveText("2");
    const links = engagement.getByTestId("engagement-link");
    await expect(links).toHaveCount(2);
    await expect(links.nth(0).getByTestId("engagement-link-url")).toHaveText(SALE);
    await expect(links.nth(0).getByTestId("engagement-link-unique")).toHaveText("1");
    await expect(links.nth(0).getByTestId("engagement-link-clicks")).toHaveText("1");
    await expect(links.nth(0).getByTestId("engagement-link-machine")).toHaveText("2");
    await expect(links.nth(1).getByTestId("engagement-link-url")).toHaveText(NEW);
    await expect(links.nth(1).getByTestId("engagement-link-unique")).toHaveText("1");
    await expect(links.nth(1).getByTestId("engagement-link-clicks")).toHaveText("2");
    await expect(links.nth(1).getByTestId("engagement-link-machine")).toHaveText("0");
    // The delivery figures above say the same people.
    await expect(page.getByTestId("figure-opened")).toHaveText("3");
    await expect(page.getByTestId("figure-clicked")).toHaveText("2");
    await expect(page.getByTestId("figure-bounced")).toHaveText("1");
    await expect(page.getByTestId("figure-complained")).toHaveText("1");
    const revenue = page.getByTestId("campaign-attribution");
    await expect(revenue.getByTestId("attribution-orders")).toHaveText("1");
    await expect(revenue.getByTestId("attribution-revenue")).toHaveText("₹2,360.00");
    await page.screenshot({ path: path.join(SHOTS, "campaign-detail-1440.png"), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: path.join(SHOTS, "campaign-detail-390.png"), fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1440, height: 900 });

    // The campaign list and the dashboard agree.
    await page.goto("/campaigns");
    const row = page.getByTestId("campaign-row").filter({ hasText: "Diwali Dhamaka" });
    await expect(row.getByTestId("campaign-revenue")).toHaveText("₹2,360.00");
    await page.goto("/campaigns?sort=revenue");
    await expect(page.getByTestId("campaign-row").first()).toContainText("Diwali Dhamaka");
    // The dashboard keeps its revenue figure for up to 30 s (DASHBOARD_REVENUE_TTL_MS): the sign-in's
    // visit before the order may still be what it shows.
    await page.goto("/dashboard");
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId("campaign-revenue-total")).toHaveText("₹2,360.00", { timeout: 1_000 });
    }).toPass({ timeout: 45_000, intervals: [2_000] });
    await expect(page.getByTestId("campaign-revenue-orders")).toHaveText("1 order");
    const openRate = page.getByTestId("rate-Average Open Rate");
    await expect(openRate).toContainText("3 opened of");
    await expect(page.getByTestId("rate-Average Click Rate")).toContainText("2 clicked of 3 opened");
    await page.screenshot({ path: path.join(SHOTS, "dashboard-1440.png"), fullPage: true });

    // The customer's story: what Asha received, opened and clicked, newest first.
    await page.goto(`/customers/${ids.asha}`);
    const story = page.getByRole("region", { name: "E-mail history" });
    await expect(story.getByTestId("story-text")).toHaveText([
      "Clicked a link in Diwali Dhamaka",
      "Opened Diwali Dhamaka",
      "Received Diwali Dhamaka",
    ]);
    await expect(story.getByTestId("story-detail").first()).toHaveText(SALE);
    await expect(story.getByRole("link", { name: "Diwali Dhamaka" }).first()).toHaveAttribute(
      "href",
      `/campaigns/${campaignId}`,
    );
    await page.screenshot({ path: path.join(SHOTS, "customer-asha-1440.png"), fullPage: true });
    // Kiran's mail app loaded it by itself: said so, not counted as an open.
    await page.goto(`/customers/${ids.kiran}`);
    await expect(story.getByTestId("story-text")).toHaveText([
      "Diwali Dhamaka was loaded automatically, not by the customer",
      "Received Diwali Dhamaka",
    ]);
    // SendGrid's reports, in the words of the story.
    await page.goto(`/customers/${ids.bina}`);
    await expect(story.getByTestId("story-text")).toHaveText([
      "Put on the suppression list after the hard bounce of Diwali Dhamaka",
      "Diwali Dhamaka bounced",
    ]);
    await expect(story.getByTestId("story-detail")).toHaveText([/^550 5\.1\.1 The email account/]);
    await expect(page.getByTestId("suppression-badge")).toHaveText("Hard bounce");
    await page.screenshot({ path: path.join(SHOTS, "customer-bina-1440.png"), fullPage: true });
    await page.goto(`/customers/${ids.tara}`);
    await expect(story.getByTestId("story-text")).toHaveText([
      "Put on the suppression list after the spam complaint about Diwali Dhamaka",
      "Marked Diwali Dhamaka as spam",
      "Received Diwali Dhamaka",
    ]);
    // Dev's scanner is not Dev.
    await page.goto(`/customers/${ids.dev}`);
    await expect(story.getByTestId("story-text")).toHaveText(["Received Diwali Dhamaka"]);

    // Zoya, sent the campaign, unsubscribes and resubscribes 15 times: 31 entries, the newest 25
    // first, then the rest.
    for (let i = 0; i < 15; i++) {
      await api("/api/suppressions", { method: "POST", body: { emails: [people.zoya!.email] } });
      await api(`/api/suppressions/${encodeURIComponent(people.zoya!.email)}`, { method: "DELETE" });
    }
    await storyPages(page, `/customers/${ids.zoya}`);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/customers/${ids.asha}`);
    await expect(story.getByTestId("story-text")).toHaveCount(3);
    await page.screenshot({ path: path.join(SHOTS, "customer-asha-390.png"), fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await storyPagesWithoutJavaScript(browser, await context.storageState(), base, `/customers/${ids.zoya}`);
    db.close();
    await context.close();
  });
});

/** "Show older" with JavaScript: the older entries are added below, the address stays. */
async function storyPages(page: Page, path_: string) {
  await page.goto(path_);
  const story = page.getByRole("region", { name: "E-mail history" });
  await expect(story.getByTestId("story-text")).toHaveCount(25);
  await expect(story.getByTestId("story-text").first()).toHaveText("Resubscribed");
  await story.getByRole("link", { name: "Show older" }).click();
  await expect(story.getByTestId("story-text")).toHaveCount(31);
  await expect(story.getByTestId("story-text").last()).toHaveText("Received Diwali Dhamaka");
  await expect(story.getByRole("link", { name: "Show older" })).toHaveCount(0);
  expect(new URL(page.url()).search).toBe("");
  await page.screenshot({ path: path.join(SHOTS, "customer-story-paged-js-1440.png"), fullPage: true });
}

/** "Show older" without JavaScript: a plain link to the older page, and back to the newest. */
async function storyPagesWithoutJavaScript(
  browser: Browser,
  storageState: Awaited<ReturnType<import("@playwright/test").BrowserContext["storageState"]>>,
  base: string,
  path_: string,
) {
  const context = await browser.newContext({
    baseURL: base,
    storageState,
    javaScriptEnabled: false,
    viewport: { width: 390, height: 844 },
  });
  const page = await context.newPage();
  await page.goto(path_);
  const story = page.getByRole("region", { name: "E-mail history" });
  await expect(story.getByTestId("story-text")).toHaveCount(25);
  await page.screenshot({ path: path.join(SHOTS, "customer-story-nojs-390.png"), fullPage: true });
  await story.getByRole("link", { name: "Show older" }).click();
  await expect(page).toHaveURL(/\?story=/);
  await expect(story.getByTestId("story-text")).toHaveCount(6);
  await expect(story.getByTestId("story-text").last()).toHaveText("Received Diwali Dhamaka");
  await page.screenshot({ path: path.join(SHOTS, "customer-story-nojs-older-390.png"), fullPage: true });
  await story.getByRole("link", { name: "Back to the newest" }).click();
  await expect(story.getByTestId("story-text")).toHaveCount(25);
  await context.close();
}
