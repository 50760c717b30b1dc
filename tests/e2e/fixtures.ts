// What every e2e spec imports: Playwright's test and expect, and signIn() for a fresh local user.
import { test as base, expect, type APIRequestContext, type Page } from "@playwright/test";
import Database from "better-sqlite3";
import { readFileSync } from "node:fs";
import path from "node:path";
import { type AnyConnection, closeConnection } from "../../app/db/connection.server";
import { newId } from "../../app/lib/id";
import { plannedReceipts } from "../../app/services/sending/simulated-vendor.server";
import { openSqlConnection } from "../helpers/sql";
import { POSTGRES_URL_FILE } from "./postgres-url";

export { expect };
export const test = base;

/**
 * The details of a test that runs on PostgreSQL too: the "postgres" project of playwright.config.ts
 * runs the tests tagged @postgres, against the same product on a PostgreSQL database. Tagged: the
 * tests whose path goes through SQL that differs by engine (search, sort and paging, imports, the
 * audience of a segment, dates, launching and delivery, concurrent writes); the screens' layout,
 * forms without JavaScript and messages that the engine does not change run on SQLite only.
 */
export const POSTGRES_TOO = { tag: "@postgres" } as const;

let counter = 0;

/** A unique e-mail per call, across workers and runs. */
export function uniqueEmail(prefix = "e2e") {
  counter += 1;
  const random = Math.random().toString(36).slice(2, 8);
  return `${prefix}-${Date.now().toString(36)}-${process.pid}-${counter}-${random}@example.com`;
}

/**
 * The local form's submit button: "Create account and sign in" while the server has no account
 * (its first is the owner's), "Sign in locally" after.
 */
export const LOCAL_SIGN_IN_BUTTON = /^(Sign in locally|Create account and sign in)$/;

/** The password signIn() gives the accounts it creates (and signs in with later). */
export const E2E_PASSWORD = "e2e correct horse battery staple";

/**
 * Signs a user in through the /login page's local sign-in form and waits for the dashboard.
 * Without an e-mail a brand-new user is created (a sign-up), so every test has its own tenant.
 */
export async function signIn(page: Page, options: { name?: string; email?: string; password?: string } = {}) {
  const name = options.name ?? "Test User";
  const email = options.email ?? uniqueEmail();
  await page.goto("/login");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(options.password ?? E2E_PASSWORD);
  await page.getByRole("button", { name: LOCAL_SIGN_IN_BUTTON }).click();
  await expect(page.getByText("Welcome back!")).toBeVisible({ timeout: 45_000 });
  return { name, email };
}

/** The e2e server's database (the runner made its data directory; see playwright.config.ts). */
export function e2eDatabaseFile() {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error("E2E_DATA_DIR is not set: run the e2e tests through playwright.config.ts");
  return path.join(dir, "crm.db");
}

/**
 * Runs `work` with a connection to the database of the server the running test talks to: the
 * SQLite file of the "chromium" project, or the PostgreSQL database of the "postgres" project
 * (playwright.config.ts; tests/e2e/start-servers.ts names it in the server's data directory). The
 * SQL goes through tests/helpers/sql.ts (sqlRows, sqlRun: `?` placeholders on both engines).
 */
export async function withE2eDatabase<T>(work: (connection: AnyConnection) => Promise<T>): Promise<T> {
  const target =
    test.info().project.name === "postgres"
      ? readFileSync(path.join(`${path.dirname(e2eDatabaseFile())}-pg`, POSTGRES_URL_FILE), "utf8").trim()
      : e2eDatabaseFile();
  const connection = openSqlConnection(target);
  try {
    return await work(connection);
  } finally {
    await closeConnection(connection);
  }
}

export type SeedNotification = {
  type: "NEW_CAMPAIGN" | "NEW_SEGMENT" | "NEW_CUSTOMERS" | "CAMPAIGN_PERFORMANCE" | "SYSTEM";
  title: string;
  details?: string;
  read?: boolean;
  /** How long ago it happened, in milliseconds (default: now). */
  ageMs?: number;
};

/**
 * Stores notifications for the user with this e-mail straight in the server's database, for
 * screens that need several types before the features that emit them exist. The page shows them
 * at its next load.
 */
export function seedNotifications(email: string, items: SeedNotification[]) {
  const sqlite = new Database(e2eDatabaseFile());
  try {
    sqlite.pragma("busy_timeout = 10000");
    const user = sqlite.prepare(`SELECT id FROM "User" WHERE email = ?`).get(email.toLowerCase()) as
      { id: string } | undefined;
    if (!user) throw new Error(`No user ${email} in the e2e database`);
    const insert = sqlite.prepare(
      `INSERT INTO "Notification" (id, userId, type, title, details, read, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    const now = Date.now();
    sqlite.transaction(() => {
      for (const n of items) {
        const at = new Date(now - (n.ageMs ?? 0));
        insert.run(newId(at), user.id, n.type, n.title, n.details ?? "", n.read ? 1 : 0, at.getTime());
      }
    })();
  } finally {
    sqlite.close();
  }
}

type LogRow = { id: string; status: string; openedAt: string | null; clickedAt: string | null };

/**
 * Waits until the built-in vendor (the shared servers' channel) has reported everything it will
 * about a campaign first sent: each message's delivery, failure or bounce, and its open and click
 * where it will report one. The vendor's outcomes follow from each message's key (on a first send
 * its delivery id, which the log shows), so plannedReceipts() says what to wait for; the last
 * receipt comes up to ~18 s after its message, usually sooner than a fixed 20 s.
 */
export async function waitForVendorReceipts(request: APIRequestContext, campaignId: string, timeout = 60_000) {
  const outstanding = async () => {
    const res = await request.get(`/api/campaigns/${campaignId}/logs?limit=1000`);
    expect(res.ok()).toBeTruthy();
    const rows = (await res.json()) as LogRow[];
    return rows.filter((row) => {
      const events = new Set(plannedReceipts(row.id).map((r) => r.event));
      // A message the vendor could not deliver after accepting it ("failed" or "bounced") is a bounce.
      const status = events.has("delivered") ? "delivered" : "bounced";
      return (
        row.status !== status || (events.has("opened") && !row.openedAt) || (events.has("clicked") && !row.clickedAt)
      );
    }).length;
  };
  await expect.poll(outstanding, { timeout, intervals: [500] }).toBe(0);
}

/** A customer made through /api with the page's session; its id. */
export async function createCustomerThroughApi(page: Page, c: { firstName: string; lastName: string; email: string }) {
  const res = await page.request.post("/api/customers", { data: c });
  expect(res.ok(), await res.text()).toBeTruthy();
  return ((await res.json()) as { _id: string })._id;
}

/**
 * A screenshot of the whole page at this width, in the test's output folder: the window made as
 * tall as the page (a full-page capture would repeat the fixed side navigation and top bar). The
 * page must fit its width: nothing scrolls sideways.
 */
export async function widthShot(page: Page, name: string, width: number) {
  await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at ${width}`).toBeLessThanOrEqual(
    width,
  );
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width, height: Math.min(height, 4000) });
  await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`) });
  await page.setViewportSize({ width: 1366, height: 900 });
}

/** The toast (sonner) that shows `text`: a flash message after a redirect, with JavaScript. */
export const toast = (page: Page, text: string | RegExp) =>
  page.locator("[data-sonner-toast]").filter({ hasText: text });
