// What a newcomer meets: the built product started as the README's `npm start` serves it
// (`npm run serve`: NODE_ENV=production node build/node/server.mjs) with an empty environment, only
// PATH, HOME and PORT, in a fresh directory. The first visitor creates the owner's account on the
// sign-in page and lands on the dashboard with a clean address; a second person cannot sign up;
// the owner adds them on the Users screen and their one-time link sets a password; the loopback
// spellings of the address all work.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Page, expect, test } from "@playwright/test";
import { freePort, repoRoot } from "../helpers/production-server.ts";

test.describe.configure({ mode: "serial" });

let server: ChildProcess;
let home: string;
let port: number;
let output = "";

test.beforeAll(async () => {
  home = mkdtempSync(path.join(tmpdir(), "crm-first-run-"));
  port = await freePort();
  // Nothing set but what any shell has, and the port; NODE_ENV=production is `npm run serve`'s own.
  server = spawn(process.execPath, [path.join(repoRoot, "build/node/server.mjs")], {
    cwd: home,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, PORT: String(port), NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  server.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the server stopped at start:\n${output}`);
    const ready = await fetch(`http://localhost:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`the server did not answer within 60 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
  rmSync(home, { recursive: true, force: true });
});

/** Every address the page's frame went to, to check that none carried the token. */
function addressesOf(page: Page): string[] {
  const seen: string[] = [];
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) seen.push(frame.url());
  });
  return seen;
}

const OWNER = { name: "Meera Nair", email: "meera@shop.example", password: "kettle-morning-vivid-42" };

test("the first visitor creates the owner's account and lands on the dashboard, the token never in the address", async ({
  page,
}) => {
  // The server's log says what to do next.
  expect(output).toContain(`No account yet: open http://localhost:${port} to create the owner's account.`);
  const seen = addressesOf(page);
  await page.goto(`http://localhost:${port}/`);
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("heading", { name: "Create the owner's account" })).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill(OWNER.name);
  await page.getByLabel("E-mail", { exact: true }).fill(OWNER.email);
  await page.getByLabel("Password", { exact: true }).fill(OWNER.password);
  await page.getByRole("button", { name: "Create account and sign in" }).click();
  await expect(page.getByText("Welcome back!")).toBeVisible({ timeout: 30_000 });
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(seen.some((url) => url.includes("/auth/callback?auth=success"))).toBe(true);
  expect(seen.filter((url) => /token=/.test(url))).toEqual([]);
  // The page's bearer token was stored all the same.
  const token = await page.evaluate(() => localStorage.getItem("crm_auth_token"));
  expect(token?.split(".")).toHaveLength(3);
  // The session secret was generated into the data directory under the working directory.
  expect(existsSync(path.join(home, "data", "session-secret"))).toBe(true);
  expect(existsSync(path.join(home, "data", "crm.db"))).toBe(true);
});

test("a second person cannot sign up: sign-up is closed after the owner", async ({ page }) => {
  await page.goto(`http://localhost:${port}/login`);
  await expect(page.getByText("New accounts are added by this server's owner.")).toBeVisible();
  await expect(page.getByLabel("Name", { exact: true })).toHaveCount(0);
  await page.getByLabel("E-mail", { exact: true }).fill("ravi@elsewhere.example");
  await page.getByLabel("Password", { exact: true }).fill("another-long-passphrase-7");
  await page.getByRole("button", { name: "Sign in locally" }).click();
  await expect(page.getByText(/This server does not take new accounts: ask its owner to add you/)).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test("the owner adds a person on the Users screen; their one-time link sets a password and signs them in", async ({
  page,
  browser,
}) => {
  // Signing in at 127.0.0.1 works on a local run without PUBLIC_URL (each loopback spelling is ours).
  await page.goto(`http://127.0.0.1:${port}/login`);
  await page.getByLabel("E-mail", { exact: true }).fill(OWNER.email);
  await page.getByLabel("Password", { exact: true }).fill(OWNER.password);
  await page.getByRole("button", { name: "Sign in locally" }).click();
  await expect(page.getByText("Welcome back!")).toBeVisible({ timeout: 30_000 });

  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Users" }).click();
  await expect(page.getByRole("heading", { name: "Users", level: 2 })).toBeVisible();
  await expect(page.getByRole("row", { name: /Meera Nair/ })).toContainText("Owner");
  await page.getByLabel("Name", { exact: true }).fill("Ravi Shankar");
  await page.getByLabel("E-mail", { exact: true }).fill("ravi@elsewhere.example");
  await page.getByRole("button", { name: "Add and make a link" }).click();
  await expect(page.getByRole("heading", { name: "Send this link to Ravi Shankar" })).toBeVisible();
  const link = await page.getByLabel("One-time link").inputValue();
  expect(link).toMatch(new RegExp(`^http://localhost:${port}/set-password/[\\w-]+$`));
  await expect(page.getByRole("row", { name: /Ravi Shankar/ })).toContainText("Not signed in yet");

  const invitee = await browser.newContext();
  const other = await invitee.newPage();
  await other.goto(link);
  await expect(other.getByRole("heading", { name: "Set your password" })).toBeVisible();
  await expect(
    other.getByText(/Ravi Shankar, this sets the password of your .* account, ravi@elsewhere\.example/),
  ).toBeVisible();
  await other.getByLabel("Password", { exact: true }).fill("ravi-long-passphrase-31");
  await other.getByRole("button", { name: "Set password and sign in" }).click();
  await expect(other.getByText("Welcome back!")).toBeVisible({ timeout: 30_000 });
  await expect(other.getByTestId("welcome")).toHaveText("Welcome, Ravi Shankar!");
  // Not the owner: no Users screen for them.
  await other.getByRole("button", { name: "Account menu" }).click();
  await expect(other.getByRole("menuitem", { name: "Users" })).toHaveCount(0);
  // The link was for one use.
  await other.goto(link);
  await expect(other.getByRole("heading", { name: "This link no longer works" })).toBeVisible();
  await invitee.close();
});
