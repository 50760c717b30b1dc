// What every e2e spec imports: Playwright's test and expect, and signIn() for a fresh local user.
import { test as base, expect, type Page } from "@playwright/test";
import Database from "better-sqlite3";
import { readFileSync } from "node:fs";
import path from "node:path";
import { type AnyConnection, closeConnection } from "../../app/db/connection.server";
import { newId } from "../../app/lib/id";
import { openSqlConnection } from "../helpers/sql";
import { POSTGRES_URL_FILE } from "./postgres-url";

export { expect };
export const test = base;

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
