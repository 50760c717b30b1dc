// `crm dkim generate` and `crm dkim show` as an admin runs them: the key lands in DATA_DIR/dkim
// readable only by this user, and the printed record verifies a message signed with it.
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { dkimVerify } from "mailauth";
import nodemailer from "nodemailer";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./run-cli";

const scratch = mkdtempSync(path.join(tmpdir(), "crm-cli-dkim-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A `crm` bound to its own data directory, so that tests can run side by side. */
function cliIn(name: string) {
  const dataDir = path.join(scratch, name);
  const crm = (...argv: string[]) =>
    runCli(dataDir, argv, { env: { SESSION_SECRET: "cli-dkim-secret-long-enough-for-hs256", MAIL_FROM: "" } });
  return { dataDir, crm };
}

const mode = (file: string) => statSync(file).mode & 0o777;

/** The printed DKIM record: its name, one-line value and the zone-file strings. */
function printedDkim(stdout: string) {
  const name = /^1\. DKIM[^\n]*\n\s+Name:\s+(\S+)$/m.exec(stdout)?.[1];
  const value = /^1\. DKIM(?:.*\n)+?\s+Value:\s+(v=DKIM1; .+)$/m.exec(stdout)?.[1];
  const zone = new RegExp(`^${name?.replace(/\./g, "\\.")}\\. IN TXT \\(\\n((?:  ".*"\\n)+)\\)$`, "m").exec(
    stdout,
  )?.[1];
  const strings = zone ? [...zone.matchAll(/"([^"]*)"/g)].map((m) => m[1]!) : [];
  return { name, value, strings };
}

describe.concurrent("crm dkim", { timeout: 300_000 }, () => {
  it("generate stores a private key in DATA_DIR/dkim and prints the three records; the DKIM record verifies a signed message", async () => {
    const { dataDir, crm } = cliIn("generate");
    const made = await crm("dkim", "generate", "--domain", "Shop.Example.IN", "--selector", "news1");
    expect(made.code, made.stderr).toBe(0);
    const file = path.join(dataDir, "dkim", "shop.example.in.json");
    expect(made.stdout).toContain(`Made a DKIM key for shop.example.in (selector news1), stored in ${file}`);
    expect(mode(path.join(dataDir, "dkim"))).toBe(0o700);
    expect(mode(file)).toBe(0o600);

    const dkim = printedDkim(made.stdout);
    expect(dkim.name).toBe("news1._domainkey.shop.example.in");
    expect(dkim.value).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/]+=*$/);
    expect(dkim.strings.length).toBeGreaterThan(1);
    expect(dkim.strings.every((s) => s.length <= 255)).toBe(true);
    expect(dkim.strings.join("")).toBe(dkim.value);
    expect(made.stdout).toMatch(/Name:\s+shop\.example\.in\n\s+Type:\s+TXT\n\s+Value:\s+v=spf1 include:\S+ ~all/);
    expect(made.stdout).toMatch(/Replace \S+ with the domain your SMTP relay/);
    expect(made.stdout).toMatch(
      /Name:\s+_dmarc\.shop\.example\.in\n\s+Type:\s+TXT\n\s+Value:\s+v=DMARC1; p=none; rua=mailto:dmarc@shop\.example\.in/,
    );

    // The key the file holds signs; the record as printed verifies it, and nothing else does.
    const stored = JSON.parse(readFileSync(file, "utf8")) as { privateKey: string };
    const transport = nodemailer.createTransport({
      streamTransport: true,
      buffer: true,
      dkim: { domainName: "shop.example.in", keySelector: "news1", privateKey: stored.privateKey },
    });
    const info = await transport.sendMail({
      from: "news@shop.example.in",
      to: "asha@example.net",
      subject: "Hello",
      text: "Our sale starts today.",
    });
    const message = info.message as Buffer;
    const resolver = async (name: string): Promise<string[][]> => {
      if (name !== dkim.name) throw Object.assign(new Error(`ENOTFOUND ${name}`), { code: "ENOTFOUND" });
      return [dkim.strings];
    };
    const good = await dkimVerify(message, { resolver });
    expect(good.results[0]?.status.result, good.results[0]?.info).toBe("pass");
    const tampered = Buffer.from(message.toString("utf8").replace("starts today", "starts never"));
    expect((await dkimVerify(tampered, { resolver })).results[0]?.status.result).not.toBe("pass");

    const shown = await crm("dkim", "show", "--domain", "shop.example.in.");
    expect(shown.code, shown.stderr).toBe(0);
    expect(printedDkim(shown.stdout)).toEqual(dkim);
  });

  it("generate refuses to replace a key without --force, says why, and keeps the key; --force replaces it", async () => {
    const { dataDir, crm } = cliIn("twice");
    const first = await crm("dkim", "generate", "--domain", "example.org");
    expect(first.code, first.stderr).toBe(0);
    const selector = /\(selector (crm\d{6})\)/.exec(first.stdout)?.[1];
    expect(selector).toBeDefined();
    const file = path.join(dataDir, "dkim", "example.org.json");
    const before = readFileSync(file, "utf8");

    const again = await crm("dkim", "generate", "--domain", "example.org");
    expect(again.code).toBe(1);
    expect(again.stdout).toBe("");
    expect(again.stderr).toMatch(
      /^Error: example\.org already has a DKIM key \(selector crm\d{6}, made .*\); it was kept\./,
    );
    expect(again.stderr).toContain("breaks DKIM for mail already on its way");
    expect(again.stderr).toContain("--force");
    expect(readFileSync(file, "utf8")).toBe(before);

    const forced = await crm("dkim", "generate", "--domain", "example.org", "--selector", "rotated", "--force");
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain(`It replaced the key with selector ${selector}`);
    expect(forced.stdout).toContain(`keep the record of ${selector} for a few days`);
    expect(printedDkim(forced.stdout).name).toBe("rotated._domainkey.example.org");
    expect(readFileSync(file, "utf8")).not.toBe(before);
    expect(mode(file)).toBe(0o600);
  });

  it("bad names are clear messages with a non-zero exit, and nothing is written", async () => {
    const { dataDir, crm } = cliIn("bad");
    const [slash, selector, missing, show] = await Promise.all([
      crm("dkim", "generate", "--domain", "../../etc/passwd"),
      crm("dkim", "generate", "--domain", "example.com", "--selector", "my_selector"),
      crm("dkim", "generate"),
      crm("dkim", "show", "--domain", "example.com"),
    ]);
    expect(slash.code).toBe(1);
    expect(slash.stderr).toMatch(/^Error: --domain: "\.\.\/\.\.\/etc\/passwd" is not a domain name \(.+\)/);
    expect(slash.stderr).toContain("like example.com");
    expect(selector.code).toBe(1);
    expect(selector.stderr).toMatch(/^Error: --selector: "my_selector" is not a DKIM selector/);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("required option '--domain <domain>' not specified");
    expect(show.code).toBe(1);
    expect(show.stderr).toMatch(
      /No DKIM key for example\.com .*Make one with: crm dkim generate --domain example\.com/,
    );
    expect(() => statSync(path.join(dataDir, "dkim", "example.com.json"))).toThrow(/ENOENT/);
  });
});
