// The `crm` program as an admin runs it (compiled, see cli/run-cli.ts) against a temporary data
// directory.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import argon2 from "argon2";
import { parse } from "csv-parse/sync";
import Database from "better-sqlite3";
import { jwtVerify } from "jose";
import { afterAll, describe, expect, it } from "vitest";
import { PASSWORD_GUESSABLE, PASSWORD_PERSONAL } from "../app/services/passwords.server";
import { runCli } from "./run-cli";

const scratch = mkdtempSync(path.join(tmpdir(), "crm-cli-test-"));
const SECRET = "cli-test-secret-that-is-long-enough-for-hs256";
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A `crm` bound to its own data directory, so that tests can run side by side. */
function cliIn(name: string) {
  const dataDir = path.join(scratch, name);
  return (...argv: string[]) => run(dataDir, argv);
}

/** Standard input is a pipe, never a terminal: `input` is what a script would pipe in. */
function run(dataDir: string, argv: string[], input = "") {
  return runCli(dataDir, argv, { input, env: { SESSION_SECRET: SECRET } });
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

    const [json, token] = await Promise.all([
      crm("users", "list", "--json"),
      crm("users", "token", email, "--hours", "2"),
    ]);
    const listed = JSON.parse(json.stdout) as { id: string; email: string; name: string; provider: string }[];
    const unknown = await crm("users", "token", "nobody@example.com");
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain("No user with e-mail nobody@example.com");
    expect(listed).toContainEqual(
      expect.objectContaining({ id: id![1], email: email.toLowerCase(), name: "Asha Admin", provider: "local" }),
    );

    expect(token.code, token.stderr).toBe(0);
    const jwt = token.stdout.trim();
    expect(jwt.split(".")).toHaveLength(3);
    const { payload } = await jwtVerify(jwt, new TextEncoder().encode(SECRET));
    expect(payload.id).toBe(id![1]);
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(2 * 3600);
  });

  it("users create --password and users set-password read the password from stdin, hash it with argon2id and check it", async () => {
    const dataDir = path.join(scratch, "passwords");
    const crm = (input: string, ...argv: string[]) => run(dataDir, argv, input);
    const email = `pw.${Date.now()}@example.com`;
    const stored = () => {
      const sqlite = new Database(path.join(dataDir, "crm.db"), { readonly: true });
      try {
        return sqlite.prepare(`SELECT "passwordHash", "sessionVersion" FROM "User" WHERE "email" = ?`).get(email) as
          { passwordHash: string | null; sessionVersion: number } | undefined;
      } finally {
        sqlite.close();
      }
    };

    // A keyboard walk the former 1996–2011 list let through; the estimator refuses it.
    const common = await crm("1q2w3e4r5t\n", "users", "create", "--email", email, "--name", "Pass Word", "--password");
    expect(common.code).not.toBe(0);
    expect(common.stderr).toContain(`Password refused: ${PASSWORD_GUESSABLE}`);
    // The account's own name and e-mail address are known words.
    const named = "kavya.iyer@example.com";
    const personal = await crm(
      "kavya.iyer1988\n",
      "users",
      "create",
      "--email",
      named,
      "--name",
      "Kavya Iyer",
      "--password",
    );
    expect(personal.code).not.toBe(0);
    expect(personal.stderr).toContain(`Password refused: ${PASSWORD_PERSONAL}`);
    const short = await crm("short\n", "users", "create", "--email", email, "--name", "Pass Word", "--password");
    expect(short.stderr).toContain("Password refused: Use at least 10 characters");

    const created = await crm(
      "first long passphrase\n",
      "users",
      "create",
      "--email",
      email,
      "--name",
      "Pass Word",
      "--password",
    );
    expect(created.code, created.stderr).toBe(0);
    // "Created", not "Exists": the refused attempts made no account.
    expect(created.stdout).toMatch(/^Created: [0-9a-f]{24}\s+/m);
    expect(created.stdout).not.toContain("first long passphrase");
    const first = stored()!;
    expect(first.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await argon2.verify(first.passwordHash!, "first long passphrase")).toBe(true);

    const changed = await crm("second long passphrase\n", "users", "set-password", email.toUpperCase());
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stdout).toContain(`Password set for ${email}. Their earlier sessions and tokens no longer work.`);
    const second = stored()!;
    expect(await argon2.verify(second.passwordHash!, "second long passphrase")).toBe(true);
    expect(second.sessionVersion).toBe(first.sessionVersion + 1);

    const unknown = await crm("whatever long one\n", "users", "set-password", "nobody@example.com");
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain("No user with e-mail nobody@example.com");
    const badEmail = await crm("", "users", "set-password", "not-an-email");
    expect(badEmail.stderr).toContain("--email must be an e-mail address");
  });

  it("seed fills a tenant with progress bars; export and import carry it, fields and tags too, to another tenant, bad rows reported", async () => {
    const crm = cliIn("bulk");
    const dir = path.join(scratch, "bulk");
    for (const email of ["seeded@example.com", "copy@example.com"]) {
      const made = await crm("users", "create", "--email", email, "--name", "Bulk Tester");
      expect(made.code, made.stderr).toBe(0);
    }
    // 60,000 customers into an empty table: the bulk path, segment indexes built at the end.
    const seeded = await crm(
      "seed",
      "--user",
      "seeded@example.com",
      "--customers",
      "60000",
      "--orders",
      "300",
      "--fields",
      "3",
      "--tags",
      "4",
      "--seed",
      "5",
    );
    expect(seeded.code, seeded.stderr).toBe(0);
    expect(seeded.stderr).toMatch(/Customers \[.*\] 100% \| 60000\/60000/);
    expect(seeded.stderr).toMatch(/Orders\s+\[.*\] 100% \| 300\/300/);
    expect(seeded.stderr).toMatch(/Indexes\s+\[.*\] 100% \| 1\/1/);
    expect(seeded.stdout).toMatch(/Seeded 60,000 customers and 300 orders for seeded@example.com in [\d.]+ s\./);

    const exported = path.join(dir, "seeded.csv");
    const out = await crm("export", "customers", "--user", "seeded@example.com", "--out", exported);
    expect(out.code, out.stderr).toBe(0);
    const lines = readFileSync(exported, "utf8").trimEnd().split("\n");
    expect(lines[0]).toBe(
      "id,firstName,lastName,email,phone,address,company,notes,totalSpend,visits,lastActive,createdAt," +
        "city,state,country,birthday,time_zone,tier,points,member_since,tags,consent,consentDate,consentSource,consentText",
    );
    expect(lines).toHaveLength(60_001);

    // The copy has none of the seed's own fields: --create-fields makes them (text fields).
    const imported = await crm("import", "customers", exported, "--user", "copy@example.com", "--create-fields");
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain("Building the segment indexes");
    expect(imported.stdout).toMatch(
      /Imported 60,000 of 60,000 rows in [\d.]+ s \(60,000 new, 0 updated, 0 with errors\)\./,
    );
    expect(imported.stdout).toContain("Fields made from new columns: tier, points, member_since.");
    const copy = await crm("export", "customers", "--user", "copy@example.com");
    const copied = copy.stdout.trimEnd().split("\n");
    expect(copied).toHaveLength(60_001);
    expect(copied[0]).toBe(lines[0]);
    // Same people, spends, visits, field values and tags (ids and creation dates are the new
    // tenant's own).
    const people = (text: string) =>
      (parse(text, { from_line: 2 }) as string[][])
        .map((cells) => cells.filter((_, i) => i !== 0 && i !== 11).join(","))
        .sort();
    expect(people(copy.stdout)).toEqual(people(readFileSync(exported, "utf8")));
    const tagsAt = lines[0].split(",").indexOf("tags");
    const tagged = (parse(copy.stdout, { from_line: 2 }) as string[][]).filter((c) =>
      c[tagsAt].split("; ").includes("VIP"),
    );
    expect(tagged.length).toBeGreaterThan(0);

    const small = path.join(dir, "small.csv");
    writeFileSync(
      small,
      "firstName,lastName,email,totalSpend\nAsha,Rao,asha@example.in,1200.50\nRavi,,ravi@example.in,10\nMeera,Iyer,not-an-email,5\n",
    );
    const report = path.join(dir, "errors.csv");
    const partial = await crm("import", "customers", small, "--user", "copy@example.com", "--errors", report);
    expect(partial.code).toBe(2);
    expect(partial.stdout).toMatch(/Imported 1 of 3 rows in [\d.]+ s \(1 new, 0 updated, 2 with errors\)\./);
    expect(partial.stdout).toMatch(/line 3: .*\(ravi@example.in\)/);
    expect(partial.stdout).toMatch(/line 4: .*\(not-an-email\)/);
    const errors = readFileSync(report, "utf8");
    expect(errors.split("\n")[0]).toMatch(/line/i);
    expect(errors).toContain("ravi@example.in");
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
