// The public unsubscribe page (/u/TOKEN) in Chromium, as a recipient opens it from an e-mail: no
// sign-in, a small card naming the sender and the masked address; Unsubscribe, then Resubscribe,
// with JavaScript off (plain HTML forms) and on (Remix's forms). The suppression list in the
// server's database follows each click.
//
// A link is sealed with the server's secret, so this file starts its own production server (as
// delivery-crash.spec.ts does) with an environment it knows, and makes the links with the app's own
// unsubscribeUrl() in a child process given that environment.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Page, expect, test } from "@playwright/test";
import Database from "better-sqlite3";
import { newId } from "../../app/lib/id.ts";
import { freePort, productionServerEnv, repoRoot as root, serverCommand } from "../helpers/production-server.ts";

const SENDER = "Asha Traders";
const TENANT_EMAIL = "asha.traders@example.com";
const tsx = path.join(path.dirname(createRequire(import.meta.url).resolve("tsx/package.json")), "dist/cli.mjs");

test.describe("the unsubscribe page", () => {
  // One server for the three tests (each its own address), in one worker: fully parallel, each
  // test would start a server of its own through beforeAll.
  test.describe.configure({ mode: "default" });
  test.setTimeout(120_000);
  let dataDir = "";
  let base = "";
  let env: NodeJS.ProcessEnv = { ...process.env };
  let server: ChildProcess | undefined;
  let userId = "";

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    dataDir = mkdtempSync(path.join(tmpdir(), "crm-e2e-unsubscribe-"));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = productionServerEnv({ port, publicUrl: base, dataDir });
    execFileSync(
      process.execPath,
      [path.join(root, "bin/crm.mjs"), "users", "create", "--email", TENANT_EMAIL, "--name", SENDER],
      { cwd: root, env },
    );
    const db = new Database(path.join(dataDir, "crm.db"), { readonly: true });
    userId = String(db.prepare(`SELECT "id" FROM "User" WHERE "email" = ?`).pluck().get(TENANT_EMAIL));
    db.close();
    server = spawn(serverCommand.file, serverCommand.args, { cwd: root, env, stdio: "ignore" });
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/healthz`)).ok) break;
      } catch {
        /* not up yet */
      }
      if (i > 600) throw new Error("the server did not start");
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  test.afterAll(async () => {
    if (server && server.exitCode === null) {
      server.kill("SIGTERM");
      await new Promise((resolve) => server?.once("exit", resolve));
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** The link the message to `email` carried, made by the app's unsubscribeUrl() with the server's secret. */
  function linkFor(email: string): string {
    const script = `import { unsubscribeUrl } from "./app/services/unsubscribe-token.server.ts";
      process.stdout.write(unsubscribeUrl({ userId: process.env.E2E_USER_ID ?? "", campaignId: process.env.E2E_CAMPAIGN_ID ?? "", email: process.env.E2E_EMAIL ?? "" }));`;
    return execFileSync(process.execPath, [tsx, "--eval", script], {
      cwd: root,
      env: { ...env, E2E_USER_ID: userId, E2E_CAMPAIGN_ID: newId(), E2E_EMAIL: email },
    }).toString();
  }

  /** The reason the address is on the tenant's suppression list, or null. */
  function suppression(email: string): string | null {
    const db = new Database(path.join(dataDir, "crm.db"), { readonly: true });
    try {
      const reason = db
        .prepare(`SELECT "reason" FROM "Suppression" WHERE "userId" = ? AND "email" = ?`)
        .pluck()
        .get(userId, email);
      return typeof reason === "string" ? reason : null;
    } finally {
      db.close();
    }
  }

  /** Opens the link, unsubscribes, resubscribes; the page and the list agree at each step. */
  async function unsubscribeAndBack(page: Page, email: string, masked: string) {
    const link = linkFor(email);
    expect(link.startsWith(`${base}/u/`)).toBe(true);
    await page.goto(link);
    await expect(page.getByRole("heading", { name: `Unsubscribe from ${SENDER}?` })).toBeVisible();
    await expect(page.getByText(masked)).toBeVisible();
    await expect(page.getByText(email)).toHaveCount(0);
    // No app shell: the page is the card alone.
    await expect(page.getByRole("navigation")).toHaveCount(0);
    expect(suppression(email)).toBeNull();

    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(page.getByRole("heading", { name: "You are unsubscribed" })).toBeVisible();
    await expect(page.getByText(`You will not get more e-mail from ${SENDER} at ${masked}.`)).toBeVisible();
    expect(suppression(email)).toBe("unsubscribed");

    // Opened again later, the link shows where the address stands.
    await page.goto(link);
    await expect(page.getByRole("heading", { name: "You are unsubscribed" })).toBeVisible();

    await page.getByRole("button", { name: "Resubscribe" }).click();
    await expect(page.getByRole("heading", { name: "You are subscribed again" })).toBeVisible();
    await expect(page.getByText(`${SENDER} can send e-mail to ${masked} again.`)).toBeVisible();
    expect(suppression(email)).toBeNull();
    await expect(page.getByRole("button", { name: "Unsubscribe" })).toBeVisible();
  }

  test("works with JavaScript off: plain HTML forms", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await unsubscribeAndBack(page, "ravi.kumar@example.com", "r•••@example.com");
    } finally {
      await context.close();
    }
  });

  test("works with JavaScript on", async ({ page }) => {
    await unsubscribeAndBack(page, "meera@example.in", "m•••@example.in");
  });

  test("a link with one character changed is 'not valid' and changes nothing", async ({ page }) => {
    const email = "altered@example.com";
    const link = linkFor(email);
    const last = link.at(-1) === "A" ? "B" : "A";
    const response = await page.goto(`${link.slice(0, -1)}${last}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Link not valid" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Unsubscribe" })).toHaveCount(0);
    expect(suppression(email)).toBeNull();
  });
});
