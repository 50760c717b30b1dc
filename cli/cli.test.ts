// The `crm` program as an admin runs it: node bin/crm.mjs … against a temporary data directory.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { jwtVerify } from "jose";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const scratch = mkdtempSync(path.join(tmpdir(), "crm-cli-test-"));
const SECRET = "cli-test-secret-that-is-long-enough-for-hs256";
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Run = { code: number | null; stdout: string; stderr: string };

/** A `crm` bound to its own data directory, so that tests can run side by side. */
function cliIn(name: string) {
  const dataDir = path.join(scratch, name);
  return (...argv: string[]) => run(dataDir, argv);
}

function run(dataDir: string, argv: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, "bin/crm.mjs"), ...argv], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", SESSION_SECRET: SECRET, NODE_ENV: "development" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe.concurrent("crm", { timeout: 120_000 }, () => {
  it("--help lists the command groups; each command has its own help", async () => {
    const crm = cliIn("help");
    const [top, create] = await Promise.all([crm("--help"), crm("users", "create", "--help")]);
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/Usage: crm/);
    expect(top.stdout).toMatch(/db\s/);
    expect(top.stdout).toMatch(/users\s/);
    expect(create.stdout).toContain("--email <email>");
    expect(create.stdout).toContain("--name <name>");
  });

  it("db migrate applies the migrations once, then reports the database up to date", async () => {
    const crm = cliIn("migrate");
    const first = await crm("db", "migrate");
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/Applied \d+ of \d+ migrations to .*crm\.db\./);
    const second = await crm("db", "migrate");
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/crm\.db is up to date \(\d+ migrations\)\./);
  });

  it("users create, list and token work together; the token is a valid bearer for that user", async () => {
    const crm = cliIn("users");
    const email = `Admin.${Date.now()}@Example.com`;
    const created = await crm("users", "create", "--email", email, "--name", "Asha Admin");
    expect(created.code, created.stderr).toBe(0);
    const id = /^Created: ([0-9a-f]{24})\s+(\S+)\s+Asha Admin$/m.exec(created.stdout);
    expect(id, created.stdout).not.toBeNull();
    expect(id![2]).toBe(email.toLowerCase());

    const again = await crm("users", "create", "--email", email.toLowerCase(), "--name", "Other Name");
    expect(again.stdout).toMatch(new RegExp(`^Exists: ${id![1]}`, "m"));

    const [json, token] = await Promise.all([crm("users", "list", "--json"), crm("users", "token", email, "--hours", "2")]);
    const listed = JSON.parse(json.stdout) as { id: string; email: string; name: string; provider: string }[];
    const unknown = await crm("users", "token", "nobody@example.com");
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain("No user with e-mail nobody@example.com");
    expect(listed).toContainEqual(expect.objectContaining({ id: id![1], email: email.toLowerCase(), name: "Asha Admin", provider: "local" }));

    expect(token.code, token.stderr).toBe(0);
    const jwt = token.stdout.trim();
    expect(jwt.split(".")).toHaveLength(3);
    const { payload } = await jwtVerify(jwt, new TextEncoder().encode(SECRET));
    expect(payload.id).toBe(id![1]);
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(2 * 3600);
  });

  it("refuses bad arguments with a clear message and a non-zero exit", async () => {
    const crm = cliIn("errors");
    const [badEmail, missingName, unknownUser] = await Promise.all([
      crm("users", "create", "--email", "not-an-email", "--name", "X"),
      crm("users", "create", "--email", "a@example.com"),
      crm("users", "token", "nobody@example.com", "--hours", "soon"),
    ]);
    expect(badEmail.code).not.toBe(0);
    expect(badEmail.stderr).toContain("--email must be an e-mail address like ops@example.com");
    expect(missingName.code).not.toBe(0);
    expect(missingName.stderr).toMatch(/required option '--name <name>' not specified/);
    // Arguments are checked before the database is looked at.
    expect(unknownUser.code).not.toBe(0);
    expect(unknownUser.stderr).toContain("--hours must be a number of hours");
  });
});
