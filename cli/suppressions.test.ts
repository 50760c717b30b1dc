// `crm suppressions …`, `crm import suppressions` and `crm export suppressions` as an admin runs them:
// the compiled CLI (cli/run-cli.ts) against a temporary data directory, checked against the database it wrote.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./run-cli";

const scratch = mkdtempSync(path.join(tmpdir(), "crm-suppressions-cli-"));
const SECRET = "cli-test-secret-that-is-long-enough-for-hs256";
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function run(dataDir: string, argv: string[]) {
  return runCli(dataDir, argv, { env: { SESSION_SECRET: SECRET } });
}

const dataDir = path.join(scratch, "data");
const crm = (...argv: string[]) => run(dataDir, argv);
const OPS = "ops@example.com";
const OTHER = "other@example.com";

/** The tenant's suppressed addresses as the database holds them, by address. */
function listed(ownerEmail: string): { email: string; reason: string; campaignName: string }[] {
  const db = new Database(path.join(dataDir, "crm.db"), { readonly: true });
  try {
    return db
      .prepare(
        `SELECT s."email", s."reason", s."campaignName" FROM "Suppression" s JOIN "User" u ON u."id" = s."userId"
         WHERE u."email" = ? ORDER BY s."email"`,
      )
      .all(ownerEmail) as { email: string; reason: string; campaignName: string }[];
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  for (const email of [OPS, OTHER]) {
    const created = await crm("users", "create", "--email", email, "--name", "Ops");
    expect(created.code, created.stderr).toBe(0);
  }
}, 120_000);

describe("crm suppressions", { timeout: 300_000 }, () => {
  it("add, list, remove: addresses normalised, bad ones named, another tenant untouched", async () => {
    const added = await crm("suppressions", "add", " Asha@Example.com", "ravi@example.com", "--user", OPS);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/Added 2 addresses to the suppression list\./);
    const again = await crm("suppressions", "add", "ravi@example.com", "--user", OPS);
    expect(again.stdout).toMatch(/Added 0 addresses to the suppression list; 1 was on it already\./);

    const bad = await crm("suppressions", "add", "ok@example.com", "not-an-address", "--user", OPS);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('"not-an-address" is not a valid email address');
    expect(listed(OPS).map((s) => s.email)).toEqual(["asha@example.com", "ravi@example.com"]);

    await crm("suppressions", "add", "theirs@example.com", "--user", OTHER);
    const list = await crm("suppressions", "list", "--user", OPS, "--q", "ASHA");
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^asha@example\.com\s+Added by hand\s+\d{4}-\d\d-\d\d$/m);
    expect(list.stdout).not.toContain("ravi@");
    expect(list.stdout).toContain("1–1 of 1 (page 1 of 1)");
    const json = await crm("suppressions", "list", "--user", OPS, "--json", "--page-size", "1", "--page", "2");
    const page = JSON.parse(json.stdout) as { items: { email: string }[]; total: number; page: number };
    expect(page).toMatchObject({ total: 2, page: 2 });
    expect(page.items).toHaveLength(1);
    expect((await crm("suppressions", "list", "--user", OPS, "--page-size", "5000")).stderr).toContain(
      "--page-size must be at most 1000",
    );

    const notOurs = await crm("suppressions", "remove", "theirs@example.com", "--user", OPS);
    expect(notOurs.code).toBe(1);
    expect(notOurs.stderr).toContain(`theirs@example.com is not on the suppression list of ${OPS}`);
    expect(listed(OTHER).map((s) => s.email)).toEqual(["theirs@example.com"]);
    const removed = await crm("suppressions", "remove", "RAVI@example.com", "--user", OPS);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain("Removed ravi@example.com from the suppression list.");
    expect(listed(OPS).map((s) => s.email)).toEqual(["asha@example.com"]);
    expect((await crm("suppressions", "remove", "nope", "--user", OPS)).stderr).toContain(
      "Enter a valid email address",
    );
    const unknownUser = await crm("suppressions", "list", "--user", "nobody@example.com");
    expect(unknownUser.code).toBe(1);
    expect(unknownUser.stderr).toContain("No user with e-mail nobody@example.com");
  });

  it("import reads a Mailchimp export, reports bad rows by line (exit 2), and export writes them back", async () => {
    const file = path.join(scratch, "mailchimp.csv");
    writeFileSync(
      file,
      [
        "Email Address,First Name,Reason,Campaign",
        "meena@example.com,Meena,cleaned,Spring sale",
        "broken-address,Bad,,",
        "asha@example.com,Asha,,",
        "MEENA@example.com,Meena again,,",
      ].join("\n"),
    );
    const errors = path.join(scratch, "errors.csv");
    const imported = await crm("import", "suppressions", file, "--user", OTHER, "--errors", errors);
    expect(imported.code, imported.stderr).toBe(2);
    expect(imported.stdout).toMatch(
      /Read 4 rows in [\d.]+ s: 2 added, 0 already suppressed, 1 repeated in the file, 1 not valid\./,
    );
    expect(imported.stdout).toContain("line 3: Enter a valid email address (broken-address)");
    expect(readFileSync(errors, "utf8")).toBe("line,email,reason\n3,broken-address,Enter a valid email address\n");
    expect(listed(OTHER)).toEqual([
      { email: "asha@example.com", reason: "manual", campaignName: "" },
      { email: "meena@example.com", reason: "hard-bounced", campaignName: "Spring sale" },
      { email: "theirs@example.com", reason: "manual", campaignName: "" },
    ]);

    const out = path.join(scratch, "export.csv");
    const exported = await crm("export", "suppressions", "--user", OTHER, "--out", out);
    expect(exported.code, exported.stderr).toBe(0);
    const lines = readFileSync(out, "utf8").trim().split("\n");
    expect(lines[0]).toBe("email,reason,campaign,created_at");
    expect(lines.slice(1).map((l) => l.split(",").slice(0, 3).join(","))).toEqual([
      "asha@example.com,manual,",
      "meena@example.com,hard-bounced,Spring sale",
      "theirs@example.com,manual,",
    ]);
    const stdout = await crm("export", "suppressions", "--user", OTHER);
    expect(stdout.stdout.trim().split("\n")).toHaveLength(4);
    expect(readFileSync(out)[0]).not.toBe(0xef);

    // --bom: the same file after a UTF-8 byte order mark (for Excel on Windows).
    const forExcel = path.join(scratch, "export-bom.csv");
    const withBom = await crm("export", "suppressions", "--user", OTHER, "--out", forExcel, "--bom");
    expect(withBom.code, withBom.stderr).toBe(0);
    const bytes = readFileSync(forExcel);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString("utf8")).toBe(readFileSync(out, "utf8"));

    const refused = path.join(scratch, "no-email.csv");
    writeFileSync(refused, "name\nAsha\n");
    const noColumn = await crm("import", "suppressions", refused, "--user", OTHER);
    expect(noColumn.code).toBe(1);
    expect(noColumn.stderr).toContain("The file has no email column");
    const missing = await crm("import", "suppressions", path.join(scratch, "absent.csv"), "--user", OTHER);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no such file");
  });

  it("imports 100,000 addresses in seconds", async () => {
    const file = path.join(scratch, "large.csv");
    const lines = ["email"];
    for (let i = 0; i < 100_000; i++) lines.push(`subscriber${i}@example${i % 50}.in`);
    writeFileSync(file, lines.join("\n"));
    const big = "big@example.com";
    expect((await crm("users", "create", "--email", big, "--name", "Big")).code).toBe(0);
    const imported = await crm("import", "suppressions", file, "--user", big);
    expect(imported.code, imported.stderr).toBe(0);
    const seconds = Number(/Read 1,00,000 rows in ([\d.]+) s: 1,00,000 added/.exec(imported.stdout)?.[1]);
    expect(seconds, imported.stdout).toBeLessThan(30);
    expect(imported.stderr).toMatch(/Saving .*100000\/100000 addresses/);
    expect(listed(big)).toHaveLength(100_000);
  });
});
