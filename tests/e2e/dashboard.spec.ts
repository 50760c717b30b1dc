// The dashboard as a marketer sees it: an empty account (the info snackbar at the top centre that
// hides after 6 s, the empty Recent Campaigns, 'Not enough data for insights'), an account with a
// history (`crm seed --campaigns`: the counts and their change this month, Recent Campaigns, the
// performance rates in their bands, the insights and who wrote them, the charts, Recent Activity),
// on a laptop and on a 390 px phone without sideways scroll; and the data-failure view, on a
// server of its own whose database lost a table the dashboard reads.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import Database from "better-sqlite3";
import {
  clickRateColour,
  dayOf,
  dayStartMs,
  deliveryRateColour,
  monthStart,
  openRateColour,
  percentChange,
  weekStarts,
} from "../../app/lib/dashboard";
import { formatDay } from "../../app/lib/dates";
import { productionServerEnv, repoRoot, serverCommand } from "../helpers/production-server";
import { e2eDatabaseFile, expect, signIn, test, uniqueEmail, LOCAL_SIGN_IN_BUTTON } from "./fixtures";

const EMPTY_ACCOUNT =
  "No customer, segment, or campaign data found. Create your first entries to populate the dashboard.";

/** `crm seed` against a server's database, as an admin would run it. */
function crm(dataDir: string, ...argv: string[]) {
  return execFileSync(process.execPath, [path.join(repoRoot, "bin/crm.mjs"), ...argv], {
    cwd: repoRoot,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", NODE_ENV: "development" },
  }).toString();
}

const card = (page: Page, name: string) => page.getByRole("region", { name, exact: true });

async function expectNoSidewaysScroll(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
}

/** What the database says the dashboard should show, counted the slow way. */
function expectedFigures(email: string) {
  const db = new Database(e2eDatabaseFile(), { readonly: true });
  try {
    db.pragma("busy_timeout = 10000");
    const userId = db.prepare(`SELECT id FROM "User" WHERE email = ?`).pluck().get(email.toLowerCase()) as string;
    const count = (table: string) =>
      Number(db.prepare(`SELECT count(*) FROM "${table}" WHERE "userId" = ?`).pluck().get(userId));
    const monthStartMs = dayStartMs(monthStart(dayOf(new Date())));
    const before = (table: string) =>
      Number(
        db
          .prepare(`SELECT count(*) FROM "${table}" WHERE "userId" = ? AND "createdAt" < ?`)
          .pluck()
          .get(userId, monthStartMs),
      );
    const t = db
      .prepare(
        `SELECT sum("deliveredCount") AS delivered, sum("deliveredCount" + "failedCount" + "bouncedCount") AS attempted,
                sum("openedCount") AS opened, sum("clickedCount") AS clicked
           FROM "Campaign" WHERE "userId" = ?`,
      )
      .get(userId) as { delivered: number; attempted: number; opened: number; clicked: number };
    const rate = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 1000) / 10 : 0);
    const recent = db
      .prepare(
        `SELECT id, name, "failedCount" AS failed FROM "Campaign" WHERE "userId" = ?
          ORDER BY coalesce("launchedAt", "createdAt") DESC LIMIT 3`,
      )
      .all(userId) as { id: string; name: string; failed: number }[];
    const twelveWeeksMs = dayStartMs(weekStarts(new Date())[0]);
    return {
      customers: count("Customer"),
      customersLast12Weeks: Number(
        db
          .prepare(`SELECT count(*) FROM "Customer" WHERE "userId" = ? AND "createdAt" >= ?`)
          .pluck()
          .get(userId, twelveWeeksMs),
      ),
      segments: count("Segment"),
      campaigns: count("Campaign"),
      customersBefore: before("Customer"),
      campaignsBefore: before("Campaign"),
      segmentsBefore: before("Segment"),
      deliveryRate: rate(t.delivered, t.attempted),
      openRate: rate(t.opened, t.delivered),
      clickRate: rate(t.clicked, t.opened),
      recent,
    };
  } finally {
    db.close();
  }
}

test.describe("dashboard", () => {
  test("an empty account: the info snackbar, no recent campaigns, not enough data for insights", async ({ page }) => {
    await page.setViewportSize({ width: 1366, height: 900 });
    // When the snackbar came and went, by the page's own clock (the test may see it late on a busy machine).
    await page.addInitScript(() => {
      const times: { shown?: number; hidden?: number } = {};
      Object.assign(window, { snackbarTimes: times });
      new MutationObserver(() => {
        const present = document.querySelector('[data-testid="snackbar"]') !== null;
        if (present && times.shown === undefined) times.shown = window.performance.now();
        if (!present && times.shown !== undefined && times.hidden === undefined)
          times.hidden = window.performance.now();
      }).observe(document, { childList: true, subtree: true });
    });
    await signIn(page, { name: "Empty Dashboard" });
    await expect(page.getByRole("heading", { name: "Welcome back!" })).toBeVisible();
    await expect(page.getByText("Here's what's happening with your customers and campaigns today.")).toBeVisible();

    // The snackbar: at the top centre, just below the top bar (never over its buttons), with the
    // spec's text, gone after 6 s.
    const snackbar = page.getByTestId("snackbar");
    await expect(snackbar).toContainText(EMPTY_ACCOUNT);
    const box = await snackbar.boundingBox();
    const bar = await page.getByRole("banner").boundingBox();
    expect(box).not.toBeNull();
    if (box && bar) {
      expect(Math.abs(box.x + box.width / 2 - 1366 / 2)).toBeLessThan(4);
      expect(box.y).toBeGreaterThanOrEqual(bar.y + bar.height);
      expect(box.y).toBeLessThan(bar.y + bar.height + 24);
    }
    // It hides itself 6 s after it showed.
    await expect(snackbar).toBeHidden({ timeout: 10_000 });
    const times = await page.evaluate(
      () => (window as unknown as { snackbarTimes: { shown?: number; hidden?: number } }).snackbarTimes,
    );
    const shownFor = (times.hidden ?? 0) - (times.shown ?? 0);
    expect(shownFor).toBeGreaterThanOrEqual(5_900);
    expect(shownFor).toBeLessThan(8_000);

    for (const [label, to] of [
      ["Total Customers", "/customers"],
      ["Total Segments", "/segments"],
      ["Total Campaigns", "/campaigns"],
    ] as const) {
      const stat = card(page, label);
      await expect(stat.getByTestId("stat-count")).toHaveText("0");
      await expect(stat.getByTestId("stat-change")).toHaveText("0%");
      await expect(stat).toContainText("this month");
      await expect(stat.getByRole("link")).toHaveAttribute("href", to);
    }

    const recent = card(page, "Recent Campaigns");
    await expect(recent.getByText("No recent campaigns")).toBeVisible();
    await expect(recent.getByText("Launch your first campaign to see it here")).toBeVisible();
    await expect(recent.getByRole("link", { name: "Create Campaign" })).toHaveAttribute("href", "/campaigns/new");
    await expect(recent.getByRole("link", { name: "View All" })).toHaveAttribute("href", "/campaigns");

    // Nothing attempted, delivered or opened: no rate, not a red 0.0% (docs/rules.md#numbers).
    const performance = card(page, "Campaign Performance");
    for (const label of ["Average Delivery Rate", "Average Open Rate", "Average Click Rate"]) {
      await expect(performance.getByTestId(`rate-${label}`).getByTestId("rate-value")).toHaveText("—");
      await expect(performance.getByTestId(`rate-${label}`)).toHaveAttribute("data-colour", "default");
    }

    const insights = card(page, "AI Insights");
    await expect(insights.getByText("Not enough data for insights")).toBeVisible();
    await expect(insights.getByRole("link", { name: "Create Campaign" })).toHaveAttribute("href", "/campaigns/new");
    await expect(insights.getByRole("link", { name: "Add Customer" })).toHaveAttribute("href", "/customers/new");

    await expect(card(page, "Recent Activity").getByText("No activity yet")).toBeVisible();
    const quick = card(page, "Quick Actions");
    await expect(quick.getByRole("link", { name: "Create New Segment" })).toHaveAttribute("href", "/segments/new");
    await expect(quick.getByRole("link", { name: "Launch New Campaign" })).toHaveAttribute("href", "/campaigns/new");
    await expect(quick.getByRole("link", { name: "Add New Customer" })).toHaveAttribute("href", "/customers/new");

    // An arrow goes to its list.
    await card(page, "Total Segments").getByRole("link").click();
    await expect(page).toHaveURL(/\/segments$/);
  });

  test("a seeded account: counts and changes, recent campaigns, performance, insights, charts, activity; wide and phone", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const messages: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") messages.push(m.text());
    });
    page.on("pageerror", (e) => messages.push(e.message));
    await page.setViewportSize({ width: 1366, height: 900 });
    const { email } = await signIn(page, { name: "Seeded Marketer", email: uniqueEmail("dashboard") });
    for (const [name, conditions] of [
      ["Big spenders", { totalSpend: { $gt: 20_000 } }],
      ["Everyone", { visits: { $gte: 0 } }],
    ] as const) {
      const res = await page.request.post("/api/segments", { data: { name, conditions, logicType: "AND" } });
      expect(res.ok(), await res.text()).toBeTruthy();
    }
    const dataDir = path.dirname(e2eDatabaseFile());
    crm(dataDir, "seed", "--user", email, "--customers", "300", "--orders", "600", "--campaigns", "12", "--seed", "17");
    const want = expectedFigures(email);
    expect(want.campaigns).toBe(12);
    expect(want.customers).toBe(300);

    await page.goto("/dashboard");
    await expect(page.getByRole("heading", { name: "Welcome back!" })).toBeVisible();
    await expect(page.getByTestId("snackbar")).toBeHidden();

    // Counts, and their change against the end of last month (the seeded history began in it).
    for (const [label, now, before] of [
      ["Total Customers", want.customers, want.customersBefore],
      ["Total Segments", want.segments, want.segmentsBefore],
      ["Total Campaigns", want.campaigns, want.campaignsBefore],
    ] as const) {
      const stat = card(page, label);
      await expect(stat.getByTestId("stat-count")).toHaveText(now.toLocaleString("en-IN"));
      await expect(stat.getByTestId("stat-change")).toHaveText(percentChange(now, before));
    }

    // Recent Campaigns: the newest three, failures, the chip, a short date, and the link.
    const recent = card(page, "Recent Campaigns");
    const items = recent.getByTestId("recent-campaign");
    await expect(items).toHaveCount(3);
    for (const [i, c] of want.recent.entries()) {
      await expect(items.nth(i)).toContainText(c.name);
      await expect(items.nth(i).getByTestId("recent-campaign-failed")).toHaveText(`${c.failed} failed`);
      await expect(items.nth(i).getByTestId("recent-campaign-success")).toHaveText(/^\d{1,3}\.\d% success$/);
      await expect(items.nth(i)).toHaveAttribute("href", `/campaigns/${c.id}`);
    }
    await expect(items.first()).toContainText(/\d{1,2} [A-Z][a-z]{2} \d{4}/);

    // Campaign Performance: the figures of the kept counters, each bar in its band.
    const performance = card(page, "Campaign Performance");
    for (const [label, value, colour] of [
      ["Average Delivery Rate", want.deliveryRate, deliveryRateColour(want.deliveryRate)],
      ["Average Open Rate", want.openRate, openRateColour(want.openRate)],
      ["Average Click Rate", want.clickRate, clickRateColour(want.clickRate)],
    ] as const) {
      const rate = performance.getByTestId(`rate-${label}`);
      await expect(rate.getByTestId("rate-value")).toHaveText(`${value.toFixed(1)}%`);
      await expect(rate).toHaveAttribute("data-colour", colour);
      await expect(rate.getByRole("progressbar", { name: label })).toHaveAttribute(
        "aria-valuenow",
        String(Math.min(100, value)),
      );
    }
    expect(want.deliveryRate).toBeGreaterThan(70);
    // The tooltip says how the rate is computed, on hover.
    await performance.getByRole("button", { name: "How Average Open Rate is computed" }).hover();
    await expect(page.getByRole("tooltip", { name: "Opened messages divided by delivered messages" })).toBeVisible();

    // AI Insights: three blocks, and who wrote them (no language model is configured here).
    const insights = card(page, "AI Insights");
    for (const title of ["Campaign Performance", "Segment Insight", "Recent Activity"]) {
      await expect(insights.getByRole("heading", { name: title })).toBeVisible();
    }
    await expect(insights.getByTestId("insights-writer")).toHaveText("Written from your data");
    await expect(insights.getByTestId("insight-campaignPerformance")).toContainText(/\d/);

    // The charts are drawn.
    for (const name of ["Customers added per week", "Campaigns sent per week", "Delivery funnel"]) {
      const chart = card(page, name);
      await expect(chart.locator(".recharts-wrapper svg").first()).toBeVisible();
      await expect(chart.locator(".recharts-bar-rectangle").first()).toBeVisible();
    }
    await expect(card(page, "Customers added per week")).toContainText(
      `${want.customersLast12Weeks.toLocaleString("en-IN")} in the last 12 weeks`,
    );
    await expect(card(page, "Delivery funnel").locator(".recharts-bar-rectangle")).toHaveCount(4);

    // Recent Activity: ten of the newest campaigns, segments and customers, each linking to its record.
    const activity = card(page, "Recent Activity").getByTestId("activity-item");
    await expect(activity).toHaveCount(10);
    for (let i = 0; i < 10; i++) {
      const type = await activity.nth(i).getAttribute("data-type");
      await expect(activity.nth(i)).toHaveAttribute("href", new RegExp(`^/${type}s/[0-9a-f]{24}$`));
    }
    await expectNoSidewaysScroll(page);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: test.info().outputPath("dashboard-wide.png"), fullPage: true });

    // A 390 px phone: everything still there, nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(page.getByRole("heading", { name: "Welcome back!" })).toBeVisible();
    for (const name of ["Customers added per week", "Campaigns sent per week", "Delivery funnel"]) {
      const svg = card(page, name).locator(".recharts-wrapper svg").first();
      await svg.scrollIntoViewIfNeeded();
      await expect(svg).toBeVisible();
      const box = await svg.boundingBox();
      expect(box && box.width > 250 && box.x >= 0 && box.x + box.width <= 390).toBeTruthy();
    }
    await expect(card(page, "AI Insights").getByTestId("insights-writer")).toBeVisible();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: test.info().outputPath("dashboard-phone.png"), fullPage: true });

    // A recent campaign opens its detail.
    await card(page, "Recent Campaigns").getByTestId("recent-campaign").first().click();
    await expect(page).toHaveURL(new RegExp(`/campaigns/${want.recent[0].id}$`));
    expect(messages.filter((m) => !/Failed to load resource/.test(m))).toEqual([]);
  });

  test("without JavaScript the charts' figures are on the page as tables, on a laptop and a phone", async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    const { email } = await signIn(page, { name: "No Script Reader", email: uniqueEmail("dashboard-nojs") });
    const dataDir = path.dirname(e2eDatabaseFile());
    crm(dataDir, "seed", "--user", email, "--customers", "300", "--orders", "10", "--campaigns", "6", "--seed", "5");
    const want = expectedFigures(email);
    const context = await browser.newContext({
      javaScriptEnabled: false,
      storageState: await page.context().storageState(),
    });
    try {
      const reader = await context.newPage();
      const weeks = weekStarts(new Date()).map(formatDay);
      for (const viewport of [
        { width: 1366, height: 900 },
        { width: 390, height: 844 },
      ]) {
        await reader.setViewportSize(viewport);
        await reader.goto("/dashboard");
        await expect(reader.getByRole("heading", { name: "Welcome back!" })).toBeVisible();

        // Customers added per week: a row a week, oldest first, each count in Indian grouping,
        // adding up to the caption's total.
        const customers = card(reader, "Customers added per week");
        await expect(customers).toContainText(
          `${want.customersLast12Weeks.toLocaleString("en-IN")} in the last 12 weeks`,
        );
        const rows = customers.getByTestId("chart-figures").locator("tbody tr");
        await expect(rows).toHaveCount(12);
        await expect(rows.locator("td:first-child")).toHaveText(weeks);
        const counts = await rows.locator("td:last-child").allTextContents();
        for (const c of counts) expect(c).toMatch(/^(\d{1,2}(,\d{2})*,\d{3}|\d{1,3})$/);
        expect(counts.reduce((sum, c) => sum + Number(c.replaceAll(",", "")), 0)).toBe(want.customersLast12Weeks);

        const campaigns = card(reader, "Campaigns sent per week").getByTestId("chart-figures");
        await expect(campaigns.locator("tbody tr")).toHaveCount(12);
        await expect(campaigns.locator("thead")).toContainText("Campaigns sent");

        // The delivery funnel: the four stages with their counts and shares of the sent.
        const funnel = card(reader, "Delivery funnel").getByTestId("chart-figures");
        await expect(funnel.locator("tbody td:first-child")).toHaveText(["Sent", "Delivered", "Opened", "Clicked"]);
        await expect(funnel.locator("tbody tr").first().locator("td").last()).toHaveText(
          /^[\d,]+ \(100\.0% of sent\)$/,
        );

        // Readable: the tables are on screen and inside their cards, not empty boxes or screen-reader text.
        for (const name of ["Customers added per week", "Campaigns sent per week", "Delivery funnel"]) {
          const table = card(reader, name).getByTestId("chart-figures");
          await table.scrollIntoViewIfNeeded();
          const box = (await table.boundingBox())!;
          expect(box.width).toBeGreaterThan(200);
          expect(box.height).toBeGreaterThan(60);
          await expect(card(reader, name).locator(".recharts-wrapper")).toHaveCount(0);
        }
        await expectNoSidewaysScroll(reader);
        await reader.screenshot({
          path: test.info().outputPath(`dashboard-no-js-${viewport.width}.png`),
          fullPage: true,
        });
      }
    } finally {
      await context.close();
    }
  });
});

test.describe("dashboard data failure", () => {
  let dataDir = "";
  let server: ChildProcess | undefined;

  test.afterAll(async () => {
    if (server?.pid) {
      try {
        process.kill(-server.pid, "SIGTERM");
      } catch {
        /* already gone */
      }
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function freePort(): Promise<number> {
    const probe = net.createServer().listen(0, "127.0.0.1");
    await new Promise((resolve) => probe.once("listening", resolve));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    return port;
  }

  test("a database that lost the dashboard's table: 'Dashboard Data Issue', the error snackbar, reload and login", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    // A server of its own: breaking the shared e2e server's database would break the other tests.
    dataDir = mkdtempSync(path.join(tmpdir(), "crm-dashboard-failure-"));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    server = spawn(serverCommand.file, serverCommand.args, {
      cwd: repoRoot,
      env: productionServerEnv({ port, publicUrl: base, dataDir, extra: { SIGN_IN_RATE_LIMIT: "1000" } }),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    server.stdout?.on("data", (d: Buffer) => (output += d.toString()));
    server.stderr?.on("data", (d: Buffer) => (output += d.toString()));
    const started = Date.now();
    while (
      !(await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      if (Date.now() - started > 90_000) throw new Error(`the server did not start:\n${output.slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }

    const absolute = (p: string) => `${base}${p}`;
    await page.goto(absolute("/login"));
    await page.getByLabel("Name", { exact: true }).fill("Broken Data");
    await page.getByLabel("E-mail", { exact: true }).fill(uniqueEmail("broken"));
    await page.getByLabel("Password", { exact: true }).fill("e2e correct horse battery staple");
    await page.getByRole("button", { name: LOCAL_SIGN_IN_BUTTON }).click();
    await expect(page.getByText("Welcome back!")).toBeVisible({ timeout: 45_000 });

    // The table of daily snapshots goes missing (a restore from an old backup, say).
    const db = new Database(path.join(dataDir, "crm.db"));
    try {
      db.pragma("busy_timeout = 10000");
      db.exec(`DROP TABLE "DashboardSnapshot"`);
    } finally {
      db.close();
    }

    await page.goto(absolute("/dashboard"));
    const issue = page.getByTestId("dashboard-data-issue");
    await expect(issue.getByRole("heading", { name: "Dashboard Data Issue" })).toBeVisible();
    await expect(page.getByTestId("snackbar")).toHaveText(/^Error fetching dashboard data: .+/);
    // The shell stays: the navigation still works.
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    await expect(issue.getByRole("link", { name: "Return to Login" })).toHaveAttribute("href", "/login");

    await issue.getByRole("link", { name: "Reload Page" }).click();
    await expect(issue.getByRole("heading", { name: "Dashboard Data Issue" })).toBeVisible();
    await expect(page).toHaveURL(absolute("/dashboard"));
  });
});
