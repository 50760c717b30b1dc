// `crm seed --campaigns`, `crm campaigns …` and `crm deliveries replay` as an admin runs them.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./run-cli";

const dataDir = mkdtempSync(path.join(tmpdir(), "crm-cli-campaigns-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const crm = (...argv: string[]) =>
  runCli(dataDir, argv, { env: { SESSION_SECRET: "cli-campaigns-secret-long-enough-for-hs256" } });

describe("crm campaigns", { timeout: 120_000 }, () => {
  it("seeds a history of campaigns, lists them, shows one, steers one and replays its failures", async () => {
    expect((await crm("users", "create", "--email", "ops@example.com", "--name", "Ops")).code).toBe(0);
    const seeded = await crm(
      "seed",
      "--user",
      "ops@example.com",
      "--customers",
      "400",
      "--campaigns",
      "3",
      "--seed",
      "9",
    );
    expect(seeded.code, seeded.stderr).toBe(0);
    expect(seeded.stdout).toMatch(
      /Seeded 400 customers and 0 orders, 3 campaigns with [\d,]+ deliveries for ops@example.com/,
    );

    const db = new Database(path.join(dataDir, "crm.db"), { readonly: true });
    const rows = db
      .prepare(
        `SELECT "id", "audienceSize", "pendingCount", "sentCount", "deliveredCount", "failedCount", "bouncedCount", "status" FROM "Campaign" ORDER BY "createdAt"`,
      )
      .all() as {
      id: string;
      audienceSize: number;
      pendingCount: number;
      sentCount: number;
      deliveredCount: number;
      failedCount: number;
      bouncedCount: number;
      status: string;
    }[];
    expect(rows).toHaveLength(3);
    for (const r of rows) {
      expect(r.status).toBe("Completed");
      expect(r.audienceSize).toBeGreaterThan(0);
      expect(r.pendingCount + r.sentCount + r.deliveredCount + r.failedCount + r.bouncedCount).toBe(r.audienceSize);
      expect(r.deliveredCount / r.audienceSize).toBeGreaterThan(0.7);
      expect(db.prepare(`SELECT count(*) FROM "Delivery" WHERE "campaignId" = ?`).pluck().get(r.id)).toBe(
        r.audienceSize,
      );
    }
    db.close();

    const list = await crm("campaigns", "list", "--user", "ops@example.com");
    expect(list.code).toBe(0);
    expect(list.stdout.trim().split("\n")).toHaveLength(3);
    const newest = rows[2];
    expect(list.stdout.split("\n")[0]).toContain(newest.id);

    const status = await crm("campaigns", "status", newest.id);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain("Status: Completed");
    expect(status.stdout).toContain(`delivered ${newest.deliveredCount}, failed ${newest.failedCount}`);

    const pause = await crm("campaigns", "pause", newest.id);
    expect(pause.code).toBe(1);
    expect(pause.stderr).toContain("Only a sending campaign can be paused; this one is completed.");

    const dry = await crm("deliveries", "replay", newest.id, "--dry-run");
    expect(dry.stdout).toContain(`Would send ${newest.failedCount} failed deliveries`);
    const replay = await crm("deliveries", "replay", newest.id, "--status", "failed");
    expect(replay.code).toBe(0);
    expect(replay.stdout).toContain(`Queued ${newest.failedCount} failed deliveries`);
    const after = new Database(path.join(dataDir, "crm.db"), { readonly: true });
    expect(
      after.prepare(`SELECT "status", "pendingCount", "failedCount" FROM "Campaign" WHERE "id" = ?`).get(newest.id),
    ).toEqual({ status: "Active", pendingCount: newest.failedCount, failedCount: 0 });
    after.close();
    expect((await crm("campaigns", "pause", newest.id)).stdout).toContain("Campaign paused");
    expect((await crm("campaigns", "resume", newest.id)).stdout).toContain("Campaign resumed");
    expect((await crm("campaigns", "cancel", newest.id)).stdout).toContain("is now Cancelled");
    const unschedule = await crm("campaigns", "unschedule", newest.id);
    expect(unschedule.code).toBe(1);
    expect(unschedule.stderr).toContain("This campaign is not scheduled: there is no schedule to cancel.");

    const bad = await crm("campaigns", "status", "nope");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("The campaign id is 24 hexadecimal characters");
    const badStatus = await crm("deliveries", "replay", newest.id, "--status", "opened");
    expect(badStatus.stderr).toContain("--status must be failed, bounced or sent");
  });

  it("exports a campaign's recipients, openers, bouncers… as CSV, the rows its figures count, with --bom for Excel", async () => {
    const db = new Database(path.join(dataDir, "crm.db"), { readonly: true });
    const c = db
      .prepare(
        `SELECT "id", "sentCount" + "deliveredCount" + "bouncedCount" + "complainedCount" AS "sent", "bouncedCount", "openedCount"
         FROM "Campaign" WHERE "status" = 'Completed' ORDER BY "createdAt" LIMIT 1`,
      )
      .get() as { id: string; sent: number; bouncedCount: number; openedCount: number };
    const bounced = db
      .prepare(`SELECT "email" FROM "Delivery" WHERE "campaignId" = ? AND "status" = 'bounced' ORDER BY "seq"`)
      .pluck()
      .all(c.id) as string[];
    db.close();
    expect(bounced.length).toBeGreaterThan(0);

    const out = path.join(dataDir, "bouncers.csv");
    const bouncers = await crm("campaigns", "export", c.id, "--who", "bouncers", "--out", out);
    expect(bouncers.code, bouncers.stderr).toBe(0);
    const lines = readFileSync(out, "utf8").trim().split("\n");
    expect(lines[0]).toBe("email,name,phone,customer_id,status,opened_at,clicked_at,details");
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(bounced);

    const recipients = await crm("campaigns", "export", c.id, "--who", "recipients");
    expect(recipients.code, recipients.stderr).toBe(0);
    expect(recipients.stdout.trim().split("\n")).toHaveLength(c.sent + 1);
    const openers = await crm("campaigns", "export", c.id, "--who", "openers");
    expect(openers.stdout.trim().split("\n")).toHaveLength(c.openedCount + 1);

    const forExcel = path.join(dataDir, "bouncers-bom.csv");
    expect((await crm("campaigns", "export", c.id, "--who", "bouncers", "--out", forExcel, "--bom")).code).toBe(0);
    const bytes = readFileSync(forExcel);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString("utf8")).toBe(readFileSync(out, "utf8"));

    const badWho = await crm("campaigns", "export", c.id, "--who", "everyone");
    expect(badWho.code).toBe(1);
    expect(badWho.stderr).toContain("--who must be recipients, openers, clickers, bouncers or unsubscribers");
  });
});
