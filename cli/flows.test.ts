// `crm flows list|show|pause|resume` as an admin runs them, on a flow kept in the product's SQLite
// file as the screens keep it (a flow and its first version).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./run-cli";

const dataDir = mkdtempSync(path.join(tmpdir(), "crm-cli-flows-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const crm = (...argv: string[]) =>
  runCli(dataDir, argv, { env: { SESSION_SECRET: "cli-flows-secret-long-enough-for-hs256" } });

const FLOW_ID = "6b0c7a5638aa35aab9548998";
const DEFINITION = {
  trigger: { type: "event", event: "order_placed" },
  steps: [
    { id: "one-day", type: "wait", seconds: 86_400 },
    { id: "thanks", type: "send", templateId: "starter-order-follow-up" },
  ],
  reentry: "never",
};

describe("crm flows", { timeout: 120_000 }, () => {
  it("lists a user's flows, shows one with its steps, pauses and resumes it, and refuses a bad id", async () => {
    expect((await crm("users", "create", "--email", "flows@example.com", "--name", "Flows")).code).toBe(0);
    expect((await crm("flows", "list", "--user", "flows@example.com")).stdout).toContain(
      "flows@example.com has no flows yet.",
    );
    const db = new Database(path.join(dataDir, "crm.db"));
    const userId = db.prepare(`SELECT "id" FROM "User" WHERE "email" = ?`).pluck().get("flows@example.com");
    const now = Date.now();
    db.prepare(
      `INSERT INTO "Flow" ("id", "userId", "name", "status", "version", "createdAt", "updatedAt") VALUES (?, ?, 'Thank you', 'live', 1, ?, ?)`,
    ).run(FLOW_ID, userId, now, now);
    db.prepare(`INSERT INTO "FlowVersion" ("flowId", "version", "definition", "createdAt") VALUES (?, 1, ?, ?)`).run(
      FLOW_ID,
      JSON.stringify(DEFINITION),
      now,
    );
    db.close();

    const list = await crm("flows", "list", "--user", "flows@example.com");
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(
      new RegExp(`${FLOW_ID}\\s+live\\s+in\\s+0\\s+done\\s+0\\s+goal\\s+0\\s+₹0.00\\s+Thank you`),
    );

    const show = await crm("flows", "show", FLOW_ID);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain("Thank you (live, version 1): starts on order_placed");
    expect(show.stdout).toContain(" 1. one-day (wait): entered 0, here now 0, converted 0 (₹0.00)");
    expect(show.stdout).toContain(" 2. thanks (send): entered 0, here now 0, sent 0, opened 0, clicked 0");

    const paused = await crm("flows", "pause", FLOW_ID);
    expect(paused.stdout).toContain("Paused: Thank you is now paused.");
    const resumed = await crm("flows", "resume", FLOW_ID);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain("Resumed: Thank you is now live.");

    const bad = await crm("flows", "show", "nope");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("The flow id is 24 hexadecimal characters");
    const missing = await crm("flows", "pause", "0".repeat(24));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`No flow ${"0".repeat(24)}. List them with: crm flows list --user EMAIL`);
  });
});
